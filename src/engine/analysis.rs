//! The engine's review of a game: every placement searched, valued and
//! marked (`cabra analyze`, and the page's game analysis).
//!
//! Each position of the game is searched once, in order. For the placement
//! made at position `i`:
//!
//! - `winrate_before`: the engine's win probability for the mover at `i`
//!   (after its own best placement);
//! - `winrate_after`: the mover's win probability after the placement
//!   played: one minus the opponent's value at `i + 1`, or the exact result
//!   (1, 0.5, 0) when the placement ended the game;
//! - `loss`: how much the placement dropped the mover's win probability
//!   (`winrate_before - winrate_after`, at least 0; 0 when the placement is
//!   the engine's own choice, so search noise does not blame the best move);
//! - a mark: `missed win` when the engine had proven a win and the
//!   placement played does not keep it; otherwise `blunder`, `mistake` or
//!   `inaccuracy` when the loss reaches [`BLUNDER`], [`MISTAKE`] or
//!   [`INACCURACY`].

use super::budget::Budget;
use super::handle::{Listener, Request, SearchError, Thinker};
use crate::game::{MOVE_COUNT, Move, Player, Position, Status};
use crate::search::{Proven, Report};

/// A drop in win probability of at least this much is an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// ... a mistake.
pub const MISTAKE: f64 = 0.10;
/// ... a blunder.
pub const BLUNDER: f64 = 0.20;

/// A mark on a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Mark {
    /// Loss of at least [`INACCURACY`].
    Inaccuracy,
    /// Loss of at least [`MISTAKE`].
    Mistake,
    /// Loss of at least [`BLUNDER`].
    Blunder,
    /// A proven win was there and the placement played does not keep it.
    MissedWin,
}

impl Mark {
    /// The mark in words.
    pub fn text(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
            Mark::MissedWin => "missed win",
        }
    }
}

/// The analysis of one placement.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveAnalysis {
    /// 1 for the first placement of the game.
    pub ply: usize,
    /// 1 or 2.
    pub player: u8,
    /// The placement played, in notation.
    pub played: String,
    /// The engine's choice.
    pub best: Option<String>,
    /// The mover's win probability with the engine's choice.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::search::nan_if_null")
    )]
    pub winrate_before: f64,
    /// The mover's win probability after the placement played.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::search::nan_if_null")
    )]
    pub winrate_after: f64,
    /// `winrate_before - winrate_after`, at least 0 (0 for the engine's choice).
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::search::nan_if_null")
    )]
    pub loss: f64,
    /// The mark, if any.
    pub mark: Option<Mark>,
    /// The proven value of the position (with the engine's choice) for the mover, if known.
    pub proven_before: Option<Proven>,
    /// The proven value after the placement played, for the mover, if known.
    pub proven_after: Option<Proven>,
    /// Iterations searched at this position.
    pub iterations: u64,
}

/// Totals of one player.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlayerSummary {
    /// 1 or 2.
    pub player: u8,
    /// Placements made.
    pub moves: usize,
    /// Placements marked inaccuracies.
    pub inaccuracies: usize,
    /// Placements marked mistakes.
    pub mistakes: usize,
    /// Placements marked blunders.
    pub blunders: usize,
    /// Placements that let a won position go.
    pub missed_wins: usize,
    /// Mean loss over the player's placements.
    pub average_loss: f64,
}

/// What a fresh search said about one position.
struct Eval {
    best: Option<Move>,
    /// Win probability for the side to move (after its best move).
    winrate: f64,
    proven: Option<Proven>,
    report: Report<Move>,
}

/// The value of a finished game for `p`.
fn terminal_value(s: Status, p: Player) -> (f64, Proven) {
    match s.winner() {
        Some(w) if w == p => (1.0, Proven::Win),
        Some(_) => (0.0, Proven::Loss),
        None => (0.5, Proven::Draw),
    }
}

fn opposite(p: Proven) -> Proven {
    match p {
        Proven::Win => Proven::Loss,
        Proven::Loss => Proven::Win,
        Proven::Draw => Proven::Draw,
    }
}

fn exact(p: Option<Proven>, estimate: f64) -> f64 {
    match p {
        Some(Proven::Win) => 1.0,
        Some(Proven::Loss) => 0.0,
        Some(Proven::Draw) => 0.5,
        None => estimate,
    }
}

/// Searches `pos` from scratch (so that every position gets the same
/// effort and the values compare fairly), with every root move listed (to
/// read the proof of the one played).
fn evaluate(
    thinker: &mut Thinker,
    pos: &Position,
    limits: Option<Budget>,
    listener: &mut dyn Listener,
) -> Eval {
    let mut request = Request::analysis(*pos).fresh().top_moves(MOVE_COUNT);
    request.limits = limits;
    let t = thinker.search_checked(&request, listener);
    Eval {
        best: t.report.best,
        winrate: t.report.winrate,
        proven: t.report.proven,
        report: t.report,
    }
}

/// The value of the position after a move, for the player who made it:
/// exact when the game is over, else from a search of that position: one
/// minus the opponent's value, or the mover's own after a time machine
/// (the mover moves again).
fn value_after(eval: Option<&Eval>, after: &Position, mover: Player) -> (f64, Option<Proven>) {
    match eval {
        None => {
            let (v, p) = terminal_value(after.status(), mover);
            (v, Some(p))
        }
        Some(e) if after.to_move() == mover => (e.winrate, e.proven),
        Some(e) => (1.0 - e.winrate, e.proven.map(opposite)),
    }
}

/// [`value_after`], with a time machine (after which the mover moves
/// again) measured as every other move is, from the opponent's side:
/// after the mover's best move there, searched. A search's value for its
/// own side to move is optimistic, and would not compare with the others.
fn measured(
    thinker: &mut Thinker,
    search: &mut dyn FnMut(&mut Thinker, &Position) -> Option<Eval>,
    after: &Position,
    eval: Option<&Eval>,
    mover: Player,
) -> (f64, Option<Proven>) {
    let again = eval
        .filter(|_| after.to_move() == mover)
        .and_then(|e| e.best);
    let Some(best) = again else {
        return value_after(eval, after, mover);
    };
    // A proof of the position itself needs no second search.
    if eval.is_some_and(|e| e.proven.is_some()) {
        return value_after(eval, after, mover);
    }
    let mut next = *after;
    next.play_move_unchecked(best);
    let e = search(thinker, &next);
    value_after(e.as_ref(), &next, mover)
}

/// Analyzes the game `pos` (every placement of its history), each search
/// with `limits` (`None`: the engine's). `listener` hears each search's
/// progress (and may stop the analysis); `progress` is told how many
/// placements of how many are done.
///
/// Both win probabilities of a placement are measured the same way, by a
/// search of the position after it: the engine's own choice at `i` is
/// played and searched like the placement played (when they differ), so a
/// search's optimism for the side to move cancels out in the loss.
///
/// The analysis stops early (what is finished is returned) when its job
/// is stopped. A limit of 0 (of `limits` or the engine's) is refused
/// before the first search.
pub fn analyze(
    thinker: &mut Thinker,
    pos: &Position,
    limits: Option<Budget>,
    listener: &mut dyn Listener,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(Vec<MoveAnalysis>, [PlayerSummary; 2]), SearchError> {
    thinker.check(&Request::analysis(*pos).limits(limits))?;
    let history = pos.moves();
    let n = history.len();
    let mut positions = vec![Position::with_rules(pos.rules())];
    for &m in history {
        let mut next = *positions.last().expect("not empty");
        next.play_move_unchecked(m);
        positions.push(next);
    }
    let mut search = |thinker: &mut Thinker, p: &Position| {
        (!p.status().is_over()).then(|| evaluate(thinker, p, limits, listener))
    };
    let mut moves = Vec::with_capacity(n);
    let mut here = search(thinker, &positions[0]);
    for (i, &played) in history.iter().enumerate() {
        progress(i, n);
        let mover = positions[i].to_move();
        let next = search(thinker, &positions[i + 1]);
        let eval = here
            .as_ref()
            .expect("a placement was made, so the game was on");
        let (after, mut proven_after) = measured(
            thinker,
            &mut search,
            &positions[i + 1],
            next.as_ref(),
            mover,
        );
        // The search at `i` may have proved the placement played.
        if let Some(p) = eval
            .report
            .top
            .iter()
            .find(|m| m.mv == played)
            .and_then(|m| m.proven)
        {
            proven_after = Some(p);
        }
        let after = exact(proven_after, after);
        let best = eval.best.unwrap_or(played);
        let same = best == played;
        let (before, proven_before) = if same {
            (after, eval.proven.or(proven_after))
        } else {
            let mut alt = positions[i];
            alt.play_move_unchecked(best);
            let alt_eval = search(thinker, &alt);
            let (v, p) = measured(thinker, &mut search, &alt, alt_eval.as_ref(), mover);
            let proven = eval.proven.or(p);
            (exact(proven, v), proven)
        };
        let loss = if same { 0.0 } else { (before - after).max(0.0) };
        // The proof shown as `proven_before` decides: the position's own,
        // or that of the engine's choice in it.
        let mark = if proven_before == Some(Proven::Win) && proven_after != Some(Proven::Win) {
            Some(Mark::MissedWin)
        } else if same {
            None
        } else if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        };
        if thinker.stopped() {
            // A search was cut short: this placement's values are not sound.
            break;
        }
        moves.push(MoveAnalysis {
            ply: i + 1,
            player: mover.number(),
            played: played.to_string(),
            best: eval.best.map(|b| b.to_string()),
            winrate_before: before,
            winrate_after: after,
            loss,
            mark,
            proven_before,
            proven_after,
            iterations: eval.report.iterations,
        });
        here = next;
    }
    progress(moves.len(), n);
    let summary = Player::BOTH.map(|p| {
        let mine: Vec<&MoveAnalysis> = moves.iter().filter(|m| m.player == p.number()).collect();
        let count = |k: Mark| mine.iter().filter(|m| m.mark == Some(k)).count();
        PlayerSummary {
            player: p.number(),
            moves: mine.len(),
            inaccuracies: count(Mark::Inaccuracy),
            mistakes: count(Mark::Mistake),
            blunders: count(Mark::Blunder),
            missed_wins: count(Mark::MissedWin),
            average_loss: if mine.is_empty() {
                0.0
            } else {
                mine.iter().map(|m| m.loss).sum::<f64>() / mine.len() as f64
            },
        }
    });
    Ok((moves, summary))
}
