//! Saving a file as a shell redirect would, without ever losing the old
//! one.
//!
//! - A new file, or one the user owns with no other name, is written to a
//!   temporary file in the same directory, synced, then renamed over the
//!   target, and the directory is synced: a save cut short leaves the old
//!   file whole. A replaced file keeps its permissions, a new one gets
//!   those the umask allows.
//! - A file the user may not write is refused, as a shell redirect would
//!   refuse it (`Permission denied`), whoever owns the directory.
//! - A file that the rename would change: one owned by another user (the
//!   rename would make it the saver's), one with other names (hard links,
//!   which would keep the old content), one in a directory the user may not
//!   write (no rename is possible there): it is written in place, keeping
//!   its owner, its links and its inode. The room for the new content is
//!   taken first, so that a full disk fails before a byte changes.
//! - A symbolic link is followed (its target is saved, the link stays);
//!   only regular files are replaced.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

/// The file a save to `path` replaces: symbolic links followed to their
/// target (which need not exist yet).
fn resolve(path: &Path) -> anyhow::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&p)
                    .with_context(|| format!("cannot read the link {}", p.display()))?;
                p = match p.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                };
            }
            _ => return Ok(p),
        }
    }
    bail!("{}: too many levels of symbolic links", path.display())
}

/// Whether this process may write `path` (and, for a directory, create
/// files in it), by its effective user and groups, as the system decides;
/// if not, why (a read-only file system, permission denied).
#[cfg(unix)]
fn may_write(path: &Path, directory: bool) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))?;
    let mode = if directory {
        libc::W_OK | libc::X_OK
    } else {
        libc::W_OK
    };
    // SAFETY: `c` is a valid C string for the duration of the call.
    if unsafe { libc::faccessat(libc::AT_FDCWD, c.as_ptr(), mode, libc::AT_EACCESS) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Why a save to `path` is refused when `may_write` refused the file
/// (`dir: None`) or the directory `dir` a new file would go in.
#[cfg(unix)]
fn refusal(path: &Path, dir: Option<&Path>, e: &std::io::Error) -> String {
    let shown = path.display();
    match (e.kind(), dir) {
        // The whole file system is mounted read-only: no permission
        // would help, so it is named for what it is.
        (std::io::ErrorKind::ReadOnlyFilesystem, _) => {
            format!("cannot save {shown}: the file system is read-only")
        }
        (std::io::ErrorKind::PermissionDenied, None) => {
            format!("cannot save {shown}: permission denied (the file is read-only for you)")
        }
        (std::io::ErrorKind::PermissionDenied, Some(d)) => format!(
            "cannot save {shown}: permission denied (the directory {} is read-only for you)",
            d.display()
        ),
        _ => format!("cannot save {shown}: {}", in_words(e)),
    }
}

/// Why a file must be written in place rather than replaced: `None` when
/// a rename keeps everything about it.
#[cfg(unix)]
fn in_place_reason(meta: &std::fs::Metadata, dir: &Path) -> Option<&'static str> {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if meta.nlink() > 1 {
        Some("it has other names")
    } else if meta.uid() != me {
        Some("another user owns it")
    } else if may_write(dir, true).is_err() {
        Some("its directory is read-only")
    } else {
        None
    }
}

/// The file a save to `path` writes, its directory and what is there now;
/// an error when the save would be refused (a file the user may not
/// write, no room for a new one, not a regular file).
fn plan(path: &Path) -> anyhow::Result<(PathBuf, PathBuf, Option<std::fs::Metadata>)> {
    if path
        .as_os_str()
        .to_string_lossy()
        .ends_with(std::path::MAIN_SEPARATOR)
    {
        bail!(
            "cannot save {}: that names a directory, not a file",
            path.display()
        );
    }
    let target = resolve(path)?;
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let existing = match std::fs::metadata(&target) {
        Ok(m) if !m.is_file() => {
            bail!("cannot save {}: it is not a regular file", path.display())
        }
        Ok(m) => Some(m),
        Err(_) => None,
    };
    if existing.is_none() && !dir.is_dir() {
        bail!(
            "cannot save {}: there is no directory {}",
            path.display(),
            dir.display()
        );
    }
    #[cfg(unix)]
    match &existing {
        Some(_) => {
            may_write(&target, false).map_err(|e| anyhow::anyhow!(refusal(path, None, &e)))?
        }
        None => {
            may_write(&dir, true).map_err(|e| anyhow::anyhow!(refusal(path, Some(&dir), &e)))?
        }
    }
    Ok((target, dir, existing))
}

/// Why a save to `path` would be refused, before anything is asked or
/// written (`Ok`: it would not be).
pub fn check(path: &Path) -> anyhow::Result<()> {
    plan(path).map(|_| ())
}

/// Writes `bytes` to `path` as the module says: atomically where a rename
/// keeps the file's owner and links, in place where it would not.
pub fn save_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let (target, dir, existing) = plan(path)?;
    let failed =
        |e: std::io::Error| anyhow::anyhow!("cannot save {}: {}", path.display(), in_words(&e));
    #[cfg(unix)]
    if existing
        .as_ref()
        .is_some_and(|m| in_place_reason(m, &dir).is_some())
    {
        return write_in_place(&target, bytes).map_err(failed);
    }
    replace(&target, &dir, bytes, existing.map(|m| m.permissions())).map_err(failed)
}

/// Why a read or a write failed, as a person says it: a full disk is a
/// full disk, not an OS error number beside a temporary file's path.
pub(crate) fn in_words(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::StorageFull => "the disk is full".into(),
        ErrorKind::QuotaExceeded => "your disk quota is used up".into(),
        ErrorKind::ReadOnlyFilesystem => "the file system is read-only".into(),
        ErrorKind::PermissionDenied => "permission denied".into(),
        ErrorKind::NotFound => "there is no such file".into(),
        ErrorKind::IsADirectory => "it is a folder, not a file".into(),
        ErrorKind::NotADirectory => "a file is in the way of a folder".into(),
        ErrorKind::AlreadyExists => "a file of that name is in the way".into(),
        _ => e.to_string(),
    }
}

/// Writes a temporary file beside `target` and renames it over `target`.
fn replace(
    target: &Path,
    dir: &Path,
    bytes: &[u8],
    permissions: Option<std::fs::Permissions>,
) -> std::io::Result<()> {
    let name = target.file_name().unwrap_or_default();
    let prefix = format!(".{}.", name.to_string_lossy());
    remove_stale_temporaries(dir, &prefix);
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // A new file gets the mode any program's new file gets (0666 less the
    // umask), not the temporary file's private 0600.
    #[cfg(unix)]
    if permissions.is_none() {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    if let Some(perms) = permissions {
        tmp.as_file().set_permissions(perms)?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(target).map_err(|e| e.error)?;
    // The rename itself is durable once the directory is synced.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Overwrites `target` in place: its room is reserved first (a full disk
/// fails before any byte changes), then the content is written from the
/// start, the rest cut off, and the file synced.
#[cfg(unix)]
fn write_in_place(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    use std::os::unix::io::AsRawFd;
    let file = std::fs::OpenOptions::new().write(true).open(target)?;
    let len = bytes.len() as u64;
    if len > file.metadata()?.len() {
        // SAFETY: a valid open file descriptor and a length that fits.
        let err = unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len as libc::off_t) };
        // A file system that cannot reserve room (EOPNOTSUPP, EINVAL) is
        // written without: any other error stops the save.
        if err != 0 && err != libc::EOPNOTSUPP && err != libc::EINVAL {
            return Err(std::io::Error::from_raw_os_error(err));
        }
    }
    file.write_all_at(bytes, 0)?;
    file.set_len(len)?;
    file.sync_all()
}

/// A save killed midway leaves its temporary file: the next save to the
/// same name removes those more than a minute old (younger ones may belong
/// to a save in progress).
fn remove_stale_temporaries(dir: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with(prefix) && name.ends_with(".tmp")) {
            continue;
        }
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age.as_secs() > 60);
        if old {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_is_said_in_words() {
        use std::io::{Error, ErrorKind};
        let full = Error::new(
            ErrorKind::StorageFull,
            "No space left on device (os error 28) at path \"/x/.a.tmp\"",
        );
        assert_eq!(in_words(&full), "the disk is full");
        assert_eq!(
            in_words(&Error::from(ErrorKind::ReadOnlyFilesystem)),
            "the file system is read-only"
        );
        // Anything else keeps the system's words.
        assert_eq!(in_words(&Error::other("odd")), "odd");
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_file_system_is_named_for_what_it_is() {
        use std::io::Error;
        let p = Path::new("/mnt/ro/game.caminos");
        let erofs = Error::from_raw_os_error(libc::EROFS);
        for dir in [None, Some(Path::new("/mnt/ro"))] {
            assert_eq!(
                refusal(p, dir, &erofs),
                "cannot save /mnt/ro/game.caminos: the file system is read-only"
            );
        }
        let eacces = Error::from_raw_os_error(libc::EACCES);
        assert!(refusal(p, None, &eacces).ends_with("(the file is read-only for you)"));
        assert!(
            refusal(p, Some(Path::new("/mnt/ro")), &eacces)
                .ends_with("(the directory /mnt/ro is read-only for you)")
        );
    }

    #[test]
    fn saves_follow_links_keep_modes_and_refuse_other_files() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.caminos");
        std::fs::write(&real, "old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
            let link = dir.path().join("link.caminos");
            std::os::unix::fs::symlink("real.caminos", &link).unwrap();
            save_atomically(&link, b"new").unwrap();
            assert!(
                std::fs::symlink_metadata(&link)
                    .unwrap()
                    .file_type()
                    .is_symlink()
            );
            assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
            let mode = std::fs::metadata(&real).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        #[cfg(unix)]
        {
            // A new file: 0666 less the umask (read back from a file the
            // standard library creates, which gets exactly that).
            use std::os::unix::fs::PermissionsExt;
            let plain = dir.path().join("plain");
            std::fs::write(&plain, "x").unwrap();
            let fresh = dir.path().join("fresh.caminos");
            save_atomically(&fresh, b"new").unwrap();
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&fresh), mode(&plain));
            std::fs::remove_file(&plain).unwrap();
        }
        let err = save_atomically(dir.path(), b"x").unwrap_err();
        assert!(format!("{err:#}").contains("not a regular file"));
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_file_with_other_names_is_written_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::write(&a, "a much longer old content").unwrap();
        std::fs::hard_link(&a, &b).unwrap();
        save_atomically(&a, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "new");
        save_atomically(&b, b"newer and longer than before").unwrap();
        assert_eq!(
            std::fs::read_to_string(&a).unwrap(),
            "newer and longer than before"
        );
    }
}
