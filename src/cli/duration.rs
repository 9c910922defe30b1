//! Durations as people type them (`2s`, `250ms`, `1m`), shared by the
//! subcommands' `--time` options and the `set time` command of `cabra play`.

pub use cabra::engine::parse_duration;

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1s"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("2.5s"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_duration("3"), Ok(Duration::from_secs(3)));
        assert_eq!(parse_duration(" 1m "), Ok(Duration::from_secs(60)));
        assert!(parse_duration("fast").is_err());
        assert!(parse_duration("5 parsecs").is_err());
        assert!(parse_duration("").is_err());
    }
}
