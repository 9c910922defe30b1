//! `cabra check`: validate a game file and say how the game stands.

use std::path::PathBuf;

use cabra::game::Position;
use serde::Serialize;

use super::render::status_line;

/// Arguments of `cabra check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// A `.caminos` game record.
    pub file: PathBuf,
    /// Print one JSON object instead of a sentence (for a bad file too:
    /// `{"error": ..., "line": N}`, with exit status 1).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub rules: super::options::RulesOptions,
}

/// How a game stands, for scripts (`check --json`, `show --json`).
#[derive(Clone, Debug, Serialize)]
pub struct GameJson {
    /// The rules: `caminos`, `bridget`, `caminos swap` or `bridget swap`.
    pub rules: String,
    /// Moves in the record (placements, `swap` and `tm`).
    pub moves: usize,
    /// Pieces on the board.
    pub placements: usize,
    /// `p1`, `p2`, `draw` or `ongoing`.
    pub result: &'static str,
    /// `bridge`, `perimeter` or `edge` once the game is over.
    pub by: Option<&'static str>,
    /// 1 or 2 while the game is in progress.
    pub to_move: Option<u8>,
    /// Pieces on the bottom perimeter, player 1 then player 2.
    pub perimeter: [u8; 2],
    /// Edge columns seen from above, player 1 then player 2.
    pub edge: [u8; 2],
    /// Whether each player has used the time machine.
    pub time_machine_used: [bool; 2],
    /// Whether player 2 swapped.
    pub swapped: bool,
    /// The result in words.
    pub text: String,
}

impl GameJson {
    /// The JSON view of `pos`.
    pub fn of(pos: &Position) -> GameJson {
        let s = pos.status();
        let both = cabra::game::Player::BOTH;
        GameJson {
            rules: pos.rules().to_string(),
            moves: pos.plies(),
            placements: pos.placements().len(),
            result: s.code(),
            by: s.reason(),
            to_move: (!s.is_over()).then(|| pos.to_move().number()),
            perimeter: both.map(|p| pos.perimeter_count(p)),
            edge: both.map(|p| pos.edge_count(p)),
            time_machine_used: both.map(|p| pos.time_machine_used(p)),
            swapped: pos.swapped(),
            text: status_line(pos),
        }
    }
}

/// A command's failure as scripts read it under `--json`: one object
/// `{"error": ..., "line": N}` on standard output (`line` when a game
/// record's line was at fault, else null).
#[derive(Serialize)]
pub struct ErrorJson {
    error: String,
    line: Option<usize>,
}

impl ErrorJson {
    /// The JSON form of `e`, with the line of the first record error in
    /// its chain of causes.
    pub fn of(e: &anyhow::Error) -> ErrorJson {
        let line = e
            .chain()
            .find_map(|c| c.downcast_ref::<cabra::game::RecordError>())
            .map(|r| r.line);
        ErrorJson {
            error: format!("{e:#}"),
            line,
        }
    }
}

/// Reads the file; prints its status, or fails with the `line N:` reason.
pub fn run(args: &CheckArgs) -> anyhow::Result<()> {
    // Errors are written by `main`: as an `ErrorJson` under `--json`.
    let pos = args.rules.load(Some(&args.file))?.position;
    if args.json {
        super::style::print(&format!(
            "{}\n",
            serde_json::to_string(&GameJson::of(&pos))?
        ))?;
    } else {
        let rules = if pos.rules().is_default() {
            String::new()
        } else {
            format!(" under the {} rules", pos.rules())
        };
        super::style::print(&format!(
            "ok: {}{rules}; {}\n",
            super::render::moves_of(&pos, pos.plies()),
            status_line(&pos)
        ))?;
    }
    Ok(())
}
