//! Reading game records from files and saving files safely.
//!
//! A save never destroys the previous file: the bytes go to a temporary
//! file in the same directory ([`tempfile`]), are synced, then renamed over
//! the target, and the directory is synced. A symbolic link is followed (its
//! target is replaced, the link stays), only regular files are replaced,
//! a replaced file keeps its permissions, and a new one gets those the
//! umask allows, as with any other program.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
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

/// Reads a game record from a file.
pub fn read_record(path: &Path) -> anyhow::Result<Record> {
    let bytes = read_input(path).with_context(|| format!("cannot read {}", path.display()))?;
    parse_record(&bytes).with_context(|| format!("{} is not a valid game", path.display()))
}

/// Saves a game (after its header comments) atomically.
pub fn save_game(path: &Path, header: &[String], pos: &Position) -> anyhow::Result<()> {
    save_atomically(path, write_record(header, pos).as_bytes())
}

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

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn save_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let target = resolve(path)?;
    let existing = match std::fs::metadata(&target) {
        Ok(m) if !m.is_file() => {
            bail!("cannot save {}: it is not a regular file", path.display())
        }
        Ok(m) => Some(m.permissions()),
        Err(_) => None,
    };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .with_context(|| format!("{} is not a file name", path.display()))?;
    let prefix = format!(".{}.", name.to_string_lossy());
    remove_stale_temporaries(&dir, &prefix);
    let save = || -> std::io::Result<()> {
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // A new file gets the mode any program's new file gets (0666 less
        // the umask), not the temporary file's private 0600.
        #[cfg(unix)]
        if existing.is_none() {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let mut tmp = builder.tempfile_in(&dir)?;
        tmp.write_all(bytes)?;
        if let Some(perms) = &existing {
            tmp.as_file().set_permissions(perms.clone())?;
        }
        tmp.as_file().sync_all()?;
        tmp.persist(&target).map_err(|e| e.error)?;
        // The rename itself is durable once the directory is synced.
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    };
    save().with_context(|| format!("cannot save {}", path.display()))
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
    fn endless_inputs_are_refused() {
        let err = read_record(Path::new("/dev/zero")).unwrap_err();
        assert!(format!("{err:#}").contains("larger than 16 MiB"), "{err:#}");
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
}
