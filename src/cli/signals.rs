//! Signals. Ctrl-C (SIGINT, through `ctrlc`) and SIGTERM or SIGHUP
//! (through `libc`: the handler only raises an atomic flag, and a watcher
//! thread acts on it) end a command gracefully:
//!
//! - `analyze`, `match`, `search`, `selfplay`: the first signal raises a stop flag,
//!   so the command ends its work early and prints what is finished, then
//!   exits with the signal's status (130 for SIGINT, 143 for SIGTERM, 129
//!   for SIGHUP: [`exit_code`]), so that a script sees it was cut short; a
//!   second signal ends the program at once, with the same status;
//! - `play`: see `play/term.rs` (Ctrl-C stops a search; SIGTERM and SIGHUP
//!   print the position code of an unsaved game and leave).

use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
#[cfg(unix)]
use std::time::Duration;

/// SIGINT's number.
const SIGINT: i32 = 2;

/// The number of a SIGTERM or SIGHUP that arrived and is not yet handled
/// (Unix only: elsewhere Ctrl-C is the one signal).
#[cfg(unix)]
static TERMINATED: AtomicI32 = AtomicI32::new(0);

/// The signal that stopped the command, if any.
static STOPPED_BY: AtomicI32 = AtomicI32::new(0);

#[cfg(unix)]
extern "C" fn on_terminate(signal: libc::c_int) {
    TERMINATED.store(signal, Ordering::SeqCst);
}

/// The exit status of a command that a signal stopped: 128 plus the
/// signal's number, as a shell reports it (`None`: no signal came).
pub fn exit_code() -> Option<u8> {
    match STOPPED_BY.load(Ordering::SeqCst) {
        0 => None,
        s => Some(128u8.saturating_add(s as u8)),
    }
}

/// Calls `action` with the signal's number (on a watcher thread) when
/// SIGTERM or SIGHUP arrives; a second such signal after that ends the
/// program (status 128 plus its number).
pub fn on_termination(action: impl Fn(i32) + Send + 'static) {
    #[cfg(unix)]
    {
        // SAFETY: the handler only stores to an atomic, which is
        // async-signal-safe; SIGTERM and SIGHUP may be caught.
        unsafe {
            libc::signal(
                libc::SIGTERM,
                on_terminate as extern "C" fn(libc::c_int) as libc::sighandler_t,
            );
            libc::signal(
                libc::SIGHUP,
                on_terminate as extern "C" fn(libc::c_int) as libc::sighandler_t,
            );
        }
        std::thread::spawn(move || {
            let wait = || loop {
                let s = TERMINATED.swap(0, Ordering::SeqCst);
                if s != 0 {
                    return s;
                }
                std::thread::sleep(Duration::from_millis(25));
            };
            action(wait());
            std::process::exit(128 + wait());
        });
    }
    #[cfg(not(unix))]
    let _ = action;
}

/// Calls `stop` on the first Ctrl-C, SIGTERM or SIGHUP, and remembers the
/// signal for [`exit_code`]; a second Ctrl-C ends the program at once
/// (status 130).
pub fn stop_on_signal(stop: impl Fn() + Send + Sync + 'static) -> anyhow::Result<()> {
    let stop = Arc::new(stop);
    let s = stop.clone();
    ctrlc::set_handler(move || {
        if STOPPED_BY.swap(SIGINT, Ordering::SeqCst) != 0 {
            std::process::exit(128 + SIGINT);
        }
        s();
    })?;
    on_termination(move |signal| {
        STOPPED_BY.store(signal, Ordering::SeqCst);
        stop();
    });
    Ok(())
}

/// Runs `f`, then puts back the Ctrl-C (SIGINT) handler that was in place
/// before it. rustyline installs its own handler when its editor is
/// created, and keeps it until the editor is dropped, so Ctrl-C would no
/// longer reach ours while a command runs; at its prompt rustyline reads
/// Ctrl-C as a key, and needs no handler for it.
pub fn keeping_ctrl_c<T>(f: impl FnOnce() -> T) -> T {
    #[cfg(unix)]
    {
        // SAFETY: with a null new action, sigaction only reads the current
        // one into `old`; putting back an action read that way is valid.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            let saved = libc::sigaction(libc::SIGINT, std::ptr::null(), &mut old) == 0;
            let out = f();
            if saved {
                libc::sigaction(libc::SIGINT, &old, std::ptr::null_mut());
            }
            out
        }
    }
    #[cfg(not(unix))]
    f()
}

/// Makes writing to a closed pipe an error rather than the end of the
/// program (`main` restores the default for the `| head` case): for
/// commands that write to other programs, which may die at any time.
pub fn ignore_broken_pipes() {
    #[cfg(unix)]
    // SAFETY: SIG_IGN is a valid action for SIGPIPE; it installs no handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}
