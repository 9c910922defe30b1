//! What each command asks of the engine when nothing else says: one
//! table, read by the commands, their help texts and the docs. (The
//! engine itself has no defaults: a command gives its limits to its
//! engine handle as the fallback, `EngineHandle::with_fallback`.)
//!
//! A search's limits come from the request, then the engine
//! configuration (with the command's options filled in where it sets
//! none), then this table (`Budget::resolve`); its threads and seed from
//! the configuration, then the options, then this table.

use std::time::Duration;

use cabra::engine::{Budget, EngineConfig, EngineHandle};

/// How many threads a front end's searches use by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    /// One per core of the machine.
    AllCores,
    /// One (reproducible searches, or many searches side by side).
    One,
}

/// Which seed a front end's searches use by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seed {
    /// This seed, for reproducible results.
    Fixed(u64),
    /// A new one each session (a game against the engine varies).
    Random,
}

/// The defaults of one front end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defaults {
    /// The command, e.g. `play`.
    pub front_end: &'static str,
    /// The limits of a search when neither the request nor the
    /// configuration nor the options set any.
    pub budget: Budget,
    /// Threads per search.
    pub threads: Threads,
    /// The seed.
    pub seed: Seed,
}

const fn time(ms: u64) -> Budget {
    Budget {
        time: Some(Duration::from_millis(ms)),
        ..Budget::UNLIMITED
    }
}

const fn iterations(n: u64) -> Budget {
    Budget {
        iterations: Some(n),
        ..Budget::UNLIMITED
    }
}

/// `cabra play`: 2 s a placement on all cores, a new seed each session.
pub const PLAY: Defaults = Defaults {
    front_end: "play",
    budget: time(2_000),
    threads: Threads::AllCores,
    seed: Seed::Random,
};

/// `cabra serve`: 1 s a move on the server's threads, a new seed per game.
pub const SERVE: Defaults = Defaults {
    front_end: "serve",
    budget: time(1_000),
    threads: Threads::AllCores,
    seed: Seed::Random,
};

/// The page's whole-game analysis in `cabra serve`: 20,000 iterations a search.
pub const SERVE_ANALYSIS: Defaults = Defaults {
    front_end: "serve (game analysis)",
    budget: iterations(20_000),
    threads: Threads::AllCores,
    seed: Seed::Random,
};

/// `cabra gtp`: 1 s a move (or its share of the clock), all cores, seed 0.
pub const GTP: Defaults = Defaults {
    front_end: "gtp",
    budget: time(1_000),
    threads: Threads::AllCores,
    seed: Seed::Fixed(0),
};

/// `cabra search`: 1 s on all cores, seed 0.
pub const SEARCH: Defaults = Defaults {
    front_end: "search",
    budget: time(1_000),
    threads: Threads::AllCores,
    seed: Seed::Fixed(0),
};

/// `cabra analyze`: 50,000 iterations a search on all cores, seed 0.
pub const ANALYZE: Defaults = Defaults {
    front_end: "analyze",
    budget: iterations(50_000),
    threads: Threads::AllCores,
    seed: Seed::Fixed(0),
};

/// `cabra analysis`: 50,000 iterations a search, one thread per query (the
/// queries run side by side), seed 0.
pub const ANALYSIS: Defaults = Defaults {
    front_end: "analysis",
    budget: iterations(50_000),
    threads: Threads::One,
    seed: Seed::Fixed(0),
};

/// `cabra match`: 100 ms a move, one thread per engine, seed 1 (each game
/// derives its own).
pub const MATCH: Defaults = Defaults {
    front_end: "match",
    budget: time(100),
    threads: Threads::One,
    seed: Seed::Fixed(1),
};

/// `cabra selfplay`: as `match` (whose defaults it reads).
#[cfg(test)]
pub const SELFPLAY: Defaults = Defaults {
    front_end: "selfplay",
    ..MATCH
};

/// `cabra tactics`: 100,000 iterations a position, one thread, seed 1.
pub const TACTICS: Defaults = Defaults {
    front_end: "tactics",
    budget: iterations(100_000),
    threads: Threads::One,
    seed: Seed::Fixed(1),
};

/// Every front end's defaults, for the test that each has limits (no
/// command's search runs until stopped unless asked to).
#[cfg(test)]
pub const TABLE: &[Defaults] = &[
    PLAY,
    SERVE,
    SERVE_ANALYSIS,
    GTP,
    SEARCH,
    ANALYZE,
    ANALYSIS,
    MATCH,
    SELFPLAY,
    TACTICS,
];

/// What a command's options say of the engine (`--time`, `--iterations`,
/// `--nodes`, `--threads`, `--seed`); `None` and unlimited where they say
/// nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `--time`, `--iterations`, `--nodes`.
    pub budget: Budget,
    /// `--threads`.
    pub threads: Option<usize>,
    /// `--seed`.
    pub seed: Option<u64>,
}

/// The number of cores of this machine.
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Defaults {
    /// An engine handle for `config` (completed: see [`Options::complete`])
    /// whose searches without limits of their own get this front end's.
    pub fn handle(&self, config: EngineConfig) -> EngineHandle {
        EngineHandle::new(config).with_fallback(self.budget)
    }
}

impl Options {
    /// `config` completed for a front end: its limits, threads and seed
    /// where it sets none from these options, then from `defaults` (the
    /// budget's default stays out of the configuration: it is the handle's
    /// fallback, the last layer of `Budget::resolve`).
    pub fn complete(&self, config: &EngineConfig, defaults: &Defaults) -> EngineConfig {
        let threads = match defaults.threads {
            Threads::AllCores => all_cores(),
            Threads::One => 1,
        };
        let seed = match defaults.seed {
            Seed::Fixed(s) => s,
            Seed::Random => random_seed(),
        };
        EngineConfig {
            budget: config.budget.or(self.budget),
            threads: Some(config.threads.or(self.threads).unwrap_or(threads)),
            seed: Some(config.seed.or(self.seed).unwrap_or(seed)),
            ..config.clone()
        }
    }
}

/// A seed from the clock, below a million so that people can type it back
/// (`--seed`) to replay a session.
fn random_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_configuration_then_the_options_then_the_table() {
        let ms = Duration::from_millis;
        let options = Options {
            budget: Budget::time(ms(300)),
            threads: Some(3),
            seed: Some(9),
        };
        let plain = EngineConfig::default();
        let c = options.complete(&plain, &SEARCH);
        assert_eq!(
            (c.budget, c.threads, c.seed),
            (options.budget, Some(3), Some(9))
        );
        let own = EngineConfig::parse("iterations=50,threads=2,seed=4").unwrap();
        let c = options.complete(&own, &SEARCH);
        assert_eq!(
            (c.budget, c.threads, c.seed),
            (Budget::iterations(50), Some(2), Some(4))
        );
        let c = Options::default().complete(&plain, &ANALYSIS);
        assert_eq!(
            (c.budget, c.threads, c.seed),
            (Budget::UNLIMITED, Some(1), Some(0))
        );
        let c = Options::default().complete(&plain, &PLAY);
        assert!(c.seed.unwrap() < 1_000_000);
        assert!(TABLE.iter().all(|d| !d.budget.is_unlimited()));
    }
}
