//! The board from above as SVG: owner and height of every column, north
//! up, with the last placement, a winning bridge and ghost pieces marked.

use std::fmt::Write;

use cabra::game::Position;

use super::board::{GhostKind, View, bridge_cells, inside, last_cells};
use super::{colour, escape, num, shades};

/// The size of a square of the top view.
const SQ: f64 = 26.0;
/// The radius of the badge that numbers a ghost of a line.
const BADGE: f64 = 6.5;

/// The top view as an `<svg>` element: each column in the colour of its
/// top cube, darker the higher it stands, with its height written on it.
pub fn top(pos: &Position, view: &View) -> String {
    let last = last_cells(pos);
    let bridge = bridge_cells(pos);
    let o = 24.0;
    let mut s = String::new();
    s.push_str(r##"<svg xmlns="http://www.w3.org/2000/svg" class="top" viewBox="-12 -12 268 268" role="img" aria-label="the board from above: owner and height of each column">"##);
    let at = |x: u8, y: u8| (o + SQ * f64::from(x), o + SQ * f64::from(y));
    for y in 0..8u8 {
        for x in 0..8u8 {
            let (px, py) = at(x, y);
            let rim = x == 0 || y == 0 || x == 7 || y == 7;
            let (fill, height, owner) = match pos.top(x, y).ok().flatten() {
                Some((p, z)) => (shades(p)[[0, 1, 2][z as usize]], z + 1, Some(p)),
                None => (if rim { "#e3d8bf" } else { "#f1ebdc" }, 0, None),
            };
            let is_last = last.iter().any(|c| c.x() == x && c.y() == y);
            let stroke = if is_last {
                r##"stroke="#111" stroke-width="2.4""##
            } else {
                r##"stroke="#b9ad94" stroke-width="0.6""##
            };
            let owner_attr = owner.map_or(String::new(), |p| {
                format!(r##" data-owner="{}""##, p.number())
            });
            let _ = write!(
                s,
                r##"<rect class="column{}" data-x="{x}" data-y="{y}" data-height="{height}"{owner_attr} x="{}" y="{}" width="{SQ}" height="{SQ}" fill="{fill}" {stroke}/>"##,
                if is_last { " last" } else { "" },
                num(px),
                num(py)
            );
            if height > 0 {
                let colour = if height == 1 { "#222" } else { "#fff" };
                let _ = write!(
                    s,
                    r##"<text x="{}" y="{}" font-size="12" text-anchor="middle" dominant-baseline="central" fill="{colour}" pointer-events="none">{height}</text>"##,
                    num(px + SQ / 2.0),
                    num(py + SQ / 2.0)
                );
            }
            if bridge.iter().any(|c| c.x() == x && c.y() == y) {
                let _ = write!(
                    s,
                    r##"<circle class="bridge" cx="{}" cy="{}" r="4" fill="#ffc400" stroke="#111" stroke-width="0.8" pointer-events="none"/>"##,
                    num(px + 5.0),
                    num(py + 5.0)
                );
            }
        }
    }
    for g in &view.ghosts {
        let (colour, width) = match g.kind {
            GhostKind::Illegal => ("#d00000", 2.0),
            GhostKind::Better => ("#0b6b2e", 2.0),
            GhostKind::Idea => (colour(g.player), 2.2),
            _ => ("#111", 1.6),
        };
        let mut cols: Vec<(i8, i8)> = g
            .cells
            .iter()
            .filter(|&&c| inside(c))
            .map(|c| (c[0], c[1]))
            .collect();
        cols.dedup();
        for (x, y) in cols {
            let (px, py) = at(x as u8, y as u8);
            let _ = write!(
                s,
                r##"<rect class="ghost {}" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-dasharray="3 2" pointer-events="none"/>"##,
                g.kind.class(),
                num(px + 2.0),
                num(py + 2.0),
                num(SQ - 4.0),
                num(SQ - 4.0)
            );
        }
        // The label (the move's number in the line) as a badge on the
        // corner of squares nearest the piece's middle: a corner, not a
        // square's middle, so that it covers no column's height.
        if let Some(label) = &g.label {
            let inside: Vec<&[i8; 3]> = g.cells.iter().filter(|&&c| inside(c)).collect();
            if !inside.is_empty() {
                let n = inside.len() as f64;
                let mx = inside.iter().map(|c| f64::from(c[0]) + 0.5).sum::<f64>() / n;
                let my = inside.iter().map(|c| f64::from(c[1]) + 0.5).sum::<f64>() / n;
                let (cx, cy) = (o + SQ * mx.round(), o + SQ * my.round());
                let _ = write!(
                    s,
                    r##"<g class="ghost-label" pointer-events="none"><circle cx="{}" cy="{}" r="{BADGE}" fill="#fff" stroke="{colour}" stroke-width="1.6"/><text x="{}" y="{}" font-size="10" font-weight="bold" text-anchor="middle" dominant-baseline="central" fill="#111">{}</text></g>"##,
                    num(cx),
                    num(cy),
                    num(cx),
                    num(cy),
                    escape(label)
                );
            }
        }
    }
    let grey = "#7d735f";
    for i in 0..8u8 {
        let c = o + SQ * (f64::from(i) + 0.5);
        let _ = write!(
            s,
            r##"<text x="{}" y="15" font-size="10" text-anchor="middle" fill="{grey}">{i}</text><text x="13" y="{}" font-size="10" text-anchor="middle" dominant-baseline="central" fill="{grey}">{i}</text>"##,
            num(c),
            num(c)
        );
    }
    let end = o + 8.0 * SQ;
    let _ = write!(
        s,
        r##"<line x1="{o}" y1="{o}" x2="{end}" y2="{o}" stroke="#c8962a" stroke-width="3"/><line x1="{o}" y1="{end}" x2="{end}" y2="{end}" stroke="#c8962a" stroke-width="3"/><line x1="{o}" y1="{o}" x2="{o}" y2="{end}" stroke="#3e9a62" stroke-width="3"/><line x1="{end}" y1="{o}" x2="{end}" y2="{end}" stroke="#3e9a62" stroke-width="3"/>"##
    );
    // The four sides, outside the coordinates along the north and west.
    let mid = o + 4.0 * SQ;
    for (x, y, side) in [
        (mid, -3.0, "N"),
        (mid, end + 12.0, "S"),
        (-5.0, mid, "W"),
        (end + 9.0, mid, "E"),
    ] {
        let _ = write!(
            s,
            r##"<text class="compass" x="{}" y="{}" font-size="10" font-weight="bold" text-anchor="middle" dominant-baseline="central" fill="{grey}">{side}</text>"##,
            num(x),
            num(y)
        );
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::super::board::Ghost;
    use super::*;
    use cabra::game::Player;
    use cabra::game::record::parse_game;

    /// The numbers `name="…"` of each element that starts with `open`.
    fn attrs(svg: &str, open: &str, names: &[&str]) -> Vec<Vec<f64>> {
        svg.split(open)
            .skip(1)
            .map(|t| {
                let t = &t[..t.find('>').unwrap()];
                names
                    .iter()
                    .map(|n| {
                        let start = t.find(&format!(" {n}=\"")).unwrap() + n.len() + 3;
                        t[start..].split('"').next().unwrap().parse().unwrap()
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_ghosts_badge_covers_no_height() {
        // Stacks of one and three cubes where the ghosts stand.
        let pos = parse_game("110 120 121 122\n330 340 341 342\n430 530 630 540\n").unwrap();
        let ghost = |cells: Vec<[i8; 3]>, label: &str| Ghost {
            cells,
            kind: GhostKind::Idea,
            player: Player::One,
            label: Some(label.into()),
        };
        let view = View {
            ghosts: vec![
                ghost(vec![[3, 3, 2], [4, 3, 2], [3, 4, 2], [4, 4, 2]], "1"),
                ghost(vec![[0, 1, 0], [1, 1, 1], [2, 1, 0], [0, 2, 0]], "2"),
                ghost(vec![[0, 3, 0], [1, 3, 0], [2, 3, 0], [1, 4, 0]], "3"),
            ],
            ..View::default()
        };
        let svg = top(&pos, &view);
        let badges = attrs(
            &svg,
            r#"<g class="ghost-label" pointer-events="none"><circle"#,
            &["cx", "cy", "r"],
        );
        assert_eq!(badges.len(), 3);
        let heights: Vec<Vec<f64>> = svg
            .split("<text")
            .skip(1)
            .filter(|t| t.contains(r#"font-size="12""#))
            .map(|t| attrs(&format!("<text{t}"), "<text", &["x", "y"]).remove(0))
            .collect();
        assert!(heights.len() >= 6);
        // A digit of 12 px type: about 8 px wide and 12 px high.
        for b in &badges {
            for h in &heights {
                let apart = (b[0] - h[0]).abs() > b[2] + 4.0 || (b[1] - h[1]).abs() > b[2] + 6.0;
                assert!(
                    apart,
                    "the badge at ({}, {}) covers the height at ({}, {})",
                    b[0], b[1], h[0], h[1]
                );
            }
        }
    }
}
