//! Records the commit a binary is built from, for `cabra --version`.
//!
//! Built from a git checkout, `CABRA_VERSION_LINE` is the version and the
//! short hash of HEAD ("0.2.0 (commit 1a2b3c4d5)"); built from a source
//! archive (crates.io, nix, a tarball), it is the version alone.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let commit = if Path::new(".git").exists() {
        git(&["rev-parse", "--short=9", "HEAD"])
    } else {
        None
    };
    let line = match commit {
        Some(commit) => {
            // Build again when HEAD moves: the files git keeps it in.
            // (A path that does not exist would rerun this every build.)
            let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
            watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
            for name in watched {
                if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
                    if Path::new(&path).exists() {
                        println!("cargo:rerun-if-changed={path}");
                    }
                }
            }
            format!("{version} (commit {commit})")
        }
        None => version,
    };
    println!("cargo:rustc-env=CABRA_VERSION_LINE={line}");
}
