//! The exact endgame: an alpha-beta search to the end of the game, with
//! a transposition table keyed by a Zobrist hash, that decides bridges and
//! the final counts exactly (win, draw or loss for the side to move).
//!
//! Values are -1 (loss), 0 (draw) and 1 (win) for the side to move, so a
//! search needs no evaluation: only the game's own results. It is cheap
//! where it pays: a win in one ends a node at once, and facing a win in
//! one only placements that touch the threat's defence region are searched
//! ([`Position::defence_region`]). A node budget bounds each call; a call
//! that runs out returns `None` and keeps what it learnt in the table.
//!
//! Special moves (`swap`, `tm`) are not searched: [`Endgame::solve`]
//! declines positions where one is legal or could become legal.

use std::sync::OnceLock;

use crate::game::{
    MAX_PLIES, PLACEMENT_COUNT, Placement, PlacementList, Player, Position, Status, Variant,
};

/// A game-theoretic value for the side to move: -1, 0 or 1.
pub type Value = i8;

/// One slot of the transposition table: bounds on a position's value.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    lo: Value,
    hi: Value,
    /// The best placement found, plus one (0: none).
    best: u16,
}

impl Slot {
    /// Packed as two words, so that the table is allocated zeroed.
    fn pack(self) -> [u64; 2] {
        let data = u64::from(self.lo as u8)
            | (u64::from(self.hi as u8) << 8)
            | (u64::from(self.best) << 16);
        [self.key, data]
    }

    fn unpack([key, data]: [u64; 2]) -> Slot {
        Slot {
            key,
            lo: data as u8 as i8,
            hi: (data >> 8) as u8 as i8,
            best: (data >> 16) as u16,
        }
    }
}

/// The search in the tree asks only about positions with at most this many
/// placements left to make (both players together): earlier ones are far
/// beyond its budgets.
pub const MAX_LEFT: usize = 10;

/// How often (in nodes) a search asks whether to stop.
pub(crate) const STOP_CHECK: u64 = 256;

/// Slots in the table: 2^20 of 16 bytes, 16 MiB, allocated on first use.
const TABLE_BITS: u32 = 20;

/// Bytes of the table, once allocated.
pub const TABLE_BYTES: usize = 16 << TABLE_BITS;

/// The Zobrist keys: one per placement and owner, and one for player 2 to move.
fn keys() -> &'static [[u64; 2]] {
    static KEYS: OnceLock<Vec<[u64; 2]>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            // SplitMix64: fixed keys, the same in every run.
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        (0..=PLACEMENT_COUNT).map(|_| [next(), next()]).collect()
    })
}

/// The Zobrist hash of a position: its placements with their owners, the
/// side to move, and the rules.
pub fn hash(pos: &Position) -> u64 {
    let k = keys();
    let swapped = usize::from(pos.swapped());
    let mut h = match pos.rules().variant {
        Variant::Caminos => 0,
        Variant::Bridget => k[PLACEMENT_COUNT][0],
    };
    for (i, p) in pos.placements().iter().enumerate() {
        h ^= k[p.index()][(i + swapped) % 2];
    }
    if pos.to_move() == Player::Two {
        h ^= k[PLACEMENT_COUNT][1];
    }
    h
}

/// The exact endgame search, with its table kept from call to call (values
/// are exact, so what one call proves serves every later one).
#[derive(Clone)]
pub struct Endgame {
    table: Vec<[u64; 2]>,
    history: Vec<u32>,
    lists: Vec<PlacementList>,
    nodes: u64,
    limit: u64,
}

impl std::fmt::Debug for Endgame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endgame")
            .field("slots", &self.table.len())
            .field("nodes", &self.nodes)
            .finish()
    }
}

impl Default for Endgame {
    fn default() -> Self {
        Endgame::new()
    }
}

impl Endgame {
    /// A search with an empty table (allocated at the first solve).
    pub fn new() -> Endgame {
        Endgame {
            table: Vec::new(),
            history: vec![0; PLACEMENT_COUNT],
            lists: Vec::new(),
            nodes: 0,
            limit: 0,
        }
    }

    /// Bytes held (the table once a search has used it).
    pub fn bytes(&self) -> usize {
        self.table.capacity() * 16 + self.lists.capacity() * std::mem::size_of::<PlacementList>()
    }

    /// Nodes searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of `pos` for the side to move and a best placement, found
    /// within `max_nodes` nodes; `None` if the budget ran out first, the
    /// game is over, or a special move is or may become legal.
    pub fn solve(&mut self, pos: &Position, max_nodes: u64) -> Option<(Value, Placement)> {
        self.solve_until(pos, max_nodes, &|| false)
    }

    /// [`Endgame::solve`], giving up (`None`) as soon as `stop` says so:
    /// it is asked every 256 nodes, so that a large budget still
    /// answers to the search's clock.
    pub fn solve_until(
        &mut self,
        pos: &Position,
        max_nodes: u64,
        stop: &dyn Fn() -> bool,
    ) -> Option<(Value, Placement)> {
        if pos.status().is_over() || !plain(pos) {
            return None;
        }
        if self.table.is_empty() {
            self.table = vec![[0; 2]; 1 << TABLE_BITS];
            self.lists = (0..=MAX_PLIES).map(|_| PlacementList::new()).collect();
        }
        self.nodes = 0;
        self.limit = max_nodes;
        let h = hash(pos);
        let v = self.search(pos, h, -1, 1, 0, stop)?;
        let slot = Slot::unpack(self.table[self.index(h)]);
        let best = (slot.key == h && slot.best != 0).then(|| Placement(slot.best - 1))?;
        Some((v, best))
    }

    #[inline(always)]
    fn index(&self, h: u64) -> usize {
        (h >> (64 - TABLE_BITS)) as usize
    }

    fn store(&mut self, h: u64, lo: Value, hi: Value, best: Option<Placement>) {
        let i = self.index(h);
        self.table[i] = Slot {
            key: h,
            lo,
            hi,
            best: best.map_or(0, |p| p.0 + 1),
        }
        .pack();
    }

    /// Negamax with alpha-beta over -1..=1 (fail-soft); `None` when the
    /// node budget runs out.
    fn search(
        &mut self,
        pos: &Position,
        h: u64,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
        stop: &dyn Fn() -> bool,
    ) -> Option<Value> {
        self.nodes += 1;
        if self.nodes % STOP_CHECK == 0 && stop() {
            // Every call from here on runs out at once.
            self.limit = 0;
        }
        if self.nodes > self.limit {
            return None;
        }
        let slot = Slot::unpack(self.table[self.index(h)]);
        let mut tt_best = None;
        if slot.key == h {
            if slot.lo >= beta || slot.lo == slot.hi {
                return Some(slot.lo);
            }
            if slot.hi <= alpha {
                return Some(slot.hi);
            }
            alpha = alpha.max(slot.lo);
            beta = beta.min(slot.hi);
            tt_best = (slot.best != 0).then(|| Placement(slot.best - 1));
        }
        if let Some(w) = pos.winning_move() {
            self.store(h, 1, 1, Some(w));
            return Some(1);
        }
        // Facing a win in one, only placements touching its defence
        // region may stop it; the rest lose at once.
        let region = pos.threat().map(|t| pos.defence_region(t));
        let mut list = std::mem::take(&mut self.lists[ply]);
        pos.legal_placements(&mut list);
        let mover = pos.to_move();
        let side = mover.index();
        let k = keys();
        // Order: the table's best, then by history, placements off the
        // bottom perimeter first among equals.
        let mut order: [(u32, u16); 512] = [(0, 0); 512];
        let mut n = 0;
        let mut overflow = false;
        for &p in list.iter() {
            if let Some(r) = region {
                if !p.entry().cells.intersects(r) {
                    continue;
                }
            }
            if n == order.len() {
                overflow = true;
                break;
            }
            let mut score = self.history[p.index()] * 2 + u32::from(!p.entry().on_perimeter);
            if Some(p) == tt_best {
                score = u32::MAX;
            }
            order[n] = (score, p.0);
            n += 1;
        }
        self.lists[ply] = list;
        if overflow {
            // Too wide to be an endgame: give up on this call.
            return None;
        }
        let order = &mut order[..n];
        order.sort_unstable_by_key(|&(score, _)| std::cmp::Reverse(score));
        let alpha0 = alpha;
        let mut best_value: Value = -1;
        let mut best_move = order.first().map(|&(_, p)| Placement(p));
        for &(_, id) in order.iter() {
            let p = Placement(id);
            let mut child = *pos;
            child.play_unchecked(p);
            let v = match child.status() {
                Status::Ongoing => {
                    let ch = h ^ k[p.index()][side] ^ k[PLACEMENT_COUNT][1];
                    -self.search(&child, ch, -beta, -alpha, ply + 1, stop)?
                }
                Status::Draw { .. } => 0,
                Status::Won { winner, .. } => {
                    if winner == mover {
                        1
                    } else {
                        -1
                    }
                }
            };
            if v > best_value {
                best_value = v;
                best_move = Some(p);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                self.history[p.index()] += 1 + (MAX_PLIES - ply.min(MAX_PLIES)) as u32;
                break;
            }
        }
        let (lo, hi) = if best_value <= alpha0 {
            (-1, best_value)
        } else if best_value >= beta {
            (best_value, 1)
        } else {
            (best_value, best_value)
        };
        self.store(h, lo, hi, best_move);
        Some(best_value)
    }
}

/// Whether only placements can follow: no swap or time machine is legal
/// now or can become legal later in the game.
fn plain(pos: &Position) -> bool {
    let mut special = false;
    pos.for_each_special(|_| special = true);
    !special
        && (!pos.rules().time_machine() || Player::BOTH.iter().all(|&p| pos.time_machine_used(p)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::record::parse_game;

    /// The last placements of two self-play games that ended on the counts.
    fn endings() -> Vec<Position> {
        let mut out = Vec::new();
        for text in [
            include_str!("../../games/selfplay-draw.caminos"),
            include_str!("../../games/selfplay-perimeter-win.caminos"),
        ] {
            let end = parse_game(text).unwrap();
            let all = end.placements();
            for left in 1..=4 {
                let mut pos = Position::new();
                for &p in &all[..all.len() - left] {
                    pos.play_unchecked(p);
                }
                out.push(pos);
            }
        }
        out
    }

    /// Plain minimax to the end, no pruning, no table.
    fn minimax(pos: &Position) -> Value {
        let mut list = PlacementList::new();
        pos.legal_placements(&mut list);
        let me = pos.to_move();
        list.iter()
            .map(|&p| {
                let mut c = *pos;
                c.play_unchecked(p);
                value_after(&c, me)
            })
            .max()
            .expect("an ongoing game has a legal placement")
    }

    /// The value for `me` of the position after `me`'s placement.
    fn value_after(c: &Position, me: Player) -> Value {
        match c.status() {
            Status::Ongoing => -minimax(c),
            Status::Draw { .. } => 0,
            Status::Won { winner, .. } => {
                if winner == me {
                    1
                } else {
                    -1
                }
            }
        }
    }

    #[test]
    fn values_and_moves_agree_with_minimax() {
        let mut e = Endgame::new();
        let mut values = Vec::new();
        for pos in endings() {
            let (v, best) = e.solve(&pos, 10_000_000).expect("small endings are solved");
            assert_eq!(v, minimax(&pos), "{pos:?}");
            let mut c = pos;
            c.play_unchecked(best);
            assert_eq!(
                value_after(&c, pos.to_move()),
                v,
                "the best move keeps the value"
            );
            values.push(v);
        }
        // Both games hold won, lost and drawn positions for the side to move.
        for want in [-1, 0, 1] {
            assert!(values.contains(&want), "{values:?}");
        }
        // A fresh table gives the same values (the table only saves work).
        let mut fresh = Endgame::new();
        let again: Vec<Value> = endings()
            .iter()
            .map(|p| fresh.solve(p, 10_000_000).unwrap().0)
            .collect();
        assert_eq!(again, values);
    }

    #[test]
    fn the_budget_bounds_the_work_and_the_table_keeps_it() {
        let end = parse_game(include_str!("../../games/selfplay-perimeter-win.caminos")).unwrap();
        let mut pos = Position::new();
        for &p in &end.placements()[..20] {
            pos.play_unchecked(p);
        }
        let mut e = Endgame::new();
        assert_eq!(e.solve(&pos, 50), None);
        assert!(e.nodes() <= 51);
        let (v, _) = e.solve(&pos, 50_000_000).expect("eight placements left");
        let first = e.nodes();
        // Solved again, the table answers at once.
        assert_eq!(e.solve(&pos, 10).map(|s| s.0), Some(v));
        assert!(e.nodes() < first && e.nodes() <= 10);
        // Finished games and the empty board within a small budget: unknown.
        assert_eq!(e.solve(&end, 1000), None);
        assert_eq!(e.solve(&Position::new(), 1000), None);
    }

    #[test]
    fn the_hash_follows_the_placements_and_the_side_to_move() {
        let end = parse_game(include_str!("../../games/selfplay-draw.caminos")).unwrap();
        let k = keys();
        let mut pos = Position::new();
        let mut h = hash(&pos);
        let mut seen = std::collections::HashSet::new();
        for &p in end.placements() {
            h ^= k[p.index()][pos.to_move().index()] ^ k[PLACEMENT_COUNT][1];
            pos.play_unchecked(p);
            assert_eq!(h, hash(&pos));
            assert!(seen.insert(h), "distinct positions, distinct keys");
        }
        // The same placements by the same players in another order give
        // the same key: four flat Os, each player's two in either order.
        let o = |cells: &str| crate::game::parse_placement_or_cells(cells).unwrap();
        let (a1, b1) = (o("000 100 010 110"), o("660 670 760 770"));
        let (a2, b2) = (o("300 400 310 410"), o("330 430 340 440"));
        let mut straight = Position::new();
        let mut swapped = Position::new();
        for (&p, &q) in [a1, b1, a2, b2].iter().zip(&[a2, b2, a1, b1]) {
            straight.play_unchecked(p);
            swapped.play_unchecked(q);
        }
        assert_eq!(hash(&swapped), hash(&straight));
        let mut mixed = Position::new();
        for &p in &[a1, a2, b1, b2] {
            mixed.play_unchecked(p);
        }
        assert_ne!(hash(&mixed), hash(&straight), "the owners differ");
        let all = end.placements();
        let bridget = Position::with_rules(crate::game::Rules {
            variant: Variant::Bridget,
            swap: false,
        });
        assert_ne!(hash(&bridget), hash(&Position::new()));
        // Under bridget, with the time machines unused, it declines.
        let mut late = bridget;
        for &p in &all[..all.len() - 2] {
            late.play_unchecked(p);
        }
        assert!(!late.status().is_over());
        assert_eq!(Endgame::new().solve(&late, 1_000_000), None);
    }
}
