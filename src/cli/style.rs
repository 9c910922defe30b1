//! Terminal colours: anstyle styles, and anstream to decide when to use
//! them (a terminal, not `NO_COLOR`, not `TERM=dumb`; `CLICOLOR_FORCE`
//! forces them) and to strip them from output that is not a terminal.

use std::io::Write;

use anstyle::{AnsiColor, Style};
use cabra::game::Player;

/// The style of a player's cubes and name: bold red for player 1, bold
/// blue for player 2.
pub fn player(p: Player) -> Style {
    let colour = match p {
        Player::One => AnsiColor::Red,
        Player::Two => AnsiColor::Blue,
    };
    Style::new().bold().fg_color(Some(colour.into()))
}

/// The style of an error message.
pub const ERROR: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)));

/// `text` in `style`, or plain when `colours` is off.
pub fn paint(text: &str, style: Style, colours: bool) -> String {
    if colours {
        format!("{style}{text}{style:#}")
    } else {
        text.to_string()
    }
}

/// Whether standard output takes colours.
pub fn colours() -> bool {
    anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
}

/// Writes `text` to standard output (colours stripped when it is not a
/// terminal). An output that cannot take it (a full disk) is an error,
/// so that a script sees its command failed; a reader that went away
/// (`| head`) ends the program quietly, as SIGPIPE does for other tools.
pub fn print(text: &str) -> anyhow::Result<()> {
    let mut out = anstream::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| anyhow::anyhow!("cannot write the output: {e}"))
}

/// The width of the terminal standard output writes to, in columns (100
/// when it is not a terminal).
pub fn terminal_width() -> usize {
    console::Term::stdout()
        .size_checked()
        .map_or(100, |(_, cols)| usize::from(cols))
}

/// The width of the terminal standard error writes to (for progress lines).
pub fn stderr_width() -> usize {
    console::Term::stderr()
        .size_checked()
        .map_or(100, |(_, cols)| usize::from(cols))
}
