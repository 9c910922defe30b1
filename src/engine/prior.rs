//! What a placement looks like, for ordering a node's untried moves: a few
//! cheap features of the placement in its position (piece, height, the
//! bottom perimeter, links to the mover's visible cubes, the opponent's
//! cubes it hides or touches, nearness to the last placements), each value
//! with a weight learned from the engine's own games (`examples/learn_prior.rs`,
//! a generalised Bradley–Terry model fitted as in Coulom 2007). The search
//! tries the placements of the best class first.

use crate::game::bitboard::{RIM, Volume, spread};
use crate::game::bridge::visible;
use crate::game::{Placement, Position, Variant};

/// The feature groups and how many values each takes.
pub const GROUPS: [(&str, usize); 9] = [
    ("piece", 4),
    ("height", 3),
    ("perimeter", 2),
    ("own links", 4),
    ("hides", 3),
    ("touches opponent", 3),
    ("edge", 2),
    ("near last", 2),
    ("near own last", 2),
];

/// One value per group.
pub type Features = [u8; GROUPS.len()];

/// What the features of every placement in one position share.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    own: Volume,
    opp: Volume,
    opp_cols: u64,
    near_last: u64,
    near_own_last: u64,
    /// Whether the bottom perimeter counts against its owner (`caminos`);
    /// under `bridget` the feature is left out.
    perimeter: bool,
}

/// The cells linked to a cube of `c`: orthogonal neighbours at most one
/// level apart and the cells just above and below.
#[inline(always)]
fn linked(c: Volume) -> Volume {
    let [c0, c1, c2] = c.0;
    Volume([spread(c0 | c1), spread(c0 | c1 | c2), spread(c1 | c2)])
}

#[inline(always)]
fn bucket(n: u32, top: u8) -> u8 {
    (n as u8).min(top)
}

impl Context {
    /// The context of the side to move in `pos`.
    pub fn new(pos: &Position) -> Context {
        let me = pos.to_move();
        let own = visible(pos.cubes(me), pos.cubes(me.other()));
        let opp = visible(pos.cubes(me.other()), pos.cubes(me));
        let near = |back: usize| {
            let ps = pos.placements();
            ps.len()
                .checked_sub(back)
                .map_or(0, |i| spread(ps[i].entry().cells.columns()))
        };
        Context {
            own,
            opp,
            opp_cols: opp.columns(),
            near_last: near(1),
            near_own_last: near(2),
            perimeter: pos.rules().variant == Variant::Caminos,
        }
    }

    /// The features of placement `p` (legal in the context's position).
    #[inline]
    pub fn features(&self, p: Placement) -> Features {
        let e = p.entry();
        let c = e.cells;
        let cols = c.columns();
        let top = if c.0[2] != 0 {
            2
        } else if c.0[1] != 0 {
            1
        } else {
            0
        };
        let around = linked(c);
        let hidden = cols & self.opp_cols;
        let opp_left = Volume(self.opp.0.map(|l| l & !hidden));
        [
            e.piece.index() as u8,
            top,
            (e.on_perimeter && self.perimeter) as u8,
            bucket((around & self.own).count(), 3),
            bucket(hidden.count_ones(), 2),
            bucket((around & opp_left).count(), 2),
            (cols & RIM != 0) as u8,
            (cols & self.near_last != 0) as u8,
            (cols & self.near_own_last != 0) as u8,
        ]
    }
}

/// The learnt log weight of each feature value (`examples/learn_prior.rs` on
/// 21,827 placements of the default engine at 200 ms a move in 3,000 match
/// games, 2026-11-24; docs/STRENGTH.md).
const WEIGHTS: [[f32; 4]; GROUPS.len()] = [
    [0.0, -0.224, -0.520, 0.236],
    [0.0, -0.351, -0.954, 0.0],
    [0.0, -0.355, 0.0, 0.0],
    [0.0, 1.062, 1.256, 1.305],
    [0.0, 2.683, 3.994, 0.0],
    [0.0, 0.710, 0.996, 0.0],
    [0.0, 0.598, 0.0, 0.0],
    [0.0, 0.831, 0.0, 0.0],
    [0.0, 0.400, 0.0, 0.0],
];

/// The scores that open the first classes: about the top 10% and the top
/// 40% of legal placements, which held 65% and 92% of the engine's choices.
const CLASS_SCORES: [f32; CLASSES - 1] = [2.4, 1.0];

/// How many classes [`Context::class`] sorts placements into.
pub const CLASSES: usize = 3;

impl Context {
    /// The sum of the log weights of `p`'s features.
    #[inline]
    pub fn score(&self, p: Placement) -> f32 {
        let f = self.features(p);
        let mut s = 0.0;
        for (g, &v) in f.iter().enumerate() {
            s += WEIGHTS[g][v as usize];
        }
        s
    }

    /// The class of `p`: 0 for the placements to try first, up to
    /// `CLASSES - 1`.
    #[inline]
    pub fn class(&self, p: Placement) -> usize {
        let s = self.score(p);
        CLASS_SCORES.iter().take_while(|&&t| s < t).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::parse_placement_or_cells;

    fn place(text: &str) -> Placement {
        parse_placement_or_cells(text).expect("a placement")
    }

    #[test]
    fn features_of_a_piece_climbing_onto_the_opponent() {
        // Player 1's O covers columns (0,0), (1,0), (0,1), (1,1) at z = 0.
        let mut pos = Position::new();
        pos.play_unchecked(place("000 100 010 110"));
        let ctx = Context::new(&pos);
        // Player 2's upright Z: 200 and 201 beside the O, 101 on its cube
        // 100 (hiding it) and 102 on top.
        let f = ctx.features(place("200 201 101 102"));
        let want: Features = [
            2, // a Z
            2, // reaches z = 2
            1, // 200 lies on the bottom perimeter
            0, // player 2 has no cubes to link to
            1, // hides one column of player 1 (100)
            2, // touches 000 and 110, still visible (100 is hidden)
            1, // on the board's edge
            1, // beside the last placement
            0, // player 2 has placed nothing before
        ];
        assert_eq!(f, want);
        // A flat L far away on the other side: no contact, nothing hidden.
        let far = ctx.features(place("L T0 330"));
        assert_eq!(far, [0, 0, 0, 0, 0, 0, 0, 0, 0]);
        // The weights rank the climbing Z above the lone L.
        assert!(ctx.class(place("200 201 101 102")) < ctx.class(place("L T0 330")));
        assert_eq!(ctx.class(place("L T0 330")), CLASSES - 1);
    }

    #[test]
    fn links_count_own_visible_cubes_only() {
        // Player 1 O at the corner, player 2 far off, player 1 to move.
        let mut pos = Position::new();
        pos.play_unchecked(place("000 100 010 110"));
        pos.play_unchecked(place("O T0 660"));
        let ctx = Context::new(&pos);
        // An O beside player 1's O links to 200's neighbours 100 and 110.
        let f = ctx.features(place("O T0 200"));
        assert_eq!(f[3], 2, "links to 100 and 110");
        assert_eq!(f[5], 0, "no contact with player 2");
        assert_eq!(f[7], 0, "far from player 2's O");
        assert_eq!(f[8], 1, "beside its own last placement");
    }
}

#[cfg(test)]
mod search_tests {
    use super::*;
    use crate::game::record::parse_game;
    use crate::search::{Budget, SearchConfig, Searcher};

    /// The root moves a short search tried, with the prior on or off.
    fn tried(pos: &Position, ranked: bool, iterations: u64) -> Vec<Placement> {
        let config = SearchConfig {
            prior: ranked,
            top_moves: 10_000,
            ..SearchConfig::default()
        };
        let mut s = Searcher::new(*pos, config);
        let report = s.search(&Budget::iterations(iterations));
        report
            .top
            .iter()
            .filter(|m| m.visits > 0)
            .filter_map(|m| m.mv.placement())
            .collect()
    }

    #[test]
    fn a_node_tries_the_best_class_first() {
        let pos = parse_game(include_str!("../../games/midgame-9.caminos")).unwrap();
        let ctx = Context::new(&pos);
        let mut best = 0;
        pos.for_each_legal_placement(|p| best += usize::from(ctx.class(p) == 0));
        assert!(best >= 10, "the test needs a position with a best class");
        let n = (best / 2) as u64;
        let ranked = tried(&pos, true, n);
        assert!(!ranked.is_empty());
        assert!(ranked.iter().all(|&p| ctx.class(p) == 0), "{ranked:?}");
        // Without ranks the first moves tried are of every class.
        let plain = tried(&pos, false, n);
        assert!(plain.iter().any(|&p| ctx.class(p) != 0), "{plain:?}");
    }
}
