//! The engine configuration: one type, and one table of keys ([`KEYS`])
//! that drives parsing, validation, the help text and the description.
//!
//! A configuration is written as a comma-separated list of named
//! configurations and `key=value` pairs, applied left to right from the
//! default engine: `"baseline"`, `"default,c=0.5"`, `"time=200ms,reuse=off"`.
//! Adding an option means adding a field and one row of [`KEYS`]; a key
//! has the name of the field it sets (written without its underscores:
//! `earlystop` sets `early_stop`, and `early_stop=off` is read too).
//!
//! The limits of a search (`time`, `iterations`, `nodes`) are one
//! [`Budget`]; `threads` and `seed` are kept here once, and the engine
//! reads them from here.

mod values;

use thiserror::Error;

use super::budget::Budget;
use super::levels;
use super::playout::Policy;
use super::units::{format_duration, parse_count, parse_duration};
use super::value::{self, Weights};
use crate::search::{DEFAULT_THREAT_VISITS, SearchConfig, Uct};
pub use values::{KeyValueError, MAX_THREADS, parse_threads};
use values::{
    on_off, opt, out_of_range, parse_bool, parse_fraction, parse_percent, parse_positive,
};

/// One engine: how it searches, how its playouts choose, and how long it
/// thinks per move.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// The text it was parsed from (for reports).
    pub name: String,
    /// The generic search: selection, solver, threats, replies. Its
    /// `threads` and `seed` are not read: the engine sets them from
    /// [`EngineConfig::threads`] and [`EngineConfig::seed`].
    pub search: SearchConfig,
    /// The playout policies.
    pub playout: Policy,
    /// Keep the tree between moves.
    pub reuse: bool,
    /// On a game clock, stop a move's search once its move is settled:
    /// when the most visited move leads every other by more visits than
    /// the rest of its time can give.
    pub early_stop: bool,
    /// In a position proven lost or drawn, search on without the solver
    /// for the move that gives the opponent the most chances to go wrong
    /// (among those that keep a draw; `swindle.rs`).
    pub swindle: bool,
    /// Threads searching the tree together; `None`: one (the `cabra`
    /// commands fill in their own default).
    pub threads: Option<usize>,
    /// The random seed of the search; `None`: 0 (the `cabra` commands
    /// fill in their own default).
    pub seed: Option<u64>,
    /// The limits of a search (`time`, `iterations`, `nodes`); unlimited:
    /// the front end's default. See [`Budget::resolve`] for which limits
    /// win.
    pub budget: Budget,
    /// The strength level ([`super::levels`]) whose search this is, if
    /// one was chosen: below the top, a level's moves are searched for its
    /// iterations whatever the time (which only caps them).
    pub level: Option<u8>,
    /// The temperature of the choice of a move among the root moves
    /// searched: 0 plays the most visited, more draws a visited move with
    /// a probability proportional to `visits^(1/temperature)`.
    pub temperature: f32,
    /// Percent of the moves drawn uniformly among the legal ones, where
    /// the search proved no win (the lowest levels).
    pub randomness: u8,
}

/// One key of a configuration string.
pub struct Key {
    /// The name before `=`.
    pub name: &'static str,
    /// The kind of value, for the help text.
    pub value: &'static str,
    /// What it does.
    pub help: &'static str,
    set: fn(&mut EngineConfig, &str) -> Result<(), KeyValueError>,
    get: fn(&EngineConfig) -> String,
}

impl Key {
    /// The value of this key in `config`, as text that parses back.
    pub fn get(&self, config: &EngineConfig) -> String {
        (self.get)(config)
    }
}

/// Every key, in the order of the help text. `level` and `elo` come
/// first: they set other keys, which later items may change.
pub const KEYS: &[Key] = &[
    Key {
        name: "level",
        value: "0-N",
        help: LEVEL_HELP,
        set: |c, v| {
            let n = v
                .parse::<u8>()
                .map_err(|_| out_of_range(v, "a level", 0, levels::TOP.into()))?;
            c.set_level(n)
        },
        get: |c| opt(c.level, |n| n.to_string()),
    },
    Key {
        name: "elo",
        value: "E",
        help: "the level whose rating is nearest to E (`cabra engines` lists the ratings)",
        set: |c, v| {
            let e = v.parse::<i32>().map_err(|_| KeyValueError::NotANumber {
                value: v.to_string(),
                what: "a rating",
                example: "elo=800",
            })?;
            c.set_level(levels::Level::nearest(e).number)
        },
        // The level it chose says it.
        get: |_| "-".to_string(),
    },
    Key {
        name: "temperature",
        value: "X",
        help: "how a move is chosen among the root moves searched: 0 plays the most visited; X > 0 draws a visited move not proven lost with a probability proportional to visits^(1/X) (a proven win is always played)",
        set: |c, v| {
            c.temperature = match v.parse::<f32>() {
                Ok(x) if (0.0..=100.0).contains(&x) => x,
                _ => return Err(out_of_range(v, "a temperature", 0, 100)),
            };
            Ok(())
        },
        get: |c| c.temperature.to_string(),
    },
    Key {
        name: "randomness",
        value: "0-100",
        help: "percent of the moves played uniformly at random among the legal ones, where the search proved no win (the lowest levels)",
        set: |c, v| {
            c.randomness = parse_percent(v)?;
            Ok(())
        },
        get: |c| c.randomness.to_string(),
    },
    Key {
        name: "c",
        value: "X",
        help: "UCT exploration constant, a positive number",
        set: |c, v| {
            c.search.uct.c = parse_positive(v)?;
            Ok(())
        },
        get: |c| c.search.uct.c.to_string(),
    },
    Key {
        name: "fpu",
        value: "X|inf",
        help: "first-play urgency: the value of an untried move, 0 to 1, or inf (every move once first)",
        set: |c, v| {
            c.search.uct.fpu = parse_fraction(v, true)?;
            Ok(())
        },
        get: |c| match c.search.uct.fpu {
            x if x.is_infinite() => "inf".to_string(),
            x => x.to_string(),
        },
    },
    Key {
        name: "fpudrop",
        value: "X",
        help: "below the root, how much lower the first-play urgency is for each class of the learnt move order below the first (with prior=on)",
        set: |c, v| {
            c.search.uct.fpu_drop = parse_fraction(v, false)?;
            Ok(())
        },
        get: |c| c.search.uct.fpu_drop.to_string(),
    },
    Key {
        name: "solver",
        value: "on|off",
        help: "prove wins and losses in the tree (MCTS-Solver)",
        set: |c, v| {
            c.search.solver = parse_bool(v)?;
            Ok(())
        },
        get: |c| on_off(c.search.solver),
    },
    Key {
        name: "wincheck",
        value: "on|off",
        help: "look for a win in one before expanding a node (needs the solver)",
        set: |c, v| {
            c.search.win_check = parse_bool(v)?;
            Ok(())
        },
        get: |c| on_off(c.search.win_check),
    },
    Key {
        name: "threats",
        value: "on|off|N",
        help: "where the opponent threatens to win at once, search only moves that stop it; nodes are checked once they have N visits (on = 16)",
        set: |c, v| {
            match parse_bool(v) {
                Ok(on) => {
                    c.search.threats = on;
                    if on {
                        c.search.threat_visits = DEFAULT_THREAT_VISITS;
                    }
                }
                Err(_) => match v.parse::<u32>() {
                    Ok(n) if n >= 1 => {
                        c.search.threats = true;
                        c.search.threat_visits = n;
                    }
                    _ => {
                        return Err(KeyValueError::NotOnOffOrCount {
                            value: v.to_string(),
                        });
                    }
                },
            }
            Ok(())
        },
        get: |c| match c.search.threats {
            false => "off".to_string(),
            true => c.search.threat_visits.to_string(),
        },
    },
    Key {
        name: "reuse",
        value: "on|off",
        help: "keep the tree between moves",
        set: |c, v| {
            c.reuse = parse_bool(v)?;
            Ok(())
        },
        get: |c| on_off(c.reuse),
    },
    Key {
        name: "pwin",
        value: "on|off",
        help: "playouts take a win in one",
        set: |c, v| {
            c.playout.pwin = parse_bool(v)?;
            Ok(())
        },
        get: |c| on_off(c.playout.pwin),
    },
    Key {
        name: "pblock",
        value: "0-255",
        help: "where the opponent threatens to win at once, a playout redraws a placement that surely leaves the threat, up to N times (0: off)",
        set: |c, v| {
            c.playout.pblock = v
                .parse::<u8>()
                .map_err(|_| out_of_range(v, "a number of redraws", 0, 255))?;
            Ok(())
        },
        get: |c| c.playout.pblock.to_string(),
    },
    Key {
        name: "pscore",
        value: "0-100",
        help: "percent of a playout's reward taken from the final counts, whichever way it ended",
        set: |c, v| {
            c.playout.pscore = parse_percent(v)?;
            Ok(())
        },
        get: |c| c.playout.pscore.to_string(),
    },
    Key {
        name: "value",
        value: "0-100",
        help: "percent of new leaves valued by the learnt evaluation instead of a playout (0: off)",
        set: |c, v| {
            c.playout.value = parse_percent(v)?;
            Ok(())
        },
        get: |c| c.playout.value.to_string(),
    },
    Key {
        name: "weights",
        value: "builtin|FILE",
        help: "the learnt evaluation's weights: those built in, or a file written by `cabra train`",
        set: |c, v| {
            c.playout.weights = if v == "builtin" {
                Weights::Builtin
            } else {
                Weights::File(value::load(std::path::Path::new(v)).map_err(KeyValueError::Weights)?)
            };
            Ok(())
        },
        get: |c| c.playout.weights.name(),
    },
    Key {
        name: "reply",
        value: "on|off",
        help: "playouts play the last good reply to the previous placement (LGRF-1)",
        set: |c, v| {
            c.search.reply = parse_bool(v)?;
            Ok(())
        },
        get: |c| on_off(c.search.reply),
    },
    Key {
        name: "endgame",
        value: "on|off",
        help: "exact endgame: nodes with few placements left are solved by alpha-beta (needs the solver)",
        set: |c, v| {
            c.search.endgame = parse_bool(v)?;
            Ok(())
        },
        get: |c| on_off(c.search.endgame),
    },
    Key {
        name: "prior",
        value: "on|off",
        help: "nodes try first the placements that learnt features rank best (hides, links, nearness)",
        set: |c, v| {
            c.search.prior = parse_bool(v)?;
            Ok(())
        },
        get: |c| on_off(c.search.prior),
    },
    Key {
        name: "earlystop",
        value: "on|off",
        help: "on a game clock, stop searching once no other placement can overtake the best in the time left for it",
        set: |c, v| {
            c.early_stop = parse_bool(v)?;
            Ok(())
        },
        get: |c| on_off(c.early_stop),
    },
    Key {
        name: "swindle",
        value: "on|off",
        help: "in a position proven lost or drawn, search on without the solver for the move that gives the opponent most chances to go wrong (keeping a draw)",
        set: |c, v| {
            c.swindle = parse_bool(v)?;
            Ok(())
        },
        get: |c| on_off(c.swindle),
    },
    Key {
        name: "threads",
        value: "N",
        help: "threads searching one tree together, 1 to 256 (default: the command's)",
        set: |c, v| {
            c.threads = Some(parse_threads(v).map_err(KeyValueError::Value)?);
            Ok(())
        },
        get: |c| opt(c.threads, |n| n.to_string()),
    },
    Key {
        name: "seed",
        value: "S",
        help: "the random seed of the search, 0 to 2^64-1 (default: the command's)",
        set: |c, v| {
            c.seed = Some(
                v.parse::<u64>()
                    .map_err(|_| out_of_range(v, "a seed", 0, u64::MAX))?,
            );
            Ok(())
        },
        get: |c| opt(c.seed, |n| n.to_string()),
    },
    Key {
        name: "time",
        value: "T",
        help: "time per move, e.g. 200ms or 2s (default: the command's)",
        set: |c, v| {
            c.budget.time = Some(parse_duration(v).map_err(KeyValueError::Value)?);
            Ok(())
        },
        get: |c| opt(c.budget.time, format_duration),
    },
    Key {
        name: "iterations",
        value: "N",
        help: "iterations per move, e.g. 50k (default: the command's)",
        set: |c, v| {
            c.budget.iterations = Some(parse_count(v).map_err(KeyValueError::Value)?);
            Ok(())
        },
        get: |c| opt(c.budget.iterations, |n| n.to_string()),
    },
    Key {
        name: "nodes",
        value: "N",
        help: "stop once the tree holds this many nodes (default: the command's)",
        set: |c, v| {
            c.budget.nodes = Some(parse_count(v).map_err(KeyValueError::Value)?);
            Ok(())
        },
        get: |c| opt(c.budget.nodes, |n| n.to_string()),
    },
];

/// The named configurations.
pub const NAMES: &[(&str, &str)] = &[
    ("default", "the engine as shipped"),
    (
        "baseline",
        "plain UCT with uniform playouts: c = 1.414, every move once first, no solver, no tree reuse",
    ),
    (
        "random",
        "the uniformly random legal player (level=0), the reference of the levels' ratings (0 Elo)",
    ),
];

/// The help of the `level` key.
const LEVEL_HELP: &str = "a strength level: 1 is the weakest, the top the full engine, 0 the uniformly random player; below the top, one thread searches a fixed number of iterations a move from a fresh tree (a command's time only caps it) and chooses among the moves searched (`cabra engines` lists the levels and their ratings)";

impl Default for EngineConfig {
    /// The engine as shipped.
    fn default() -> Self {
        EngineConfig {
            name: "default".into(),
            search: SearchConfig::default(),
            playout: Policy::SHIPPED,
            reuse: true,
            early_stop: true,
            swindle: true,
            threads: None,
            seed: None,
            budget: Budget::UNLIMITED,
            level: None,
            temperature: 0.0,
            randomness: 0,
        }
    }
}

impl EngineConfig {
    /// Plain UCT as the first Caminos programs played it: c = sqrt(2),
    /// every move tried once before any second visit, uniform random
    /// playouts, no solver, no win-in-one check, no tree reuse, the most
    /// visited move.
    pub fn baseline() -> Self {
        EngineConfig {
            name: "baseline".into(),
            search: SearchConfig {
                uct: Uct {
                    c: std::f32::consts::SQRT_2,
                    fpu: f32::INFINITY,
                    fpu_drop: 0.0,
                },
                solver: false,
                win_check: false,
                threats: false,
                reply: false,
                endgame: false,
                prior: false,
                ..SearchConfig::default()
            },
            playout: Policy::UNIFORM,
            reuse: false,
            early_stop: false,
            swindle: false,
            ..EngineConfig::default()
        }
    }

    /// Parses `"name"`, `"key=value,..."` or a mix (applied left to
    /// right, starting from the default engine).
    ///
    /// ```
    /// use cabra::engine::EngineConfig;
    /// let c = EngineConfig::parse("baseline,c=0.5,time=200ms").unwrap();
    /// assert_eq!(c.search.uct.c, 0.5);
    /// assert!(!c.reuse);
    /// assert!(EngineConfig::parse("c=-1").is_err());
    /// assert_eq!(EngineConfig::parse("").unwrap().name, "default");
    /// assert_eq!(EngineConfig::parse(" , ,").unwrap().name, "default");
    /// ```
    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let mut cfg = EngineConfig::default();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match item.split_once('=') {
                None => {
                    cfg = match item.to_ascii_lowercase().as_str() {
                        "default" => EngineConfig::default(),
                        "baseline" => EngineConfig::baseline(),
                        "random" => {
                            let mut c = EngineConfig::default();
                            c.set_level(0).expect("level 0 is the table's first");
                            c
                        }
                        other if KEYS.iter().any(|k| k.name == other) => {
                            return Err(ConfigError::NoValue(other.to_string()));
                        }
                        other => return Err(ConfigError::UnknownName(other.to_string())),
                    };
                }
                Some((key, value)) => cfg.set(key, value).map_err(|e| ConfigError::In {
                    item: item.to_string(),
                    source: Box::new(e),
                })?,
            }
        }
        // A text of no items (`""`, `",,"`) is the default engine, and is
        // named so.
        if text.split(',').any(|item| !item.trim().is_empty()) {
            cfg.name = text.trim().to_string();
        }
        Ok(cfg)
    }

    /// Checks that every value here is one its key takes, refusing what
    /// [`EngineConfig::parse`] refuses: a configuration built or changed field by
    /// field (`c.search.uct.c = f32::NAN`) is checked where a search starts
    /// ([`crate::engine::EngineHandle::start`]). Limits of 0 are the
    /// budget's to refuse ([`Budget::check`]).
    ///
    /// ```
    /// use cabra::engine::{ConfigError, EngineConfig};
    /// let mut c = EngineConfig::parse("c=0.5").unwrap();
    /// assert_eq!(c.check(), Ok(()));
    /// c.search.uct.c = f32::NAN;
    /// assert!(matches!(c.check(), Err(ConfigError::BadValue { key: "c", .. })));
    /// ```
    pub fn check(&self) -> Result<(), ConfigError> {
        // Each of these keys writes its field's value as its setter reads
        // it, so its setter, tried on a copy, is its check (the others
        // take any value of their fields' types, load a file, or are the
        // limits, whose 0 is a BudgetError; threads past the most are
        // taken as the most, as a front end's "all cores" may ask).
        const CHECKED: [&str; 9] = [
            "level",
            "temperature",
            "randomness",
            "c",
            "fpu",
            "fpudrop",
            "threats",
            "pscore",
            "value",
        ];
        for k in KEYS.iter().filter(|k| CHECKED.contains(&k.name)) {
            let value = k.get(self);
            if value != "-" {
                (k.set)(&mut self.clone(), &value)
                    .map_err(|why| ConfigError::BadValue { key: k.name, why })?;
            }
        }
        // Past the most threads is taken as the most, but none is refused.
        if self.threads == Some(0) {
            return Err(ConfigError::BadValue {
                key: "threads",
                why: KeyValueError::Value(parse_threads("0").expect_err("0 threads is refused")),
            });
        }
        if self.search.node_cap == 0 {
            return Err(ConfigError::BadValue {
                key: "node_cap",
                why: out_of_range("0", "a node cap", 1, usize::MAX as u64),
            });
        }
        Ok(())
    }

    /// Makes this the engine of level `n` ([`levels::LEVELS`]): the top
    /// level is the default engine (from a lower level, its threads are
    /// left to the front end again); below it, one thread without a kept
    /// tree, swindle or early stop, and the level's move choice (its
    /// iterations are kept in the level: see [`EngineConfig::fixed_level`]).
    /// Keys set later change what they set. A level past the top is
    /// refused, as `level=N` refuses it, and changes nothing.
    pub fn set_level(&mut self, n: u8) -> Result<(), KeyValueError> {
        let Some(level) = levels::Level::get(n) else {
            return Err(out_of_range(
                &n.to_string(),
                "a level",
                0,
                levels::TOP.into(),
            ));
        };
        let was_fixed = self.fixed_level().is_some();
        self.level = Some(n);
        self.temperature = level.temperature;
        self.randomness = level.randomness;
        if level.is_top() {
            if was_fixed {
                // Back to the full engine: what the level set goes back to
                // the default (the threads to the front end's).
                let full = EngineConfig::default();
                self.threads = None;
                self.reuse = full.reuse;
                self.swindle = full.swindle;
                self.early_stop = full.early_stop;
            }
            return Ok(());
        }
        self.threads = Some(1);
        self.reuse = false;
        self.swindle = false;
        self.early_stop = false;
        Ok(())
    }

    /// The level below the top this engine plays, if any.
    pub fn fixed_level(&self) -> Option<&'static levels::Level> {
        self.level
            .and_then(levels::Level::get)
            .filter(|l| !l.is_top())
    }

    /// Sets one key (see [`KEYS`]).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        // The field's name with its underscores reads as the key.
        let key = key.trim().to_ascii_lowercase().replace('_', "");
        let Some(k) = KEYS.iter().find(|k| k.name == key) else {
            return Err(ConfigError::UnknownKey(key));
        };
        (k.set)(self, value.trim()).map_err(|why| ConfigError::BadValue { key: k.name, why })
    }

    /// Every key with its value here, as a configuration string. Keys left
    /// open (limits left to the caller, no level) are shown as `key=-`,
    /// which does not parse: without them, the string parses back to the
    /// same engine.
    pub fn describe(&self) -> String {
        KEYS.iter()
            .map(|k| format!("{}={}", k.name, k.get(self)))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Why an engine configuration (`"default,c=0.3"`) or a key's value was
/// refused; the message names what is accepted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A key written without its value (`c` for `c=0.3`).
    #[error("'{0}' is a key: give it a value, e.g. {0}={value}", value = default_value(.0))]
    NoValue(String),
    /// A word that is neither a named configuration nor a key.
    #[error(
        "unknown configuration '{0}'{hint} (named ones: {names}; or key=value with keys {keys})",
        hint = suggest(.0),
        names = NAMES.iter().map(|n| n.0).collect::<Vec<_>>().join(", "),
        keys = key_names()
    )]
    UnknownName(String),
    /// A key that does not exist.
    #[error("unknown key '{0}'{hint} (keys: {keys})", hint = suggest(.0), keys = key_names())]
    UnknownKey(String),
    /// A value the key does not take. The message names the key; its
    /// [`std::error::Error::source`], `why`, says what is wrong with the
    /// value (print the chain of causes, as anyhow's `{:#}` does).
    #[error("cannot set {key}{note}", note = value_note(key))]
    BadValue {
        /// The key.
        key: &'static str,
        /// Why, and what the key takes instead.
        #[source]
        why: KeyValueError,
    },
    /// The error of one `key=value` item of a configuration. The message
    /// names the item; its [`std::error::Error::source`] says why it was
    /// refused.
    #[error("in '{item}'")]
    In {
        /// The item as written.
        item: String,
        /// Why it was refused.
        source: Box<ConfigError>,
    },
}

/// What a refused value of `key` adds: where its values are listed.
fn value_note(key: &str) -> &'static str {
    match key {
        "level" => " (`cabra engines` lists the levels)",
        _ => "",
    }
}

/// A key's value in the default engine.
/// The default engine's value of `key`, or what the key takes (`0-N`)
/// where the default leaves it open.
fn default_value(key: &str) -> String {
    KEYS.iter()
        .find(|k| k.name == key)
        .map_or(String::new(), |k| match k.get(&EngineConfig::default()) {
            open if open == "-" => k.value.to_string(),
            value => value,
        })
}

fn key_names() -> String {
    KEYS.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
}

/// ` (did you mean 'x'?)` for a near miss among the names and keys.
fn suggest(word: &str) -> String {
    let candidates = NAMES.iter().map(|n| n.0).chain(KEYS.iter().map(|k| k.name));
    candidates
        .map(|c| (strsim::levenshtein(word, c), c))
        .filter(|&(d, c)| d <= 2 && d < c.len())
        .min()
        .map_or(String::new(), |(_, c)| format!(" (did you mean '{c}'?)"))
}

#[cfg(test)]
mod tests;
