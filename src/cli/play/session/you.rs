//! Which sides the person at the keyboard plays (`you 1`, `you both`, ...).

use cabra::game::Player;

/// Which players the person at the keyboard plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum You {
    /// Player 1, against the engine.
    One,
    /// Player 2, against the engine.
    Two,
    /// Both: a board for two people.
    Both,
    /// Neither: the engine plays itself.
    None,
}

impl You {
    /// Reads `1`, `2`, `both`, `none` (and a few other spellings).
    pub fn parse(text: &str) -> Result<You, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "1" | "one" | "p1" | "player1" | "x" | "first" => Ok(You::One),
            "2" | "two" | "p2" | "player2" | "o" | "second" => Ok(You::Two),
            "both" | "all" | "12" | "human" | "humans" => Ok(You::Both),
            "none" | "neither" | "0" | "engine" | "watch" => Ok(You::None),
            other => Err(format!(
                "'{other}' is not a side: say 1, 2, both (two people) or none (the engine plays itself)"
            )),
        }
    }

    /// Whether the person plays `p`.
    pub fn plays(self, p: Player) -> bool {
        match self {
            You::One => p == Player::One,
            You::Two => p == Player::Two,
            You::Both => true,
            You::None => false,
        }
    }

    /// Whether the engine plays `p` by itself.
    pub fn engine_plays(self, p: Player) -> bool {
        !self.plays(p)
    }

    /// Against the engine: the person plays exactly one side.
    pub(super) fn one_side(self) -> bool {
        matches!(self, You::One | You::Two)
    }
}

impl std::fmt::Display for You {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            You::One => "1",
            You::Two => "2",
            You::Both => "both",
            You::None => "none",
        })
    }
}
