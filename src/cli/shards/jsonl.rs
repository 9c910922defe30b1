//! A records file: one JSON object a line. A line is appended in one
//! write and flushed, so a kill in the middle of a write leaves at most a
//! last line without its line break: [`read_lines`] ignores it, and
//! [`Appender::open`] cuts it off before appending.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Context;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The complete lines of `path` read as `T`, in file order, and the
/// length in bytes of those lines (a partial last line is left out). No
/// file: none. A complete line that is not a `T` is an error naming the
/// line and saying it is not `what`.
pub fn read_lines<T: DeserializeOwned>(path: &Path, what: &str) -> anyhow::Result<(Vec<T>, u64)> {
    let (lines, complete) = read_numbered_lines(path, what)?;
    Ok((lines.into_iter().map(|(_, t)| t).collect(), complete))
}

/// [`read_lines`], each record with its line number (1 for the first),
/// for messages about what a record holds.
pub fn read_numbered_lines<T: DeserializeOwned>(
    path: &Path,
    what: &str,
) -> anyhow::Result<(Vec<(usize, T)>, u64)> {
    // A device or a pipe in its place (`/dev/zero`) would be read for ever.
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            anyhow::bail!("{} is not a regular file", path.display());
        }
    }
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
        Err(e) => return Err(e).map_err(|e| crate::cli::files::io_error("read", path, &e)),
    };
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut lines = Vec::new();
    for (i, line) in bytes[..complete].split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let record: T = serde_json::from_slice(line)
            .with_context(|| format!("{} line {}: not {what}", path.display(), i + 1))?;
        lines.push((i + 1, record));
    }
    Ok((lines, complete as u64))
}

/// Appends records to a file, a whole line at a time.
pub struct Appender {
    file: Mutex<std::fs::File>,
    path: PathBuf,
}

impl Appender {
    /// Opens `path` for appending; `keep` bytes (its complete lines) are
    /// kept, anything after them cut off (`keep = 0`: a fresh file).
    pub fn open(path: &Path, keep: u64) -> anyhow::Result<Appender> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| crate::cli::files::io_error("write", path, &e))?;
        file.set_len(keep)
            .map_err(|e| crate::cli::files::io_error("write", path, &e))?;
        Ok(Appender {
            file: Mutex::new(file),
            path: path.to_path_buf(),
        })
    }

    /// Appends one record (one write, then flushed).
    pub fn append(&self, line: &impl Serialize) -> anyhow::Result<()> {
        let mut text = serde_json::to_string(line)?;
        text.push('\n');
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(text.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| crate::cli::files::io_error("write", &self.path, &e))
    }
}

#[cfg(test)]
mod tests {
    #[cfg(unix)]
    #[test]
    fn a_device_in_place_of_records_is_refused_not_read() {
        let e = super::read_lines::<serde_json::Value>("/dev/zero".as_ref(), "records");
        let e = format!("{:#}", e.unwrap_err());
        assert!(e.contains("/dev/zero is not a regular file"), "{e}");
    }
}
