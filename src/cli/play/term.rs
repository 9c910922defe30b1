//! The I/O of `cabra play`: lines from a terminal (rustyline: editing,
//! history, completion, a coloured prompt) or from a pipe (no prompt, no
//! colour, one block per command, each ended by an empty line); the
//! progress line; and Ctrl-C.

use std::borrow::Cow;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use cabra::engine::Request;
use cabra::game::{Player, Position, Status};
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::{DefaultHistory, History};
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};

use super::PlayArgs;
use super::commands::{self, Input, SPECS};
use super::session::{Options, Response, Session, Ui};
use crate::cli::defaults;
use crate::cli::render::fit;
use crate::cli::{signals, style};
use cabra::engine::{Progress, group};

/// Progress is shown once a search has run this long.
const QUIET_FOR: Duration = Duration::from_millis(300);

/// The first error writing standard output, reported when the session ends.
static WRITE_ERROR: Mutex<Option<String>> = Mutex::new(None);

/// Writes to standard output; false once it fails (a full disk), so the
/// session ends, and [`run`] then reports the error.
fn emit(text: &str) -> bool {
    let mut out = std::io::stdout().lock();
    let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    if let Err(e) = &written {
        if let Ok(mut first) = WRITE_ERROR.lock() {
            first.get_or_insert_with(|| e.to_string());
        }
    }
    written.is_ok()
}

/// The session's end: an error if its output could not be written.
fn ended() -> anyhow::Result<()> {
    match WRITE_ERROR.lock().ok().and_then(|e| e.clone()) {
        Some(e) => anyhow::bail!("cannot write the output: {e}"),
        None => Ok(()),
    }
}

/// The terminal (or pipe) side of a session.
struct TermUi {
    /// Draw the progress line (standard error is a terminal).
    progress: bool,
    /// A progress line is on the screen.
    drawn: bool,
    /// The echo turned off while a progress line is shown (at a terminal).
    echo: Option<EchoOff>,
}

impl Ui for TermUi {
    fn progress(&mut self, pos: &Position, p: &Progress) {
        if !self.progress {
            return;
        }
        if self.echo.is_none() {
            // Keys typed while the engine thinks wait for the prompt
            // instead of landing on the progress line.
            self.echo = EchoOff::new();
        }
        if p.elapsed < QUIET_FOR {
            return;
        }
        let best = match p.report.best {
            Some(b) => format!(
                "  best {b} {:.0}% for {}",
                100.0 * p.report.winrate,
                pos.to_move()
            ),
            None => String::new(),
        };
        let width = 10;
        let filled = ((p.fraction.clamp(0.0, 1.0)) * width as f64).round() as usize;
        let bar = format!("[{}{}]", "#".repeat(filled), ".".repeat(width - filled));
        let line = format!(
            "thinking {bar} {:.1}s  {} iterations{best}  (Ctrl-C stops)",
            p.elapsed.as_secs_f64(),
            group(p.report.iterations)
        );
        // One line that never wraps: a wrapped line would leave a stale
        // copy behind at each update.
        let cols = style::stderr_width().saturating_sub(1);
        let line: String = line.chars().take(cols).collect();
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K{line}");
        let _ = err.flush();
        self.drawn = true;
    }

    fn progress_done(&mut self) {
        // Also clears a `^C` the terminal echoed while no line was drawn yet.
        if self.progress {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
            self.drawn = false;
        }
        self.echo = None;
    }

    fn moved(&mut self, note: &str) {
        if let Ok(mut n) = EXIT_NOTE.lock() {
            *n = note.to_string();
        }
    }

    fn stream(&mut self, text: &str) {
        if !text.is_empty() {
            emit(&fit(text, self.width()));
        }
    }
}

impl TermUi {
    /// The width to fit text to: the terminal's, or unlimited in a pipe.
    fn width(&self) -> usize {
        if self.progress {
            style::terminal_width()
        } else {
            usize::MAX
        }
    }
}

/// The settings of the terminal on standard input (Unix terminals only).
#[derive(Clone, Copy)]
struct TermAttrs {
    #[cfg(unix)]
    attrs: libc::termios,
}

impl TermAttrs {
    /// The settings now, if standard input is a terminal.
    #[cfg(unix)]
    fn read() -> Option<TermAttrs> {
        use std::os::fd::AsRawFd;
        // SAFETY: tcgetattr gets a valid descriptor and a termios struct
        // to fill; on failure we do nothing with it.
        unsafe {
            let mut attrs: libc::termios = std::mem::zeroed();
            (libc::tcgetattr(std::io::stdin().as_raw_fd(), &mut attrs) == 0)
                .then_some(TermAttrs { attrs })
        }
    }

    #[cfg(not(unix))]
    fn read() -> Option<TermAttrs> {
        None
    }

    /// Puts these settings in force; whether the terminal took them.
    fn apply(&self) -> bool {
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            // SAFETY: tcsetattr gets a valid descriptor and settings read
            // by tcgetattr (and maybe changed in their flags).
            unsafe {
                libc::tcsetattr(std::io::stdin().as_raw_fd(), libc::TCSANOW, &self.attrs) == 0
            }
        }
        #[cfg(not(unix))]
        false
    }
}

/// The terminal's echo turned off while it lives (Unix terminals only);
/// dropping it turns the echo back on.
struct EchoOff {
    saved: TermAttrs,
}

impl EchoOff {
    fn new() -> Option<EchoOff> {
        let saved = TermAttrs::read()?;
        #[cfg(unix)]
        {
            let mut quiet = saved;
            quiet.attrs.c_lflag &= !libc::ECHO;
            quiet.apply().then_some(EchoOff { saved })
        }
        #[cfg(not(unix))]
        Some(EchoOff { saved })
    }
}

impl Drop for EchoOff {
    fn drop(&mut self) {
        self.saved.apply();
    }
}

/// Completion of command names (`set` names, help topics, and file names
/// after `load` and `save`) for rustyline, and the coloured prompt.
struct LineHelper {
    /// ANSI colour of the prompt (the side to move), if any.
    prompt_colour: Option<&'static str>,
    files: FilenameCompleter,
}

impl Completer for LineHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = before[start..].to_ascii_lowercase();
        let first = before[..start].trim();
        let candidates: Vec<&str> = if first.is_empty() {
            SPECS.iter().map(|s| s.names[0]).collect()
        } else if first.eq_ignore_ascii_case("set") {
            super::session::SETTINGS.to_vec()
        } else if first.eq_ignore_ascii_case("help") {
            SPECS
                .iter()
                .map(|s| s.names[0])
                .chain(["pieces", "swap", "tm"])
                .collect()
        } else if ["load", "open", "save", "write", "save!"]
            .iter()
            .any(|c| first.eq_ignore_ascii_case(c))
        {
            return self.files.complete(line, pos, ctx);
        } else {
            return Ok((pos, Vec::new()));
        };
        let pairs = candidates
            .into_iter()
            .filter(|c| c.starts_with(&word))
            .map(|c| Pair {
                display: c.to_string(),
                replacement: format!("{c} "),
            })
            .collect();
        Ok((start, pairs))
    }
}

impl Hinter for LineHelper {
    type Hint = String;
}

impl Highlighter for LineHelper {
    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        default: bool,
    ) -> Cow<'b, str> {
        match (self.prompt_colour, default) {
            (Some(c), true) => Cow::Owned(format!("{c}{prompt}\x1b[0m")),
            _ => Cow::Borrowed(prompt),
        }
    }
}

impl Validator for LineHelper {}
impl Helper for LineHelper {}

/// Where the line history is kept between sessions.
fn history_file() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cabra_history"))
}

/// What to print if a termination signal ends the session: the position
/// code of an unsaved game (kept up to date after every command).
static EXIT_NOTE: Mutex<String> = Mutex::new(String::new());

/// Remembers the session's exit note for a termination signal.
fn keep_exit_note(session: &Session) {
    if let Ok(mut note) = EXIT_NOTE.lock() {
        *note = session.end_note();
    }
}

/// Runs the session until `quit` or the end of input.
pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    let record = args.rules.load(args.file.as_deref())?;
    let interactive = std::io::stdin().is_terminal();
    let colours = interactive && style::colours();
    let engine = args.engine.at_level(&args.level).handle(&defaults::PLAY);
    // The limits of a placement as the options set them: a level's own
    // iterations are added to each move's search (and a level changed
    // with `set level` finds these as its cap).
    let budget = engine.budget(&Request::analysis(record.position));
    let stop = engine.stopper();
    // Ctrl-C stops a search; in a pipe with no search running it ends the
    // program as usual. At a terminal prompt rustyline reads Ctrl-C as a
    // key, so this handler only sees it during a command.
    ctrlc::set_handler(move || {
        if stop.is_active() || interactive {
            stop.stop();
        } else {
            std::process::exit(130);
        }
    })?;
    // SIGTERM and SIGHUP end the session, keeping an unsaved game's code,
    // and leave the terminal as they found it (not raw, as at a prompt).
    let stop = engine.stopper();
    let terminal = interactive.then(TermAttrs::read).flatten();
    signals::on_termination(move |signal| {
        stop.stop();
        if let Some(t) = &terminal {
            t.apply();
        }
        if let Ok(note) = EXIT_NOTE.lock() {
            let _ = std::io::stderr().write_all(note.as_bytes());
        }
        std::process::exit(128 + signal);
    });
    let ui = TermUi {
        progress: std::io::stderr().is_terminal() && interactive,
        drawn: false,
        echo: None,
    };
    let options = Options {
        you: args.you,
        budget,
        width: if interactive {
            style::terminal_width()
        } else {
            100
        },
        colours,
        interactive,
        ponder: args.ponder,
        // As the engine's options read them: the configuration's first.
        threads: args.engine.engine.threads.or(args.engine.budget.threads),
    };
    let mut session = Session::new(record, args.file.clone(), options, engine, Box::new(ui));
    let start = session.start(args.file.is_some());
    keep_exit_note(&session);
    if interactive {
        emit(&fit(&start.text, style::terminal_width()));
        terminal_loop(&mut session, colours)
    } else {
        if !start.text.is_empty() && !emit(&format!("{}\n", start.text)) {
            return ended();
        }
        pipe_loop(&mut session);
        ended()?;
        // A script learns from the exit status that a save failed, as it
        // would from any command that failed to write its file.
        match session.failed_saves() {
            Some((n, last)) => anyhow::bail!(
                "{} failed; the last: {}",
                crate::cli::plural(n as u64, "save"),
                last.trim_start_matches("error: ")
            ),
            None => Ok(()),
        }
    }
}

/// Prints a response on the terminal: errors in red when colours are on.
fn show(r: &Response, colours: bool) -> bool {
    let text = fit(&r.text, style::terminal_width());
    if r.error {
        emit(&style::paint(&text, style::ERROR, colours))
    } else {
        emit(&text)
    }
}

fn terminal_loop(session: &mut Session, colours: bool) -> anyhow::Result<()> {
    let config = rustyline::Config::builder()
        .auto_add_history(true)
        .max_history_size(1000)?
        .history_ignore_dups(true)?
        .build();
    let mut editor: Editor<LineHelper, DefaultHistory> =
        signals::keeping_ctrl_c(|| Editor::with_config(config))?;
    editor.set_helper(Some(LineHelper {
        prompt_colour: None,
        files: FilenameCompleter::new(),
    }));
    let history = history_file();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    loop {
        session.set_width(style::terminal_width());
        let prompt = session.prompt();
        if let Some(helper) = editor.helper_mut() {
            let pos = session.position();
            helper.prompt_colour =
                (colours && pos.status() == Status::Ongoing).then(|| match pos.to_move() {
                    Player::One => "\x1b[1;31m",
                    Player::Two => "\x1b[1;34m",
                });
        }
        match editor.readline(&prompt) {
            Ok(text) => {
                // The terminal may have been resized while the prompt waited.
                session.set_width(style::terminal_width());
                // A bracketed paste can bring several lines at once: each is a command.
                let mut quit = false;
                for line in text.split(['\n', '\r']) {
                    // An empty line answers a question (no), else is nothing.
                    if commands::classify(line) == Input::Empty && !session.asking() {
                        continue;
                    }
                    let r = session.handle(line);
                    keep_exit_note(session);
                    if !show(&r, colours) || r.quit {
                        quit = true;
                        break;
                    }
                }
                if quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => {
                emit(&session.interrupt());
            }
            Err(ReadlineError::Eof) => {
                let r = session.end_of_input();
                show(&r, colours);
                break;
            }
            Err(e) => {
                let r = session.end_of_input();
                show(&r, colours);
                return Err(e.into());
            }
        }
    }
    if let Some(h) = &history {
        let _ = editor.history_mut().save(h);
    }
    Ok(())
}

/// Standard input is a pipe or a file: no prompt, no colour; each command's
/// response is one block of lines ended by an empty line. Blank lines and
/// `#` comments get no block, and `quit` ends the output without one.
fn pipe_loop(session: &mut Session) {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("cabra: cannot read standard input: {e}");
                break;
            }
        }
        let line = String::from_utf8_lossy(&buf);
        if commands::classify(&line) == Input::Empty {
            continue;
        }
        let r = session.handle(&line);
        keep_exit_note(session);
        // `quit` ends the output without a block of its own.
        if r.quit && r.text.is_empty() {
            break;
        }
        if !emit(&format!("{}\n", r.text)) || r.quit {
            break;
        }
    }
}
