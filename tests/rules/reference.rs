//! The slow reference model of the property tests, written directly from
//! RULES.md: a plain 8x8x3 array of owners, the 51 shapes computed from
//! the section 3 formulas, legality cell by cell as in section 5, bridges
//! by breadth-first search as in section 6, the end and the perimeter
//! count as in section 7. Nothing here uses the library's tables, masks or
//! bitboards.

use crate::common::*;

use std::collections::{BTreeSet, VecDeque};
use std::sync::OnceLock;

use cabra::game::{Piece, Placement, Player, Status, WinReason};
/// Four cells `[x, y, z]`, sorted.
pub(crate) type Cells = [[u8; 3]; 4];

pub(crate) const START: [u8; 4] = [4, 4, 4, 2];

/// Every shape at every spot of the board where it lies inside the volume
/// with its lowest cubes at z = 0 (RULES.md section 5, rules 1 and 3).
pub(crate) fn ref_entries() -> &'static [(Piece, Cells)] {
    static E: OnceLock<Vec<(Piece, Cells)>> = OnceLock::new();
    E.get_or_init(|| {
        let mut shapes = BTreeSet::new();
        for piece in Piece::ALL {
            for face in ['T', 'B', 'N', 'S', 'E', 'W'] {
                for angle in [0, 90, 180, 270] {
                    shapes.insert((piece, oriented(piece, face, angle)));
                }
            }
        }
        assert_eq!(shapes.len(), 51);
        let mut out = Vec::new();
        for (piece, shape) in shapes {
            for x in 0..8 {
                for y in 0..8 {
                    let cells: Vec<[i32; 3]> =
                        shape.iter().map(|c| [c[0] + x, c[1] + y, c[2]]).collect();
                    if cells.iter().all(|c| c[0] < 8 && c[1] < 8 && c[2] < 3) {
                        let mut a = [[0u8; 3]; 4];
                        for (d, s) in a.iter_mut().zip(&cells) {
                            *d = s.map(|v| v as u8);
                        }
                        a.sort();
                        out.push((piece, a));
                    }
                }
            }
        }
        out
    })
}

/// The piece and cells of a library placement.
pub(crate) fn lib_cells(p: Placement) -> (Piece, Cells) {
    let e = p.entry();
    let mut a = [[0u8; 3]; 4];
    for (d, c) in a.iter_mut().zip(e.cells.cells()) {
        *d = [c.x(), c.y(), c.z()];
    }
    a.sort();
    (e.piece, a)
}

pub(crate) type Grid = [[[Option<Player>; 3]; 8]; 8];

pub(crate) fn on_rim(x: u8, y: u8) -> bool {
    x == 0 || x == 7 || y == 0 || y == 7
}

/// RULES.md section 6, literally: visible cubes, links, a chain from edge to edge.
pub(crate) fn slow_bridge(grid: &Grid, p: Player) -> bool {
    let mut vis = [[[false; 3]; 8]; 8];
    for x in 0..8 {
        for y in 0..8 {
            for z in 0..3 {
                vis[x][y][z] = grid[x][y][z] == Some(p)
                    && (z + 1..3).all(|h| grid[x][y][h] != Some(p.other()));
            }
        }
    }
    let reaches = |start: &dyn Fn(usize, usize) -> bool, goal: &dyn Fn(usize, usize) -> bool| {
        let mut seen = [[[false; 3]; 8]; 8];
        let mut queue = VecDeque::new();
        for x in 0..8 {
            for y in 0..8 {
                for z in 0..3 {
                    if vis[x][y][z] && start(x, y) {
                        seen[x][y][z] = true;
                        queue.push_back((x as i32, y as i32, z as i32));
                    }
                }
            }
        }
        while let Some((x, y, z)) = queue.pop_front() {
            if goal(x as usize, y as usize) {
                return true;
            }
            let mut next = vec![(x, y, z - 1), (x, y, z + 1)];
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                for dz in -1..=1 {
                    next.push((x + dx, y + dy, z + dz));
                }
            }
            for (a, b, h) in next {
                if (0..8).contains(&a) && (0..8).contains(&b) && (0..3).contains(&h) {
                    let (a, b, h) = (a as usize, b as usize, h as usize);
                    if vis[a][b][h] && !seen[a][b][h] {
                        seen[a][b][h] = true;
                        queue.push_back((a as i32, b as i32, h as i32));
                    }
                }
            }
        }
        false
    };
    reaches(&|_, y| y == 0, &|_, y| y == 7) || reaches(&|x, _| x == 0, &|x, _| x == 7)
}

/// The game as the rules describe it, one cube at a time.
#[derive(Clone)]
pub(crate) struct Model {
    pub(crate) grid: Grid,
    pub(crate) left: [[u8; 4]; 2],
    pub(crate) to_move: Player,
    pub(crate) status: Status,
    pub(crate) placed: Vec<(Player, Piece, Cells)>,
}

impl Model {
    pub(crate) fn new() -> Model {
        Model {
            grid: [[[None; 3]; 8]; 8],
            left: [START; 2],
            to_move: Player::One,
            status: Status::Ongoing,
            placed: Vec::new(),
        }
    }

    pub(crate) fn at(&self, [x, y, z]: [u8; 3]) -> Option<Player> {
        self.grid[x as usize][y as usize][z as usize]
    }

    /// RULES.md section 5, rules 1 to 4, cell by cell.
    pub(crate) fn fits(&self, cells: &Cells) -> bool {
        cells.iter().all(|c| c[0] < 8 && c[1] < 8 && c[2] < 3)
            && cells.iter().all(|&c| self.at(c).is_none())
            && cells.iter().any(|c| c[2] == 0)
            && cells.iter().all(|&[x, y, z]| {
                z == 0 || self.at([x, y, z - 1]).is_some() || cells.contains(&[x, y, z - 1])
            })
    }

    /// Legal for the side to move: game on, piece left, fits.
    pub(crate) fn legal(&self, piece: Piece, cells: &Cells) -> bool {
        self.status == Status::Ongoing
            && self.left[self.to_move.index()][piece.index()] > 0
            && self.fits(cells)
    }

    pub(crate) fn any_legal(&self) -> bool {
        ref_entries().iter().any(|(k, c)| self.legal(*k, c))
    }

    pub(crate) fn perimeter(&self, p: Player) -> u8 {
        self.placed
            .iter()
            .filter(|(owner, _, cells)| {
                *owner == p && cells.iter().any(|&[x, y, z]| z == 0 && on_rim(x, y))
            })
            .count() as u8
    }

    /// Places a legal piece and judges the game as sections 6 and 7 say.
    pub(crate) fn play(&mut self, piece: Piece, cells: &Cells) {
        assert!(self.legal(piece, cells));
        let me = self.to_move;
        for &[x, y, z] in cells {
            self.grid[x as usize][y as usize][z as usize] = Some(me);
        }
        self.left[me.index()][piece.index()] -= 1;
        self.placed.push((me, piece, *cells));
        self.to_move = me.other();
        self.status = if slow_bridge(&self.grid, me) {
            Status::Won {
                winner: me,
                by: WinReason::Bridge,
            }
        } else if !self.any_legal() {
            let (a, b) = (self.perimeter(Player::One), self.perimeter(Player::Two));
            match a.cmp(&b) {
                std::cmp::Ordering::Less => Status::Won {
                    winner: Player::One,
                    by: WinReason::Perimeter,
                },
                std::cmp::Ordering::Greater => Status::Won {
                    winner: Player::Two,
                    by: WinReason::Perimeter,
                },
                std::cmp::Ordering::Equal => Status::Draw {
                    by: WinReason::Perimeter,
                },
            }
        } else {
            Status::Ongoing
        };
    }
}
