//! The weights file: what a trained evaluation is stored as, in the
//! binary and on disk.
//!
//! Little-endian throughout: the 8 bytes `CABRAVAL`, the format version
//! ([`VERSION`], u32), the number of inputs and of hidden units (u32 each),
//! then the weights as f32 (first layer input by input, its biases, the
//! output weights, the output bias), and last the 64-bit FNV-1a checksum
//! of every byte before it.

use thiserror::Error;

use super::HIDDEN;
use super::features::INPUTS;

/// The first bytes of a weights file.
pub const MAGIC: &[u8; 8] = b"CABRAVAL";

/// The version of the format and of the inputs it is trained on; a file
/// of another version is refused.
pub const VERSION: u32 = 2;

const HEADER: usize = 8 + 4 + 4 + 4;

/// The size in bytes of a weights file of this build's shape.
pub const SIZE: usize = HEADER + 4 * PARAMS + 8;

/// Why a weights file cannot be read.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum WeightsError {
    /// No bytes at all.
    #[error("the file is empty")]
    Empty,
    /// It does not start with [`MAGIC`].
    #[error("not a Cabra weights file (it does not start with CABRAVAL)")]
    NotWeights,
    /// It ends inside its header.
    #[error("the file ends after {found} bytes, inside its header: it is cut short")]
    Truncated {
        /// Bytes found.
        found: usize,
    },
    /// Another format version.
    #[error("weights of format version {found}; this build reads version {VERSION}")]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// Other sizes than this build's evaluation.
    #[error(
        "weights for {inputs} inputs and {hidden} hidden units; this build has {INPUTS} and {HIDDEN}"
    )]
    Shape {
        /// The inputs in the file.
        inputs: u32,
        /// The hidden units in the file.
        hidden: u32,
    },
    /// Fewer bytes than the header says.
    #[error("the file ends after {found} bytes where its header says {expected}: it is cut short")]
    Length {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// More bytes than the header says.
    #[error("the file is longer than the {expected} bytes its header says")]
    TooLong {
        /// Bytes expected.
        expected: usize,
    },
    /// The checksum does not match: the file is damaged.
    #[error("the checksum does not match: the file is damaged")]
    Checksum,
    /// A weight is not a finite number (written by a run that diverged).
    #[error("weight {index} is not a finite number: the weights are unusable")]
    NotFinite {
        /// Its index among the weights.
        index: usize,
    },
    /// Weights to write that are not as many as this build's evaluation
    /// has ([`PARAMS`]).
    #[error("{found} weights to write; this build's evaluation has {PARAMS}")]
    Count {
        /// The weights given.
        found: usize,
    },
}

/// 64-bit FNV-1a.
pub fn fnv64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The checksum that the weights file `bytes` ends with, as 16 hex
/// digits (what `cabra train` prints when it writes one).
pub fn checksum_hex(bytes: &[u8]) -> String {
    let tail = &bytes[bytes.len().saturating_sub(8)..];
    let mut sum = [0u8; 8];
    sum[..tail.len()].copy_from_slice(tail);
    format!("{:016x}", u64::from_le_bytes(sum))
}

/// How many f32 the weights are.
pub const PARAMS: usize = INPUTS * HIDDEN + HIDDEN + HIDDEN + 1;

/// The bytes of a file holding `params` (in the order of the format), or
/// [`WeightsError::Count`] when they are not [`PARAMS`] weights.
pub fn encode(params: &[f32]) -> Result<Vec<u8>, WeightsError> {
    if params.len() != PARAMS {
        return Err(WeightsError::Count {
            found: params.len(),
        });
    }
    let mut out = Vec::with_capacity(HEADER + 4 * PARAMS + 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
    out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
    for p in params {
        out.extend_from_slice(&p.to_le_bytes());
    }
    let sum = fnv64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    Ok(out)
}

/// The weights in `bytes`, checked.
pub fn decode(bytes: &[u8]) -> Result<Vec<f32>, WeightsError> {
    if bytes.is_empty() {
        return Err(WeightsError::Empty);
    }
    let magic = &bytes[..bytes.len().min(8)];
    if magic != &MAGIC[..magic.len()] {
        return Err(WeightsError::NotWeights);
    }
    if bytes.len() < HEADER {
        return Err(WeightsError::Truncated { found: bytes.len() });
    }
    let word = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    let found = word(8);
    if found != VERSION {
        return Err(WeightsError::Version { found });
    }
    let (inputs, hidden) = (word(12), word(16));
    if inputs as usize != INPUTS || hidden as usize != HIDDEN {
        return Err(WeightsError::Shape { inputs, hidden });
    }
    let expected = SIZE;
    if bytes.len() < expected {
        return Err(WeightsError::Length {
            expected,
            found: bytes.len(),
        });
    }
    if bytes.len() > expected {
        return Err(WeightsError::TooLong { expected });
    }
    let (body, sum) = bytes.split_at(expected - 8);
    if fnv64(body).to_le_bytes() != sum {
        return Err(WeightsError::Checksum);
    }
    let params: Vec<f32> = body[HEADER..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    if let Some(index) = params.iter().position(|p| !p.is_finite()) {
        return Err(WeightsError::NotFinite { index });
    }
    Ok(params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_trip_and_damage_is_found() {
        let params: Vec<f32> = (0..PARAMS).map(|i| i as f32 * 0.001).collect();
        let bytes = encode(&params).unwrap();
        assert_eq!(decode(&bytes).unwrap(), params);
        assert_eq!(
            encode(&params[1..]),
            Err(WeightsError::Count { found: PARAMS - 1 })
        );
        let mut bad = bytes.clone();
        bad[HEADER + 5] ^= 1;
        assert_eq!(decode(&bad), Err(WeightsError::Checksum));
        let mut old = bytes.clone();
        old[8] = 9;
        assert_eq!(decode(&old), Err(WeightsError::Version { found: 9 }));
        assert_eq!(decode(b"hello"), Err(WeightsError::NotWeights));
        let mut nan = params.clone();
        nan[7] = f32::NAN;
        assert_eq!(
            decode(&encode(&nan).unwrap()),
            Err(WeightsError::NotFinite { index: 7 })
        );
        assert!(matches!(
            decode(&bytes[..bytes.len() - 1]),
            Err(WeightsError::Length { .. })
        ));
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(decode(&long), Err(WeightsError::TooLong { expected: SIZE }));
        assert_eq!(decode(b""), Err(WeightsError::Empty));
        assert_eq!(decode(b"CABRA"), Err(WeightsError::Truncated { found: 5 }));
        assert_eq!(
            decode(&bytes[..12]),
            Err(WeightsError::Truncated { found: 12 })
        );
        assert_eq!(
            checksum_hex(&bytes),
            format!("{:016x}", fnv64(&bytes[..SIZE - 8]))
        );
    }
}
