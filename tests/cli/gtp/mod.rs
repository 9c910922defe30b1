//! `cabra gtp` through a pipe: every command, a whole game against
//! itself, malformed input, and analysis streams.

mod commands;
mod input;
mod session;
mod streams;
