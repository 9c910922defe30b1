//! `cabra`: the command-line program. Subcommands only; the work is in the
//! library (`cabra::game`, `cabra::search`, `cabra::engine`) and in `cli/`.

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Cabra: an engine for the 3D connection game Caminos (Bridget).
#[derive(Parser, Debug)]
#[command(
    name = "cabra",
    version = env!("CABRA_VERSION_LINE"),
    about,
    propagate_version = true,
    // An option given twice counts its last value, as in most tools, so
    // that scripts may append options to a user's.
    args_override_self = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Validate a .caminos game file and print how the game stands.
    #[command(allow_negative_numbers = true)]
    Check(cli::check::CheckArgs),
    /// Print the final position of a .caminos game file.
    #[command(allow_negative_numbers = true)]
    Show(cli::show::ShowArgs),
    /// Count legal placement sequences of a given length (move generator check).
    #[command(allow_negative_numbers = true)]
    Perft(cli::perft_cmd::PerftArgs),
    /// Measure speed: random games, or the search by thread count.
    #[command(allow_negative_numbers = true)]
    Bench(cli::bench::BenchArgs),
    /// Search a position (the end of a .caminos file, or the empty board) and report the best move.
    #[command(allow_negative_numbers = true)]
    Search(cli::search_cmd::SearchArgs),
    /// Play a game in an interactive session, against the engine or not (see docs/PLAY.md).
    #[command(allow_negative_numbers = true)]
    Play(cli::play::PlayArgs),
    /// Analyze a game: the engine's view of every placement, marking mistakes.
    #[command(allow_negative_numbers = true)]
    Analyze(cli::analyze::AnalyzeArgs),
    /// A JSON-lines analysis engine for scripts: one query per line in, one answer per analyzed turn out (see docs/PROTOCOL.md).
    #[command(allow_negative_numbers = true)]
    Analysis(cli::analysis_cmd::AnalysisArgs),
    /// Play games between two engine configurations or programs and report the score and Elo (see docs/STRENGTH.md, docs/PROTOCOL.md).
    #[command(allow_negative_numbers = true)]
    Match(Box<cli::match_cmd::MatchArgs>),
    /// Write engine-vs-engine games for study.
    #[command(allow_negative_numbers = true)]
    Selfplay(cli::match_cmd::SelfplayArgs),
    /// Train the learnt evaluation on recorded games and write its weights (see docs/TRAINING.md).
    #[command(allow_negative_numbers = true)]
    Train(cli::train_cmd::TrainArgs),
    /// Count the tactical test positions (win in one, must-block, win in two) an engine solves.
    #[command(allow_negative_numbers = true)]
    Tactics(cli::tactics_cmd::TacticsArgs),
    /// Play and analyze games in the browser: a local web server (see docs/API.md).
    #[cfg(feature = "serve")]
    Serve(cli::serve::ServeArgs),
    /// Speak a text protocol (GTP conventions) on standard input and output, for GUIs and tournament programs (see docs/PROTOCOL.md).
    #[command(allow_negative_numbers = true)]
    Gtp(cli::gtp::GtpArgs),
    /// List the engine configurations (--engine, --a, --b) and their keys.
    #[command(allow_negative_numbers = true)]
    Engines(cli::engines::EnginesArgs),
}

impl Command {
    /// Whether the command was asked for JSON output (`--json`).
    fn json(&self) -> bool {
        match self {
            Command::Check(a) => a.json,
            Command::Show(a) => a.json,
            Command::Bench(a) => a.json,
            Command::Search(a) => a.json,
            Command::Analyze(a) => a.json,
            Command::Match(a) => a.json,
            Command::Tactics(a) => a.json,
            _ => false,
        }
    }
}

/// Lets the program end quietly, as other Unix tools do, when the reader of
/// its output goes away (`cabra perft -d 1 --divide | head`): Rust ignores
/// SIGPIPE, so `println!` would panic on the closed pipe instead.
#[cfg(unix)]
fn restore_default_sigpipe() {
    // SAFETY: called first thing in `main`, before any other thread exists;
    // SIG_DFL is a valid action for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    #[cfg(unix)]
    restore_default_sigpipe();
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Check(a) => cli::check::run(a),
        Command::Show(a) => cli::show::run(a),
        Command::Perft(a) => cli::perft_cmd::run(a),
        Command::Bench(a) => cli::bench::run(a),
        Command::Search(a) => cli::search_cmd::run(a),
        Command::Play(a) => cli::play::run(a),
        Command::Analyze(a) => cli::analyze::run(a),
        Command::Analysis(a) => cli::analysis_cmd::run(a),
        Command::Match(a) => cli::match_cmd::run(a),
        Command::Selfplay(a) => cli::match_cmd::run_selfplay(a),
        Command::Train(a) => cli::train_cmd::run(a),
        Command::Tactics(a) => cli::tactics_cmd::run(a),
        Command::Gtp(a) => cli::gtp::run(a),
        Command::Engines(a) => cli::engines::run(a),
        #[cfg(feature = "serve")]
        Command::Serve(a) => cli::serve::run(a),
    };
    match result {
        // A command that a signal cut short says so in its status, after
        // writing what it had (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP).
        Ok(()) => cli::signals::exit_code().map_or(ExitCode::SUCCESS, ExitCode::from),
        // A script that asked for JSON gets its error as JSON too.
        Err(e) if cli.command.json() => match serde_json::to_string(&cli::check::ErrorJson::of(&e))
        {
            Ok(json) => {
                println!("{json}");
                ExitCode::FAILURE
            }
            Err(_) => {
                eprintln!("cabra: {e:#}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("cabra: {e:#}");
            ExitCode::FAILURE
        }
    }
}
