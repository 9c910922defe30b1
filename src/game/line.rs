//! The game line: the moves played, and the moves taken back that `redo`
//! would bring back, as every front end keeps them (the REPL's `undo` and
//! `redo`, the page's review of a game, the protocol's `undo`).

use thiserror::Error;

use super::error::PlacementError;
use super::position::Position;
use super::rules::Move;

/// Why the line could not go to a ply.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("ply {ply} is past the end of the game ({len} moves)")]
pub struct PastTheEnd {
    /// The ply asked for.
    pub ply: usize,
    /// The length of the whole line.
    pub len: usize,
}

/// A game with its redo list: the position shown, which is `ply` moves
/// into the line, and the moves after it.
///
/// ```
/// use cabra::game::{GameLine, Position, parse_move};
/// let mut line = GameLine::new(Position::new());
/// for m in ["L E180 110", "O T0 330", "T T0 550"] {
///     line.play(parse_move(m).unwrap()).unwrap();
/// }
/// line.goto(1).unwrap();
/// assert_eq!(line.ply(), 1);
/// assert_eq!(line.len(), 3); // the whole game is kept
/// assert_eq!(line.redo().unwrap().to_string(), "O T0 330");
/// // A move other than the next one of the line starts a new line.
/// line.play(parse_move("L T270 040").unwrap()).unwrap();
/// assert_eq!(line.len(), 3);
/// assert!(!line.can_redo());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameLine {
    /// The position shown; its history is the line up to here.
    pos: Position,
    /// The whole line's last position; its history is the whole line.
    end: Position,
}

impl GameLine {
    /// The line of `pos`'s history, shown at its end.
    pub fn new(pos: Position) -> GameLine {
        GameLine { pos, end: pos }
    }

    /// The position shown.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The position at the end of the whole line (the whole game, as it
    /// would be saved).
    pub fn end(&self) -> &Position {
        &self.end
    }

    /// Moves from the start of the game to the position shown.
    pub fn ply(&self) -> usize {
        self.pos.moves().len()
    }

    /// Moves in the whole line.
    pub fn len(&self) -> usize {
        self.end.moves().len()
    }

    /// Whether the line holds no move.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The whole line's moves.
    pub fn moves(&self) -> &[Move] {
        self.end.moves()
    }

    /// The moves that `redo` would bring back, the next one first.
    pub fn ahead(&self) -> &[Move] {
        &self.end.moves()[self.ply()..]
    }

    /// Whether a move was taken back.
    pub fn can_redo(&self) -> bool {
        self.ply() < self.len()
    }

    /// Plays `m` at the position shown: the rest of the line is kept when
    /// `m` is its next move, and dropped otherwise.
    pub fn play(&mut self, m: impl Into<Move>) -> Result<(), PlacementError> {
        let m = m.into();
        if self.ahead().first() == Some(&m) {
            self.pos.play_move_unchecked(m);
            return Ok(());
        }
        self.pos.play(m)?;
        self.end = self.pos;
        Ok(())
    }

    /// Takes back the last move shown; it stays in the line, for `redo`.
    pub fn undo(&mut self) -> Option<Move> {
        self.pos.undo()
    }

    /// Plays the next move of the line again.
    pub fn redo(&mut self) -> Option<Move> {
        let m = *self.ahead().first()?;
        self.pos.play_move_unchecked(m);
        Some(m)
    }

    /// Shows the position `ply` moves into the line.
    pub fn goto(&mut self, ply: usize) -> Result<(), PastTheEnd> {
        let len = self.len();
        if ply > len {
            return Err(PastTheEnd { ply, len });
        }
        while self.ply() > ply {
            self.undo();
        }
        while self.ply() < ply {
            self.redo();
        }
        Ok(())
    }

    /// Drops the moves after the position shown.
    pub fn truncate(&mut self) {
        self.end = self.pos;
    }

    /// Replaces the game (a new game, a file loaded): the line of `pos`'s
    /// history, shown at its end.
    pub fn replace(&mut self, pos: Position) {
        *self = GameLine::new(pos);
    }
}

impl Default for GameLine {
    fn default() -> GameLine {
        GameLine::new(Position::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::parse_move;

    fn line(moves: &[&str]) -> GameLine {
        let mut l = GameLine::default();
        for m in moves {
            l.play(parse_move(m).unwrap()).unwrap();
        }
        l
    }

    #[test]
    fn undo_and_redo_walk_the_line() {
        let mut l = line(&["L E180 110", "O T0 330", "T T0 550"]);
        assert_eq!((l.ply(), l.len()), (3, 3));
        assert!(!l.can_redo() && l.redo().is_none());
        assert_eq!(l.undo().unwrap().to_string(), "T T0 550");
        assert_eq!(l.undo().unwrap().to_string(), "O T0 330");
        assert_eq!(l.ahead().len(), 2);
        assert_eq!(l.end().plies(), 3);
        assert_eq!(l.redo().unwrap().to_string(), "O T0 330");
        assert_eq!((l.ply(), l.len()), (2, 3));
        l.goto(0).unwrap();
        assert_eq!(l.position(), &Position::new());
        assert!(l.undo().is_none());
        l.goto(3).unwrap();
        assert_eq!(l.position(), l.end());
        assert_eq!(l.goto(4), Err(PastTheEnd { ply: 4, len: 3 }));
    }

    #[test]
    fn playing_the_next_move_keeps_the_line_and_another_drops_it() {
        let mut l = line(&["L E180 110", "O T0 330", "T T0 550"]);
        l.goto(1).unwrap();
        l.play(parse_move("O T0 330").unwrap()).unwrap();
        assert_eq!((l.ply(), l.len()), (2, 3));
        l.play(parse_move("L T270 040").unwrap()).unwrap();
        assert_eq!((l.ply(), l.len()), (3, 3));
        assert_eq!(l.moves()[2].to_string(), "L T270 040");
        // An illegal move changes nothing.
        let before = l;
        assert!(l.play(parse_move("L T270 040").unwrap()).is_err());
        assert_eq!(l, before);
        l.goto(1).unwrap();
        l.truncate();
        assert_eq!(l.len(), 1);
        l.replace(Position::new());
        assert!(l.is_empty());
    }
}
