//! Text rendering of a position: the three layers side by side, a top view
//! with each column's owner and height, a legend, and the state of play.
//! Readable without colour: player 1's cubes are `x`, player 2's `o`; the
//! cubes of the last placement are capitals, and once a bridge has won, the
//! cubes of its path (a shortest chain, as the page and the SVG mark it)
//! are (with colour: red and blue, the marked cubes in inverse video). A narrow terminal gets a compact layout (under 86
//! columns); lines carry no trailing spaces.

use std::fmt::Write;

use cabra::game::{
    Piece, Placement, Player, Position, Status, Variant, Volume, WinReason, board_text_painted,
    cube_symbol, marked_cubes,
};

use super::style;

mod threat;
pub use threat::{Known, threat_line};

/// How to draw a board.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// ANSI colours.
    pub colours: bool,
    /// The terminal's width in columns.
    pub width: usize,
    /// Say when the side to move faces a win in one.
    pub threats: bool,
    /// What a search has shown about the position, for that warning.
    pub known: Known,
}

impl View {
    /// Plain text for a wide page, without threat warnings.
    pub const PLAIN: View = View {
        colours: false,
        width: 100,
        threats: false,
        known: Known::Nothing,
    };
}

/// Writes `text` for player `p`, coloured when asked (inverse video for a
/// marked cube).
fn paint(out: &mut String, text: &str, p: Player, marked: bool, colours: bool) {
    let st = if marked {
        style::player(p).invert()
    } else {
        style::player(p)
    };
    out.push_str(&style::paint(text, st, colours));
}

/// A player's name (or any text about them) in their colour when asked.
pub fn paint_player(text: &str, p: Player, colours: bool) -> String {
    style::paint(text, style::player(p), colours)
}

/// What the legend calls the capitals (see [`marked_cubes`]).
fn marked_name(pos: &Position) -> &'static str {
    match pos.status() {
        Status::Won {
            by: WinReason::Bridge,
            ..
        } => "the winning bridge",
        _ => "the last placement",
    }
}

/// The three layers and the top view, as lines of text, coloured when the
/// view asks.
fn board_lines(pos: &Position, view: &View, marked: Volume) -> String {
    board_text_painted(pos, view.width, marked, |text, p, m| {
        let mut out = String::new();
        paint(&mut out, text, p, m, view.colours);
        out
    })
}

/// The board and the state of play, as lines of text.
pub fn render(pos: &Position, view: &View) -> String {
    let what = marked_name(pos);
    let mut out = board_lines(pos, view, marked_cubes(pos));
    let legend = [
        "x west to east, y north to south;".to_string(),
        format!("x player 1, o player 2, capitals {what};"),
        "a bridge joins north and south or west and east".to_string(),
    ];
    out.push_str(&wrap(&legend.join(" "), view.width));
    if let Some(m) = pos.moves().last() {
        let _ = writeln!(out, "last move: {m} (move {})", pos.plies());
    }
    for p in Player::BOTH {
        let left: Vec<String> = Piece::ALL
            .iter()
            .map(|&k| format!("{k}{}", pos.pieces_left(p, k)))
            .collect();
        let who = format!("{p} ({})", cube_symbol(p, false));
        let mut name = String::new();
        paint(&mut name, &who, p, false, view.colours);
        let mut count = format!("{} {}", counted(pos), pos.count(p));
        if pos.rules().time_machine() {
            let used = if pos.time_machine_used(p) {
                "used"
            } else {
                "unused"
            };
            count.push_str(&format!(", time machine {used}"));
        }
        // `wrap` measures what the terminal shows: colours take no room.
        out.push_str(&wrap(
            &format!("{name}: left {}; {count}", left.join(" ")),
            view.width,
        ));
    }
    if !pos.rules().is_default() {
        let _ = writeln!(out, "rules: {}", pos.rules());
    }
    let _ = writeln!(out, "{}", status_line(pos));
    if view.threats {
        if let Some(t) = threat_line(pos, view.known) {
            // Wrapped as every long line is, its continuations indented.
            out.push_str(&fit(&format!("{t}\n"), view.width));
        }
    }
    out
}

/// The layers and top view with placement `p` (legal for the side to
/// move) drawn in but not played: its cubes are the capitals.
pub fn ghost_board(pos: &Position, p: Placement, view: &View) -> String {
    let mut after = *pos;
    after.play_unchecked(p);
    board_lines(&after, view, p.entry().cells)
}

/// `text` wrapped at word boundaries to lines of at most `width - 1`
/// characters as a terminal shows them (colours take no room), each
/// ended by a newline.
pub fn wrap(text: &str, width: usize) -> String {
    let max = width.saturating_sub(1).max(20);
    let mut out = String::new();
    let mut line = String::new();
    // A span in backticks (`110 120 121 122`) is one word: it is typed
    // as it is shown, so it is never broken.
    let mut words: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match words.last_mut() {
            Some(open) if open.matches('`').count() % 2 == 1 || unfinished_placement(open) => {
                open.push(' ');
                open.push_str(word);
            }
            _ => words.push(word.to_string()),
        }
    }
    for word in &words {
        if !line.is_empty() && visible_len(&line) + 1 + visible_len(word) > max {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Whether `words` begin a placement in notation that goes on with the
/// next word (`L`, `L N90` of `L N90 210`): a placement is never broken
/// across lines either.
fn unfinished_placement(words: &str) -> bool {
    let mut w = words.split(' ');
    let piece = |p: &str| matches!(p, "L" | "T" | "Z" | "O");
    let orientation = |o: &str| {
        let mut c = o.chars();
        c.next().is_some_and(|f| "TBNSEW".contains(f))
            && o.len() > 1
            && o[1..].chars().all(|d| d.is_ascii_digit())
    };
    match (w.next(), w.next(), w.next()) {
        (Some(p), None, None) => piece(p),
        (Some(p), Some(o), None) => piece(p) && orientation(o),
        _ => false,
    }
}

/// The number of characters of `line` a terminal shows (ANSI colour
/// sequences take no room).
fn visible_len(line: &str) -> usize {
    let mut n = 0;
    let mut in_escape = false;
    for c in line.chars() {
        match (in_escape, c) {
            (false, '\x1b') => in_escape = true,
            (true, 'm') => in_escape = false,
            (true, _) => {}
            (false, _) => n += 1,
        }
    }
    n
}

/// `text` with every line too long for `width` columns wrapped at word
/// boundaries (continuations indented by two spaces); lines that fit,
/// such as the board's, are left as they are.
pub fn fit(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        if visible_len(body) < width {
            out.push_str(line);
            continue;
        }
        // Room for the continuations' indent.
        let wrapped = wrap(body, width.saturating_sub(2));
        for (i, l) in wrapped.lines().enumerate() {
            if i > 0 {
                out.push('\n');
                out.push_str("  ");
            }
            out.push_str(l);
        }
        out.push_str(end);
    }
    out
}

/// `n` moves of `pos`'s game as people say it: placements under the
/// default rules (where every move is one), moves under the variants
/// (where a swap or a time machine is a move and places nothing).
pub fn moves_of(pos: &Position, n: usize) -> String {
    crate::cli::plural(n as u64, move_noun(pos))
}

/// The word [`moves_of`] counts `pos`'s moves in: `placement` or `move`.
pub fn move_noun(pos: &Position) -> &'static str {
    if pos.rules().is_default() {
        "placement"
    } else {
        "move"
    }
}

/// What decides a game without a bridge under `pos`'s rules, in words.
pub fn counted(pos: &Position) -> &'static str {
    match pos.rules().variant {
        Variant::Caminos => "bottom-perimeter pieces",
        Variant::Bridget => "edge columns",
    }
}

/// One line saying how the game stands: the result, or who is to move.
pub fn status_line(pos: &Position) -> String {
    match pos.status() {
        Status::Ongoing => format!("in progress, {} to move", pos.to_move()),
        s => result_line(pos, s),
    }
}

/// The result in words, with the counts when they decided it.
pub fn result_line(pos: &Position, s: Status) -> String {
    let [a, b] = Player::BOTH.map(|p| pos.count(p));
    match s {
        Status::Won {
            winner,
            by: by @ (WinReason::Perimeter | WinReason::Edge),
        } => {
            let (w, l) = if winner == Player::One {
                (a, b)
            } else {
                (b, a)
            };
            // Which way the count goes: fewer pieces on the rim win, but
            // more edge columns.
            let rule = if by == WinReason::Perimeter {
                "fewer"
            } else {
                "more"
            };
            format!("{s} ({w} to {l}: {rule} wins)")
        }
        Status::Draw { by } => {
            let what = match by {
                WinReason::Edge => "edge columns",
                _ => "bottom-perimeter pieces",
            };
            format!("draw ({a} to {b} {what})")
        }
        _ => s.to_string(),
    }
}

#[cfg(test)]
mod tests;
