//! `cabra check`: validate a game file and say how the game stands.

use std::path::PathBuf;

use cabra::game::{Player, Position, Status, WinReason};
use serde::Serialize;

use super::render::result_line;

/// Arguments of `cabra check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// A `.caminos` game record.
    pub file: PathBuf,
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Report {
    placements: usize,
    result: &'static str,
    by: Option<&'static str>,
    to_move: Option<u8>,
}

fn report(pos: &Position) -> Report {
    let side = |p: Player| if p == Player::One { "p1" } else { "p2" };
    let (result, by) = match pos.status() {
        Status::Ongoing => ("ongoing", None),
        Status::Draw => ("draw", Some("perimeter")),
        Status::Won { winner, by } => (
            side(winner),
            Some(match by {
                WinReason::Bridge => "bridge",
                WinReason::Perimeter => "perimeter",
            }),
        ),
    };
    Report {
        placements: pos.plies(),
        result,
        by,
        to_move: (!pos.status().is_over()).then(|| pos.to_move().number()),
    }
}

/// Reads the file; prints its status, or fails with the `line N:` reason.
pub fn run(args: &CheckArgs) -> anyhow::Result<()> {
    let pos = cabra::game::record::read_game(&args.file)?;
    if args.json {
        println!("{}", serde_json::to_string(&report(&pos))?);
        return Ok(());
    }
    let state = match pos.status() {
        Status::Ongoing => format!("in progress, {} to move", pos.to_move()),
        s => result_line(&pos, s),
    };
    println!("ok: {} placements; {state}", pos.plies());
    Ok(())
}
