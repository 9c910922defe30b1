//! The rules a game is played under (RULES.md section 9) and the moves
//! they allow: a placement, or under some rules `swap` and `tm`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::table::{PLACEMENT_COUNT, Placement};

/// How a game without a bridge ends, and whether the time machine exists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Sections 1-8: fewer bottom-perimeter pieces wins; no time machine.
    #[default]
    Caminos,
    /// Section 9.1-9.2: more edge columns seen from above wins; each player
    /// has one time machine.
    Bridget,
}

/// The rules of a game: the variant and the swap option (section 9.3).
///
/// ```
/// use cabra::game::{Rules, Variant};
/// let r: Rules = "Swap  BRIDGET".parse().unwrap();
/// assert_eq!(r, Rules { variant: Variant::Bridget, swap: true });
/// assert_eq!(r.to_string(), "bridget swap");
/// assert!("bridget chess".parse::<Rules>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Caminos or Bridget.
    pub variant: Variant,
    /// Player 2's first turn may be `swap`.
    pub swap: bool,
}

impl Rules {
    /// The default rules: `caminos` without swap.
    pub const CAMINOS: Rules = Rules {
        variant: Variant::Caminos,
        swap: false,
    };

    /// Whether these are the default rules (a file then needs no rules line).
    pub fn is_default(&self) -> bool {
        *self == Rules::CAMINOS
    }

    /// Whether each player has a time machine.
    pub fn time_machine(&self) -> bool {
        self.variant == Variant::Bridget
    }

    /// What decides a game that ends without a bridge, as programs name it:
    /// `perimeter` or `edge`.
    pub fn count_name(&self) -> &'static str {
        match self.variant {
            Variant::Caminos => "perimeter",
            Variant::Bridget => "edge",
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.variant {
            Variant::Caminos => "caminos",
            Variant::Bridget => "bridget",
        })?;
        if self.swap {
            f.write_str(" swap")?;
        }
        Ok(())
    }
}

/// Why a rules text (`bridget swap`) was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// A word other than caminos, bridget and swap.
    #[error("unknown rules word '{0}' (the rules are caminos or bridget, with or without swap)")]
    UnknownWord(String),
    /// Both variants named.
    #[error("'{0}' names both caminos and bridget")]
    BothVariants(String),
    /// No word at all.
    #[error("no rules named (the rules are caminos or bridget, with or without swap)")]
    Empty,
}

impl FromStr for Rules {
    type Err = RulesError;

    /// Reads `caminos`, `bridget`, `swap` in any order and case, separated
    /// by spaces or commas (`swap` alone means `caminos swap`).
    fn from_str(text: &str) -> Result<Rules, RulesError> {
        let mut rules = Rules::default();
        let mut variant: Option<Variant> = None;
        let words = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty());
        for w in words {
            let v = match w.to_ascii_lowercase().as_str() {
                "caminos" => Variant::Caminos,
                "bridget" => Variant::Bridget,
                "swap" => {
                    rules.swap = true;
                    continue;
                }
                _ => return Err(RulesError::UnknownWord(w.to_string())),
            };
            if variant.is_some_and(|old| old != v) {
                return Err(RulesError::BothVariants(text.to_string()));
            }
            variant = Some(v);
        }
        if variant.is_none() && !rules.swap {
            return Err(RulesError::Empty);
        }
        rules.variant = variant.unwrap_or_default();
        Ok(rules)
    }
}

/// One turn: a placement, or a special move of section 9. Moves order as
/// their ids do ([`Move::id`]): placements in table order, then `swap`,
/// then `tm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A piece placed.
    Place(Placement),
    /// Player 2 takes player 1's first piece as their own (9.3).
    Swap,
    /// The time machine takes back the last two placements (9.2).
    TimeMachine,
}

/// Number of move ids: every placement, then `swap`, then `tm`.
pub const MOVE_COUNT: usize = PLACEMENT_COUNT + 2;

impl Move {
    /// A compact id below [`MOVE_COUNT`]: a placement's table index,
    /// [`PLACEMENT_COUNT`] for `swap`, one more for `tm`.
    #[inline(always)]
    pub const fn id(self) -> usize {
        match self {
            Move::Place(p) => p.0 as usize,
            Move::Swap => PLACEMENT_COUNT,
            Move::TimeMachine => PLACEMENT_COUNT + 1,
        }
    }

    /// The move with id `id`, or `None` when `id` is [`MOVE_COUNT`] or more.
    pub const fn from_id(id: usize) -> Option<Move> {
        if id < MOVE_COUNT {
            Some(Move::from_id_unchecked(id))
        } else {
            None
        }
    }

    /// The move with id `id`, which the caller knows is below [`MOVE_COUNT`]
    /// (ids the crate made itself).
    #[inline(always)]
    pub(crate) const fn from_id_unchecked(id: usize) -> Move {
        debug_assert!(id < MOVE_COUNT);
        if id < PLACEMENT_COUNT {
            Move::Place(Placement(id as u16))
        } else if id == PLACEMENT_COUNT {
            Move::Swap
        } else {
            Move::TimeMachine
        }
    }

    /// The placement, if this is one.
    #[inline(always)]
    pub const fn placement(self) -> Option<Placement> {
        match self {
            Move::Place(p) => Some(p),
            _ => None,
        }
    }
}

impl From<Placement> for Move {
    fn from(p: Placement) -> Move {
        Move::Place(p)
    }
}

impl fmt::Display for Move {
    /// A placement in canonical notation (`L E180 110`), `swap` or `tm`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(p) => p.fmt(f),
            Move::Swap => f.write_str("swap"),
            Move::TimeMachine => f.write_str("tm"),
        }
    }
}

/// Whether `text` names a special move: `swap`, `tm` or `time machine`
/// (any case, any spacing).
pub fn special_move(text: &str) -> Option<Move> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| w.to_ascii_lowercase())
        .collect();
    match words.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["swap"] => Some(Move::Swap),
        ["tm"] | ["time", "machine"] | ["timemachine"] => Some(Move::TimeMachine),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_read_in_any_order_and_case() {
        for (text, variant, swap) in [
            ("caminos", Variant::Caminos, false),
            ("bridget", Variant::Bridget, false),
            ("Bridget Swap", Variant::Bridget, true),
            ("swap  bridget", Variant::Bridget, true),
            ("caminos swap", Variant::Caminos, true),
            ("swap", Variant::Caminos, true),
            ("bridget,swap", Variant::Bridget, true),
        ] {
            let r: Rules = text.parse().unwrap();
            assert_eq!((r.variant, r.swap), (variant, swap), "{text:?}");
            assert_eq!(r.to_string().parse::<Rules>(), Ok(r));
        }
        assert!("caminos bridget".parse::<Rules>().is_err());
        assert!("hex".parse::<Rules>().is_err());
        assert_eq!("".parse::<Rules>(), Err(RulesError::Empty));
        assert_eq!(" , ".parse::<Rules>(), Err(RulesError::Empty));
        assert!(Rules::default().is_default() && !Rules::default().time_machine());
        assert_eq!(Rules::default().count_name(), "perimeter");
    }

    #[test]
    fn move_ids_and_names() {
        for m in [
            Move::Place(Placement(0)),
            Move::Place(Placement(2496)),
            Move::Swap,
            Move::TimeMachine,
        ] {
            assert_eq!(Move::from_id(m.id()), Some(m));
            assert!(m.id() < MOVE_COUNT);
        }
        assert_eq!(Move::from_id(MOVE_COUNT), None);
        assert_eq!(Move::from_id(1_000_000), None);
        assert_eq!(special_move(" Time  Machine "), Some(Move::TimeMachine));
        assert_eq!(special_move("TM"), Some(Move::TimeMachine));
        assert_eq!(special_move("swap"), Some(Move::Swap));
        assert_eq!(special_move("swap it"), None);
        assert_eq!(Move::Swap.to_string(), "swap");
        assert_eq!(Move::TimeMachine.to_string(), "tm");
    }
}
