//! The result of a search: the move to play and what the search saw.
//!
//! The report is generic over the move type; [`Report::map_moves`] turns it
//! into a report over strings (notation) for printing or JSON.

/// A proven game-theoretic value, for the side to move at the position the
/// value belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Proven {
    /// The side to move wins with best play.
    Win,
    /// The side to move loses against best play.
    Loss,
    /// Best play on both sides draws.
    Draw,
}

impl Proven {
    /// The one word for it, everywhere a result is shown or written:
    /// `win`, `loss` or `draw` (as in JSON).
    pub fn word(self) -> &'static str {
        match self {
            Proven::Win => "win",
            Proven::Loss => "loss",
            Proven::Draw => "draw",
        }
    }
}

/// Statistics of one root move.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveStats<M> {
    /// The move.
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub mv: M,
    /// Playouts through this move.
    pub visits: u64,
    /// Mean result for the side to move (win 1, draw 0.5, loss 0) of the
    /// playouts through this move, whatever reward the game made of them
    /// ([`crate::search::Game::rescore`]); the proven value instead when
    /// there is one.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "nan_if_null"))]
    pub winrate: f64,
    /// The proven result of this move for the side to move, if any.
    pub proven: Option<Proven>,
    /// The principal variation starting with this move.
    pub pv: Vec<M>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Report<M> {
    /// The move to play; `None` when the game is over.
    pub best: Option<M>,
    /// Estimated probability that the side to move wins after `best`
    /// (draws count one half); 1 or 0 (or 0.5) when proven.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "nan_if_null"))]
    pub winrate: f64,
    /// The proven value of the position for the side to move, if known.
    pub proven: Option<Proven>,
    /// Iterations (playouts) run by this search, all threads together.
    pub iterations: u64,
    /// Nodes in the tree(s) at the end, reused ones included.
    pub nodes: u64,
    /// Wall-clock time of the search.
    pub seconds: f64,
    /// `iterations / seconds`.
    pub iterations_per_second: f64,
    /// Principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// The most visited root moves, best first.
    pub top: Vec<MoveStats<M>>,
    /// Threads that searched the tree.
    pub threads: usize,
}

/// Reads a number that JSON may hold as `null`: serde_json writes a NaN
/// (or an infinity) as `null`, which reads back as NaN, not as an error.
#[cfg(feature = "serde")]
pub(crate) fn nan_if_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    use serde::Deserialize;
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
}

impl<M> Report<M> {
    /// The same report with every move converted by `f` (e.g. to notation).
    pub fn map_moves<N>(self, mut f: impl FnMut(M) -> N) -> Report<N> {
        Report {
            best: self.best.map(&mut f),
            winrate: self.winrate,
            proven: self.proven,
            iterations: self.iterations,
            nodes: self.nodes,
            seconds: self.seconds,
            iterations_per_second: self.iterations_per_second,
            pv: self.pv.into_iter().map(&mut f).collect(),
            top: self
                .top
                .into_iter()
                .map(|s| MoveStats {
                    mv: f(s.mv),
                    visits: s.visits,
                    winrate: s.winrate,
                    proven: s.proven,
                    pv: s.pv.into_iter().map(&mut f).collect(),
                })
                .collect(),
            threads: self.threads,
        }
    }
}
