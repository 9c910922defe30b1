//! The board as SVG: an isometric view of the 8x8x3 volume that can be
//! turned in quarter turns, with the upper layers faded on request, ghost
//! pieces (`ghost.rs`), the last placement and a winning bridge marked.
//! The stacks in front of an aimed piece are drawn see-through, and the
//! winning bridge's outline is drawn over everything.

use std::fmt::Write;

use cabra::game::bridge::shortest_bridge;
use cabra::game::{Cell, Move, Player, Position, Status, WinReason};

use super::ghost::ghost_cube;
pub use super::ghost::{Ghost, GhostKind};
use super::top::top;
use super::{escape, num, shades};

/// Half the width of a cell's diamond.
const A: f64 = 24.0;
/// Half the height of a cell's diamond.
const B: f64 = 14.0;
/// The height of a cube.
const H: f64 = 28.0;

/// How the board is looked at.
#[derive(Clone, Debug)]
pub struct View {
    /// Quarter turns of the board about the vertical axis (0 to 3).
    pub rotation: u8,
    /// Layers drawn solid from the bottom (1 to 3); the others are faded.
    pub layers: u8,
    /// Ghost pieces.
    pub ghosts: Vec<Ghost>,
}

impl Default for View {
    fn default() -> Self {
        View {
            rotation: 0,
            layers: 3,
            ghosts: Vec::new(),
        }
    }
}

/// A board point `(x, y)` (continuous, 0 to 8) in the turned frame `(u, v)`.
fn turn(rotation: u8, x: f64, y: f64) -> (f64, f64) {
    match rotation % 4 {
        0 => (x, y),
        1 => (8.0 - y, x),
        2 => (8.0 - x, 8.0 - y),
        _ => (y, 8.0 - x),
    }
}

/// The screen point of `(u, v, z)`.
pub(super) fn project(u: f64, v: f64, z: f64) -> (f64, f64) {
    ((u - v) * A, (u + v) * B - z * H)
}

fn points(corners: &[(f64, f64, f64)]) -> String {
    corners
        .iter()
        .map(|&(u, v, z)| {
            let (x, y) = project(u, v, z);
            format!("{},{}", num(x), num(y))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The three visible faces of the cube whose turned cell is `(u, v, z)`:
/// top, the face towards +v (lower left) and the face towards +u (lower right).
pub(super) fn faces(u: f64, v: f64, z: f64) -> [String; 3] {
    let (u1, v1, z1) = (u + 1.0, v + 1.0, z + 1.0);
    [
        points(&[(u, v, z1), (u1, v, z1), (u1, v1, z1), (u, v1, z1)]),
        points(&[(u, v1, z), (u1, v1, z), (u1, v1, z1), (u, v1, z1)]),
        points(&[(u1, v, z), (u1, v1, z), (u1, v1, z1), (u1, v, z1)]),
    ]
}

/// The turned cell of a cube (its smallest corner in the turned frame).
fn cell_uv(rotation: u8, x: i8, y: i8) -> (f64, f64) {
    let (a, b) = turn(rotation, f64::from(x), f64::from(y));
    let (c, d) = turn(rotation, f64::from(x) + 1.0, f64::from(y) + 1.0);
    (a.min(c), b.min(d))
}

pub(super) fn inside(c: [i8; 3]) -> bool {
    (0..8).contains(&c[0]) && (0..8).contains(&c[1]) && (0..3).contains(&c[2])
}

/// The cubes of the winning bridge: a shortest chain of linked visible
/// cubes of the winner between two opposite edges (the rules' own
/// [`shortest_bridge`]). Empty unless the game was won by a bridge.
pub fn bridge_cells(pos: &Position) -> Vec<Cell> {
    match pos.status() {
        Status::Won {
            winner,
            by: WinReason::Bridge,
        } => shortest_bridge(pos.cubes(winner), pos.cubes(winner.other())),
        _ => Vec::new(),
    }
}

/// The cubes of the last move when it was a placement (a swap or a time
/// machine marks nothing).
pub(super) fn last_cells(pos: &Position) -> Vec<Cell> {
    pos.moves()
        .last()
        .and_then(|m| Move::placement(*m))
        .map(|p| p.entry().cells.cells().collect())
        .unwrap_or_default()
}

/// One thing drawn in the isometric view.
struct Item {
    cell: [i8; 3],
    owner: Player,
    ghost: Option<usize>,
}

/// The isometric view as an `<svg>` element.
pub fn iso(pos: &Position, view: &View) -> String {
    let r = view.rotation % 4;
    let last = last_cells(pos);
    let bridge = bridge_cells(pos);
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="iso" viewBox="-235 -100 470 365" data-rotation="{r}" data-layers="{}" role="img" aria-label="the board in 3D">"##,
        view.layers
    );
    s.push_str(r##"<g class="floor" stroke="#b9ad94" stroke-width="0.6">"##);
    for y in 0..8i8 {
        for x in 0..8i8 {
            let (u, v) = cell_uv(r, x, y);
            let rim = x == 0 || y == 0 || x == 7 || y == 7;
            let fill = if rim { "#e3d8bf" } else { "#f1ebdc" };
            let _ = write!(
                s,
                r##"<polygon class="cell" data-x="{x}" data-y="{y}" fill="{fill}" points="{}"/>"##,
                points(&[
                    (u, v, 0.0),
                    (u + 1.0, v, 0.0),
                    (u + 1.0, v + 1.0, 0.0),
                    (u, v + 1.0, 0.0)
                ])
            );
        }
    }
    s.push_str("</g>");
    edges(&mut s, r);
    // Cubes and ghost cubes, far to near, low to high.
    let mut items: Vec<Item> = Vec::new();
    for c in pos.occupied().cells() {
        let owner = pos.owner(c).unwrap_or(Player::One);
        items.push(Item {
            cell: [c.x() as i8, c.y() as i8, c.z() as i8],
            owner,
            ghost: None,
        });
    }
    // The engine's expected line is drawn only from above.
    let drawn = |g: &Ghost| g.kind != GhostKind::Idea;
    for (gi, g) in view.ghosts.iter().enumerate().filter(|(_, g)| drawn(g)) {
        for &c in g.cells.iter().filter(|&&c| inside(c)) {
            items.push(Item {
                cell: c,
                owner: g.player,
                ghost: Some(gi),
            });
        }
    }
    let depth = |it: &Item| {
        let (u, v) = cell_uv(r, it.cell[0], it.cell[1]);
        (
            (u + v) as i32 + i32::from(it.cell[2]),
            it.cell[2],
            it.ghost.is_some(),
        )
    };
    items.sort_by_key(depth);
    // The columns of the piece aimed, turned: a cube nearer the eye that
    // covers one of them is drawn see-through.
    let aimed: Vec<(f64, f64)> = (view.ghosts.iter())
        .filter(|g| matches!(g.kind, GhostKind::Legal | GhostKind::Illegal))
        .flat_map(|g| g.cells.iter().filter(|&&c| inside(c)))
        .map(|c| cell_uv(r, c[0], c[1]))
        .collect();
    let in_front = |x: i8, y: i8| {
        let (u, v) = cell_uv(r, x, y);
        aimed
            .iter()
            .any(|&(au, av)| u + v > au + av && ((u - v) - (au - av)).abs() <= 1.0)
    };
    s.push_str(
        r##"<g class="cubes" stroke="#1b1b1b" stroke-width="0.8" stroke-linejoin="round">"##,
    );
    for it in &items {
        let [x, y, z] = it.cell;
        let (u, v) = cell_uv(r, x, y);
        let [top, left, right] = faces(u, v, f64::from(z));
        match it.ghost {
            None => {
                let cell = Cell::new(x as u8, y as u8, z as u8).expect("items lie on the board");
                let faded = z as u8 >= view.layers;
                let mut class = format!("cube p{}", it.owner.number());
                let mut extra = String::new();
                if bridge.contains(&cell) {
                    class.push_str(" bridge");
                    extra.push_str(r##" stroke="#ffc400" stroke-width="2.6""##);
                }
                if last.contains(&cell) {
                    class.push_str(" last");
                }
                if faded {
                    class.push_str(" faded");
                    extra.push_str(r##" opacity="0.13" pointer-events="none""##);
                } else if in_front(x, y) {
                    class.push_str(" see-through");
                    extra.push_str(r##" opacity="0.3""##);
                }
                let [ct, cl, cr] = shades(it.owner);
                let _ = write!(
                    s,
                    r##"<g class="{class}" data-x="{x}" data-y="{y}" data-z="{z}"{extra}><polygon fill="{ct}" points="{top}"/><polygon fill="{cl}" points="{left}"/><polygon fill="{cr}" points="{right}"/>"##
                );
                if last.contains(&cell) && !faded {
                    let (cx, cy) = project(u + 0.5, v + 0.5, f64::from(z) + 1.0);
                    let _ = write!(
                        s,
                        r##"<ellipse class="last-mark" pointer-events="none" cx="{}" cy="{}" rx="6" ry="3.5" fill="#fff" stroke="#111" stroke-width="1.2"/>"##,
                        num(cx),
                        num(cy)
                    );
                }
                s.push_str("</g>");
            }
            Some(gi) => ghost_cube(&mut s, &view.ghosts[gi], (u, v, z), (x, y), false),
        }
    }
    s.push_str("</g>");
    // The winning bridge outlined over everything, so that no stack hides it.
    s.push_str(r##"<g class="bridge-outline" pointer-events="none" fill="none" stroke="#ffc400" stroke-width="2.4" stroke-linejoin="round">"##);
    for c in &bridge {
        let (u, v) = cell_uv(r, c.x() as i8, c.y() as i8);
        for face in faces(u, v, f64::from(c.z())) {
            let _ = write!(s, r##"<polygon points="{face}"/>"##);
        }
    }
    s.push_str("</g>");
    // Ghosts again as outlines on top, so that one behind a stack still shows.
    s.push_str(r##"<g class="ghost-outlines" pointer-events="none" fill="none">"##);
    for it in items.iter().filter(|it| it.ghost.is_some()) {
        let [x, y, z] = it.cell;
        let (u, v) = cell_uv(r, x, y);
        if let Some(gi) = it.ghost {
            ghost_cube(&mut s, &view.ghosts[gi], (u, v, z), (x, y), true);
        }
    }
    for g in view.ghosts.iter().filter(|g| drawn(g)) {
        let Some(label) = &g.label else { continue };
        // On the highest cube of the ghost that is inside the volume.
        if let Some(&[x, y, z]) = g.cells.iter().filter(|&&c| inside(c)).max_by_key(|c| c[2]) {
            let (u, v) = cell_uv(r, x, y);
            let (cx, cy) = project(u + 0.5, v + 0.5, f64::from(z) + 1.0);
            let _ = write!(
                s,
                r##"<text x="{}" y="{}" text-anchor="middle" dominant-baseline="middle" font-size="12" font-weight="bold" fill="#111" stroke="#fff" stroke-width="3" paint-order="stroke">{}</text>"##,
                num(cx),
                num(cy),
                escape(label)
            );
        }
    }
    s.push_str("</g>");
    // Over the cubes, so that a stack on a back row hides no compass letter.
    edge_labels(&mut s, r);
    s.push_str("</svg>");
    s
}

/// The goal edges: north-south in one colour, west-east in another.
fn edges(s: &mut String, r: u8) {
    let at = |x: f64, y: f64| {
        let (u, v) = turn(r, x, y);
        project(u, v, 0.0)
    };
    let line = |s: &mut String, a: (f64, f64), b: (f64, f64), colour: &str, edge: &str| {
        let (p, q) = (at(a.0, a.1), at(b.0, b.1));
        let _ = write!(
            s,
            r##"<line class="goal {edge}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{colour}" stroke-width="5" stroke-linecap="round"/>"##,
            num(p.0),
            num(p.1),
            num(q.0),
            num(q.1)
        );
    };
    s.push_str(r##"<g class="edges" pointer-events="none">"##);
    line(s, (0.0, 0.0), (8.0, 0.0), "#c8962a", "north");
    line(s, (0.0, 8.0), (8.0, 8.0), "#c8962a", "south");
    line(s, (0.0, 0.0), (0.0, 8.0), "#3e9a62", "west");
    line(s, (8.0, 0.0), (8.0, 8.0), "#3e9a62", "east");
    s.push_str("</g>");
}

/// The compass letters and the coordinates along the two near edges,
/// with a light halo that keeps them readable over a cube. The letters of
/// the two far edges stand as high as the tallest stack (three cubes)
/// over their edge: a stack on a back row, drawn below them on the
/// screen, never covers them.
fn edge_labels(s: &mut String, r: u8) {
    let at = |x: f64, y: f64, z: f64| {
        let (u, v) = turn(r, x, y);
        project(u, v, z)
    };
    s.push_str(r##"<g class="edge-labels" pointer-events="none" stroke="#fffdf8" stroke-width="2.5" stroke-opacity="0.85" paint-order="stroke">"##);
    let text = |s: &mut String, (x, y): (f64, f64), z: f64, t: &str, size: u8, colour: &str| {
        let (px, py) = at(x, y, z);
        let class = if size > 10 { r#" class="compass""# } else { "" };
        let _ = write!(
            s,
            r##"<text{class} x="{}" y="{}" font-size="{size}" text-anchor="middle" dominant-baseline="middle" fill="{colour}">{t}</text>"##,
            num(px),
            num(py)
        );
    };
    for (p, t) in [
        ((4.0, -1.6), "N"),
        ((4.0, 9.4), "S"),
        ((-1.6, 4.0), "W"),
        ((9.4, 4.0), "E"),
    ] {
        let (u, v) = turn(r, p.0, p.1);
        let z = if u < 0.0 || v < 0.0 { 3.0 } else { 0.0 };
        text(s, p, z, t, 15, "#5a5142");
    }
    // The coordinates run along the two edges nearest the viewer, whatever
    // the turn: nothing stands in front of them, and none sits on a cube,
    // where it would read as a stack's height.
    for i in 0..8 {
        let d = f64::from(i) + 0.5;
        for p in [(d, -0.55), (d, 8.55), (-0.55, d), (8.55, d)] {
            let (u, v) = turn(r, p.0, p.1);
            if u > 8.0 || v > 8.0 {
                text(s, p, 0.0, &i.to_string(), 10, "#7d735f");
            }
        }
    }
    s.push_str("</g>");
}

/// The 3D view and the top view side by side, with a caption: the picture
/// `cabra show FILE --svg` writes.
pub fn picture(pos: &Position, caption: &[String]) -> String {
    let view = View::default();
    let height = 380 + 20 * caption.len();
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="780" height="{height}" viewBox="0 0 780 {height}" font-family="sans-serif"><rect width="780" height="{height}" fill="#fbf8f1"/>"##
    );
    let iso = iso(pos, &view).replacen(
        "<svg ",
        r##"<svg x="0" y="0" width="470" height="365" "##,
        1,
    );
    let top = top(pos, &view).replacen(
        "<svg ",
        r##"<svg x="490" y="50" width="280" height="280" "##,
        1,
    );
    s.push_str(&iso);
    s.push_str(&top);
    for (i, line) in caption.iter().enumerate() {
        let _ = write!(
            s,
            r##"<text x="20" y="{}" font-size="15" fill="#222">{}</text>"##,
            385 + 20 * i,
            escape(line)
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use cabra::game::record::parse_game;

    #[test]
    fn quarter_turns_map_the_board_onto_itself() {
        for r in 0..4 {
            let mut seen = std::collections::HashSet::new();
            for x in 0..8 {
                for y in 0..8 {
                    let (u, v) = cell_uv(r, x, y);
                    assert!((0.0..8.0).contains(&u) && (0.0..8.0).contains(&v));
                    assert!(seen.insert((u as i32, v as i32)));
                }
            }
        }
        // A quarter turn moves the north-west corner cell to another corner.
        assert_eq!(cell_uv(1, 0, 0), (7.0, 0.0));
    }

    #[test]
    fn coordinates_run_along_the_near_edges_at_every_turn() {
        let pos = Position::new();
        for r in 0..4 {
            let svg = iso(
                &pos,
                &View {
                    rotation: r,
                    ..View::default()
                },
            );
            let labels = &svg[svg.find("edge-labels").unwrap()..];
            // Two edges of eight numbers, and the four compass letters.
            assert_eq!(labels.matches("<text").count(), 16 + 4, "turn {r}");
            // Each number lies below the board's nearest corner's sides:
            // lower on the screen than the board's centre.
            let (_, centre) = project(4.0, 4.0, 0.0);
            for t in labels
                .split("<text")
                .skip(1)
                .filter(|t| t.contains("font-size=\"10\""))
            {
                let y: f64 = t
                    .split("y=\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                assert!(
                    y > centre,
                    "turn {r}: a coordinate at y {y} behind the centre {centre}"
                );
            }
        }
    }

    /// The `x` and `y` of each `<text class="compass">` of an SVG.
    fn compass(svg: &str) -> Vec<(f64, f64)> {
        let attr = |t: &str, name: &str| -> f64 {
            let start = t.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            t[start..].split('"').next().unwrap().parse().unwrap()
        };
        svg.split(r#"<text class="compass""#)
            .skip(1)
            .map(|t| (attr(t, "x"), attr(t, "y")))
            .collect()
    }

    #[test]
    fn no_stack_can_cover_a_compass_letter() {
        for r in 0..4 {
            let letters = compass(&iso(
                &Position::new(),
                &View {
                    rotation: r,
                    ..View::default()
                },
            ));
            assert_eq!(letters.len(), 4, "turn {r}");
            // A letter's box (15 px type), against the screen box of
            // every cube the volume may hold.
            for &(lx, ly) in &letters {
                for (x, y, z) in
                    (0..8).flat_map(|x| (0..8).flat_map(move |y| (0..3).map(move |z| (x, y, z))))
                {
                    let (u, v) = cell_uv(r, x, y);
                    let corners: Vec<(f64, f64)> = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
                        .iter()
                        .flat_map(|&(du, dv)| {
                            [0.0, 1.0].map(|dz| project(u + du, v + dv, f64::from(z) + dz))
                        })
                        .collect();
                    let (x0, x1) = corners
                        .iter()
                        .fold((f64::MAX, f64::MIN), |(a, b), c| (a.min(c.0), b.max(c.0)));
                    let (y0, y1) = corners
                        .iter()
                        .fold((f64::MAX, f64::MIN), |(a, b), c| (a.min(c.1), b.max(c.1)));
                    let apart = lx + 7.0 < x0 || lx - 7.0 > x1 || ly + 8.0 < y0 || ly - 8.0 > y1;
                    assert!(
                        apart,
                        "turn {r}: the letter at ({lx}, {ly}) over cube {x}{y}{z}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_top_view_names_all_four_sides() {
        let t = top(&Position::new(), &View::default());
        for side in ["N", "S", "W", "E"] {
            assert!(t.contains(&format!(">{side}</text>")), "{side}");
        }
        assert_eq!(compass(&t).len(), 4);
    }

    #[test]
    fn cubes_and_marks_are_drawn() {
        let pos = parse_game("110 120 121 122\n330 340 430 440\n").unwrap();
        let svg = iso(&pos, &View::default());
        assert_eq!(svg.matches(r##"class="cube p1"##).count(), 4);
        assert_eq!(svg.matches(r##"class="cube p2 last""##).count(), 4);
        assert_eq!(svg.matches(r##"class="cell""##).count(), 64);
        let t = top(&pos, &View::default());
        assert!(t.contains(r##"data-x="1" data-y="2" data-height="3" data-owner="1""##));
        assert_eq!(t.matches("column last").count(), 4);
    }

    #[test]
    fn a_bridge_is_found_and_faded_layers_are_marked() {
        // Player 1 lays a north-south line of flat L pieces on x = 0..1,
        // player 2 plays far away.
        let text =
            "000 010 020 100\n770 760 750 670\n030 040 050 130\n570 560 550 470\n060 070 170 160\n";
        let pos = parse_game(text).unwrap();
        assert_eq!(pos.status().winner(), Some(Player::One));
        let cells = bridge_cells(&pos);
        assert!(cells.iter().any(|c| c.y() == 0) && cells.iter().any(|c| c.y() == 7));
        assert!(cells.len() >= 8);
        let view = View {
            layers: 1,
            ..View::default()
        };
        assert!(iso(&pos, &view).contains("cube p1 bridge"));
    }
}
