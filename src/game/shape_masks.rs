//! Legal positions of each shape with constant shifts.
//!
//! A position `p` (bit `y * 8 + x`) of a shape is legal when the shape's
//! bounding box fits there, every cube's cell is free and every support cell
//! is occupied: an AND of the free or occupied layers, each shifted right by
//! the cell's offset. The shapes' cells are a `const` table here so that each
//! shape's mask compiles to a few constant shifts (a variable shift costs
//! several micro-ops on x86-64 without BMI2). A test checks this table
//! against the orientation rules.

use super::shape::SHAPE_COUNT;

/// The cells of the 51 shapes in the order of [`super::shape::all_shapes`].
pub const SHAPE_CELLS: [[[u8; 3]; 4]; SHAPE_COUNT] = [
    [[0, 0, 0], [0, 1, 0], [1, 0, 0], [2, 0, 0]], // L T0
    [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 2, 0]], // L T90
    [[0, 1, 0], [1, 1, 0], [2, 0, 0], [2, 1, 0]], // L T180
    [[0, 0, 0], [0, 1, 0], [0, 2, 0], [1, 2, 0]], // L T270
    [[0, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0]], // L B0
    [[0, 0, 0], [0, 1, 0], [0, 2, 0], [1, 0, 0]], // L B90
    [[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]], // L B180
    [[0, 2, 0], [1, 0, 0], [1, 1, 0], [1, 2, 0]], // L B270
    [[0, 0, 0], [0, 0, 1], [1, 0, 1], [2, 0, 1]], // L N0
    [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 2, 1]], // L N90
    [[0, 0, 1], [1, 0, 1], [2, 0, 0], [2, 0, 1]], // L N180
    [[0, 0, 1], [0, 1, 1], [0, 2, 0], [0, 2, 1]], // L N270
    [[0, 0, 0], [0, 0, 1], [1, 0, 0], [2, 0, 0]], // L S0
    [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 2, 0]], // L S90
    [[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 0, 1]], // L S180
    [[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 2, 1]], // L S270
    [[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 1, 0]], // L E0
    [[0, 0, 0], [1, 0, 0], [1, 0, 1], [1, 0, 2]], // L E90
    [[0, 0, 0], [0, 1, 0], [0, 1, 1], [0, 1, 2]], // L E180
    [[0, 0, 0], [0, 0, 1], [0, 0, 2], [1, 0, 0]], // L E270
    [[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 1, 2]], // L W0
    [[0, 0, 2], [1, 0, 0], [1, 0, 1], [1, 0, 2]], // L W90
    [[0, 0, 2], [0, 1, 0], [0, 1, 1], [0, 1, 2]], // L W180
    [[0, 0, 0], [0, 0, 1], [0, 0, 2], [1, 0, 2]], // L W270
    [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 0, 0]], // T T0
    [[0, 1, 0], [1, 0, 0], [1, 1, 0], [1, 2, 0]], // T T90
    [[0, 1, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]], // T T180
    [[0, 0, 0], [0, 1, 0], [0, 2, 0], [1, 1, 0]], // T T270
    [[0, 0, 1], [1, 0, 0], [1, 0, 1], [2, 0, 1]], // T N0
    [[0, 0, 1], [0, 1, 0], [0, 1, 1], [0, 2, 1]], // T N90
    [[0, 0, 0], [1, 0, 0], [1, 0, 1], [2, 0, 0]], // T S0
    [[0, 0, 0], [0, 1, 0], [0, 1, 1], [0, 2, 0]], // T S90
    [[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 1, 1]], // T E0
    [[0, 0, 1], [1, 0, 0], [1, 0, 1], [1, 0, 2]], // T E90
    [[0, 0, 1], [0, 1, 0], [0, 1, 1], [0, 1, 2]], // T E180
    [[0, 0, 0], [0, 0, 1], [0, 0, 2], [1, 0, 1]], // T E270
    [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]], // Z T0
    [[0, 1, 0], [0, 2, 0], [1, 0, 0], [1, 1, 0]], // Z T90
    [[0, 1, 0], [1, 0, 0], [1, 1, 0], [2, 0, 0]], // Z B0
    [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 2, 0]], // Z B90
    [[0, 0, 1], [1, 0, 0], [1, 0, 1], [2, 0, 0]], // Z N0
    [[0, 0, 1], [0, 1, 0], [0, 1, 1], [0, 2, 0]], // Z N90
    [[0, 0, 0], [1, 0, 0], [1, 0, 1], [2, 0, 1]], // Z S0
    [[0, 0, 0], [0, 1, 0], [0, 1, 1], [0, 2, 1]], // Z S90
    [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 2]], // Z E0
    [[0, 0, 1], [0, 0, 2], [1, 0, 0], [1, 0, 1]], // Z E90
    [[0, 0, 1], [0, 0, 2], [0, 1, 0], [0, 1, 1]], // Z W0
    [[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 0, 2]], // Z W90
    [[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 0]], // O T0
    [[0, 0, 0], [0, 0, 1], [1, 0, 0], [1, 0, 1]], // O N0
    [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1]], // O E0
];

/// First shape index of each piece (L, T, Z, O), and the end.
pub const PIECE_SHAPE_START: [usize; 5] = [0, 24, 36, 48, 51];

/// The layers a shape's terms read: free cells of layers 0..3, occupied
/// cells of layers 0 and 1, and all ones (padding).
pub type Sources = [u64; 6];

/// How to find one shape's legal positions.
#[derive(Clone, Copy, Debug)]
pub struct ShapeGen {
    /// Positions where the bounding box fits on the board.
    pub fits: u64,
    /// `(source, shift)` terms: four cubes, then supports, padded with `(5, 0)`.
    pub terms: [(u8, u8); 8],
}

const fn shape_gen(cells: &[[u8; 3]; 4]) -> ShapeGen {
    let mut ext = [0u8; 3];
    let mut i = 0;
    while i < 4 {
        let mut a = 0;
        while a < 3 {
            if cells[i][a] + 1 > ext[a] {
                ext[a] = cells[i][a] + 1;
            }
            a += 1;
        }
        i += 1;
    }
    let mut fits = 0u64;
    let mut y = 0;
    while y + ext[1] <= 8 {
        let mut x = 0;
        while x + ext[0] <= 8 {
            fits |= 1 << (y * 8 + x);
            x += 1;
        }
        y += 1;
    }
    let mut terms = [(5u8, 0u8); 8];
    let mut n = 0;
    i = 0;
    while i < 4 {
        let [dx, dy, dz] = cells[i];
        terms[n] = (dz, dy * 8 + dx);
        n += 1;
        i += 1;
    }
    i = 0;
    while i < 4 {
        let [dx, dy, dz] = cells[i];
        if dz > 0 {
            let mut below_is_own = false;
            let mut j = 0;
            while j < 4 {
                if cells[j][0] == dx && cells[j][1] == dy && cells[j][2] + 1 == dz {
                    below_is_own = true;
                }
                j += 1;
            }
            if !below_is_own {
                terms[n] = (3 + dz - 1, dy * 8 + dx);
                n += 1;
            }
        }
        i += 1;
    }
    ShapeGen { fits, terms }
}

const fn all_gens() -> [ShapeGen; SHAPE_COUNT] {
    let mut g = [ShapeGen {
        fits: 0,
        terms: [(5, 0); 8],
    }; SHAPE_COUNT];
    let mut s = 0;
    while s < SHAPE_COUNT {
        g[s] = shape_gen(&SHAPE_CELLS[s]);
        s += 1;
    }
    g
}

/// Every shape's generator, computed at compile time.
pub const GENS: [ShapeGen; SHAPE_COUNT] = all_gens();

/// The legal positions of shape `S`; all shifts are constants.
#[inline(always)]
fn positions<const S: usize>(src: &Sources) -> u64 {
    let g = const { &GENS[S] };
    let mut m = g.fits;
    let mut i = 0;
    while i < 8 {
        m &= src[g.terms[i].0 as usize] >> g.terms[i].1;
        i += 1;
    }
    m
}

/// The legal positions of shape `s`, like `positions::<S>` but with the
/// shifts read at run time: for callers that need only a few shapes.
#[inline(always)]
pub fn shape_positions(s: usize, src: &Sources) -> u64 {
    let g = &GENS[s];
    let mut m = g.fits;
    for &(layer, shift) in &g.terms {
        m &= src[layer as usize] >> shift;
    }
    m
}

macro_rules! fill {
    ($src:ident, $masks:ident; $($s:literal)*) => {
        {
            $( $masks[$s] = positions::<$s>($src); )*
        }
    };
}

/// Writes the legal positions of every shape of `piece` (0..4) into `masks`.
#[inline(always)]
pub fn piece_positions(piece: usize, src: &Sources, masks: &mut [u64; SHAPE_COUNT]) {
    match piece {
        0 => fill!(src, masks; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23),
        1 => fill!(src, masks; 24 25 26 27 28 29 30 31 32 33 34 35),
        2 => fill!(src, masks; 36 37 38 39 40 41 42 43 44 45 46 47),
        _ => fill!(src, masks; 48 49 50),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::piece::Piece;
    use crate::game::shape::all_shapes;

    #[test]
    fn the_const_cells_are_the_shapes_of_the_rules() {
        let shapes = all_shapes();
        assert_eq!(shapes.len(), SHAPE_COUNT);
        for (i, s) in shapes.iter().enumerate() {
            assert_eq!(SHAPE_CELLS[i], s.cells, "shape {i} ({s})");
            let p = s.piece.index();
            assert!((PIECE_SHAPE_START[p]..PIECE_SHAPE_START[p + 1]).contains(&i));
        }
        assert_eq!(PIECE_SHAPE_START[4], SHAPE_COUNT);
        assert_eq!(shapes[PIECE_SHAPE_START[3]].piece, Piece::O);
    }

    #[test]
    fn run_time_shifts_give_the_same_positions_as_constant_ones() {
        use crate::game::position::Position;
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let mut pos = Position::new();
        let mut checked = 0;
        while let Some(p) = pos.random_move(&mut rng) {
            let src = pos.sources();
            let mut masks = [0u64; SHAPE_COUNT];
            for piece in 0..4 {
                piece_positions(piece, &src, &mut masks);
            }
            for (s, &m) in masks.iter().enumerate() {
                assert_eq!(shape_positions(s, &src), m, "shape {s}");
                checked += u64::from(m != 0);
            }
            pos.play_unchecked(p);
        }
        assert!(checked > 100, "{checked}");
    }
}
