//! `cabra serve`: play and analyze Caminos in the browser.
//!
//! A local web server (axum on tokio) serves one page, embedded in the
//! binary, and a small JSON API (docs/API.md):
//!
//! - [`guard`]: Host/Origin checks, the body cap, JSON errors;
//! - [`store`]: the games, one per tab, capped and expired when idle;
//! - [`api`]: the game's requests (place, undo, files, views);
//! - [`state`]: the JSON of a game and of an aimed placement;
//! - [`jobs`]: engine searches and analyses on blocking threads, limited
//!   to the configured threads, with their live events;
//! - [`assets`]: the page's files.
//!
//! The server never reads or writes its own disk for a page: files come in
//! as request bodies and go out as downloads.

pub mod api;
pub mod assets;
pub mod guard;
pub mod jobs;
pub mod state;
pub mod store;

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::{get, post};
use cabra::engine::units::{format_bytes, parse_bytes};
use cabra::engine::{EngineConfig, EngineHandle, TreeMemory, defaults, parse_duration};
use cabra::game::Rules;
use tokio::sync::Semaphore;

use super::options::{EngineOptions, RulesOptions};
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
    /// if this is not a loopback address.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: IpAddr,
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
    /// The port served (for the Host and Origin checks).
    pub port: u16,
    /// The rules of new games unless the page asks for others.
    pub rules: Rules,
}

impl App {
    /// A fresh engine for a game: its own seed, at most the server's
    /// threads, its tree within the server's memory.
    pub fn engine(&self) -> EngineHandle {
        let config = EngineConfig {
            seed: Some(rand::random::<u64>()),
            ..self.config.clone()
        };
        EngineHandle::with_memory(config, &defaults::SERVE, &self.memory)
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

/// Runs `cabra serve` until the process is stopped.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    let mut config = args.engine.config(&defaults::SERVE);
    // The server's threads (--threads, else the configuration's, else all
    // cores) are shared by all games; a search uses the configuration's,
    // at most all of them.
    let threads = (args.engine.budget.threads)
        .or(args.engine.engine.threads)
        .unwrap_or_else(defaults::all_cores)
        .max(1);
    let per_search = config.threads.unwrap_or(threads).clamp(1, threads);
    config.threads = Some(per_search);
    let memory = Arc::new(TreeMemory::new(args.memory, threads / per_search));
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
        let app = Arc::new(App {
            store: Store::new(usize::from(args.max_games), args.idle),
            permits: Arc::new(Semaphore::new(threads)),
            threads,
            config,
            memory,
            port: local.port(),
            rules: args.rules.rules(),
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
        let host = match local.ip() {
            IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        };
        let url = format!("http://{host}:{}/", local.port());
        ignore_sigpipe();
        // A reader of the address that went away must not stop the server.
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{url}");
        let _ = writeln!(
            out,
            "cabra serve: open that address in a browser; {} search thread{}, {} for search trees; Ctrl-C stops the server",
            threads,
            if threads == 1 { "" } else { "s" },
            format_bytes(args.memory)
        );
        let _ = out.flush();
        drop(out);
        if args.open {
            open_browser(&url);
        }
        axum::serve(listener, router(app))
            .await
            .context("the server stopped")
    })
}
