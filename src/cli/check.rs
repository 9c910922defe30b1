//! `cabra check`: validate a game file and say how the game stands.

use std::path::PathBuf;

use cabra::game::Position;
use cabra::game::record::parse_record;
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

#[derive(Serialize)]
struct ErrorJson {
    error: String,
    line: Option<usize>,
}

/// Prints a failure: as a JSON object with `--json` (then exits with
/// status 1), else as the command's error.
fn fail(json: bool, error: String, line: Option<usize>) -> anyhow::Result<()> {
    if json {
        let json = serde_json::to_string(&ErrorJson { error, line })?;
        super::style::print(&format!("{json}\n"))?;
        std::process::exit(1);
    }
    Err(anyhow::Error::msg(error))
}

/// Reads the file; prints its status, or fails with the `line N:` reason.
pub fn run(args: &CheckArgs) -> anyhow::Result<()> {
    let shown = args.file.display();
    let bytes = match crate::cli::files::read_input(&args.file) {
        Ok(b) => b,
        Err(e) => return fail(args.json, format!("cannot read {shown}: {e}"), None),
    };
    let pos = match parse_record(&bytes) {
        Ok(r) => match args.rules.agree(r.position.rules(), &args.file) {
            Ok(()) => r.position,
            Err(e) => return fail(args.json, format!("{e:#}"), None),
        },
        Err(e) => {
            return fail(
                args.json,
                format!("{shown} is not a valid game: {e}"),
                Some(e.line),
            );
        }
    };
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
