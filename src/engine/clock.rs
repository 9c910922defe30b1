//! Playing on a game clock: the time control of a match (`--clock 10s+100ms`)
//! and how much of a player's time one placement gets. `cabra gtp` uses the
//! same share for its GTP clock.
//!
//! A search on the clock may also stop early (the configuration's
//! [`super::EngineConfig::early_stop`]),
//! and the time it saves stays on the clock for the placements to come;
//! [`super::Budget::resolve`] says how the clock and other limits combine.

use std::fmt;
use std::time::Duration;

use super::units::{ValueError, format_duration, parse_duration};
use crate::game::{Piece, Position};

/// Time kept back from each allocation, for the answer to travel.
pub const OVERHEAD: Duration = Duration::from_millis(30);

/// The shortest search the clock allows.
pub const MIN_THINK: Duration = Duration::from_millis(10);

/// A time control for a whole game: the main time of each player, and an
/// increment added to a player's clock after each of their placements
/// (Fischer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Each player's time for the game.
    pub main: Duration,
    /// Added after each placement.
    pub increment: Duration,
}

impl TimeControl {
    /// Reads `MAIN` or `MAIN+INCREMENT`, e.g. `10s`, `5s+100ms`, `1m+1s`.
    ///
    /// ```
    /// use cabra::engine::clock::TimeControl;
    /// use std::time::Duration;
    /// let tc = TimeControl::parse("5s+100ms").unwrap();
    /// assert_eq!(tc.main, Duration::from_secs(5));
    /// assert_eq!(tc.increment, Duration::from_millis(100));
    /// assert_eq!(tc.to_string(), "5s+100ms");
    /// assert!(TimeControl::parse("5s+").is_err());
    /// assert_eq!(TimeControl::parse("5s+0").unwrap().increment, Duration::ZERO);
    /// assert_eq!(TimeControl::parse("10s+0s").unwrap().increment, Duration::ZERO);
    /// assert!(TimeControl::parse("10s+0x").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<TimeControl, ValueError> {
        let (main, increment) = match text.split_once('+') {
            Some((m, i)) => (m, Some(i)),
            None => (text, None),
        };
        let part = |part| {
            move |e| ValueError::TimeControl {
                part,
                source: Box::new(e),
            }
        };
        let main = parse_duration(main).map_err(part("main time"))?;
        // `+0` (or `+0s`, `+0ms`) says "no increment" as well as leaving
        // it out does: sudden death.
        let increment = match increment.map(str::trim) {
            None => Duration::ZERO,
            Some(i) if is_zero(i) => Duration::ZERO,
            Some(i) => parse_duration(i).map_err(part("increment"))?,
        };
        Ok(TimeControl { main, increment })
    }
}

/// Whether `text` is a duration of zero: `0`, `0s`, `0.0ms`, `0m`.
fn is_zero(text: &str) -> bool {
    let number = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = text[number.len()..].to_ascii_lowercase();
    number.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && matches!(unit.as_str(), "" | "ms" | "s" | "m")
        && number.parse::<f64>().is_ok_and(|v| v == 0.0)
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_duration(self.main))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", format_duration(self.increment))?;
        }
        Ok(())
    }
}

/// A player's clock at its turn, in a game on a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OnClock {
    /// The time left on the player's clock.
    pub left: Duration,
    /// The increment added after the placement.
    pub increment: Duration,
}

impl OnClock {
    /// The time the side to move of `pos` aims to spend on its placement.
    pub fn allocation(&self, pos: &Position) -> Duration {
        allocation(self.left, self.increment, pos)
    }
}

/// `d` times `factor`, saturating at the longest `Duration` (a clock of
/// `Duration::MAX` must not panic).
fn scaled(d: Duration, factor: f64) -> Duration {
    Duration::try_from_secs_f64(d.as_secs_f64() * factor).unwrap_or(Duration::MAX)
}

/// The share of `left` (main time, no placements counted) that the side
/// to move of `pos` spends on its next placement. A game lasts at most as
/// long as the pieces in hand and usually ends sooner: a little more than
/// the even share, never more than half of what is left but on the last
/// piece.
pub fn main_share(left: Duration, pos: &Position) -> Duration {
    let pieces: u32 = Piece::ALL
        .iter()
        .map(|&k| u32::from(pos.pieces_left(pos.to_move(), k)))
        .sum();
    if pieces <= 1 {
        scaled(left, 0.9)
    } else {
        (scaled(left, 1.5) / pieces).min(left / 2)
    }
}

/// The time the side to move of `pos` aims to spend on its next
/// placement, with `left` on its clock and `increment` to come after it.
pub fn allocation(left: Duration, increment: Duration, pos: &Position) -> Duration {
    let share = main_share(left, pos).saturating_add(scaled(increment, 0.9));
    // Never most of what is left, even at the shortest search.
    share
        .saturating_sub(OVERHEAD)
        .max(MIN_THINK)
        .min(scaled(left, 0.8))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn time_controls_read_and_print() {
        let tc = TimeControl::parse("10s").unwrap();
        assert_eq!((tc.main, tc.increment), (MS(10_000), Duration::ZERO));
        assert_eq!(tc.to_string(), "10s");
        assert_eq!(TimeControl::parse("1m+1s").unwrap().to_string(), "1m+1s");
        // A zero increment, in any unit, is sudden death.
        for zero in ["10s+0", "10s+0s", "10s+0ms", "10s+0.0s"] {
            assert_eq!(
                TimeControl::parse(zero).unwrap().increment,
                Duration::ZERO,
                "{zero}"
            );
        }
        for bad in ["", "+1s", "10x", "10s+1x", "10s+0x", "10s+-0s", "0s"] {
            let e = TimeControl::parse(bad).unwrap_err();
            assert!(matches!(e, ValueError::TimeControl { .. }), "{bad}: {e}");
            // The part refused, and (as the source, not in the message) why.
            let why = std::error::Error::source(&e).expect("a source").to_string();
            let e = e.to_string();
            assert!(e == "main time" || e == "increment", "{bad}: {e}");
            assert!(!why.is_empty() && !e.contains(&why), "{bad}: {why}");
        }
    }

    #[test]
    fn a_placement_gets_its_share_of_the_clock() {
        let pos = Position::new();
        // 14 pieces in hand: 1.5 / 14 of the time left, less the overhead.
        assert_eq!(
            allocation(MS(14_000), Duration::ZERO, &pos),
            MS(1_500) - OVERHEAD
        );
        // The increment is spent too, but never most of what is left.
        assert_eq!(allocation(MS(14_000), MS(100), &pos), MS(1_590) - OVERHEAD);
        assert_eq!(allocation(MS(100), MS(1_000), &pos), MS(80));
        // Short of time: a short search, within the time left.
        assert_eq!(allocation(MS(50), Duration::ZERO, &pos), MIN_THINK);
        assert_eq!(allocation(MS(5), Duration::ZERO, &pos), MS(4));
    }
}
