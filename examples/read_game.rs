//! Reads a `.caminos` game record and says how the game stands: the
//! board, whose turn it is, the legal moves and the position code. A bad
//! file is refused with its line and the reason.
//!
//! `cargo run --example read_game [FILE]` (default: the repository's
//! games/midgame-11.caminos)

use std::process::ExitCode;

use cabra::game::record::parse_record;
use cabra::game::{LineError, board_text};

fn main() -> ExitCode {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "games/midgame-11.caminos".to_string());
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let record = match parse_record(&bytes) {
        Ok(r) => r,
        Err(e) => {
            // The error keeps what went wrong, for a program to act on.
            if let LineError::Illegal(why) = &e.kind {
                eprintln!("{path}: an illegal move ({why:?})");
            }
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let pos = record.position;
    for line in &record.header {
        println!("#{line}");
    }
    print!("{}", board_text(&pos, 100));
    println!(
        "{} moves, rules {}; {}",
        pos.plies(),
        pos.rules(),
        pos.status()
    );
    if !pos.status().is_over() {
        println!(
            "{} to move, {} legal moves",
            pos.to_move(),
            pos.count_legal()
        );
        if let Some(win) = pos.winning_move() {
            println!("{win} wins at once");
        }
    }
    println!("position code: {}", pos.to_code());
    ExitCode::SUCCESS
}
