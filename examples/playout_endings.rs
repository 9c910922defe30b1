//! How often the engine's playouts end on the counts, against how the game
//! itself ended: for each game file, the positions after 6, 8, 10, ...
//! placements are each played out 2,000 times with the shipped playout
//! policy (no reply table), and the share of those playouts that ended
//! without a bridge is printed. Run:
//! `cargo run --release --example playout_endings -- GAME.caminos...`
//! (for instance the games that `cabra match --out DIR` wrote).

use std::process::ExitCode;

use cabra::engine::playout::Policy;
use cabra::game::Position;
use cabra::game::record::parse_game;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

const PLAYOUTS: u32 = 2000;

fn main() -> ExitCode {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: playout_endings GAME.caminos...");
        return ExitCode::from(2);
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    for file in &files {
        let game = match std::fs::read_to_string(file)
            .map_err(|e| e.to_string())
            .and_then(|text| parse_game(&text).map_err(|e| e.to_string()))
        {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{file}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let ended = match game.status().reason() {
            None => "unfinished",
            Some("bridge") => "by a bridge",
            Some(_) => "on the counts",
        };
        let mut line = format!("{file}: ended {ended}; playouts on the counts after");
        let moves = game.moves();
        for k in (6..moves.len()).step_by(2) {
            let pos = Position::from_moves(game.rules(), &moves[..k]).expect("a prefix of a game");
            let counted = (0..PLAYOUTS)
                .filter(|_| {
                    let s = Policy::SHIPPED.run(&mut pos.clone(), &mut rng, None, None, |_| {});
                    s.reason() != Some("bridge")
                })
                .count();
            line += &format!(" {k}: {:.0}%", 100.0 * counted as f64 / f64::from(PLAYOUTS));
        }
        println!("{line}");
    }
    ExitCode::SUCCESS
}
