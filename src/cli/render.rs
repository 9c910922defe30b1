//! Text rendering of a position: the three layers side by side, a top view
//! with each column's owner and height, a legend, and the state of play.
//! Readable without colour: player 1's cubes are `x`, player 2's `o`, and
//! the cubes of the last placement are capitals (with colour: red and blue,
//! the last placement in inverse video). Lines carry no trailing spaces.

use std::fmt::Write;

use cabra::game::{Cell, Piece, Player, Position, Status, Variant, Volume, WinReason};

use super::style;

fn symbol(p: Player, last: bool) -> char {
    match (p, last) {
        (Player::One, false) => 'x',
        (Player::One, true) => 'X',
        (Player::Two, false) => 'o',
        (Player::Two, true) => 'O',
    }
}

/// Writes `text` for player `p`, coloured when asked (inverse video for the last placement).
fn paint(out: &mut String, text: &str, p: Player, last: bool, colours: bool) {
    let st = if last {
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

/// The board and the state of play, as lines of text.
pub fn render(pos: &Position, colours: bool) -> String {
    let last: Volume = pos
        .moves()
        .last()
        .and_then(|m| m.placement())
        .map(|p| p.entry().cells)
        .unwrap_or_default();
    let mut out = String::new();
    let header = "0 1 2 3 4 5 6 7";
    let _ = writeln!(
        out,
        "  {:<20}{:<20}{:<20}top view: owner, height",
        "z=0 (bottom)", "z=1", "z=2 (top)"
    );
    let top_header: String = (0..8).map(|x| format!(" {x} ")).collect();
    let _ = writeln!(
        out,
        "  {header}     {header}     {header}    {}",
        top_header.trim_end()
    );
    for y in 0..8u8 {
        let mut line = String::new();
        for z in 0..3u8 {
            let _ = write!(line, "{y} ");
            for x in 0..8u8 {
                let c = Cell::new(x, y, z);
                match pos.owner(c) {
                    Some(p) => {
                        let s = symbol(p, last.contains(c)).to_string();
                        paint(&mut line, &s, p, last.contains(c), colours);
                    }
                    None => line.push('.'),
                }
                line.push(' ');
            }
            line.push_str("  ");
        }
        let _ = write!(line, "{y}");
        for x in 0..8u8 {
            let top = (0..3u8)
                .rev()
                .map(|z| Cell::new(x, y, z))
                .find_map(|c| pos.owner(c).map(|p| (p, c)));
            match top {
                Some((p, c)) => {
                    let is_last = (0..3).any(|z| last.contains(Cell::new(x, y, z)));
                    let s = format!("{}{}", symbol(p, is_last), c.z + 1);
                    line.push(' ');
                    paint(&mut line, &s, p, is_last, colours);
                }
                None => line.push_str(" . "),
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "columns x west to east, rows y north to south; x player 1, o player 2, X O last placement"
    );
    if let Some(p) = pos.moves().last() {
        let _ = writeln!(out, "last placement: {p} (move {})", pos.plies());
    }
    for p in Player::BOTH {
        let left: Vec<String> = Piece::ALL
            .iter()
            .map(|&k| format!("{k}{}", pos.pieces_left(p, k)))
            .collect();
        let who = format!("{p} ({})", symbol(p, false));
        let mut name = String::new();
        paint(&mut name, &who, p, false, colours);
        let count = match pos.rules().variant {
            Variant::Caminos => format!("perimeter pieces {}", pos.perimeter_count(p)),
            Variant::Bridget => format!(
                "edge columns {}   time machine {}",
                pos.edge_count(p),
                if pos.time_machine_used(p) {
                    "used"
                } else {
                    "unused"
                }
            ),
        };
        let _ = writeln!(out, "{name}: pieces left {}   {count}", left.join(" "));
    }
    if !pos.rules().is_default() {
        let _ = writeln!(out, "rules: {}", pos.rules());
    }
    let _ = writeln!(out, "{}", status_line(pos));
    out
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
                _ => "perimeter pieces",
            };
            format!("draw ({a} to {b} {what})")
        }
        _ => s.to_string(),
    }
}
