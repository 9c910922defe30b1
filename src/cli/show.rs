//! `cabra show`: print the final position of a game file.

use std::io::IsTerminal;
use std::path::PathBuf;

use super::render::render;

/// Arguments of `cabra show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// A `.caminos` game record.
    pub file: PathBuf,
}

/// Prints the position at the end of the file.
pub fn run(args: &ShowArgs) -> anyhow::Result<()> {
    let pos = cabra::game::record::read_game(&args.file)?;
    print!("{}", render(&pos, std::io::stdout().is_terminal()));
    Ok(())
}
