//! The board as text ([`board_text`]).

use std::fmt::Write;

use super::bitboard::Volume;
use super::bridge::shortest_bridge;
use super::cell::Cell;
use super::player::{Player, Status, WinReason};
use super::position::Position;

/// The width from which the wide layout is used.
pub const WIDE_BOARD: usize = 86;

/// A cube's letter: `x` or `o`, a capital when marked.
pub fn cube_symbol(p: Player, marked: bool) -> char {
    match (p, marked) {
        (Player::One, false) => 'x',
        (Player::One, true) => 'X',
        (Player::Two, false) => 'o',
        (Player::Two, true) => 'O',
    }
}

/// The cubes a board marks: the winning bridge once a bridge has won
/// (a shortest chain), else the last placement.
pub fn marked_cubes(pos: &Position) -> Volume {
    if let Status::Won {
        winner,
        by: WinReason::Bridge,
    } = pos.status()
    {
        let mut path = Volume::EMPTY;
        for c in shortest_bridge(pos.cubes(winner), pos.cubes(winner.other())) {
            path.insert(c);
        }
        return path;
    }
    pos.moves()
        .last()
        .and_then(|m| m.placement())
        .map(|p| p.entry().cells)
        .unwrap_or_default()
}

/// The board as text for a terminal `width` columns wide: the three
/// layers side by side and a top view with each column's owner and height
/// (1 to 3). Player 1's cubes are `x`, player 2's `o`; marked cubes
/// ([`marked_cubes`]: the last placement, or the winning bridge) are
/// capitals. Under [`WIDE_BOARD`] (86) columns the layout is compact,
/// under 66 the top view goes below the layers; lines carry no trailing
/// spaces.
///
/// ```
/// use cabra::game::{Move, Position, board_text};
/// let mut pos = Position::new();
/// pos.play("O T0 330".parse::<Move>().unwrap()).unwrap();
/// let text = board_text(&pos, 100);
/// assert!(text.starts_with("  z=0 (bottom)"));
/// // Row 3 of the bottom layer: the O's two capitals at x = 3 and 4.
/// assert!(text.contains("3 . . . X X . . ."));
/// ```
pub fn board_text(pos: &Position, width: usize) -> String {
    board_text_painted(pos, width, marked_cubes(pos), |text, _, _| text.to_string())
}

/// As [`board_text`], with `marked` in capitals and each cube's text
/// passed through `paint(text, owner, marked)` (e.g. to colour it; the
/// layout counts only the text's own characters).
pub fn board_text_painted(
    pos: &Position,
    width: usize,
    marked: Volume,
    paint: impl Fn(&str, Player, bool) -> String,
) -> String {
    let wide = width >= WIDE_BOARD;
    let top_below = width < 66;
    let cell_gap = if wide { " " } else { "" };
    // The compact layers take 36 columns; one space apart, 32.
    let gap = if width < 38 { " " } else { "   " };
    // One layer: the row number, a space, then the eight cells.
    let digits: String = (0..8).fold(String::new(), |s, x| s + &x.to_string() + cell_gap);
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
    let top_digits: String = (0..8).fold(String::new(), |s, x| s + " " + &x.to_string() + " ");
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
                    let m = (0..3).any(|z| marked.contains(Cell::at(x, y, z)));
                    line.push(' ');
                    line.push_str(&paint(&format!("{}{}", cube_symbol(p, m), z + 1), p, m));
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
                let c = Cell::at(x, y, z);
                match pos.owner(c) {
                    Some(p) => {
                        let m = marked.contains(c);
                        line.push_str(&paint(&cube_symbol(p, m).to_string(), p, m));
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
