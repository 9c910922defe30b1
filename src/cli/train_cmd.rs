//! `cabra train`: fit the learnt evaluation to the games recorded by
//! `selfplay --out` (or `match --out`), and write a weights file that
//! `weights=FILE` reads and `weights/value.bin` builds in.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use cabra::engine::value::train::{self, Sample, TrainConfig};
use cabra::engine::value::{self, format};
use cabra::game::{Move, Rules, parse_move};

use super::match_cmd::records::{FORMAT, ResultRecord};
use super::shards::{jsonl, records_file};

/// Arguments of `cabra train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Folders written by `selfplay --out` or `match --out` (their
    /// results.jsonl), shards included.
    #[arg(long, num_args = 1.., required = true, value_name = "DIR")]
    pub data: Vec<PathBuf>,
    /// Where to write the weights.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Replace --out if it exists.
    #[arg(long)]
    pub force: bool,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Adam's step size (above 0).
    #[arg(long, default_value_t = 0.002, value_parser = parse_rate)]
    pub rate: f32,
    /// Seed of the initial weights, the order and the symmetries.
    #[arg(long, default_value_t = 1, value_parser = super::options::parse_seed)]
    pub seed: u64,
    /// Start from these weights (`builtin` or a file) instead of random ones.
    #[arg(long, value_name = "FILE")]
    pub from: Option<String>,
    /// Hold out every Nth game to measure the loss on: 0 (none) or 2 and
    /// more.
    #[arg(long, default_value_t = 10)]
    pub holdout: usize,
    /// How much of a position's label is the search's estimate where the
    /// record has one (self-play records), the rest the game's result: 0
    /// to 1.
    #[arg(long, default_value_t = 0.0, value_parser = parse_share)]
    pub search_weight: f32,
}

fn parse_share(v: &str) -> Result<f32, String> {
    match v.parse::<f32>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("'{v}' is not a number from 0 to 1")),
    }
}

fn parse_rate(v: &str) -> Result<f32, String> {
    match v.parse::<f32>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("'{v}' is not a step size (a number above 0)")),
    }
}

/// The moves of a record's placement line: `"260 360 450 460  # L T180 250"`.
fn record_moves(r: &ResultRecord) -> Result<Vec<Move>, String> {
    r.placements
        .iter()
        .map(|t| {
            let text = t.split('#').next().unwrap_or("").trim();
            parse_move(text).map_err(|e| format!("'{text}': {e}"))
        })
        .collect()
}

/// Runs `cabra train`.
pub fn run(args: &TrainArgs) -> anyhow::Result<()> {
    // A reader of the progress that goes away (`| head`) must not end a
    // long run before its weights are written.
    super::signals::ignore_broken_pipes();
    if args.out.exists() && !args.force {
        bail!("{} exists; add --force to replace it", args.out.display());
    }
    super::save::check(&args.out)?;
    if args.epochs == 0 || args.batch == 0 {
        bail!("--epochs and --batch must be at least 1");
    }
    if args.holdout == 1 {
        bail!("--holdout 1 would hold out every game: give 0 (none) or 2 and more");
    }
    let start = Instant::now();
    let files = data_files(&args.data, &args.out)?;
    let (mut train_set, mut valid_set) = (Vec::<Sample>::new(), Vec::<Sample>::new());
    let (mut games, mut skipped, mut estimated) = (0usize, 0usize, 0usize);
    // A game recorded in two folders (a whole run and its shards, a copy)
    // trains once, as a merge counts it once.
    let mut seen = std::collections::HashSet::new();
    let mut twice = 0usize;
    let mut all = Vec::new();
    for path in &files {
        let (records, complete) =
            jsonl::read_numbered_lines::<ResultRecord>(path, "a game record")?;
        if std::fs::metadata(path).is_ok_and(|m| m.len() > complete) {
            eprintln!(
                "note: {} ends in a part of a line (a run cut short?), left out",
                path.display()
            );
        }
        for (line, r) in records {
            all.push((serde_json::to_string(&r.header)?, path, line, r));
        }
    }
    // Records come in the order the games ended, which differs from run to
    // run, and in the order of the folders given: by run and game number,
    // the same games train the same weights however they were split into
    // shards and folders.
    all.sort_by(|a, b| (&a.0, a.3.game).cmp(&(&b.0, b.3.game)));
    for (header, path, line, r) in &all {
        let at = || format!("{} line {line} (game {})", path.display(), r.game);
        if !seen.insert((header.clone(), r.game)) {
            twice += 1;
            continue;
        }
        if r.header.format > FORMAT {
            bail!(
                "{}: records of format {}; this build reads formats up to {FORMAT}",
                at(),
                r.header.format
            );
        }
        let rules: Rules = r
            .header
            .rules
            .parse()
            .map_err(|e| anyhow::anyhow!("{}: rules '{}': {e}", at(), r.header.rules))?;
        let moves = record_moves(r).map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
        // One search entry a placement after the opening: a list cut
        // short or grown would give positions another's estimate.
        let searched = r.placements.len().saturating_sub(r.opening.len());
        if !r.search.is_empty() && r.search.len() != searched {
            bail!(
                "{}: {} search entries for {searched} placements after the opening",
                at(),
                r.search.len()
            );
        }
        let samples = train::samples_of_game(rules, &moves).map_err(|e| {
            let text = r.placements.get(e.number - 1).map_or("", |t| t.trim());
            anyhow::anyhow!("{}: {e} ('{text}')", at())
        })?;
        // A forfeit or an adjudication ends a game the moves do not.
        let Some(mut samples) = samples else {
            skipped += 1;
            continue;
        };
        if args.search_weight > 0.0 {
            // The searches start after the opening, one per placement.
            let w = args.search_weight;
            for (s, n) in samples.iter_mut().skip(r.opening.len()).zip(&r.search) {
                if let Some(n) = n {
                    if !(0.0..=1.0).contains(&n.winrate) {
                        bail!(
                            "{}: a search estimate of {} is not from 0 to 1",
                            at(),
                            n.winrate
                        );
                    }
                    s.target = (1.0 - w) * s.target + w * n.winrate as f32;
                    estimated += 1;
                }
            }
        }
        games += 1;
        // Held out by number, not by place in the file.
        if args.holdout > 0 && r.game % args.holdout == 0 {
            valid_set.extend(samples);
        } else {
            train_set.extend(samples);
        }
    }
    if train_set.is_empty() {
        bail!("no finished games to train on in the --data folders");
    }
    if args.search_weight > 0.0 && estimated == 0 {
        eprintln!(
            "note: --search-weight {} weighs nothing: no record holds the search's estimates \
             (selfplay --out writes them, match --out does not), so every label is the game's result",
            args.search_weight
        );
    }
    if twice > 0 {
        eprintln!(
            "note: {twice} games recorded twice (the same match and game number) trained once"
        );
    }
    let mut out = Progress::default();
    out.line(format_args!(
        "{games} games to learn from ({skipped} more not finished on the board, left out): {} positions to train on, {} held out",
        train_set.len(),
        valid_set.len()
    ));
    let init = match args.from.as_deref() {
        None => None,
        Some("builtin") => Some(value::builtin().context("the built-in weights are damaged")?),
        Some(f) => Some(value::load(std::path::Path::new(f))?),
    };
    let config = TrainConfig {
        epochs: args.epochs,
        batch: args.batch,
        rate: args.rate,
        seed: args.seed,
    };
    let held = !valid_set.is_empty();
    // The lowest held-out loss so far: epoch 0 is the starting weights.
    let mut best: Option<(usize, f64)> = None;
    if let (Some(net), true) = (init, held) {
        // What fine-tuning starts from, to compare its epochs with.
        let (loss, accuracy) = train::evaluate(&net.params(), &valid_set);
        out.line(format_args!(
            "before training: held out {loss:.4} (winner named in {:.1}%)",
            100.0 * accuracy
        ));
        best = Some((0, loss));
    }
    let mut epoch_start = Instant::now();
    let params = train::train(&train_set, &valid_set, config, init, |e| {
        let seconds = epoch_start.elapsed().as_secs_f64();
        epoch_start = Instant::now();
        if held {
            out.line(format_args!(
                "epoch {}/{}: loss {:.4}, held out {:.4} (winner named in {:.1}%), {seconds:.1} s",
                e.number,
                args.epochs,
                e.train_loss,
                e.valid_loss,
                100.0 * e.valid_accuracy
            ));
            if best.is_none_or(|(_, b)| e.valid_loss < b) {
                best = Some((e.number, e.valid_loss));
            }
        } else {
            out.line(format_args!(
                "epoch {}/{}: loss {:.4}, {seconds:.1} s",
                e.number, args.epochs, e.train_loss
            ));
        }
    })
    .with_context(|| format!("{} is not written", args.out.display()))?;
    if let Some((0, loss)) = best {
        out.line(format_args!(
            "the held-out loss was lowest before training ({loss:.4}): no epoch improved on \
             the starting weights, and the weights written are the last epoch's"
        ));
    } else if let Some((number, loss)) = best.filter(|&(n, _)| n < args.epochs) {
        // The last epoch's weights are written: say when an earlier one
        // did better on the held-out games, so that a rerun can stop there.
        out.line(format_args!(
            "the held-out loss was lowest after epoch {number} ({loss:.4}); \
             the weights written are the last epoch's (--epochs {number} would stop there)"
        ));
    }
    let bytes = format::encode(&params)?;
    super::save::save_atomically(&args.out, &bytes)?;
    out.line(format_args!(
        "wrote {} (format version {}, checksum {}) in {:.1} s",
        args.out.display(),
        format::VERSION,
        format::checksum_hex(&bytes),
        start.elapsed().as_secs_f64()
    ));
    Ok(())
}

/// The records file of each `--data` folder, each once, none of them
/// `out` (which `--force` would replace).
fn data_files(dirs: &[PathBuf], out: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        match std::fs::metadata(dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                bail!("{}: there is no such folder", dir.display())
            }
            Err(e) => return Err(super::files::io_error("read", dir, &e)),
            Ok(m) if !m.is_dir() => bail!(
                "{} is not a folder (give the folder of a results.jsonl)",
                dir.display()
            ),
            Ok(_) => {}
        }
        let path = records_file(dir);
        match std::fs::metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                bail!("{} holds no {}", dir.display(), super::shards::RECORDS)
            }
            Err(e) => return Err(super::files::io_error("read", &path, &e)),
            Ok(_) => {}
        }
        if files.iter().any(|f| same(f, &path)) {
            bail!("{} is given twice in --data", dir.display());
        }
        if same(&path, out) {
            bail!("--out {} is the training data itself", out.display());
        }
        files.push(path);
    }
    Ok(files)
}

/// Training's progress on standard output. A line that cannot be written
/// (a full disk, a closed pipe) does not end the run: one warning, and the
/// weights are still written.
#[derive(Default)]
struct Progress {
    failed: bool,
}

impl Progress {
    fn line(&mut self, args: std::fmt::Arguments) {
        use std::io::Write;
        if self.failed {
            return;
        }
        if let Err(e) = writeln!(std::io::stdout(), "{args}") {
            self.failed = true;
            eprintln!("cabra: cannot write the progress ({e}); training goes on");
        }
    }
}
