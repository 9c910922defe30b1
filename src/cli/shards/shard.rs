//! `--shard INDEX/COUNT`: the part of a piece of work one process does.
//!
//! INDEX counts from 0 (as Kubernetes' `JOB_COMPLETION_INDEX` does, and
//! Slurm's `SLURM_ARRAY_TASK_ID` with `--array=0-N`). The items of a
//! collection (`analyze`) are dealt one by one: item `i` (from 0) falls to
//! shard `i mod COUNT` ([`Shard::owns_item`]). The games of a match come in
//! pairs (one opening, each colour once): pair `p` (games `2p` and `2p + 1`,
//! from 0) falls to shard `p mod COUNT`, so every shard plays whole pairs
//! and its own score is a fair partial result, and the COUNT shards
//! together play every game of the match once.

use std::fmt;

/// One shard of a match or of a collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: u32,
    /// How many shards the match is cut into.
    pub count: u32,
}

impl Shard {
    /// The whole match as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Reads `INDEX/COUNT` with `0 <= INDEX < COUNT`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let want = "--shard wants INDEX/COUNT with INDEX from 0 to COUNT-1, e.g. 0/8";
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| format!("'{text}': {want}"))?;
        let (Ok(index), Ok(count)) = (i.trim().parse::<u32>(), n.trim().parse::<u32>()) else {
            return Err(format!("'{text}': {want}"));
        };
        if count == 0 {
            return Err(format!("'{text}': COUNT must be at least 1"));
        }
        if index >= count {
            return Err(format!(
                "'{text}': INDEX counts from 0, so it must be below {count}"
            ));
        }
        Ok(Shard { index, count })
    }

    /// Whether game `g` (from 0) falls to this shard.
    pub fn owns(&self, g: usize) -> bool {
        (g / 2) % self.count as usize == self.index as usize
    }

    /// Whether item `i` (from 0) of a collection falls to this shard.
    pub fn owns_item(&self, i: usize) -> bool {
        i % self.count as usize == self.index as usize
    }

    /// The games of a match of `games` games this shard plays, from 0.
    pub fn games(&self, games: usize) -> Vec<usize> {
        (0..games).filter(|&g| self.owns(g)).collect()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_game_once_in_whole_pairs() {
        for count in 1..=7 {
            let mut seen = vec![0; 23];
            for index in 0..count {
                let s = Shard { index, count };
                for g in s.games(23) {
                    seen[g] += 1;
                    // A pair stays together.
                    assert!(s.owns(g ^ 1));
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "{count}: {seen:?}");
        }
        assert_eq!(Shard::parse("2/3").unwrap().games(12), [4, 5, 10, 11]);
        let s = Shard::parse("1/3").unwrap();
        let items: Vec<usize> = (0..8).filter(|&i| s.owns_item(i)).collect();
        assert_eq!(items, [1, 4, 7]);
    }

    #[test]
    fn bad_shards_are_refused_with_the_reason() {
        assert_eq!(
            Shard::parse(" 0 / 8").unwrap(),
            Shard { index: 0, count: 8 }
        );
        assert_eq!(Shard::parse("7/8").unwrap().to_string(), "7/8");
        let e = Shard::parse("8/8").unwrap_err();
        assert!(e.contains("counts from 0"), "{e}");
        assert!(Shard::parse("0/0").unwrap_err().contains("at least 1"));
        for bad in ["", "1", "1/", "/2", "-1/2", "a/b", "1/2/3"] {
            assert!(
                Shard::parse(bad).unwrap_err().contains("INDEX/COUNT"),
                "{bad}"
            );
        }
    }
}
