//! One run at a time in an `--out` folder: a run holds an exclusive lock
//! on the folder's records file from before it reads the records until it
//! ends, so that two runs of one shard (a requeued task whose first run
//! still lives, a command started twice) never record the same games.

use std::fs::File;
use std::path::Path;

use anyhow::{Context, bail};

/// The lock on a records file, held until dropped (or the process ends).
#[derive(Debug)]
pub struct RunLock {
    _file: File,
}

/// Takes the lock on `records` (created if missing), or fails at once
/// when another run holds it.
pub fn lock_records(records: &Path) -> anyhow::Result<RunLock> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(records)
        .with_context(|| format!("cannot write {}", records.display()))?;
    if !try_lock(&file) {
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

#[cfg(unix)]
fn try_lock(file: &File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a file descriptor this function borrows; the lock
    // goes with the descriptor when the file is closed.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

#[cfg(not(unix))]
fn try_lock(_file: &File) -> bool {
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
}
