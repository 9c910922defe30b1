//! One run at a time in an `--out` folder: a run holds an exclusive lock
//! on the folder's records file from before it reads the records until it
//! ends, so that two runs of one shard (a requeued task whose first run
//! still lives, a command started twice) never record the same games.

use std::fs::File;
use std::path::Path;

use anyhow::bail;

/// The lock on a records file, held until dropped (or the process ends).
#[derive(Debug)]
pub struct RunLock {
    _file: File,
}

/// Takes the lock on `records` (created if missing), or fails at once
/// when another run holds it.
pub fn lock_records(records: &Path) -> anyhow::Result<RunLock> {
    // Opened for writing, a named pipe would wait for a reader for ever.
    if let Ok(meta) = std::fs::metadata(records) {
        if !meta.is_file() {
            bail!("{} is not a regular file", records.display());
        }
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(records)
        .map_err(|e| crate::cli::files::io_error("write", records, &e))?;
    if !try_lock(&file, records) {
        let dir = records.parent().unwrap_or(records);
        bail!(
            "{} is in use by another run (it holds the lock on {}): wait for it to end, \
             or stop it",
            dir.display(),
            records.display()
        );
    }
    Ok(RunLock { _file: file })
}

/// Whether this run may go on: it holds the lock, or the file system
/// has no locks (then it goes on unguarded, and says so); false only
/// when another run holds it.
#[cfg(unix)]
fn try_lock(file: &File, records: &Path) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a file descriptor this function borrows; the lock
    // goes with the descriptor when the file is closed.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return true;
    }
    let e = std::io::Error::last_os_error();
    if e.kind() == std::io::ErrorKind::WouldBlock {
        return false;
    }
    eprintln!(
        "note: cannot lock {} ({e}): nothing stops another run from using the folder at once",
        records.display()
    );
    true
}

#[cfg(not(unix))]
fn try_lock(_file: &File, _records: &Path) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_run_is_refused_until_the_first_ends() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.jsonl");
        let first = lock_records(&path).unwrap();
        let e = format!("{:#}", lock_records(&path).unwrap_err());
        assert!(e.contains("in use by another run"), "{e}");
        drop(first);
        lock_records(&path).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_in_place_of_records_is_refused_not_opened() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.jsonl");
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: a valid path string; mkfifo creates the named pipe.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = format!("{:#}", lock_records(&path).unwrap_err());
        assert!(e.contains("not a regular file"), "{e}");
    }
}
