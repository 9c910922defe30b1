//! `.caminos` game records (RULES.md section 8): reading with line-numbered
//! errors, writing in the canonical form, saving atomically.

use std::io::Write;
use std::path::Path;

use anyhow::Context;

use super::error::RecordError;
use super::notation::{cells_from_digits, placement_from_cells};
use super::position::Position;
use super::table::Placement;

/// The placement on one line of a record, or `None` for a blank or comment-only line.
fn parse_line(line: &str) -> Result<Option<Placement>, String> {
    let content = line.split('#').next().unwrap_or("");
    if content.trim().is_empty() {
        return Ok(None);
    }
    let digits: Vec<u8> = content
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    let cells = cells_from_digits(&digits)?;
    placement_from_cells(cells).map(Some)
}

/// Reads a game record. The first bad line stops reading with an error naming
/// the line and the reason; nothing past it is applied.
pub fn parse_game(text: &str) -> Result<Position, RecordError> {
    let mut pos = Position::new();
    for (i, line) in text.lines().enumerate() {
        let fail = |reason: String| RecordError {
            line: i + 1,
            reason,
        };
        if let Some(p) = parse_line(line).map_err(fail)? {
            pos.try_play(p).map_err(|e| fail(e.to_string()))?;
        }
    }
    Ok(pos)
}

/// Reads a game record from a file.
pub fn read_game(path: &Path) -> anyhow::Result<Position> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    parse_game(&text).with_context(|| format!("{} is not a valid game", path.display()))
}

/// One line of a record: the four cells in ascending order, then the notation.
pub fn placement_line(p: Placement) -> String {
    let cells: Vec<String> = p.entry().cells.cells().map(|c| c.to_string()).collect();
    format!("{}  # {}", cells.join(" "), p)
}

/// The record of a game: one placement per line, as RULES.md section 8 says.
pub fn write_game(pos: &Position) -> String {
    pos.history()
        .iter()
        .map(|&p| placement_line(p) + "\n")
        .collect()
}

/// Saves a game record without ever leaving a half-written file: the text goes
/// to a temporary file beside the target, is flushed to disk, then renamed over it.
pub fn save_game(path: &Path, pos: &Position) -> anyhow::Result<()> {
    save_atomically(path, write_game(pos).as_bytes())
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn save_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .with_context(|| format!("{} is not a file name", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.with_context(|| format!("cannot save {}", path.display()))
}
