//! Text rendering of a position: the three layers side by side, a top view
//! with each column's owner and height, a legend, and the state of play.
//! Readable without colour: player 1's cubes are `x`, player 2's `o`; the
//! cubes of the last placement are capitals, and once a bridge has won, the
//! cubes of its path (a shortest chain, as the page and the SVG mark it)
//! are (with colour: red and blue, the marked cubes in inverse video). A narrow terminal gets a compact layout (under 84
//! columns); lines carry no trailing spaces.

use std::fmt::Write;

use cabra::game::bridge::shortest_bridge;
use cabra::game::{Cell, Piece, Placement, Player, Position, Status, Variant, Volume, WinReason};

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

/// The width under which the compact layout is used.
pub const WIDE: usize = 84;

fn symbol(p: Player, marked: bool) -> char {
    match (p, marked) {
        (Player::One, false) => 'x',
        (Player::One, true) => 'X',
        (Player::Two, false) => 'o',
        (Player::Two, true) => 'O',
    }
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

/// The cubes drawn as capitals: the winning bridge once a bridge has won,
/// else the last placement; and what the legend calls them.
fn marked(pos: &Position) -> (Volume, &'static str) {
    if let Status::Won {
        winner,
        by: WinReason::Bridge,
    } = pos.status()
    {
        // The path, as the page and the SVG mark it: a shortest chain,
        // not every cube attached to it.
        let mut path = Volume::EMPTY;
        for c in shortest_bridge(pos.cubes(winner), pos.cubes(winner.other())) {
            path.insert(c);
        }
        return (path, "the winning bridge");
    }
    let last = pos
        .moves()
        .last()
        .and_then(|m| m.placement())
        .map(|p| p.entry().cells)
        .unwrap_or_default();
    (last, "the last placement")
}

/// The three layers and the top view, as lines of text: side by side on a
/// wide terminal, in a compact layout on a narrow one (the top view below
/// the layers when even that does not fit).
fn board_lines(pos: &Position, view: &View, marked: Volume) -> String {
    let wide = view.width >= WIDE;
    let top_below = view.width < 66;
    let cell_gap = if wide { " " } else { "" };
    // The compact layers take 36 columns; one space apart, 32.
    let gap = if view.width < 38 { " " } else { "   " };
    // One layer: the row number, a space, then the eight cells.
    let digits: String = (0..8).map(|x| format!("{x}{cell_gap}")).collect();
    let layer_width = 2 + digits.trim_end().len();
    let titles = if wide {
        [
            "z=0 (bottom)",
            "z=1",
            "z=2 (top)",
            "top view: owner, height",
        ]
    } else {
        ["z=0", "z=1", "z=2", "top: owner, height"]
    };
    let top_digits: String = (0..8).map(|x| format!(" {x} ")).collect();
    // Titles and column numbers stand over the cells, after the row labels.
    let mut head = String::new();
    let mut numbers = String::new();
    for t in &titles[..3] {
        let _ = write!(head, "  {t:<w$}{gap}", w = layer_width - 2);
        let _ = write!(
            numbers,
            "  {:<w$}{gap}",
            digits.trim_end(),
            w = layer_width - 2
        );
    }
    if !top_below {
        let _ = write!(head, " {}", titles[3]);
        let _ = write!(numbers, " {}", top_digits.trim_end());
    }
    let mut out = String::new();
    let _ = writeln!(out, "{}", head.trim_end());
    let _ = writeln!(out, "{}", numbers.trim_end());
    let top_row = |y: u8, line: &mut String| {
        let _ = write!(line, "{y}");
        for x in 0..8u8 {
            match pos.top(x, y).ok().flatten() {
                Some((p, z)) => {
                    let m = (0..3).any(|z| Cell::new(x, y, z).is_ok_and(|c| marked.contains(c)));
                    line.push(' ');
                    paint(
                        line,
                        &format!("{}{}", symbol(p, m), z + 1),
                        p,
                        m,
                        view.colours,
                    );
                }
                None => line.push_str(" . "),
            }
        }
    };
    for y in 0..8u8 {
        let mut line = String::new();
        for z in 0..3u8 {
            let _ = write!(line, "{y} ");
            for x in 0..8u8 {
                let c = Cell::new(x, y, z).expect("x, y and z count within the board");
                match pos.owner(c) {
                    Some(p) => {
                        let m = marked.contains(c);
                        paint(&mut line, &symbol(p, m).to_string(), p, m, view.colours);
                    }
                    None => line.push('.'),
                }
                if x < 7 {
                    line.push_str(cell_gap);
                }
            }
            line.push_str(gap);
        }
        if !top_below {
            top_row(y, &mut line);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if top_below {
        let _ = writeln!(out, "{}", titles[3]);
        let _ = writeln!(out, " {}", top_digits.trim_end());
        for y in 0..8u8 {
            let mut line = String::new();
            top_row(y, &mut line);
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

/// The board and the state of play, as lines of text.
pub fn render(pos: &Position, view: &View) -> String {
    let (marked, what) = marked(pos);
    let mut out = board_lines(pos, view, marked);
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
        let who = format!("{p} ({})", symbol(p, false));
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
    cabra::engine::plural(n as u64, move_noun(pos))
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
            by: WinReason::Perimeter | WinReason::Edge,
        } => {
            let (w, l) = if winner == Player::One {
                (a, b)
            } else {
                (b, a)
            };
            format!("{s} ({w} to {l})")
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
