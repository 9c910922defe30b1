//! The command-line front end: one file per subcommand, the `play` REPL
//! (`play/`), the board renderer, and what they share: options, files,
//! styles and signals.

pub mod analysis_cmd;
pub mod analyze;
pub mod bench;
pub mod check;
pub mod defaults;
pub mod engines;
pub mod files;
pub mod gtp;
pub mod lines;
pub mod match_cmd;
pub mod options;
pub mod perft_cmd;
pub mod play;
pub mod render;
pub mod save;
pub mod search_cmd;
#[cfg(feature = "serve")]
pub mod serve;
pub mod shards;
pub mod show;
pub mod signals;
pub mod style;
pub mod svg;
pub mod tactics_cmd;
pub mod train_cmd;

/// `1 placement`, `3 placements`: a count (with thousands separators) and
/// a noun, plural when the count is not 1. English words are the
/// program's, so this lives here; the library's reports have their own.
pub fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", cabra::engine::group(n))
    }
}

/// An error's message and those of its causes ([`std::error::Error::source`]),
/// joined with `: ` as anyhow's `{:#}` writes them: the library's errors
/// leave their cause out of their own message, so that a front end
/// printing only the top one (`{e}`, `e.to_string()`) would lose it.
pub fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}
