//! Reading game records from files, and saving them (how a save keeps
//! the old file, its owner and its links: [`super::save`]).

use std::path::{Path, PathBuf};

use anyhow::Context;
use cabra::game::Position;
use cabra::game::record::{Record, parse_record, write_record};

/// The largest file read as a game record, a tactics position or an
/// openings list (a game record takes a few hundred bytes): larger ones,
/// or endless ones such as `/dev/zero`, are refused, not read into memory.
pub const MAX_INPUT_BYTES: u64 = 16 << 20;

/// The bytes of a file of at most [`MAX_INPUT_BYTES`].
pub fn read_input(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than {} MiB", MAX_INPUT_BYTES >> 20),
        ));
    }
    Ok(bytes)
}

/// "cannot `verb` `path`: why", the why in words ([`in_words`]).
pub fn io_error(verb: &str, path: &Path, e: &std::io::Error) -> anyhow::Error {
    anyhow::anyhow!("cannot {verb} {}: {}", path.display(), in_words(e))
}

/// Reads a game record from a file.
pub fn read_record(path: &Path) -> anyhow::Result<Record> {
    let bytes = read_input(path).map_err(|e| io_error("read", path, &e))?;
    parse_record(&bytes).with_context(|| format!("{} is not a valid game", path.display()))
}

use super::save::in_words;
pub use super::save::save_atomically;

/// What names a file a session loaded or wrote, whichever path names it
/// later: its canonical path (the path as given while it does not exist).
/// A session replaces such a file without asking; any other one only when
/// told to.
pub fn own_key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Saves an SVG picture to `out`, drawn from the game file `input`. An
/// existing file is replaced only if it is a picture too: `--svg` given
/// the game's own path (or another game's) would otherwise destroy it.
pub fn save_picture(out: &Path, input: &Path, svg: &str) -> anyhow::Result<()> {
    if own_key(out) == own_key(input) {
        anyhow::bail!(
            "--svg {} is the game file being read: name another file for the picture",
            out.display()
        );
    }
    if out.is_file() {
        let mut head = [0u8; 1024];
        let n = std::fs::File::open(out)
            .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
            .map_err(|e| io_error("read", out, &e))?;
        if !String::from_utf8_lossy(&head[..n]).contains("<svg") {
            anyhow::bail!(
                "{} exists and is not an SVG picture: name another file, or remove it first",
                out.display()
            );
        }
    }
    save_atomically(out, svg.as_bytes())
}

/// Saves a game (after its header comments) safely.
pub fn save_game(path: &Path, header: &[String], pos: &Position) -> anyhow::Result<()> {
    save_atomically(path, write_record(header, pos).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endless_inputs_are_refused() {
        let err = read_record(Path::new("/dev/zero")).unwrap_err();
        assert!(format!("{err:#}").contains("larger than 16 MiB"), "{err:#}");
    }
}
