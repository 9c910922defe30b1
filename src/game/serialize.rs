//! `Serialize` and `Deserialize` (feature `serde`): a move as its
//! notation (`"L E180 110"`, `"swap"`, `"tm"`), a placement likewise, and
//! a position as its rules and its moves, replayed and checked when read.
//! The small types are written as they print, and read as their `FromStr`
//! reads: a cell `"121"`, a piece `"L"`, an orientation `"E180"`, a face
//! `"E"`, the rules `"bridget swap"`; a player is the number `1` or `2`.
//!
//! ```
//! use cabra::game::{Move, Position};
//! let mut pos = Position::new();
//! pos.play("L E180 110".parse::<Move>().unwrap()).unwrap();
//! let json = serde_json::to_string(&pos).unwrap();
//! assert_eq!(json, r#"{"rules":"caminos","moves":["L E180 110"]}"#);
//! assert_eq!(serde_json::from_str::<Position>(&json).unwrap(), pos);
//! // An illegal game does not read.
//! let twice = r#"{"rules":"caminos","moves":["L E180 110","L E180 110"]}"#;
//! assert!(serde_json::from_str::<Position>(twice).is_err());
//! ```

use serde::de::{Deserializer, Error as _};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use super::cell::Cell;
use super::notation::{parse_move, parse_placement_or_cells};
use super::orientation::{Face, Orientation};
use super::piece::Piece;
use super::player::Player;
use super::position::Position;
use super::rules::{Move, Rules};
use super::table::Placement;

/// Written as `Display` prints it, read with `FromStr`.
macro_rules! as_text {
    ($($t:ty),*) => {$(
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let text = String::deserialize(d)?;
                text.parse().map_err(D::Error::custom)
            }
        }
    )*};
}

as_text!(Cell, Piece, Orientation, Face, Rules);

impl Serialize for Player {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.number())
    }
}

impl<'de> Deserialize<'de> for Player {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Player, D::Error> {
        match u8::deserialize(d)? {
            1 => Ok(Player::One),
            2 => Ok(Player::Two),
            n => Err(D::Error::custom(format!("player {n}: a player is 1 or 2"))),
        }
    }
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        let text = String::deserialize(d)?;
        parse_move(&text).map_err(D::Error::custom)
    }
}

impl Serialize for Placement {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Placement {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Placement, D::Error> {
        let text = String::deserialize(d)?;
        parse_placement_or_cells(&text).map_err(D::Error::custom)
    }
}

impl Serialize for Position {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Position", 2)?;
        st.serialize_field("rules", &self.rules().to_string())?;
        st.serialize_field("moves", self.moves())?;
        st.end()
    }
}

/// What a serialized position holds.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Game {
    #[serde(default)]
    rules: Option<String>,
    moves: Vec<Move>,
}

impl<'de> Deserialize<'de> for Position {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        let game = Game::deserialize(d)?;
        let rules: Rules = match &game.rules {
            Some(text) => text.parse().map_err(D::Error::custom)?,
            None => Rules::default(),
        };
        Position::from_moves(rules, &game.moves).map_err(D::Error::custom)
    }
}
