//! What the integration tests share: running the `cabra` binary, the data
//! files under `tests/data`, fresh temporary directories, the reference
//! orientation model of RULES.md section 3, and a counting allocator.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use cabra::game::Piece;

#[cfg(unix)]
pub mod pty;

/// A path under `tests/data`.
pub fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

/// Rows of a TSV file of `tests/data`, header skipped.
pub fn rows(name: &str) -> Vec<Vec<String>> {
    std::fs::read_to_string(data(name))
        .unwrap()
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// A fresh, empty directory for one test (removed when dropped).
pub fn temp_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("cabra-test-")
        .tempdir()
        .expect("a temporary directory")
}

/// Fails when the program panicked or died by a signal.
pub fn assert_no_panic(o: &Output, what: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert!(!err.contains("RUST_BACKTRACE"), "{what}: {err}");
    assert_ne!(o.status.code(), Some(101), "{what}: exit code of a panic");
    assert!(o.status.code().is_some(), "{what}: killed by a signal");
}

/// Runs `cabra` with `args` in the repository's directory, standard input
/// closed; panics if it panicked.
pub fn cabra(args: &[&str]) -> Output {
    cabra_with_input(args, "")
}

/// Starts `cabra` with `args` in the repository's directory, all three
/// standard streams piped, for tests that talk to it or signal it.
pub fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_cabra"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cabra runs")
}

/// Runs `cabra` with `args`, feeding `input` on standard input.
pub fn cabra_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cabra"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cabra runs");
    // A command that refuses its arguments exits without reading: ignore a broken pipe.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    assert_no_panic(&out, &format!("cabra {args:?}"));
    out
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// Insists that a run `o` succeeded; returns its standard output.
pub fn success(o: Output) -> String {
    assert!(o.status.success(), "{}\n{}", o.status, stderr(&o));
    stdout(&o)
}

/// Runs and insists on success; returns standard output.
pub fn ok(args: &[&str]) -> String {
    let o = cabra(args);
    assert!(
        o.status.success(),
        "cabra {args:?} failed: {}\n{}",
        o.status,
        stderr(&o)
    );
    stdout(&o)
}

/// Runs and insists on success; returns the one JSON value printed.
pub fn ok_json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).expect("one JSON value")
}

/// The canonical cells of a piece (RULES.md section 2).
pub fn canonical(piece: Piece) -> [[i32; 3]; 4] {
    match piece {
        Piece::L => [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]],
        Piece::T => [[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]],
        Piece::Z => [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]],
        Piece::O => [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]],
    }
}

/// The reference orientation model: RULES.md section 3's face map, then
/// the turn about z, then the shift to the origin, written out from the
/// tables (independently of the library).
pub fn oriented(piece: Piece, face: char, angle: u32) -> BTreeSet<[i32; 3]> {
    let cells: Vec<[i32; 3]> = canonical(piece)
        .iter()
        .map(|&[x, y, z]| {
            let [x, y, z] = match face {
                'T' => [x, y, z],
                'B' => [x, -y, -z],
                'N' => [x, z, -y],
                'S' => [x, -z, y],
                'E' => [-z, y, x],
                'W' => [z, y, -x],
                _ => panic!("face {face}"),
            };
            match angle {
                0 => [x, y, z],
                90 => [-y, x, z],
                180 => [-x, -y, z],
                270 => [y, -x, z],
                _ => panic!("angle {angle}"),
            }
        })
        .collect();
    let min = |i: usize| cells.iter().map(|c| c[i]).min().unwrap();
    let (mx, my, mz) = (min(0), min(1), min(2));
    cells
        .iter()
        .map(|c| [c[0] - mx, c[1] - my, c[2] - mz])
        .collect()
}

/// A global allocator that counts allocations per thread, for the tests
/// that check hot paths allocate nothing (installed by the `alloc` test
/// binary). Per thread, so that the test harness's own allocations on
/// other threads do not count.
pub struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// Allocations made so far by the calling thread.
pub fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // A thread being torn down may have no counter left: skip it.
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}
