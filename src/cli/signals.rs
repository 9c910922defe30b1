//! Signals. Ctrl-C (SIGINT, through `ctrlc`) and SIGTERM or SIGHUP
//! (through `libc`: the handler only raises an atomic flag, and a watcher
//! thread acts on it) end a command gracefully:
//!
//! - `analyze`, `match`, `selfplay`: the first signal raises a stop flag,
//!   so the command ends its work early and prints what is finished; a
//!   second one ends the program at once;
//! - `play`: see `play/term.rs` (Ctrl-C stops a search; SIGTERM and SIGHUP
//!   print the position code of an unsaved game and leave).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Raised by SIGTERM or SIGHUP.
static TERMINATED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_terminate(_: libc::c_int) {
    TERMINATED.store(true, Ordering::SeqCst);
}

/// Calls `action` (on a watcher thread) when SIGTERM or SIGHUP arrives;
/// a second such signal after that ends the program (status 143).
pub fn on_termination(action: impl Fn() + Send + 'static) {
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
            while !TERMINATED.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(25));
            }
            TERMINATED.store(false, Ordering::SeqCst);
            action();
            while !TERMINATED.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(25));
            }
            std::process::exit(143);
        });
    }
    #[cfg(not(unix))]
    let _ = action;
}

/// Calls `stop` on the first Ctrl-C, SIGTERM or SIGHUP; a second Ctrl-C
/// ends the program at once (status 130).
pub fn stop_on_signal(stop: impl Fn() + Send + Sync + 'static) -> anyhow::Result<()> {
    let stop = Arc::new(stop);
    let first = Arc::new(AtomicBool::new(false));
    let (s, f) = (stop.clone(), first.clone());
    ctrlc::set_handler(move || {
        if f.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        s();
    })?;
    on_termination(move || {
        first.store(true, Ordering::SeqCst);
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
