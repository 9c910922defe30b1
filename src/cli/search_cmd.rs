//! `cabra search`: search a position and print the report.

use std::path::PathBuf;

use anyhow::Context;
use cabra::engine::{ReportView, Request};

use super::options::{EngineOptions, RulesOptions};
use crate::cli::defaults;

/// Arguments of `cabra search`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Without a limit the search runs 1 s on all cores; --seed defaults to 0.\nCtrl-C stops the search and prints what it found (exit status 130)."
)]
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
    if pos.status().is_over() && !args.json {
        // Nothing to search: say how the game ended, not what 0 iterations found.
        let text = format!(
            "position after {}, {}\nno move: the game is over\n",
            crate::cli::render::moves_of(&pos, pos.plies()),
            super::render::status_line(&pos)
        );
        return super::style::print(&text);
    }
    let engine = args.engine.handle(&defaults::SEARCH);
    // Ctrl-C (or SIGTERM, SIGHUP) ends the search early: its report is
    // printed, and the exit status says it was cut short.
    let stopper = engine.stopper();
    super::signals::stop_on_signal(move || stopper.stop())?;
    let thought = engine.search(Request::new(pos))?;
    let view = ReportView::of(&pos, &thought);
    if args.json {
        let json = serde_json::to_string(&view).context("writing JSON")?;
        super::style::print(&format!("{json}\n"))?;
    } else {
        let mut text = format!(
            "position after {}, {}\n",
            crate::cli::render::moves_of(&pos, pos.plies()),
            super::render::status_line(&pos)
        );
        text.push_str(&view.table(usize::MAX));
        super::style::print(&text)?;
    }
    Ok(())
}
