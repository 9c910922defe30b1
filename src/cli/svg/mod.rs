//! Pictures of the game as SVG, drawn once for the browser (`cabra serve`)
//! and the command line (`show --svg`, `analyze --svg`):
//!
//! - [`board`]: the isometric 3D view of the 8x8x3 volume;
//! - [`top`]: the top view, owner and height of every column;
//! - [`pieces`]: a piece alone, for the page's orientation picker;
//! - [`plot`]: the win-rate graph of an analysis, with its marks.
//!
//! Every clickable shape carries `data-` attributes (`data-x`/`data-y` for
//! a column, `data-ply` for a point of the graph) that the page reads.

pub mod board;
mod ghost;
#[cfg(feature = "serve")]
pub mod pieces;
pub mod plot;
pub mod top;

use cabra::game::Player;

/// The colours of a player's cubes: top, west-facing side, east-facing side.
pub fn shades(p: Player) -> [&'static str; 3] {
    match p {
        Player::One => ["#f0827a", "#d6453d", "#a3302a"],
        Player::Two => ["#78a6f0", "#2f6fd6", "#1f4f9e"],
    }
}

/// A player's main colour.
pub fn colour(p: Player) -> &'static str {
    shades(p)[1]
}

/// `text` with the five XML special characters escaped.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '&' => s.push_str("&amp;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            c => s.push(c),
        }
    }
    s
}

/// A number for SVG coordinates: at most one decimal, no trailing `.0`.
pub fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_and_numbers() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(num(12.0), "12");
        assert_eq!(num(-3.04), "-3");
        assert_eq!(num(2.25), "2.3");
    }
}
