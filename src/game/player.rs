//! The two players and how a game can end.

use std::fmt;

/// A player. Player 1 places first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Places first.
    One,
    /// Places second.
    Two,
}

impl Player {
    /// Both players, in playing order.
    pub const BOTH: [Player; 2] = [Player::One, Player::Two];

    /// 0 for player 1, 1 for player 2.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player with index 0 (player 1) or 1 (player 2), or `None`.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Option<Player> {
        match i {
            0 => Some(Player::One),
            1 => Some(Player::Two),
            _ => None,
        }
    }

    /// Player 1 for an even `i`, player 2 for an odd one: who made the
    /// `i`-th move (from 0) of a game without a swap.
    #[inline(always)]
    pub const fn of_parity(i: usize) -> Player {
        if i % 2 == 0 { Player::One } else { Player::Two }
    }

    /// The other player.
    #[inline(always)]
    pub const fn other(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 1 or 2, as people number them.
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.number())
    }
}

/// Reads a player as people name one: `1`, `2`, or as `Display` writes
/// it, `player 1` (any case, any spacing).
///
/// ```
/// use cabra::game::Player;
/// assert_eq!("2".parse::<Player>(), Ok(Player::Two));
/// assert_eq!(Player::One.to_string().parse::<Player>(), Ok(Player::One));
/// assert!("3".parse::<Player>().is_err());
/// ```
impl std::str::FromStr for Player {
    type Err = crate::game::NotationError;

    fn from_str(text: &str) -> Result<Player, Self::Err> {
        let t = text.trim().to_ascii_lowercase();
        let number = t.strip_prefix("player").map_or(t.as_str(), str::trim_start);
        match number {
            "1" => Ok(Player::One),
            "2" => Ok(Player::Two),
            _ => Err(crate::game::NotationError::Expected {
                expected: "a player, 1 or 2",
                found: text.to_string(),
            }),
        }
    }
}

/// What decided a finished game. With the `serde` feature it is written
/// as its [`name`](WinReason::name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum WinReason {
    /// The winner built a bridge (RULES.md section 6).
    Bridge,
    /// Nobody built one: the bottom-perimeter pieces, fewer wins (section 7).
    Perimeter,
    /// Nobody built one: under `bridget`, the edge columns seen from above,
    /// more wins (section 9.1).
    Edge,
}

impl WinReason {
    /// The reason as programs name it: `bridge`, `perimeter` or `edge`.
    pub const fn name(self) -> &'static str {
        match self {
            WinReason::Bridge => "bridge",
            WinReason::Perimeter => "perimeter",
            WinReason::Edge => "edge",
        }
    }
}

/// The state of a game. With the `serde` feature it is written as
/// `{"result":"ongoing"}`, `{"result":"won","winner":1,"by":"bridge"}` or
/// `{"result":"draw","by":"perimeter"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "result", rename_all = "lowercase"))]
pub enum Status {
    /// The side to move has a legal placement and nobody has a bridge.
    Ongoing,
    /// The game is over and `winner` won.
    Won {
        /// Who won.
        winner: Player,
        /// How.
        by: WinReason,
    },
    /// The game ended without a bridge and with equal counts.
    Draw {
        /// The count that was equal: [`WinReason::Perimeter`] or [`WinReason::Edge`].
        by: WinReason,
    },
}

impl Status {
    /// Whether the game is over.
    #[inline(always)]
    pub fn is_over(self) -> bool {
        !matches!(self, Status::Ongoing)
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Player> {
        match self {
            Status::Won { winner, .. } => Some(winner),
            _ => None,
        }
    }

    /// The result as programs name it: `p1`, `p2`, `draw` or `ongoing`.
    pub const fn code(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Won {
                winner: Player::One,
                ..
            } => "p1",
            Status::Won { .. } => "p2",
            Status::Draw { .. } => "draw",
        }
    }

    /// What decided a finished game: `bridge`, `perimeter` or `edge`;
    /// `None` while it is in progress.
    pub const fn reason(self) -> Option<&'static str> {
        match self {
            Status::Ongoing => None,
            Status::Won { by, .. } | Status::Draw { by } => Some(by.name()),
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => write!(f, "in progress"),
            Status::Won {
                winner,
                by: WinReason::Bridge,
            } => write!(f, "{winner} wins by bridge"),
            Status::Won {
                winner,
                by: WinReason::Perimeter,
            } => write!(f, "{winner} wins on bottom-perimeter pieces"),
            Status::Won {
                winner,
                by: WinReason::Edge,
            } => write!(f, "{winner} wins on edge columns"),
            Status::Draw { .. } => write!(f, "draw"),
        }
    }
}
