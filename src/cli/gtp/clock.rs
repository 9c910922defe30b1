//! The game clock of `time_settings` and `time_left`, and how much of it
//! the engine spends on one placement.
//!
//! GTP's clock: a main time, then byo-yomi periods of `byo` seconds for
//! `stones` placements each (Canadian byo-yomi); `byo` > 0 with `stones`
//! = 0 means no limit, `byo` = 0 means absolute time. The engine keeps
//! each player's clock itself (the controller may correct it with
//! `time_left` before every move).

use std::time::Duration;

use cabra::engine::clock::{MIN_THINK, OVERHEAD, main_share};
use cabra::game::{Player, Position};

/// The time control.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Settings {
    main: Duration,
    byo: Duration,
    stones: u32,
}

/// What one player has left: time, and placements to make in it (0: in
/// main time).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Left {
    time: Duration,
    stones: u32,
}

/// Both players' clocks; off until `time_settings` or `time_left`.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    settings: Option<Settings>,
    left: [Option<Left>; 2],
}

/// Reads a non-negative number of seconds (GTP sends integers; fractions
/// are accepted).
pub fn parse_seconds(word: &str) -> Result<Duration, String> {
    match word.parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..1e9).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "'{word}' is not a number of seconds from 0 to under 1,000,000,000"
        )),
    }
}

/// Reads a count of placements.
pub fn parse_stones(word: &str) -> Result<u32, String> {
    word.parse::<u32>()
        .map_err(|_| format!("'{word}' is not a number of placements"))
}

impl Clock {
    /// `time_settings main byo stones`: both players start afresh.
    pub fn set(&mut self, main: Duration, byo: Duration, stones: u32) {
        if !byo.is_zero() && stones == 0 {
            // GTP: no time limit.
            *self = Clock::default();
            return;
        }
        let s = Settings { main, byo, stones };
        self.settings = Some(s);
        self.left = [Some(Self::start(s)); 2];
    }

    fn start(s: Settings) -> Left {
        if s.main.is_zero() {
            Left {
                time: s.byo,
                stones: s.stones,
            }
        } else {
            Left {
                time: s.main,
                stones: 0,
            }
        }
    }

    /// A new game: both clocks back to the start of the time control.
    pub fn restart(&mut self) {
        if let Some(s) = self.settings {
            self.left = [Some(Self::start(s)); 2];
        }
    }

    /// `time_left player time stones`.
    pub fn set_left(&mut self, p: Player, time: Duration, stones: u32) {
        self.left[p.index()] = Some(Left { time, stones });
    }

    /// The time to spend on `p`'s next placement in `pos`, or `None` when
    /// no clock runs for `p`.
    pub fn allocation(&self, p: Player, pos: &Position) -> Option<Duration> {
        let left = self.left[p.index()]?;
        let byo = self.settings.filter(|s| s.stones > 0);
        let share = if left.stones > 0 {
            left.time.mul_f64(0.9) / left.stones
        } else {
            let main = main_share(left.time, pos);
            // The first byo-yomi period follows the main time.
            main + byo.map_or(Duration::ZERO, |s| s.byo.mul_f64(0.9) / s.stones)
        };
        Some(share.saturating_sub(OVERHEAD).max(MIN_THINK))
    }

    /// Charges `used` to `p`'s clock after a placement.
    pub fn charge(&mut self, p: Player, used: Duration) {
        let Some(left) = &mut self.left[p.index()] else {
            return;
        };
        if left.stones == 0 {
            match left.time.checked_sub(used) {
                Some(t) => left.time = t,
                None => {
                    // Main time ran out during the placement: the rest
                    // came from the first byo-yomi period.
                    let over = used - left.time;
                    *left = match self.settings.filter(|s| s.stones > 0) {
                        Some(s) => Left {
                            time: s.byo.saturating_sub(over),
                            stones: s.stones,
                        },
                        None => Left {
                            time: Duration::ZERO,
                            stones: 0,
                        },
                    };
                    Self::count_stone(left, self.settings);
                }
            }
        } else {
            left.time = left.time.saturating_sub(used);
            Self::count_stone(left, self.settings);
        }
    }

    /// One placement made in a byo-yomi period; a new period once it is done.
    fn count_stone(left: &mut Left, settings: Option<Settings>) {
        if left.stones == 0 {
            return;
        }
        left.stones -= 1;
        if left.stones == 0 {
            if let Some(s) = settings.filter(|s| s.stones > 0) {
                *left = Left {
                    time: s.byo,
                    stones: s.stones,
                };
            }
        }
    }

    /// The clock as text, for `cabra-get`.
    pub fn describe(&self) -> String {
        let side = |l: Option<Left>| match l {
            None => "-".to_string(),
            Some(l) if l.stones == 0 => format!("{:.3}s", l.time.as_secs_f64()),
            Some(l) => format!("{:.3}s/{}", l.time.as_secs_f64(), l.stones),
        };
        match (self.settings, self.left) {
            (None, [None, None]) => "off".into(),
            (s, [a, b]) => {
                let control = s.map_or("time_left only".to_string(), |s| {
                    format!(
                        "main {:.1}s, byo-yomi {:.1}s/{}",
                        s.main.as_secs_f64(),
                        s.byo.as_secs_f64(),
                        s.stones
                    )
                });
                format!("{control}; left: 1 {}, 2 {}", side(a), side(b))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: fn(u64) -> Duration = Duration::from_secs;

    #[test]
    fn main_time_is_shared_over_the_pieces_in_hand() {
        let mut c = Clock::default();
        let pos = Position::new();
        assert_eq!(c.allocation(Player::One, &pos), None);
        c.set(S(140), S(0), 0);
        // 14 pieces in hand: 1.5 / 14 of the main time.
        let a = c.allocation(Player::One, &pos).unwrap();
        assert_eq!(a, S(15) - OVERHEAD);
        c.charge(Player::One, S(15));
        c.charge(Player::One, S(100));
        let a = c.allocation(Player::One, &pos).unwrap();
        assert!(a < S(3), "{a:?}");
        // Out of time: the engine still answers quickly.
        c.charge(Player::One, S(100));
        assert_eq!(c.allocation(Player::One, &pos), Some(MIN_THINK));
        // No limit at all.
        c.set(S(10), S(5), 0);
        assert_eq!(c.allocation(Player::One, &pos), None);
    }

    #[test]
    fn byo_yomi_periods_are_counted() {
        let mut c = Clock::default();
        let pos = Position::new();
        c.set(S(0), S(10), 2);
        let a = c.allocation(Player::Two, &pos).unwrap();
        assert_eq!(a, S(10).mul_f64(0.9) / 2 - OVERHEAD);
        c.charge(Player::Two, S(3));
        assert!(c.describe().contains("2 7.000s/1"), "{}", c.describe());
        // The period ends: a new one starts.
        c.charge(Player::Two, S(3));
        assert!(c.describe().contains("2 10.000s/2"), "{}", c.describe());
        // Main time running out spills into the first period.
        c.set(S(5), S(10), 2);
        c.charge(Player::One, S(7));
        assert!(c.describe().contains("1 8.000s/1"), "{}", c.describe());
        // With one second of main time left, the share of the period
        // that follows counts too.
        c.set_left(Player::One, S(1), 0);
        let a = c.allocation(Player::One, &pos).unwrap();
        assert!(a > S(4) && a < S(5), "{a:?}");
    }
}
