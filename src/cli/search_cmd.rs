//! `cabra search`: search a position and print the report.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use cabra::engine::Budget;

use super::options::{EngineOptions, RulesOptions, all_cores};

/// The budget when none is given, so that the command always ends.
const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// Arguments of `cabra search`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Without a limit the search runs 1 s on all cores; --seed defaults to 0.")]
pub struct SearchArgs {
    /// A `.caminos` game record: the search starts from its final position
    /// (the empty board when omitted).
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub engine: EngineOptions,
    #[command(flatten)]
    pub rules: RulesOptions,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Runs `cabra search`.
pub fn run(args: &SearchArgs) -> anyhow::Result<()> {
    let pos = args.rules.load(args.file.as_deref())?.position;
    let mut engine = args
        .engine
        .engine(all_cores(), Budget::time(DEFAULT_TIME), 0);
    let budget = engine.budget();
    let report = engine
        .think(&pos, budget, &mut |_| {})
        .report
        .map_moves(|m| m.to_string());
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report).context("writing JSON")?
        );
    } else {
        let mut text = format!(
            "position after {}, {}\n",
            crate::cli::render::moves_of(&pos, pos.plies()),
            super::render::status_line(&pos)
        );
        text.push_str(&report.to_table());
        super::style::print(&text);
    }
    Ok(())
}
