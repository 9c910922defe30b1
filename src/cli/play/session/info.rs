//! Settings and listings: `set`, `history` (`moves` is in `listing`).

use cabra::engine::EngineConfig;

use super::*;

/// The engine's level as `set` shows it.
fn level_text(config: &EngineConfig) -> String {
    use cabra::engine::levels::{Level, TOP};
    match config.level.and_then(Level::get) {
        Some(l) if !l.is_top() => format!(
            "{}   ({} Elo; `set level {TOP}` for the full engine)",
            l.number, l.elo
        ),
        _ => format!("{TOP}   (the full engine; `set level 1` is the weakest)"),
    }
}

impl Session {
    /// `set level N`: the engine plays at level N from its next move.
    fn set_level(&mut self, value: &str) -> Result<String, String> {
        use cabra::engine::levels::{Level, TOP};
        let n = value
            .parse::<u8>()
            .ok()
            .filter(|&n| n <= TOP)
            .ok_or_else(|| format!("expected a level from 1 (the weakest) to {TOP} (the full engine), or 0 for the random player, found '{value}'"))?;
        let mut config = self.engine.config();
        config
            .set_level(n)
            .expect("a level checked against the table above");
        // Back at the top, the threads the player chose, not all cores.
        if config.fixed_level().is_none() && self.threads.is_some() {
            config.threads = self.threads;
        }
        let config =
            crate::cli::defaults::Options::default().complete(&config, &crate::cli::defaults::PLAY);
        self.engine.set_config(config);
        let l = Level::get(n).expect("a level of the table");
        Ok(if l.is_top() {
            format!("The engine now plays at its full strength (level {TOP}).")
        } else if n == 0 {
            "The engine now plays at random (level 0, rated 0 Elo): `set level 1` is the weakest real opponent.".to_string()
        } else {
            format!(
                "The engine now plays at level {n} of {TOP}, rated {} Elo: it searches {} a placement whatever the time.",
                l.elo,
                plural(l.iterations.unwrap_or(0), "iteration")
            )
        })
    }

    pub(super) fn settings(&self) -> String {
        // The clock stands for these while it runs (`set clock off` ends it).
        let aside = if self.clock.is_some() {
            "   (not while the clock runs)"
        } else {
            ""
        };
        let time = self.budget.time.map_or("-".to_string(), |t| {
            format!("{}{aside}", format_duration(t))
        });
        let iterations = self
            .budget
            .iterations
            .map_or("-".to_string(), |n| format!("{n}{aside}"));
        let clock = self.clock.map_or("-".to_string(), |c| {
            format!(
                "{}   ({} left on the engine's clock)",
                c.control,
                c.left_text()
            )
        });
        // Pondering is chosen when `play` starts, and only the full engine
        // ponders (a level's strength would drift from its rating).
        let ponder = match (self.ponder, self.engine.config().fixed_level()) {
            (false, _) => "off   (`cabra play --ponder` thinks on your time)",
            (true, None) => "on    (the engine thinks on your time)",
            (true, Some(_)) => "on    (but a level below the top never thinks on your time)",
        };
        format!(
            "you         {}   ({})\ntime        {time}\niterations  {iterations}\nclock       {clock}\nlevel       {}\nthreads     {}\nseed        {}\nthreats     {}   (warn when the side to move faces a win in one)\nponder      {ponder}\nrules       {}\n",
            self.you,
            self.roles(),
            level_text(&self.engine.config()),
            self.engine.threads(),
            self.engine.config().seed.unwrap_or(0),
            if self.threats { "on" } else { "off" },
            self.line.position().rules()
        )
    }

    pub(super) fn set(&mut self, arg: &str) -> Response {
        if arg.is_empty() {
            return Response::ok(self.settings());
        }
        let (name, value) = match arg.find(char::is_whitespace) {
            Some(i) => (arg[..i].to_ascii_lowercase(), arg[i..].trim()),
            None => (arg.to_ascii_lowercase(), ""),
        };
        let names = SETTINGS;
        let name = match name.as_str() {
            "t" | "movetime" => "time".to_string(),
            "it" | "iter" | "iters" | "n" => "iterations".to_string(),
            "th" | "thread" => "threads".to_string(),
            "side" | "player" => "you".to_string(),
            _ => name,
        };
        if !names.contains(&name.as_str()) {
            let shown = name.chars().take(20).collect::<String>();
            // A typo of a setting (`levle`) is named, as commands' are.
            let near = names
                .iter()
                .map(|&n| (n, strsim::osa_distance(&name, n)))
                .min_by_key(|&(_, d)| d)
                .filter(|&(_, d)| d <= if name.chars().count() <= 3 { 1 } else { 2 });
            return Response::err(match near {
                Some((n, _)) => format!(
                    "no setting '{shown}' — did you mean '{n}'? (the settings are time, iterations, clock, level, threads, seed, you and threats)"
                ),
                None => format!(
                    "no setting '{shown}': the settings are time, iterations, clock, level, threads, seed, you and threats"
                ),
            });
        }
        if value.is_empty() {
            return Response::err(format!(
                "expected a value after `set {name}` (`help set` gives examples)"
            ));
        }
        // A level below the top searches its own iterations on one thread:
        // limits and threads set now are the full engine's.
        let at_level = self
            .engine
            .config()
            .fixed_level()
            .map(|l| {
                format!(
                    " (at level {}, the engine searches its level's iterations on one thread: this applies at `set level {}`)",
                    l.number,
                    cabra::engine::levels::TOP
                )
            })
            .unwrap_or_default();
        let done = match name.as_str() {
            "time" => cabra::engine::parse_duration(value).map_err(|e| e.to_string()).map(|d| {
                self.budget = Budget::time(d);
                self.clock = None;
                format!(
                    "The engine now thinks {} a placement{at_level}.",
                    format_duration(d)
                )
            }),
            "iterations" => cabra::engine::parse_count(value).map_err(|e| e.to_string()).map(|n| {
                self.budget = Budget::iterations(n);
                self.clock = None;
                format!(
                    "The engine now thinks {} a placement{at_level}.",
                    plural(n, "iteration")
                )
            }),
            "clock" if value.eq_ignore_ascii_case("off") => {
                self.clock = None;
                Ok(format!(
                    "The engine's clock is off: it thinks {} a placement.",
                    self.budget
                ))
            }
            "clock" => TimeControl::parse(value).map_err(|e| crate::cli::chain(&e)).map(|control| {
                self.clock = Some(EngineClock {
                    control,
                    left: control.main,
                });
                format!(
                    "The engine now plays on a clock of {control}: its share of the time left a placement, less when its choice is clear (`set clock off` to stop)."
                )
            }),
            "threads" => cabra::engine::parse_threads(value).map_err(|e| e.to_string()).map(|n| {
                self.threads = Some(n);
                let config = self.engine.config();
                if config.fixed_level().is_none() {
                    self.engine.set_config(EngineConfig {
                        threads: Some(n),
                        ..config
                    });
                }
                format!(
                    "The engine now searches with {}{at_level}.",
                    crate::cli::plural(n as u64, "thread")
                )
            }),
            "level" => self.set_level(value),
            "seed" => match value.parse::<u64>() {
                Ok(s) => {
                    let config = self.engine.config();
                    self.engine.set_config(EngineConfig {
                        seed: Some(s),
                        ..config
                    });
                    Ok(format!("Seed set to {s}."))
                }
                Err(_) => Err(format!(
                    "expected a whole number from 0 to {} for the seed, found '{value}'",
                    u64::MAX
                )),
            },
            "threats" => match value.to_ascii_lowercase().as_str() {
                "on" | "yes" | "true" => {
                    self.threats = true;
                    Ok("The board now warns when the side to move faces a win in one.".to_string())
                }
                "off" | "no" | "false" => {
                    self.threats = false;
                    Ok("No more warnings of wins in one.".to_string())
                }
                _ => Err(format!(
                    "expected on or off after `set threats`, found '{value}'"
                )),
            },
            _ => You::parse(value).map(|you| {
                self.you = you;
                // Who plays what comes first: the engine takes its turn at
                // once, as at the start of a session (`set you none` watches
                // it play the game out), and its placements are shown as
                // they come, after what `out` holds.
                let mut out = self.roles();
                out.push('\n');
                if self.engine_turns(&mut out) {
                    out.push_str(&self.board());
                }
                out.push_str(&self.turn_hint());
                out.trim_end().to_string()
            }),
        };
        match done {
            Ok(t) => Response::ok(t),
            Err(e) => Response::err(e),
        }
    }

    /// The moves of the game, numbered as the prompt numbers them
    /// (`move N`), each with the player who made it.
    pub(super) fn history(&self) -> String {
        let moves = self.line.position().moves();
        if moves.is_empty() {
            return "No move yet.\n".to_string();
        }
        let mut replay = Position::with_rules(self.line.position().rules());
        let mut out = String::new();
        for (i, &m) in moves.iter().enumerate() {
            out.push_str(&format!("{:>3}. {}  {m}\n", i + 1, who(replay.to_move())));
            replay.play_move_unchecked(m);
        }
        out.push_str(&format!("{}\n", status_line(self.line.position())));
        out
    }
}
