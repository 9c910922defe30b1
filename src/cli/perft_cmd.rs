//! `cabra perft`: count legal placement sequences (a move-generator check).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use cabra::game::perft::{perft, perft_divide};

use super::options::RulesOptions;

/// Arguments of `cabra perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Start from the end of this game record (the empty board if absent).
    pub file: Option<PathBuf>,
    /// Length of the placement sequences to count.
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(0..=28))]
    pub depth: u32,
    /// Also print the count under each first placement.
    #[arg(long)]
    pub divide: bool,
    #[command(flatten)]
    pub rules: RulesOptions,
}

/// Prints the count as the last line of output (and the speed on stderr).
pub fn run(args: &PerftArgs) -> anyhow::Result<()> {
    let pos = args.rules.load(args.file.as_deref())?.position;
    if pos.status().is_over() && args.depth > 0 {
        eprintln!(
            "the game is over ({}): no placement is legal, so every count is 0",
            super::render::status_line(&pos)
        );
    }
    let start = Instant::now();
    let total = if args.divide && args.depth > 0 {
        let rows = perft_divide(&pos, args.depth);
        let mut text = String::new();
        for (p, n) in &rows {
            // Writing to a String cannot fail.
            let _ = writeln!(text, "{p}  {n}");
        }
        text.push('\n');
        super::style::print(&text)?;
        rows.iter().map(|r| r.1).sum()
    } else {
        perft(&pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft {}: {total} leaves in {secs:.3} s ({:.1} M leaves/s)",
        args.depth,
        total as f64 / secs.max(1e-9) / 1e6
    );
    super::style::print(&format!("{total}\n"))?;
    Ok(())
}
