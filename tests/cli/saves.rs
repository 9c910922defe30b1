//! Saving honours a file's permissions, owner and links as a shell
//! redirect does, and never loses what was there. The saves run as an
//! unprivileged user: `nobody` when the tests run as root (as in CI),
//! else the user running them.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::*;

/// `nobody`'s ids.
const NOBODY: u32 = 65534;

fn root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// The user the saves run as.
fn user() -> u32 {
    if root() {
        NOBODY
    } else {
        // SAFETY: geteuid has no preconditions.
        unsafe { libc::geteuid() }
    }
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A directory the saving user owns, under a temporary one.
fn home(base: &Path) -> PathBuf {
    chmod(base, 0o755);
    let dir = base.join("home");
    std::fs::create_dir(&dir).unwrap();
    if root() {
        std::os::unix::fs::chown(&dir, Some(NOBODY), Some(NOBODY)).unwrap();
    }
    dir
}

/// A file with this content and mode, owned by `owner` (when root).
fn file(path: &Path, content: &str, mode: u32, owner: u32) {
    std::fs::write(path, content).unwrap();
    chmod(path, mode);
    if root() {
        std::os::unix::fs::chown(path, Some(owner), Some(owner)).unwrap();
    }
}

/// `cabra play` as the saving user: one placement, then `line`; what it said.
fn save(line: &str) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cabra"));
    cmd.args(["play", "--you", "both"])
        .current_dir("/")
        .env("HOME", "/nonexistent")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if root() {
        cmd.uid(NOBODY).gid(NOBODY);
    }
    let mut child = cmd.spawn().expect("cabra runs");
    use std::io::Write;
    let input = format!("L E180 110\n{line}\nquit\nquit\n");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_no_panic(&out, line);
    stdout(&out)
}

const SAVED: &str = "110 120 121 122  # L E180 110\n";

#[test]
fn a_read_only_file_is_refused_and_kept() {
    let base = temp_dir();
    let dir = home(base.path());
    let own = dir.join("own.caminos");
    file(&own, "old\n", 0o444, user());
    for command in ["save", "save!"] {
        let said = save(&format!("{command} {}", own.display()));
        assert!(said.contains("permission denied"), "{command}: {said}");
        assert_eq!(std::fs::read_to_string(&own).unwrap(), "old\n");
    }
    if root() {
        // Another user's read-only file in a directory anyone may write:
        // refused, its owner and content untouched.
        let shared = base.path().join("shared");
        std::fs::create_dir(&shared).unwrap();
        chmod(&shared, 0o777);
        let theirs = shared.join("theirs.caminos");
        file(&theirs, "theirs\n", 0o444, 0);
        let said = save(&format!("save! {}", theirs.display()));
        assert!(said.contains("permission denied"), "{said}");
        let meta = std::fs::metadata(&theirs).unwrap();
        assert_eq!(
            (meta.uid(), std::fs::read_to_string(&theirs).unwrap()),
            (0, "theirs\n".into())
        );
    }
}

#[test]
fn owners_and_links_stay_and_a_read_only_directory_still_saves() {
    let base = temp_dir();
    let dir = home(base.path());
    // A file with a second name: both names see the new game.
    let a = dir.join("a.caminos");
    file(&a, "old\n", 0o644, user());
    let b = dir.join("b.caminos");
    std::fs::hard_link(&a, &b).unwrap();
    let said = save(&format!("save! {}", a.display()));
    assert!(said.contains("Saved"), "{said}");
    assert_eq!(std::fs::read_to_string(&b).unwrap(), SAVED);
    assert_eq!(std::fs::metadata(&a).unwrap().nlink(), 2);
    // A writable file in a directory the user may not write.
    let locked = base.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    let inside = locked.join("game.caminos");
    file(
        &inside,
        "a longer old game than the new one\n",
        0o666,
        user(),
    );
    if root() {
        std::os::unix::fs::chown(&locked, Some(NOBODY), Some(NOBODY)).unwrap();
    }
    chmod(&locked, 0o555);
    let said = save(&format!("save! {}", inside.display()));
    assert!(said.contains("Saved"), "{said}");
    assert_eq!(std::fs::read_to_string(&inside).unwrap(), SAVED);
    // A new file there cannot be made: said so plainly.
    let said = save(&format!("save {}", locked.join("new.caminos").display()));
    assert!(said.contains("permission denied"), "{said}");
    chmod(&locked, 0o755);
    if root() {
        // Another user's writable file: saved, still theirs.
        let theirs = dir.join("theirs.caminos");
        file(&theirs, "old\n", 0o666, 0);
        let said = save(&format!("save! {}", theirs.display()));
        assert!(said.contains("Saved"), "{said}");
        let meta = std::fs::metadata(&theirs).unwrap();
        assert_eq!(
            (meta.uid(), std::fs::read_to_string(&theirs).unwrap()),
            (0, SAVED.into())
        );
    }
}
