//! The learnt evaluation: a small network that says how likely the side to
//! move is to win, from the cubes on the board and the pieces left
//! ([`features`]). The search asks it in place of a playout for a share of
//! its new leaves (`value=` in the configuration).
//!
//! One hidden layer of [`HIDDEN`] rectified units over the sparse inputs:
//! a position turns on at most [`features::MAX_ACTIVE`] of the
//! [`features::INPUTS`], so the first layer is a sum of that many rows, as
//! in NNUE. Trained by `cabra train` on self-play records; the weights
//! built in are `weights/value.bin` ([`mod@format`]).

pub mod features;
pub mod format;
// The training behind `cabra train`: the program's, not the library's
// (absent without the `cli` feature, and not in the documentation).
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod train;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

use crate::game::Position;
use features::INPUTS;
use format::WeightsError;

/// Hidden units of the network.
pub const HIDDEN: usize = 32;

/// A trained evaluation.
pub struct Net {
    /// First layer: one row of [`HIDDEN`] weights per input.
    w1: Box<[[f32; HIDDEN]]>,
    b1: [f32; HIDDEN],
    w2: [f32; HIDDEN],
    b2: f32,
    /// Where it came from (`builtin` or the file), for reports.
    source: String,
    /// The checksum its file ends with (16 hex digits), when read from one.
    checksum: Option<String>,
}

impl std::fmt::Debug for Net {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Net({})", self.source)
    }
}

impl Net {
    /// The network of the weights in `params` (in [`mod@format`]'s order).
    ///
    /// # Panics
    ///
    /// When `params` does not hold [`format::PARAMS`] weights (this
    /// build's shape); [`mod@format`] reads a weights file with its checks.
    pub fn from_params(params: &[f32], source: &str) -> Net {
        assert_eq!(
            params.len(),
            format::PARAMS,
            "weights of this build's shape"
        );
        let (first, rest) = params.split_at(INPUTS * HIDDEN);
        let w1 = first
            .chunks_exact(HIDDEN)
            .map(|r| r.try_into().expect("a row"))
            .collect();
        Net {
            w1,
            b1: rest[..HIDDEN].try_into().expect("biases"),
            w2: rest[HIDDEN..2 * HIDDEN].try_into().expect("output weights"),
            b2: rest[2 * HIDDEN],
            source: source.to_string(),
            checksum: None,
        }
    }

    /// The network in a weights file's bytes.
    pub fn from_bytes(bytes: &[u8], source: &str) -> Result<Net, WeightsError> {
        let net = Net::from_params(&format::decode(bytes)?, source);
        Ok(Net {
            checksum: Some(format::checksum_hex(bytes)),
            ..net
        })
    }

    /// The checksum of the file the weights were read from (16 hex
    /// digits, as `cabra train` prints it).
    pub fn checksum(&self) -> Option<&str> {
        self.checksum.as_deref()
    }

    /// The weights in the file format's order.
    pub fn params(&self) -> Vec<f32> {
        let mut p: Vec<f32> = self.w1.iter().flatten().copied().collect();
        p.extend_from_slice(&self.b1);
        p.extend_from_slice(&self.w2);
        p.push(self.b2);
        p
    }

    /// Where the weights came from: `builtin` or a file name.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The first layer's sum for `pos` (seen from its side to move, under
    /// symmetry `t`), before the rectifier.
    #[inline]
    fn accumulate(&self, pos: &Position, t: usize) -> [f32; HIDDEN] {
        let mut acc = self.b1;
        features::for_each_active(pos, t, |i| {
            let row = &self.w1[i];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        });
        acc
    }

    /// How likely the side to move in `pos` is to win, 0 to 1 (a draw
    /// counting half). Allocation-free.
    #[inline]
    pub fn value(&self, pos: &Position) -> f32 {
        let acc = self.accumulate(pos, 0);
        let mut out = self.b2;
        for (a, w) in acc.iter().zip(&self.w2) {
            out += a.max(0.0) * w;
        }
        1.0 / (1.0 + (-out).exp())
    }
}

/// The weights built into the binary.
static BUILTIN_BYTES: &[u8] = include_bytes!("../../../weights/value.bin");

static BUILTIN: LazyLock<Option<Net>> =
    LazyLock::new(|| Net::from_bytes(BUILTIN_BYTES, "builtin").ok());

/// The built-in network (`None` only if the built-in file were damaged,
/// which a test rules out: the engine then plays without it).
pub fn builtin() -> Option<&'static Net> {
    BUILTIN.as_ref()
}

/// Networks loaded from files, once each, for the life of the process.
static LOADED: LazyLock<Mutex<HashMap<PathBuf, &'static Net>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// Why the weights file at a path could not be loaded ([`load`]). The
/// message names the path; its [`std::error::Error::source`] is the
/// [`std::io::Error`] or the [`WeightsError`], which says why (print the
/// chain of causes, as anyhow's `{:#}` does).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be read.
    Read {
        /// The path given.
        path: PathBuf,
        /// What reading it said (shared, so that the error can be cloned).
        error: Arc<std::io::Error>,
    },
    /// The file was read but holds no weights this build can use.
    Weights {
        /// The path given.
        path: PathBuf,
        /// What is wrong with its bytes.
        error: WeightsError,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Read { path, .. } => write!(f, "cannot read '{}'", path.display()),
            LoadError::Weights { path, .. } => {
                write!(
                    f,
                    "'{}' holds no weights this build can use",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Read { error, .. } => Some(&**error),
            LoadError::Weights { error, .. } => Some(error),
        }
    }
}

impl PartialEq for LoadError {
    /// The same path and the same failure (a read error by its kind).
    fn eq(&self, other: &LoadError) -> bool {
        match (self, other) {
            (LoadError::Read { path: a, error: e }, LoadError::Read { path: b, error: f }) => {
                a == b && e.kind() == f.kind()
            }
            (
                LoadError::Weights { path: a, error: e },
                LoadError::Weights { path: b, error: f },
            ) => a == b && e == f,
            _ => false,
        }
    }
}

impl Eq for LoadError {}

/// The network in the weights file at `path`, read once per process.
pub fn load(path: &Path) -> Result<&'static Net, LoadError> {
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(net) = loaded.get(path) {
        return Ok(net);
    }
    let bytes = read_capped(path).map_err(|e| LoadError::Read {
        path: path.to_path_buf(),
        error: Arc::new(e),
    })?;
    let net =
        Net::from_bytes(&bytes, &path.display().to_string()).map_err(|e| LoadError::Weights {
            path: path.to_path_buf(),
            error: e,
        })?;
    // Kept for the process's life: a configuration is copied into every
    // search, and the weights are read-only.
    let net: &'static Net = Box::leak(Box::new(net));
    loaded.insert(path.to_path_buf(), net);
    Ok(net)
}

/// The bytes of `path`, but no more than one past a weights file's size:
/// a path to an endless stream (`/dev/zero`) or a huge file is refused as
/// too long, not read into memory.
fn read_capped(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(format::SIZE as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Which weights a configuration uses.
#[derive(Clone, Copy, Debug)]
pub enum Weights {
    /// The built-in weights.
    Builtin,
    /// Weights read from a file ([`load`]).
    File(&'static Net),
}

impl Weights {
    /// The network, if there is one.
    #[inline]
    pub fn net(self) -> Option<&'static Net> {
        match self {
            Weights::Builtin => builtin(),
            Weights::File(n) => Some(n),
        }
    }

    /// `builtin` or the file's name, as the configuration writes it.
    pub fn name(self) -> String {
        match self {
            Weights::Builtin => "builtin".to_string(),
            Weights::File(n) => n.source.clone(),
        }
    }

    /// What names these weights whatever path they were read by: the
    /// file's checksum (`fnv64 HASH`), or `builtin` (the build names them).
    pub fn identity(self) -> String {
        match self {
            Weights::Builtin => "builtin".to_string(),
            Weights::File(n) => format!("fnv64 {}", n.checksum().unwrap_or("-")),
        }
    }
}

impl PartialEq for Weights {
    fn eq(&self, other: &Weights) -> bool {
        match (self, other) {
            (Weights::Builtin, Weights::Builtin) => true,
            (Weights::File(a), Weights::File(b)) => std::ptr::eq(*a, *b),
            _ => false,
        }
    }
}

impl Eq for Weights {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::playout::Policy;
    use crate::search::Game;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn the_builtin_weights_load_and_give_probabilities() {
        let net = builtin().expect("weights/value.bin is a valid weights file");
        assert_eq!(net.source(), "builtin");
        let v = net.value(&Position::new());
        assert!((0.0..=1.0).contains(&v), "{v}");
        // The file round-trips through the format.
        let again = Net::from_params(&net.params(), "again");
        assert_eq!(again.value(&Position::new()), v);
    }

    #[test]
    fn weights_from_a_file_are_named_by_their_checksum() {
        let bytes = BUILTIN_BYTES;
        let net: &'static Net = Box::leak(Box::new(Net::from_bytes(bytes, "w.bin").unwrap()));
        let sum = format::checksum_hex(bytes);
        assert_eq!(net.checksum(), Some(sum.as_str()));
        assert_eq!(Weights::File(net).identity(), format!("fnv64 {sum}"));
        assert_eq!(Weights::Builtin.identity(), "builtin");
    }

    #[test]
    fn leaves_are_valued_at_the_configured_share_with_the_nets_mean() {
        let pos = Position::new();
        let net = builtin().unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let count = |value: u8, rng: &mut Xoshiro256PlusPlus| {
            let policy = Policy {
                value,
                ..Policy::SHIPPED
            };
            let (mut valued, mut doubled) = (0, 0);
            for _ in 0..4000 {
                if let Some(o) = pos.evaluate(&policy, rng) {
                    valued += 1;
                    doubled += o.doubled_for(0) as usize;
                }
            }
            (valued, doubled)
        };
        assert_eq!(count(0, &mut rng).0, 0);
        let (valued, doubled) = count(100, &mut rng);
        assert_eq!(valued, 4000);
        let share = doubled as f32 / 8000.0;
        assert!(
            (share - net.value(&pos)).abs() < 0.04,
            "{share} against {}",
            net.value(&pos)
        );
        let (valued, _) = count(30, &mut rng);
        assert!((1000..1400).contains(&valued), "{valued} of 4000 at 30%");
    }
}
