//! Pseudo-terminals, for tests that run `cabra` as at a terminal.

use std::fs::File;
use std::os::fd::FromRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

/// A new pseudo-terminal, `(master, slave)`, of `columns` x `rows` (the
/// system's default size with `None`).
pub fn open(size: Option<(u16, u16)>) -> (File, File) {
    let (mut master, mut slave) = (0, 0);
    let size = size.map(|(columns, rows)| libc::winsize {
        ws_row: rows,
        ws_col: columns,
        ws_xpixel: 0,
        ws_ypixel: 0,
    });
    let size_ptr = size.as_ref().map_or(std::ptr::null(), |s| s as *const _);
    // SAFETY: openpty fills two descriptors; no name and default settings
    // are asked for, and the size, if any, lives through the call.
    let opened = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            size_ptr,
        )
    };
    assert_eq!(opened, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and are owned here.
    unsafe { (File::from_raw_fd(master), File::from_raw_fd(slave)) }
}

/// Makes `slave` the standard streams of `cmd` and its controlling
/// terminal, so that the line editor runs and Ctrl-C typed on the
/// terminal sends SIGINT.
pub fn attach(cmd: &mut Command, slave: File) {
    cmd.stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave));
    // SAFETY: setsid and ioctl are async-signal-safe; they make the
    // pseudo-terminal (standard input) the child's controlling terminal.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}
