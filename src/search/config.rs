//! How to search: the configuration of a [`super::Searcher`].

use super::policy::Uct;

/// Default node cap: 2^25 nodes, about 1.1 GiB. A Caminos search measured
/// 36 bytes per node (peak RSS of 2M- to 5M-iteration searches over their
/// nodes: 24-byte nodes, spare room in child blocks, max-trees).
pub const DEFAULT_NODE_CAP: usize = (1 << 30) / 32;

/// Most threads a search uses: [`SearchConfig::threads`] above it counts
/// as this many.
pub(crate) const MAX_THREADS: usize = 256;

/// The visit count at which [`SearchConfig::threat_visits`] checks a node.
pub const DEFAULT_THREAT_VISITS: u32 = 16;

/// How to search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Selection parameters (exploration constant, first-play urgency).
    pub uct: Uct,
    /// Threads growing the tree together: 1 to 256 (0 is taken as 1, more
    /// than 256 as 256).
    pub threads: usize,
    /// Base seed; thread `i` uses a seed derived from it and `i`.
    pub seed: u64,
    /// Most nodes in the tree. At its cap the tree stops growing and the
    /// search keeps playing out from its leaves.
    pub node_cap: usize,
    /// Prove wins and losses in the tree (MCTS-Solver). Off only for tests
    /// of the plain statistics.
    pub solver: bool,
    /// Before a node's first expansion, look for a move that wins at once
    /// ([`crate::search::Game::winning_move`]) and settle the node with it. Needs `solver`.
    pub win_check: bool,
    /// Where the opponent threatens to win at once ([`crate::search::Game::threat`]),
    /// search only the moves that stop every threat: below the root the
    /// others are never added, and a node where no move stops them is
    /// proven lost. Needs `win_check`.
    pub threats: bool,
    /// With `threats`: a node is checked for threats once it has this
    /// many visits (1: at its first expansion).
    pub threat_visits: u32,
    /// Keep one table of last good replies ([`super::Replies`]) per search,
    /// learned from the iterations of all its threads and passed to their
    /// playouts.
    pub reply: bool,
    /// Ask the game's exact search ([`super::Game::solve`]) about nodes once
    /// they have 64, 256, 1024, ... visits, with a budget of half their
    /// visits (all of them at the root); what it proves is a proof in
    /// the tree. Needs `solver`.
    pub endgame: bool,
    /// Nodes try their untried moves by rank ([`super::Game::rank`]),
    /// best rank first, in a shuffled order within a rank.
    pub prior: bool,
    /// How many root moves the report lists.
    pub top_moves: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            uct: Uct::default(),
            threads: 1,
            seed: 0,
            node_cap: DEFAULT_NODE_CAP,
            solver: true,
            win_check: true,
            threats: true,
            threat_visits: DEFAULT_THREAT_VISITS,
            reply: true,
            endgame: true,
            prior: true,
            top_moves: 10,
        }
    }
}
