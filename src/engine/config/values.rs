//! How the values of configuration keys are read and written.

use crate::engine::units::ValueError;

/// Most threads a search may use.
pub const MAX_THREADS: usize = 256;

pub(super) fn on_off(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}

pub(super) fn parse_bool(v: &str) -> Result<bool, String> {
    match v.to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err(format!("'{v}' is not on or off")),
    }
}

pub(super) fn parse_positive(v: &str) -> Result<f32, String> {
    match v.parse::<f32>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("'{v}' is not a positive number")),
    }
}

pub(super) fn parse_percent(v: &str) -> Result<u8, String> {
    match v.parse::<u8>() {
        Ok(n) if n <= 100 => Ok(n),
        _ => Err(format!("'{v}' is not a percentage, 0 to 100")),
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
