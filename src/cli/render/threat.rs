//! The warning under the board when the side to move faces a win in one,
//! and whether stopping it is still possible.

use cabra::game::{PlacementList, Position};

/// How much is known about the side to move's chances, beyond the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Known {
    /// Nothing: the warning says what the board shows.
    #[default]
    Nothing,
    /// A search proved that the side to move loses against best play.
    ProvenLoss,
}

/// Whether no placement of the side to move stops the opponent's win in
/// one: the mover cannot win at once, and after each of its placements
/// the opponent still has a winning one (a game ended by the counts is
/// not such a loss). False when nothing threatens.
pub fn unstoppable(pos: &Position) -> bool {
    let Some(threat) = pos.threat() else {
        return false;
    };
    if pos.winning_move().is_some() {
        return false;
    }
    let region = pos.defence_region(threat);
    let mut list = PlacementList::new();
    pos.legal_placements(&mut list);
    // A placement that misses the threat's region leaves it on the board.
    !list.iter().filter(|&&m| pos.may_stop(region, m)).any(|&m| {
        let mut after = *pos;
        after.play_unchecked(m);
        after.status().is_over() || after.winning_move().is_none()
    })
}

/// When the side to move faces the opponent's win in one: a line saying
/// so, with one placement that would win; and, when the game is lost
/// anyway (no placement stops it, or a search proved it), that it is lost
/// rather than how to save it.
pub fn threat_line(pos: &Position, known: Known) -> Option<String> {
    if pos.status().is_over() {
        return None;
    }
    let t = pos.threat()?;
    let (me, them) = (pos.to_move(), pos.to_move().other());
    let warning = format!("warning: {them} threatens to win next move (for example {t})");
    Some(if unstoppable(pos) {
        format!("{warning}, and no placement stops every such win: {me} has lost")
    } else if known == Known::ProvenLoss {
        format!("{warning}; the engine has proven that {me} loses against best play")
    } else {
        format!("{warning}; stop it or lose")
    })
}
