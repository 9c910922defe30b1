//! The commands of `cabra gtp`: one table ([`COMMANDS`]) that
//! `list_commands`, `known_command` and the dispatch read, and one
//! function per command.

use std::path::Path;

use cabra::engine::{EngineConfig, KEYS, Request as Search};
use cabra::game::{Move, Piece, Player, Position, Rules, Status};

use super::clock::{parse_seconds, parse_stones};
use super::line::{Command, parse_move_words, parse_player};
use super::stream::{Kind, Request, decide};
use super::{Gtp, Reply};
use crate::cli::files::{own_key, read_record, save_game};
use crate::cli::render::{View, render, status_line};

/// One command: its name, its arguments (for the usage message), and what
/// it does.
struct Spec {
    name: &'static str,
    usage: &'static str,
    run: fn(&mut Gtp, &[String]) -> Reply,
}

/// Every command, in the order `list_commands` gives them.
#[rustfmt::skip]
const COMMANDS: &[Spec] = &[
    Spec { name: "protocol_version", usage: "", run: |_, _| Reply::Ok("2".into()) },
    Spec { name: "name", usage: "", run: |_, _| Reply::Ok("cabra".into()) },
    Spec { name: "version", usage: "", run: |_, _| Reply::Ok(env!("CARGO_PKG_VERSION").into()) },
    Spec { name: "known_command", usage: "NAME", run: known_command },
    Spec { name: "list_commands", usage: "", run: list_commands },
    Spec { name: "quit", usage: "", run: |_, _| Reply::Quit },
    Spec { name: "boardsize", usage: "8", run: boardsize },
    Spec { name: "komi", usage: "KOMI", run: komi },
    Spec { name: "clear_board", usage: "", run: clear_board },
    Spec { name: "cabra-rules", usage: "[caminos|bridget] [swap]", run: rules },
    Spec { name: "play", usage: "PLAYER PLACEMENT", run: play },
    Spec { name: "genmove", usage: "PLAYER", run: genmove },
    Spec { name: "undo", usage: "", run: undo },
    Spec { name: "showboard", usage: "", run: |g, _| Reply::Ok(format!("\n{}", render(g.line.position(), &View::PLAIN))) },
    Spec { name: "loadcaminos", usage: "FILE [PLACEMENTS]", run: load },
    Spec { name: "savecaminos", usage: "[--force] FILE", run: save },
    Spec { name: "result", usage: "", run: |g, _| Reply::Ok(status_line(g.line.position())) },
    Spec { name: "final_score", usage: "", run: final_score },
    Spec { name: "legal_moves", usage: "[PIECE]", run: legal_moves },
    Spec { name: "time_settings", usage: "MAIN BYO_YOMI STONES", run: time_settings },
    Spec { name: "time_left", usage: "PLAYER TIME STONES", run: time_left },
    Spec { name: "cabra-set", usage: "KEY VALUE", run: set },
    Spec { name: "cabra-get", usage: "", run: get },
    Spec { name: "cabra-analyze", usage: "[PLAYER] [INTERVAL] [interval I] [maxmoves N]", run: analyze },
    Spec { name: "genmove_analyze", usage: "PLAYER [INTERVAL] [interval I] [maxmoves N]", run: genmove_analyze },
];

impl Gtp {
    /// Runs one command.
    pub(super) fn execute(&mut self, c: &Command) -> Reply {
        match COMMANDS.iter().find(|s| s.name == c.name) {
            Some(spec) => match (spec.run)(self, &c.args) {
                Reply::Err(e) if e.is_empty() => Reply::Err(
                    format!("usage: {} {}", spec.name, spec.usage)
                        .trim_end()
                        .into(),
                ),
                r => r,
            },
            None => Reply::Err("unknown command".into()),
        }
    }

    /// `Ok` when `p` is the side to move in an ongoing game.
    fn check_turn(&self, p: Player) -> Result<(), String> {
        if self.line.position().status().is_over() {
            return Err(format!(
                "the game is over ({})",
                status_line(self.line.position())
            ));
        }
        if p != self.line.position().to_move() {
            return Err(format!("{} is to move", self.line.position().to_move()));
        }
        Ok(())
    }
}

/// The usage error: an empty reason is replaced by the command's usage.
fn usage() -> Reply {
    Reply::Err(String::new())
}

fn reply(r: Result<String, String>) -> Reply {
    match r {
        Ok(t) => Reply::Ok(t),
        Err(e) => Reply::Err(e),
    }
}

fn known_command(_: &mut Gtp, args: &[String]) -> Reply {
    match args {
        [name] => Reply::Ok(COMMANDS.iter().any(|s| s.name == name).to_string()),
        _ => usage(),
    }
}

fn list_commands(_: &mut Gtp, _: &[String]) -> Reply {
    Reply::Ok(
        COMMANDS
            .iter()
            .map(|s| s.name)
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// GTP's `boardsize`, which GUIs and tournament managers send first:
/// the board is always 8 by 8.
fn boardsize(_: &mut Gtp, args: &[String]) -> Reply {
    match args {
        [n] if n == "8" => Reply::Ok(String::new()),
        [n] if n.parse::<u32>().is_ok() => {
            Reply::Err("unacceptable size: the board is 8 by 8".into())
        }
        _ => usage(),
    }
}

/// GTP's `komi`, which GUIs send: a number, accepted and without effect
/// (a Caminos game has no points to add).
fn komi(_: &mut Gtp, args: &[String]) -> Reply {
    match args {
        [k] if k.parse::<f64>().is_ok_and(f64::is_finite) => Reply::Ok(String::new()),
        _ => usage(),
    }
}

fn clear_board(g: &mut Gtp, _: &[String]) -> Reply {
    g.line
        .replace(Position::with_rules(g.line.position().rules()));
    g.clock.restart();
    Reply::Ok(String::new())
}

fn rules(g: &mut Gtp, args: &[String]) -> Reply {
    if args.is_empty() {
        return Reply::Ok(g.line.position().rules().to_string());
    }
    match args.join(" ").parse::<Rules>() {
        Ok(r) => {
            // New rules, new game.
            g.line.replace(Position::with_rules(r));
            g.clock.restart();
            Reply::Ok(String::new())
        }
        Err(e) => Reply::Err(e.to_string()),
    }
}

fn play(g: &mut Gtp, args: &[String]) -> Reply {
    let [who, rest @ ..] = args else {
        return usage();
    };
    reply((|| {
        let p = parse_player(who)?;
        let mv = parse_move_words(rest)?;
        g.check_turn(p)?;
        g.line.play(mv).map_err(|e| match mv {
            Move::Place(p) => format!("illegal placement {p}: {e}"),
            // The reason names the move already (`tm: ...`).
            _ => format!("illegal move {e}"),
        })?;
        Ok(String::new())
    })())
}

fn genmove(g: &mut Gtp, args: &[String]) -> Reply {
    let [who] = args else {
        return usage();
    };
    reply((|| {
        let p = parse_player(who)?;
        g.check_turn(p)?;
        let start = std::time::Instant::now();
        let thought = g
            .engine
            .search(g.move_request())
            .map_err(|e| e.to_string())?;
        g.clock.charge(p, start.elapsed());
        Ok(match decide(&thought.report, g.resign) {
            Some(mv) => {
                g.line.play(mv).expect("the engine plays legal moves");
                mv.to_string()
            }
            None => "resign".into(),
        })
    })())
}

fn undo(g: &mut Gtp, args: &[String]) -> Reply {
    if !args.is_empty() {
        return usage();
    }
    match g.line.undo() {
        Some(_) => Reply::Ok(String::new()),
        None => Reply::Err("nothing to undo: the board is empty".into()),
    }
}

fn load(g: &mut Gtp, args: &[String]) -> Reply {
    if args.is_empty() {
        return usage();
    }
    // A last number is the count of moves to keep; the rest is the path.
    let (path, keep) = match args.split_last() {
        // `-1` or `+3` is a count, badly written, not the end of a name.
        Some((n, path))
            if !path.is_empty()
                && n.trim_start_matches(['-', '+'])
                    .chars()
                    .all(|c| c.is_ascii_digit())
                && n.chars().any(|c| c.is_ascii_digit()) =>
        {
            match n.parse::<usize>() {
                Ok(n) => (path.join(" "), Some(n)),
                Err(_) => return Reply::Err(format!("'{n}' is not a number of moves")),
            }
        }
        _ => (args.join(" "), None),
    };
    reply((|| {
        let record = read_record(Path::new(&path)).map_err(|e| format!("{e:#}"))?;
        let mut pos = record.position;
        let whole = pos.plies();
        if let Some(n) = keep {
            if n > pos.plies() {
                return Err(format!(
                    "{path} holds only {}",
                    crate::cli::render::moves_of(&pos, pos.plies())
                ));
            }
            while pos.plies() > n {
                pos.undo();
            }
        }
        g.line.replace(pos);
        // Only a file loaded whole is the session's to replace: saving
        // over one loaded in part would drop its later moves unasked.
        let key = own_key(Path::new(&path));
        if pos.plies() == whole {
            g.part_loaded.remove(&key);
            g.own_files.insert(key);
        } else {
            g.part_loaded.insert(key.clone(), whole);
            g.own_files.remove(&key);
        }
        Ok(format!(
            "{}; {}",
            crate::cli::render::moves_of(&pos, pos.plies()),
            status_line(&pos)
        ))
    })())
}

fn save(g: &mut Gtp, args: &[String]) -> Reply {
    let (force, args) = match args.split_first() {
        Some((flag, rest)) if flag == "--force" => (true, rest),
        _ => (false, args),
    };
    if args.is_empty() {
        return usage();
    }
    // A mistyped option is not a file name (`./-x.caminos` names such a file).
    if let Some(option) = args.first().filter(|w| w.starts_with('-')) {
        return Reply::Err(format!(
            "unknown option '{option}': savecaminos [--force] FILE (./{option} for a file so named)"
        ));
    }
    let path = args.join(" ");
    let file = Path::new(&path);
    // A file that cannot be written is refused first, for its reason.
    if let Err(e) = crate::cli::save::check(file) {
        return Reply::Err(format!("{e:#}"));
    }
    // As `play` does: a file the controller did not have this session
    // load or write is someone else's, and is not lost to a typo.
    let key = own_key(file);
    if let Some(whole) = g.part_loaded.get(&key).filter(|_| file.exists() && !force) {
        return Reply::Err(format!(
            "this session loaded only part of {path}, which holds {whole} moves: \
             `savecaminos --force {path}` replaces it with the game as it stands"
        ));
    }
    if file.exists() && !force && !g.own_files.contains(&key) {
        return Reply::Err(format!(
            "{path} exists and this session did not load or save it: \
             `savecaminos --force {path}` replaces it"
        ));
    }
    let header = vec![format!(
        " saved by cabra gtp: {}",
        status_line(g.line.position())
    )];
    match save_game(file, &header, g.line.position()) {
        Ok(()) => {
            g.part_loaded.remove(&key);
            g.own_files.insert(key);
            Reply::Ok(String::new())
        }
        Err(e) => Reply::Err(format!("{e:#}")),
    }
}

fn final_score(g: &mut Gtp, _: &[String]) -> Reply {
    match g.line.position().status() {
        Status::Ongoing => Reply::Err("the game is in progress".into()),
        Status::Draw { .. } => Reply::Ok("0".into()),
        Status::Won { winner, .. } => Reply::Ok(format!("{}+", winner.number())),
    }
}

fn legal_moves(g: &mut Gtp, args: &[String]) -> Reply {
    let piece = match args {
        [] => None,
        [p] => match p.chars().collect::<Vec<_>>()[..] {
            [c] if Piece::from_letter(c).is_some() => Piece::from_letter(c),
            _ => return Reply::Err(format!("'{p}' is not a piece (L, T, Z or O)")),
        },
        _ => return usage(),
    };
    let mut list = Vec::new();
    g.line.position().for_each_legal(|m| {
        let wanted = match m.placement() {
            Some(p) => piece.is_none_or(|k| p.entry().piece == k),
            None => piece.is_none(),
        };
        if wanted {
            list.push(m.to_string());
        }
    });
    Reply::Ok(list.join("\n"))
}

fn time_settings(g: &mut Gtp, args: &[String]) -> Reply {
    let [main, byo, stones] = args else {
        return usage();
    };
    reply((|| {
        g.clock.set(
            parse_seconds(main)?,
            parse_seconds(byo)?,
            parse_stones(stones)?,
        );
        Ok(String::new())
    })())
}

fn time_left(g: &mut Gtp, args: &[String]) -> Reply {
    let [who, time, stones] = args else {
        return usage();
    };
    reply((|| {
        let p = parse_player(who)?;
        g.clock
            .set_left(p, parse_seconds(time)?, parse_stones(stones)?);
        Ok(String::new())
    })())
}

/// Words that remove a limit with `cabra-set`.
const NONE: &[&str] = &["none", "-", "off"];

fn set(g: &mut Gtp, args: &[String]) -> Reply {
    let [key, value] = args else {
        return usage();
    };
    let key = key.to_ascii_lowercase();
    reply((|| {
        match key.as_str() {
            "resign" => {
                g.resign = match value.to_ascii_lowercase().as_str() {
                    "on" | "true" | "yes" | "1" => true,
                    "off" | "false" | "no" | "0" => false,
                    _ => return Err(format!("'{value}' is not on or off")),
                };
            }
            // The session's own limits, which win over the engine's and
            // the options' (a search's own request).
            "time" | "iterations" | "nodes" => {
                let value = value.as_str();
                if NONE.contains(&value) {
                    match key.as_str() {
                        "time" => g.limits.time = None,
                        "iterations" => g.limits.iterations = None,
                        _ => g.limits.nodes = None,
                    }
                } else {
                    let mut read = EngineConfig::default();
                    read.set(&key, value).map_err(|e| crate::cli::chain(&e))?;
                    let b = read.budget;
                    g.limits.time = b.time.or(g.limits.time);
                    g.limits.iterations = b.iterations.or(g.limits.iterations);
                    g.limits.nodes = b.nodes.or(g.limits.nodes);
                }
            }
            _ => {
                let mut config: EngineConfig = g.engine.config();
                let value = value.as_str();
                match key.as_str() {
                    _ if !KEYS.iter().any(|k| k.name == key.replace('_', "")) => {
                        // The engine's keys, and the one of the session.
                        let keys: Vec<&str> = KEYS.iter().map(|k| k.name).collect();
                        return Err(format!(
                            "unknown key '{key}' (keys: {}, resign)",
                            keys.join(", ")
                        ));
                    }
                    _ => config.set(&key, value).map_err(|e| crate::cli::chain(&e))?,
                }
                g.engine.set_config(config);
            }
        }
        Ok(String::new())
    })())
}

fn get(g: &mut Gtp, args: &[String]) -> Reply {
    if !args.is_empty() {
        return usage();
    }
    // The limits a genmove searches with now (off the clock).
    let mut config = g.engine.config();
    config.budget = g
        .engine
        .budget(&Search::new(*g.line.position()).limits(g.limits.limited()));
    let mut lines: Vec<String> = KEYS
        .iter()
        .map(|k| format!("{} {}", k.name, k.get(&config)))
        .collect();
    lines.push(format!("resign {}", if g.resign { "on" } else { "off" }));
    lines.push(format!("clock {}", g.clock.describe()));
    Reply::Ok(lines.join("\n"))
}

fn analyze(g: &mut Gtp, args: &[String]) -> Reply {
    let mut args = args;
    if let Some((first, rest)) = args.split_first() {
        if let Ok(p) = parse_player(first) {
            if let Err(e) = g.check_turn(p) {
                return Reply::Err(e);
            }
            args = rest;
        }
    }
    if g.line.position().status().is_over() {
        return Reply::Err(format!(
            "the game is over ({})",
            status_line(g.line.position())
        ));
    }
    match Request::parse(Kind::Analyze, args) {
        Ok(r) => Reply::Stream(r),
        Err(e) => Reply::Err(e),
    }
}

fn genmove_analyze(g: &mut Gtp, args: &[String]) -> Reply {
    let Some((who, rest)) = args.split_first() else {
        return usage();
    };
    let p = match parse_player(who) {
        Ok(p) => p,
        Err(e) => return Reply::Err(e),
    };
    if let Err(e) = g.check_turn(p) {
        return Reply::Err(e);
    }
    match Request::parse(Kind::Genmove, rest) {
        Ok(r) => Reply::Stream(r),
        Err(e) => Reply::Err(e),
    }
}
