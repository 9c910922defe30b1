//! Durations and counts as people type and read them: `250ms`, `2.5s`,
//! `1m`; `20000`, `20,000`, `50k`, `1.5M`. One place for the command-line
//! options, the engine configuration keys and the REPL's `set`.

use std::time::Duration;

use thiserror::Error;

/// The longest duration accepted (a year): anything longer is a typo, and
/// a deadline that far ahead can still be added to the clock.
pub const MAX_DURATION: Duration = Duration::from_secs(365 * 24 * 3600);

/// The largest count accepted.
pub const MAX_COUNT: u64 = 1_000_000_000_000;

/// Why a value as people type it (a duration, an amount of memory, a count,
/// a number of threads, a time control) could not be read. Each variant
/// holds the text as given; the message says what was expected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ValueError {
    /// Not a number with a time unit.
    #[error("'{0}' is not a duration like 1s, 250ms or 2.5s")]
    NotADuration(String),
    /// A time unit other than `us`, `ms`, `s` and `m`.
    #[error("unknown time unit '{0}' (use us, ms, s or m)")]
    TimeUnit(String),
    /// A duration of 0 or less.
    #[error("'{0}': the time must be more than 0, e.g. 200ms")]
    NoTime(String),
    /// A duration that rounds to 0 nanoseconds.
    #[error("'{0}' is shorter than a nanosecond")]
    TooShort(String),
    /// A duration over [`MAX_DURATION`].
    #[error("'{0}' is too long (at most a year)")]
    TooLong(String),
    /// Not a number with a unit of memory.
    #[error("'{0}' is not an amount of memory like 512M or 2G")]
    NotMemory(String),
    /// An amount of memory of 0, or over 1024 TiB.
    #[error("'{0}' is out of range (more than 0, at most 1024T)")]
    MemoryRange(String),
    /// Not a count.
    #[error("expected a count such as 20000 or 50k, found '{0}'")]
    NotACount(String),
    /// A count under 1.
    #[error("the count must be at least 1")]
    CountTooSmall,
    /// A count with a fraction left (`1.5`; `1.5k` is whole).
    #[error("'{0}' is not a whole count")]
    NotWhole(String),
    /// A count over [`MAX_COUNT`].
    #[error("at most {}", group(MAX_COUNT))]
    CountTooLarge,
    /// Not a number of threads in range.
    #[error("'{0}' is not a number of threads from 1 to {max}", max = crate::engine::MAX_THREADS)]
    Threads(String),
    /// One part of a time control (`main time`, `increment`) was refused:
    /// the message names the part, its [`std::error::Error::source`] says
    /// why.
    #[error("{part}")]
    TimeControl {
        /// Which part: `main time` or `increment`.
        part: &'static str,
        /// Why.
        source: Box<ValueError>,
    },
}

/// Reads a duration: a positive number with an optional unit `us`, `ms`,
/// `s` or `m` (seconds when there is none), e.g. `250ms`, `2.5s`, `1m`.
///
/// ```
/// use std::time::Duration;
/// use cabra::engine::parse_duration;
/// assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
/// assert_eq!(parse_duration("2.5s"), Ok(Duration::from_millis(2500)));
/// assert!(parse_duration("0s").is_err());
/// assert!(parse_duration("18000000000000000000s").is_err());
/// ```
pub fn parse_duration(text: &str) -> Result<Duration, ValueError> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = num
        .parse()
        .map_err(|_| ValueError::NotADuration(t.to_string()))?;
    // Units in any case: `2S` and `500MS` read as `2s` and `500ms`.
    let seconds = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "s" | "sec" | "secs" => value,
        "ms" => value / 1e3,
        "us" | "µs" => value / 1e6,
        "m" | "min" => value * 60.0,
        other => return Err(ValueError::TimeUnit(other.to_string())),
    };
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(ValueError::NoTime(t.to_string()));
    }
    match Duration::try_from_secs_f64(seconds) {
        Ok(d) if d <= MAX_DURATION && !d.is_zero() => Ok(d),
        Ok(d) if d.is_zero() => Err(ValueError::TooShort(t.to_string())),
        _ => Err(ValueError::TooLong(t.to_string())),
    }
}

/// Reads an amount of memory: a number with a unit `K`, `M` or `G` (powers
/// of 1,024, with or without `B` or `iB`), e.g. `512M`, `1GiB`, `1.5G`.
///
/// ```
/// use cabra::engine::{format_bytes, parse_bytes};
/// assert_eq!(parse_bytes("512M"), Ok(512 << 20));
/// assert_eq!(parse_bytes("1GiB"), Ok(1 << 30));
/// assert_eq!(parse_bytes("1.5gb"), Ok(3 << 29));
/// assert_eq!(format_bytes(3 << 29), "1.5GiB");
/// assert!(parse_bytes("12").is_err() && parse_bytes("0M").is_err());
/// ```
pub fn parse_bytes(text: &str) -> Result<usize, ValueError> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let bad = || ValueError::NotMemory(t.to_string());
    let value: f64 = num.parse().map_err(|_| bad())?;
    let unit = unit.trim().to_ascii_lowercase();
    let scale = match unit.trim_end_matches('b').trim_end_matches('i') {
        "k" => 1u64 << 10,
        "m" => 1 << 20,
        "g" => 1 << 30,
        "t" => 1 << 40,
        _ => return Err(bad()),
    };
    let bytes = value * scale as f64;
    if !(bytes >= 1.0 && bytes <= (1u64 << 50) as f64) {
        return Err(ValueError::MemoryRange(t.to_string()));
    }
    Ok(bytes as usize)
}

/// `512MiB`, `1.5GiB`: an amount of memory for people.
pub fn format_bytes(bytes: usize) -> String {
    let b = bytes as f64;
    let (value, unit) = if b >= (1u64 << 30) as f64 {
        (b / (1u64 << 30) as f64, "GiB")
    } else if b >= (1u64 << 20) as f64 {
        (b / (1u64 << 20) as f64, "MiB")
    } else {
        (b / 1024.0, "KiB")
    };
    let text = format!("{value:.1}");
    format!("{}{unit}", text.trim_end_matches(".0"))
}

/// `2s`, `250ms`, `1.5s`, `2m`: the short form [`parse_duration`] reads back.
pub fn format_duration(d: Duration) -> String {
    let ms = d.as_millis();
    let ns = d.as_nanos();
    if ns == 0 {
        "0s".to_string()
    } else if ms == 0 && ns % 1000 != 0 {
        // Under a millisecond, to the nanosecond: `0.5us`, not `0us`.
        let text = format!("{}.{:03}", ns / 1000, ns % 1000);
        format!("{}us", text.trim_end_matches('0'))
    } else if ms == 0 {
        format!("{}us", d.as_micros())
    } else if ms % 60_000 == 0 {
        format!("{}m", ms / 60_000)
    } else if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else if ms < 1000 {
        format!("{ms}ms")
    } else {
        // Seconds to the millisecond: `3.332s`, `1.5s`.
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        format!("{}s", text.trim_end_matches('0'))
    }
}

/// Reads a positive count as people write it: `20000`, `20,000`,
/// `20_000`, `20k`, `1.5M`, `2G`.
///
/// ```
/// use cabra::engine::parse_count;
/// assert_eq!(parse_count("50k"), Ok(50_000));
/// assert_eq!(parse_count("1.5M"), Ok(1_500_000));
/// assert!(parse_count("0").is_err());
/// ```
pub fn parse_count(text: &str) -> Result<u64, ValueError> {
    if !separators_fit(text.trim()) {
        return Err(ValueError::NotACount(text.trim().to_string()));
    }
    let t: String = text
        .trim()
        .chars()
        .filter(|&c| c != ',' && c != '_')
        .collect();
    let (num, zeros) = match t.char_indices().last() {
        Some((i, 'k' | 'K')) => (&t[..i], 3),
        Some((i, 'm' | 'M')) => (&t[..i], 6),
        Some((i, 'g' | 'G' | 'b' | 'B')) => (&t[..i], 9),
        _ => (t.as_str(), 0),
    };
    let bad = || ValueError::NotACount(text.trim().to_string());
    // Decimal digits read exactly (1.1k is 1,100, not a float's 1,100.0000000000002).
    let (whole, fraction) = num.split_once('.').unwrap_or((num, ""));
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !digits(whole) || !digits(fraction) {
        return Err(bad());
    }
    // Past 30 digits the count is over MAX_COUNT anyway.
    let significant = whole.trim_start_matches('0');
    if significant.len() > 30 || fraction.len() > 30 {
        return Err(ValueError::CountTooLarge);
    }
    // The digits without the point: the count times 10^fraction.len().
    let number: u128 = match format!("{significant}{fraction}") {
        d if d.is_empty() => 0,
        d => d.parse().map_err(|_| bad())?,
    };
    let (scale, exact) = if fraction.len() <= zeros {
        (10u128.pow((zeros - fraction.len()) as u32), 1)
    } else {
        (1, 10u128.pow((fraction.len() - zeros) as u32))
    };
    let value = number.checked_mul(scale).ok_or(ValueError::CountTooLarge)?;
    if value % exact != 0 {
        return Err(ValueError::NotWhole(text.trim().to_string()));
    }
    match value / exact {
        0 => Err(ValueError::CountTooSmall),
        v if v > u128::from(MAX_COUNT) => Err(ValueError::CountTooLarge),
        v => Ok(v as u64),
    }
}

/// Whether the separators of a count stand where people put them: `,`
/// between groups of three digits (`20,000`), `_` between any two digits
/// (`20_000`), never both, and none after the point or the unit.
fn separators_fit(t: &str) -> bool {
    let end = t
        .find(|c: char| !(c.is_ascii_digit() || c == ',' || c == '_'))
        .unwrap_or(t.len());
    let (whole, rest) = t.split_at(end);
    if rest.contains([',', '_']) {
        return false;
    }
    if whole.contains(',') && whole.contains('_') {
        return false;
    }
    let mut groups = whole.split([',', '_']);
    if !whole.contains(',') {
        return groups.all(|g| !g.is_empty()) || whole.is_empty();
    }
    let first = groups.next().unwrap_or("");
    (1..=3).contains(&first.len()) && groups.all(|g| g.len() == 3)
}

/// A number with thousands separators: `1,234,567`.
pub fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `1 placement`, `3 placements`: a count and a noun, plural when it is not 1.
pub(crate) fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", group(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_and_print() {
        assert_eq!(parse_duration("1s"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_duration("3"), Ok(Duration::from_secs(3)));
        assert_eq!(parse_duration(" 1m "), Ok(Duration::from_secs(60)));
        assert_eq!(parse_duration("2S"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("500MS"), Ok(Duration::from_millis(500)));
        for bad in [
            "fast",
            "5 parsecs",
            "",
            "0",
            "0ms",
            "-1s",
            "inf",
            "NaN",
            "1e400",
            "400d",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        assert!(parse_duration("18000000000000000000s").is_err());
        assert!(parse_duration("366d").is_err());
        for d in ["2s", "250ms", "1.5s", "2m", "3.332s"] {
            assert_eq!(format_duration(parse_duration(d).unwrap()), d);
        }
        for (d, text) in [(1, "0.001us"), (500, "0.5us"), (2_000, "2us"), (0, "0s")] {
            assert_eq!(format_duration(Duration::from_nanos(d)), text);
        }
        for d in ["0.001us", "0.5us", "2us", "999us"] {
            assert_eq!(format_duration(parse_duration(d).unwrap()), d);
        }
        // An average prints to the millisecond, not to the float's last digit.
        assert_eq!(
            format_duration(Duration::from_secs_f64(3.332217164)),
            "3.332s"
        );
    }

    #[test]
    fn counts_read_and_print() {
        assert_eq!(parse_count("20000"), Ok(20_000));
        assert_eq!(parse_count("20,000"), Ok(20_000));
        assert_eq!(parse_count("50k"), Ok(50_000));
        assert_eq!(parse_count("1.5M"), Ok(1_500_000));
        assert_eq!(parse_count("1,234,567"), Ok(1_234_567));
        assert_eq!(parse_count("20_000"), Ok(20_000));
        assert_eq!(parse_count("2_0000"), Ok(20_000));
        assert_eq!(parse_count("12,000k"), Ok(12_000_000));
        for bad in [
            "1,,0",
            "1,0",
            ",100",
            "100,",
            "1__0",
            "_10",
            "1,000_000",
            "1.5,0k",
            "1k,",
        ] {
            assert_eq!(
                parse_count(bad),
                Err(ValueError::NotACount(bad.into())),
                "{bad}"
            );
        }
        for bad in ["0", "-3", "lots", "", "1e3", "2T", "0.4"] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
        // A fraction is refused unless a unit makes it whole.
        assert_eq!(parse_count("1.5"), Err(ValueError::NotWhole("1.5".into())));
        assert_eq!(parse_count("2.0"), Ok(2));
        assert!(parse_count("1.0005k").is_err());
        assert_eq!(parse_count("1.1k"), Ok(1_100));
        assert_eq!(parse_count("0.001M"), Ok(1_000));
        assert_eq!(parse_count("007"), Ok(7));
        assert_eq!(parse_count(".5k"), Ok(500));
        assert_eq!(parse_count("1000G"), Ok(MAX_COUNT));
        for bad in [".", "1.2.3", "k", "1..5k"] {
            assert_eq!(
                parse_count(bad),
                Err(ValueError::NotACount(bad.into())),
                "{bad}"
            );
        }
        assert_eq!(
            parse_count("0.0001k"),
            Err(ValueError::NotWhole("0.0001k".into()))
        );
        assert_eq!(parse_count("0.000k"), Err(ValueError::CountTooSmall));
        assert_eq!(parse_count(&"9".repeat(40)), Err(ValueError::CountTooLarge));
        assert!(parse_count("2000G").is_err());
        assert_eq!(group(1_234_567), "1,234,567");
        assert_eq!(group(12), "12");
        assert_eq!(plural(1, "iteration"), "1 iteration");
        assert_eq!(plural(1500, "placement"), "1,500 placements");
    }
}
