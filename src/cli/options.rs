//! The options the commands share, parsed and validated the same way
//! everywhere (a bad value is clap's usage error, exit 2): `--rules` and
//! `--swap`; `--engine`, `--time`, `--iterations`, `--nodes`, `--threads`,
//! `--seed`.

use std::path::Path;
use std::time::Duration;

use crate::cli::defaults::{Defaults, Options};
use anyhow::bail;
use cabra::engine::{
    Budget, EngineConfig, EngineHandle, parse_count, parse_duration, parse_threads,
};
use cabra::game::record::{Record, parse_record};
use cabra::game::{Position, Rules};

use super::files::{read_input, read_record};

/// Parses rules (`bridget swap`) for clap.
pub fn parse_rules(text: &str) -> Result<Rules, String> {
    text.parse()
        .map_err(|e: cabra::game::RulesError| e.to_string())
}

/// The rules of a game: `--rules` and `--swap`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RulesOptions {
    /// The rules: caminos (the default) or bridget, with or without swap,
    /// e.g. --rules bridget, --rules "bridget swap" (RULES.md section 9).
    /// Where a game file is read, its `# rules:` line sets them, and an
    /// option that disagrees with it is an error.
    #[arg(long, value_parser = parse_rules, value_name = "RULES")]
    pub rules: Option<Rules>,
    /// Add the swap option (pie rule): player 2's first turn may be `swap`.
    #[arg(long)]
    pub swap: bool,
}

impl RulesOptions {
    /// Whether the options say anything about the swap: `--swap`, or
    /// `--rules` with or without `swap`.
    fn swap_given(&self) -> Option<bool> {
        match self.rules {
            _ if self.swap => Some(true),
            Some(r) => Some(r.swap),
            None => None,
        }
    }

    /// The rules to play a new game under: the options', or the default.
    pub fn rules(&self) -> Rules {
        let mut r = self.rules.unwrap_or_default();
        r.swap = self.swap_given().unwrap_or(false);
        r
    }

    /// The game of `file` (checked against the options' rules), or the
    /// empty board under the options' rules.
    pub fn load(&self, file: Option<&Path>) -> anyhow::Result<Record> {
        let Some(path) = file else {
            return Ok(Record {
                position: Position::with_rules(self.rules()),
                header: Vec::new(),
            });
        };
        let record = match read_record(path) {
            Ok(record) => record,
            Err(e) => {
                // A file that only the options' rules make legal (a `tm`
                // line and no `# rules:` line, with `--rules bridget`) is
                // told of the conflict, not of the line.
                if self.rules.is_some() || self.swap {
                    if let Ok(bytes) = read_input(path) {
                        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
                        let mut with = format!("# rules: {}\n", self.rules()).into_bytes();
                        with.extend_from_slice(bytes);
                        if parse_record(&with).is_ok() {
                            self.agree(Rules::default(), path)?;
                        }
                    }
                }
                return Err(e);
            }
        };
        self.agree(record.position.rules(), path)?;
        Ok(record)
    }

    /// Fails when the options say other rules than `file_rules`: another
    /// variant (`--rules`), or the swap option where the file has none or
    /// the other way round.
    pub fn agree(&self, file_rules: Rules, path: &Path) -> anyhow::Result<()> {
        let variant_differs = self.rules.is_some_and(|r| r.variant != file_rules.variant);
        let swap_differs = self.swap_given().is_some_and(|s| s != file_rules.swap);
        if variant_differs || swap_differs {
            let said = match (self.rules, self.swap) {
                (Some(_), _) => self.rules().to_string(),
                // The file's variant, with or without the swap the options say.
                (None, swap) => Rules { swap, ..file_rules }.to_string(),
            };
            bail!(
                "{} is played under the {file_rules} rules{}, but the options say {said}",
                path.display(),
                if file_rules.is_default() {
                    " (it has no `# rules:` line)"
                } else {
                    ""
                }
            );
        }
        Ok(())
    }
}

/// Parses an engine configuration for clap.
pub fn parse_engine(text: &str) -> Result<EngineConfig, String> {
    // An empty value is most likely an unset variable (`--b "$ENGINE"`).
    if text.split(',').all(|item| item.trim().is_empty()) {
        return Err(
            "empty: give a configuration such as default, baseline or default,c=0.3".into(),
        );
    }
    EngineConfig::parse(text).map_err(|e| super::chain(&e))
}

/// How long the engine thinks and with how many threads.
#[derive(clap::Args, Debug, Clone)]
pub struct BudgetOptions {
    /// Thinking time per search, e.g. 500ms, 2s, 1m.
    #[arg(long, value_parser = parse_duration, value_name = "T")]
    pub time: Option<Duration>,
    /// Iterations (playouts) per search, all threads together, e.g. 20000,
    /// 50k, 1.5M; reproducible with --threads 1 and a --seed.
    #[arg(long, value_parser = parse_count, value_name = "N")]
    pub iterations: Option<u64>,
    /// Stop a search once the tree holds this many nodes, e.g. 1M. The
    /// tree kept from earlier moves counts: a move's search whose tree
    /// holds that many already runs 500 iterations, so that its move is
    /// still a searched one.
    #[arg(long, value_parser = parse_count, value_name = "N")]
    pub nodes: Option<u64>,
    /// Search threads (sharing one tree), 1 to 256.
    #[arg(long, value_parser = parse_threads, value_name = "N")]
    pub threads: Option<usize>,
    /// The random seed of the search, 0 to 18446744073709551615.
    #[arg(long, value_name = "S", value_parser = parse_seed)]
    pub seed: Option<u64>,
}

impl BudgetOptions {
    /// The budget these options set (unlimited when none is given).
    pub fn budget(&self) -> Budget {
        Budget {
            time: self.time,
            iterations: self.iterations,
            nodes: self.nodes,
        }
    }

    /// What these options say of the engine.
    pub fn options(&self) -> Options {
        Options {
            budget: self.budget(),
            threads: self.threads,
            seed: self.seed,
        }
    }
}

/// An engine and its budget: the options of `play`, `analyze`, `search`
/// and `tactics`.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineOptions {
    /// The engine configuration: a name (default, baseline) and/or
    /// key=value pairs, e.g. "default,c=0.3" (`cabra engines` lists them).
    /// A limit, thread count or seed in it (time=, iterations=, nodes=,
    /// threads=, seed=) wins over the options below.
    #[arg(long, value_parser = parse_engine, default_value = "default", value_name = "CONFIG")]
    pub engine: EngineConfig,
    #[command(flatten)]
    pub budget: BudgetOptions,
}

impl EngineOptions {
    /// The configuration completed for the front end of `defaults`: its
    /// limits, threads and seed from the configuration, then the options,
    /// then the front end's defaults.
    pub fn config(&self, defaults: &Defaults) -> EngineConfig {
        self.budget.options().complete(&self.engine, defaults)
    }

    /// The engine of the front end of `defaults` (whose limits are those
    /// of a search that sets none).
    pub fn handle(&self, defaults: &Defaults) -> EngineHandle {
        defaults.handle(self.config(defaults))
    }
}

/// The strength of the opponent: the options of `play`, `serve` and `gtp`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LevelOptions {
    /// Play at this strength level: 1 is the weakest, the top the full
    /// engine, 0 the random player (`cabra engines` lists the levels with
    /// their ratings). Below the top a level searches a fixed number of
    /// iterations a move on one thread, so that it plays alike on any
    /// machine; a time limit only caps it.
    #[arg(long, value_name = "N", value_parser = parse_level)]
    pub level: Option<u8>,
    /// Play at the level whose rating is nearest to this Elo (the random
    /// player is 0; `cabra engines` lists the ratings).
    #[arg(
        long,
        value_name = "E",
        conflicts_with = "level",
        allow_negative_numbers = true
    )]
    pub elo: Option<i32>,
}

/// Parses a level number for clap.
fn parse_level(text: &str) -> Result<u8, String> {
    let top = cabra::engine::levels::TOP;
    text.trim()
        .parse::<u8>()
        .ok()
        .filter(|&n| n <= top)
        .ok_or_else(|| format!("'{text}' is not a level, 0 to {top} (`cabra engines` lists them)"))
}

impl LevelOptions {
    /// The level these options ask for, if any.
    pub fn level(&self) -> Option<u8> {
        self.level.or_else(|| {
            self.elo
                .map(|e| cabra::engine::levels::Level::nearest(e).number)
        })
    }
}

impl EngineOptions {
    /// These options with the engine set to the level of `level`, if it
    /// names one (after the configuration's own keys).
    pub fn at_level(&self, level: &LevelOptions) -> EngineOptions {
        let mut out = self.clone();
        // `--level` is checked when read, and `--elo` names a level.
        if let Some(n) = level.level() {
            out.engine
                .set_level(n)
                .expect("--level is checked against the levels when read");
        }
        out
    }
}

/// All cores of the machine.
pub fn all_cores() -> usize {
    crate::cli::defaults::all_cores()
}

/// Ends the program with a usage error (exit status 2), as clap does for a
/// bad option: for mistakes only seen when options are read together.
pub fn usage_error(message: impl std::fmt::Display) -> ! {
    clap::Error::raw(
        clap::error::ErrorKind::ArgumentConflict,
        format!("{message}\n"),
    )
    .exit()
}

/// Reads `--seed`: a whole number from 0 to 2^64 - 1.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim().parse().map_err(|_| {
        format!(
            "expected a whole number from 0 to {} for the seed, found '{text}'",
            u64::MAX
        )
    })
}
