//! Ghost pieces: a placement being aimed, one of a line, the engine's
//! better placement in a review, the engine's expected line while it
//! thinks; drawn translucent in the 3D view (but the engine's line, which
//! is drawn only from above) and outlined in the view from above.

use std::fmt::Write;

use cabra::game::Player;

use super::board::faces;
use super::shades;

/// What a ghost piece stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// The aimed and better kinds come from the page alone.
#[cfg_attr(not(feature = "serve"), allow(dead_code))]
pub enum GhostKind {
    /// A legal placement being aimed: drawn as the mover's piece.
    Legal,
    /// An illegal placement being aimed: grey with a red outline.
    Illegal,
    /// A placement of a line shown on the board (the one played, in a
    /// review of an analysis).
    Line,
    /// A placement the engine expects, while it thinks: drawn only in the
    /// view from above, so that it never covers a cube of the board.
    Idea,
    /// The engine's better placement, in an analysis.
    Better,
}

impl GhostKind {
    pub(super) fn class(self) -> &'static str {
        match self {
            GhostKind::Legal => "legal",
            GhostKind::Illegal => "illegal",
            GhostKind::Line => "line",
            GhostKind::Idea => "idea",
            GhostKind::Better => "better",
        }
    }
}

/// A piece drawn translucent over the board.
#[derive(Clone, Debug)]
pub struct Ghost {
    /// Its cubes `(x, y, z)`; those outside the volume are not drawn.
    pub cells: Vec<[i8; 3]>,
    /// What it stands for.
    pub kind: GhostKind,
    /// Whose piece it would be.
    pub player: Player,
    /// A short label written on it (the move number of a line).
    pub label: Option<String>,
}

/// One cube of a ghost: filled, or (`outline`) only its dashed edges.
pub(super) fn ghost_cube(
    s: &mut String,
    g: &Ghost,
    (u, v, z): (f64, f64, i8),
    (x, y): (i8, i8),
    outline: bool,
) {
    let [top, left, right] = faces(u, v, f64::from(z));
    let [ct, cl, cr] = match g.kind {
        GhostKind::Illegal => ["#c9c9c9", "#a5a5a5", "#8a8a8a"],
        GhostKind::Better => ["#8fe0a8", "#3cb76a", "#2a8a4e"],
        _ => shades(g.player),
    };
    let stroke = match g.kind {
        GhostKind::Illegal => "#d00000",
        GhostKind::Better => "#0b6b2e",
        _ => "#111",
    };
    let kind = g.kind.class();
    if outline {
        let _ = write!(
            s,
            r##"<g class="ghost-outline {kind}" stroke="{stroke}" stroke-width="1" stroke-dasharray="3 2" opacity="0.75"><polygon points="{top}"/><polygon points="{left}"/><polygon points="{right}"/></g>"##
        );
    } else {
        let opacity = if g.kind == GhostKind::Line {
            "0.45"
        } else {
            "0.6"
        };
        let _ = write!(
            s,
            r##"<g class="ghost {kind}" data-gx="{x}" data-gy="{y}" data-gz="{z}" pointer-events="none" opacity="{opacity}" stroke="{stroke}" stroke-dasharray="3 2"><polygon fill="{ct}" points="{top}"/><polygon fill="{cl}" points="{left}"/><polygon fill="{cr}" points="{right}"/></g>"##
        );
    }
}
