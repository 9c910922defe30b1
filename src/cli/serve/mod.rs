//! `cabra serve`: play and analyze Caminos in the browser.
//!
//! A local web server (axum on tokio) serves one page, embedded in the
//! binary, and a small JSON API (docs/API.md):
//!
//! - [`conn`]: the connections: a cap that closes only quiet ones, timeouts,
//!   JSON for what HTTP itself cannot read;
//! - [`activity`]: what a connection is doing, so that only quiet ones are
//!   closed for others;
//! - [`wire`]: beneath hyper: hyper's own answers in JSON, closes that keep
//!   the last answer;
//! - [`guard`]: Host/Origin checks, the token, the body cap, JSON errors;
//! - [`store`]: the games, one per tab, capped and expired when idle;
//! - [`api`]: the game's requests (place, undo, files, views);
//! - [`state`]: the JSON of a game and of an aimed placement;
//! - [`jobs`]: engine searches and analyses on blocking threads, limited
//!   to the configured threads, with their live events;
//! - [`assets`]: the page's files.
//!
//! The server never reads or writes its own disk for a page: files come in
//! as request bodies and go out as downloads.

pub mod activity;
pub mod api;
pub mod assets;
pub mod coach;
pub mod conn;
pub mod guard;
pub mod jobs;
pub mod ponder;
pub mod state;
pub mod store;
pub mod wire;

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::{get, post};
use cabra::engine::{EngineConfig, EngineHandle, TreeMemory, parse_duration};
use cabra::engine::{format_bytes, parse_bytes};
use cabra::game::Rules;
use tokio::sync::Semaphore;

use super::options::{EngineOptions, RulesOptions};
use crate::cli::defaults;
use guard::ApiError;
use store::Store;

/// A game whose engine has not searched for this long gives its tree
/// back (its results and analysis stay).
pub const TREE_IDLE: Duration = Duration::from_secs(60);

/// Arguments of `cabra serve`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Prints the address to open (http://127.0.0.1:PORT/) on its first line. \
                  The engine thinks 1 s a move unless the page or the options say otherwise; \
                  all searches together use at most --threads threads (all cores by default), \
                  and the search trees of all games together at most --memory. A search or an \
                  analysis stops when no page follows its game any more."
)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on; other machines can reach the page only
    /// if this is not a loopback address, and then only with the token.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: IpAddr,
    /// The token that clients on other machines must present (in the
    /// page's address, `?token=...`, or `Authorization: Bearer ...`); one
    /// is made up when --bind is not a loopback address and none is given.
    #[arg(long, value_name = "TOKEN", value_parser = parse_token)]
    pub token: Option<String>,
    /// Another name this server is reached by (the Host header a browser
    /// sends), besides localhost and its addresses; repeatable.
    #[arg(long = "allow-host", value_name = "NAME", value_parser = parse_host)]
    pub allow_host: Vec<String>,
    /// Most connections open at once; beyond it the idlest is closed.
    #[arg(long, default_value_t = 512, value_name = "N", value_parser = clap::value_parser!(u32).range(4..=100_000))]
    pub max_connections: u32,
    /// The time a client has to send a request's headers, which is also
    /// the most a connection may idle between requests, e.g. 10s.
    #[arg(long, default_value = "10s", value_parser = parse_duration, value_name = "T")]
    pub header_timeout: Duration,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Most games held at once (one per browser tab).
    #[arg(long, default_value_t = 32, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub max_games: u16,
    /// A game with no request for this long is forgotten, e.g. 30m.
    #[arg(long, default_value = "30m", value_parser = parse_duration, value_name = "T")]
    pub idle: Duration,
    /// Memory for the search trees of all games together, e.g. 512M, 2G;
    /// the trees of idle games give way to searches first.
    #[arg(long, default_value = "1G", value_parser = parse_bytes, value_name = "SIZE")]
    pub memory: usize,
    /// The rules of new games (the page can choose others).
    #[command(flatten)]
    pub rules: RulesOptions,
    #[command(flatten)]
    pub engine: EngineOptions,
    #[command(flatten)]
    pub level: super::options::LevelOptions,
    /// While a human is to move against the engine, search the position
    /// on threads no other search needs, keeping the tree for the reply
    /// (the full engine only: levels below the top never ponder).
    #[arg(long)]
    pub ponder: bool,
}

/// What the handlers share.
pub struct App {
    /// The games.
    pub store: Store,
    /// One permit per search thread the server may run at once.
    pub permits: Arc<Semaphore>,
    /// How many permits there are.
    pub threads: usize,
    /// The engine configuration of every game.
    pub config: EngineConfig,
    /// The memory of all the games' trees.
    pub memory: Arc<TreeMemory>,
    /// Whom the server answers (names and token).
    pub gate: guard::Gate,
    /// The rules of new games unless the page asks for others.
    pub rules: Rules,
    /// Whether the seed was given (`--seed`, `seed=`): every game then
    /// searches with it, so that a game can be replayed.
    pub seed_given: bool,
    /// The threads a search of the full engine uses (a level below the
    /// top searches on one).
    pub top_threads: usize,
    /// Whether the server ponders (`--ponder`).
    pub ponder: bool,
    /// The ponders running, by game: another game's search that needs
    /// their threads stops them.
    pub ponders: std::sync::Mutex<std::collections::HashMap<String, (u64, cabra::engine::Stopper)>>,
}

impl App {
    /// A fresh engine for a game: its own seed (unless one was given), at
    /// most the server's threads, its tree within the server's memory.
    pub fn engine(&self) -> EngineHandle {
        let seed = match self.seed_given {
            true => self.config.seed,
            false => Some(rand::random::<u64>()),
        };
        let config = EngineConfig {
            seed,
            ..self.config.clone()
        };
        EngineHandle::with_memory(config, &self.memory).with_fallback(defaults::SERVE.budget)
    }
}

/// The router: the page, its files and the API, behind the Host/Origin check.
pub fn router(app: Arc<App>) -> Router {
    let game = |path: &str| format!("/api/games/{{id}}{path}");
    Router::new()
        .route("/", get(assets::index))
        .route("/assets/{name}", get(assets::asset))
        .route("/api/shapes", get(api::shapes))
        .route("/api/info", get(api::info))
        .route("/api/games", post(api::create))
        .route(&game(""), get(api::get).delete(api::delete))
        .route(&game("/place"), post(api::place))
        .route(&game("/undo"), post(api::undo))
        .route(&game("/redo"), post(api::redo))
        .route(&game("/goto"), post(api::goto))
        .route(&game("/new"), post(api::new_game))
        .route(&game("/load"), post(api::load))
        .route(&game("/record"), get(api::record))
        .route(&game("/code"), post(api::load_code))
        .route(&game("/legal"), get(api::legal))
        .route(&game("/view"), post(api::view))
        .route(&game("/think"), post(jobs::think))
        .route(&game("/analyze"), post(jobs::start_analysis))
        .route(&game("/analysis"), get(jobs::get_analysis))
        .route(&game("/stop"), post(jobs::stop))
        .route(&game("/engine"), post(coach::engine))
        .route(&game("/hint"), post(coach::hint))
        .route(&game("/events"), get(jobs::events))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page or API call") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this method is not allowed here",
            )
        })
        // Bodies are read (and capped) by guard::Body.
        .layer(DefaultBodyLimit::disable())
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            guard::check_host,
        ))
        .layer(axum::middleware::map_response(guard::json_errors))
        .with_state(app)
}

/// Tries to open `url` in the default browser.
fn open_browser(url: &str) {
    let cmd = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(cmd).arg(url).spawn() {
        eprintln!("cabra serve: could not open a browser ({cmd}: {e}); open {url} yourself");
    }
}

/// A server whose standard output was closed (`cabra serve | head -1`)
/// goes on serving: writes to a closed pipe fail instead of ending it.
fn ignore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: SIG_IGN is a valid action for SIGPIPE; no handler runs.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

/// Reads a token for `--token`: at least 8 characters a URL carries as
/// they are.
fn parse_token(text: &str) -> Result<String, String> {
    let ok = text.len() >= 8
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c));
    if ok {
        Ok(text.to_string())
    } else {
        Err("a token is at least 8 letters, digits or - . _ ~".into())
    }
}

/// A host name as a browser sends it in Host (no scheme, no port).
fn parse_host(text: &str) -> Result<String, String> {
    let label = |l: &str| {
        !l.is_empty() && l.len() <= 63 && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    if text.len() <= 253 && text.trim_end_matches('.').split('.').all(label) {
        Ok(text.trim_end_matches('.').to_string())
    } else {
        Err(format!(
            "`{text}` is not a host name: give the name alone, as cabra.example.org \
             (no scheme, no port; the server's addresses are allowed already)"
        ))
    }
}

/// The address to print: the one bound, or this machine's loopback for a
/// wildcard, with the token for other machines.
fn address(local: SocketAddr, token: Option<&str>) -> String {
    let ip = if local.ip().is_unspecified() {
        match local.ip() {
            IpAddr::V4(_) => IpAddr::from([127, 0, 0, 1]),
            IpAddr::V6(_) => IpAddr::from(std::net::Ipv6Addr::LOCALHOST),
        }
    } else {
        local.ip()
    };
    let host = match ip {
        IpAddr::V6(ip) => format!("[{ip}]"),
        ip => ip.to_string(),
    };
    match token {
        Some(t) => format!("http://{host}:{}/?token={t}", local.port()),
        None => format!("http://{host}:{}/", local.port()),
    }
}

/// This machine's address on the network its default route leads to,
/// of the family of `wildcard` (found by the routing table alone: a UDP
/// socket that is connected sends nothing).
fn outside_address(wildcard: IpAddr) -> Option<IpAddr> {
    let (bind, probe): (SocketAddr, SocketAddr) = match wildcard {
        IpAddr::V4(_) => ("0.0.0.0:0".parse().ok()?, "192.0.2.1:9".parse().ok()?),
        IpAddr::V6(_) => ("[::]:0".parse().ok()?, "[2001:db8::1]:9".parse().ok()?),
    };
    let socket = std::net::UdpSocket::bind(bind).ok()?;
    socket.connect(probe).ok()?;
    Some(socket.local_addr().ok()?.ip()).filter(|ip| !ip.is_loopback() && !ip.is_unspecified())
}

/// The machine's memory in bytes, where the system says (Linux).
fn physical_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: usize = info
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

/// Runs `cabra serve` until the process is stopped.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    let mut config = args.engine.at_level(&args.level).config(&defaults::SERVE);
    // The server's threads (--threads, else the configuration's, else all
    // cores) are shared by all games; a search uses the configuration's,
    // at most all of them.
    let threads = (args.engine.budget.threads)
        .or(args.engine.engine.threads)
        .unwrap_or_else(defaults::all_cores)
        .max(1);
    // The full engine's threads: what a game's level goes back to.
    let top_threads = (args.engine.engine.threads)
        .unwrap_or(threads)
        .clamp(1, threads);
    let per_search = config.threads.unwrap_or(threads).clamp(1, threads);
    config.threads = Some(per_search);
    let at_once = threads / per_search;
    // Each search gets a share of at least MIN_SHARE: less memory could
    // not hold to its cap.
    let least = at_once * cabra::engine::TreeMemory::MIN_SHARE;
    if args.memory < least {
        anyhow::bail!(
            "--memory is at least {} here ({} search{} at once, {} each at least)",
            format_bytes(least),
            at_once,
            if at_once == 1 { "" } else { "es" },
            format_bytes(cabra::engine::TreeMemory::MIN_SHARE)
        );
    }
    if let Some(total) = physical_memory().filter(|&t| args.memory > t) {
        eprintln!(
            "cabra serve: warning: --memory {} is more than this machine's {}: the search trees may \
             not fit, and the system may end the server",
            format_bytes(args.memory),
            format_bytes(total)
        );
    }
    let memory = Arc::new(TreeMemory::new(args.memory, at_once));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async {
        let addr = SocketAddr::new(args.bind, args.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        // Beyond the loopback, other machines reach the API: only with a token.
        let open = !args.bind.is_loopback();
        let token = args
            .token
            .clone()
            .or_else(|| open.then(|| format!("{:032x}", rand::random::<u128>())));
        let gate = guard::Gate {
            hosts: args.allow_host.clone(),
            token: token.clone(),
        };
        let app = Arc::new(App {
            store: Store::new(usize::from(args.max_games), args.idle),
            permits: Arc::new(Semaphore::new(threads)),
            threads,
            config,
            memory,
            gate,
            rules: args.rules.rules(),
            seed_given: args.engine.engine.seed.or(args.engine.budget.seed).is_some(),
            top_threads,
            ponder: args.ponder,
            ponders: Default::default(),
        });
        let sweeper = app.clone();
        tokio::spawn(async move {
            let every = (sweeper.store.idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(30));
            loop {
                tokio::time::sleep(every).await;
                sweeper.store.expire();
                sweeper.memory.drop_idle(TREE_IDLE);
            }
        });
        let url = address(local, token.as_deref());
        ignore_sigpipe();
        // A reader of the address that went away must not stop the server.
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{url}");
        let _ = writeln!(
            out,
            "cabra serve: open that address in a browser; {} search thread{}, {} for search trees, \
             at most {} games (one a tab; forgotten after {} without requests) and {} connections; \
             Ctrl-C stops the server",
            threads,
            if threads == 1 { "" } else { "s" },
            format_bytes(args.memory),
            args.max_games,
            cabra::engine::format_duration(args.idle),
            args.max_connections
        );
        let _ = out.flush();
        drop(out);
        if open {
            // Other machines need this machine's address, not the loopback.
            let outside = match local.ip() {
                ip if ip.is_unspecified() => outside_address(ip).map(|ip| SocketAddr::new(ip, local.port())),
                _ => Some(local),
            };
            let there = match outside {
                Some(a) => format!(" at {}", address(a, token.as_deref())),
                None => String::new(),
            };
            eprintln!(
                "cabra serve: warning: listening on {local}, beyond this machine: other machines can reach the API{there}, with the token (--token sets it); bind 127.0.0.1 to keep the server to this machine"
            );
        }
        if args.open {
            open_browser(&url);
        }
        let limits = conn::Limits {
            max: args.max_connections as usize,
            header: args.header_timeout,
        };
        conn::serve(listener, router(app), limits)
            .await
            .context("the server stopped")
    })
}
