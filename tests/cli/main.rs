//! The `cabra` program run as a user runs it: arguments and standard input
//! in, text and exit status out.

// Building test input with `format!` in a `collect` is clear, and speed
// does not matter here (Rust 1.85's clippy warns of it; later ones do not).
#![allow(clippy::format_collect)]

#[path = "../common/mod.rs"]
mod common;

mod analysis;
mod analyze;
mod analyze_shards;
mod commands;
mod gtp;
mod http;
mod limits;
mod match_programs;
mod matches;
mod play;
#[cfg(unix)]
mod saves;
mod search;
mod serve;
mod shards;
#[cfg(unix)]
mod signals;
#[cfg(unix)]
mod terminal;
mod train;
mod usage;
mod variants;
