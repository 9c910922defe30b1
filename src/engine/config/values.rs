//! How the values of configuration keys are read and written, and why a
//! value is refused ([`KeyValueError`]).

use thiserror::Error;

use crate::engine::units::ValueError;
use crate::engine::value::LoadError;

/// Most threads a search may use.
pub const MAX_THREADS: usize = crate::search::MAX_THREADS;

/// Why a key of an engine configuration refused its value (the key is
/// named by [`super::ConfigError::BadValue`]); the message says what the
/// key takes instead.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum KeyValueError {
    /// Neither `on` nor `off` (nor `true`, `yes`, `1`, `false`, `no`, `0`).
    #[error("'{value}' is not on or off")]
    NotOnOff {
        /// The value as given.
        value: String,
    },
    /// Neither `on`, `off` nor a visit count of at least 1 (`threats`).
    #[error("'{value}' is not on, off or a visit count")]
    NotOnOffOrCount {
        /// The value as given.
        value: String,
    },
    /// Not a finite number above 0.
    #[error("'{value}' is not a positive number")]
    NotPositive {
        /// The value as given.
        value: String,
    },
    /// Not a number from 0 to 1 (nor `inf`, where `inf` is taken).
    #[error("'{value}' is not a value from 0 to 1{}", if *inf { " or inf" } else { "" })]
    NotAFraction {
        /// The value as given.
        value: String,
        /// Whether the key also takes `inf` (`fpu`).
        inf: bool,
    },
    /// Not a whole number (or not a number at all) from `min` to `max`.
    #[error("'{value}' is not {what}, {min} to {max}")]
    OutOfRange {
        /// The value as given.
        value: String,
        /// What the key takes, with its article: `a level`, `a percentage`.
        what: &'static str,
        /// The least value taken.
        min: u64,
        /// The greatest value taken.
        max: u64,
    },
    /// Not a number at all.
    #[error("'{value}' is not {what}, e.g. {example}")]
    NotANumber {
        /// The value as given.
        value: String,
        /// What the key takes, with its article: `a rating`.
        what: &'static str,
        /// A value it takes, as written: `elo=800`.
        example: &'static str,
    },
    /// A duration, count or number of threads that could not be read
    /// (`time`, `iterations`, `nodes`, `threads`).
    #[error(transparent)]
    Value(ValueError),
    /// A weights file that could not be loaded (`weights`).
    #[error(transparent)]
    Weights(LoadError),
}

pub(super) fn on_off(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}

pub(super) fn parse_bool(v: &str) -> Result<bool, KeyValueError> {
    match v.to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err(KeyValueError::NotOnOff {
            value: v.to_string(),
        }),
    }
}

pub(super) fn parse_positive(v: &str) -> Result<f32, KeyValueError> {
    match v.parse::<f32>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(KeyValueError::NotPositive {
            value: v.to_string(),
        }),
    }
}

/// A number from 0 to 1 (`inf` too where `inf` is taken).
pub(super) fn parse_fraction(v: &str, inf: bool) -> Result<f32, KeyValueError> {
    match v.to_ascii_lowercase().as_str() {
        "inf" | "infinity" if inf => Ok(f32::INFINITY),
        _ => match v.parse::<f32>() {
            Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
            _ => Err(KeyValueError::NotAFraction {
                value: v.to_string(),
                inf,
            }),
        },
    }
}

/// The refusal of `v` as `what`, `min` to `max`.
pub(super) fn out_of_range(v: &str, what: &'static str, min: u64, max: u64) -> KeyValueError {
    KeyValueError::OutOfRange {
        value: v.to_string(),
        what,
        min,
        max,
    }
}

pub(super) fn parse_percent(v: &str) -> Result<u8, KeyValueError> {
    match v.parse::<u8>() {
        Ok(n) if n <= 100 => Ok(n),
        _ => Err(out_of_range(v, "a percentage", 0, 100)),
    }
}

/// Parses a thread count, 1 to [`MAX_THREADS`].
pub fn parse_threads(v: &str) -> Result<usize, ValueError> {
    match v.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(ValueError::Threads(v.trim().to_string())),
    }
}

pub(super) fn opt<T>(v: Option<T>, f: impl Fn(T) -> String) -> String {
    v.map_or("-".to_string(), f)
}
