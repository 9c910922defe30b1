//! Settings and listings: `set`, `moves`, `history`.

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
            .filter(|&n| (1..=TOP).contains(&n))
            .ok_or_else(|| format!("expected a level from 1 (the weakest) to {TOP} (the full engine), found '{value}'"))?;
        let mut config = self.engine.config();
        config.set_level(n);
        let config = cabra::engine::defaults::Options::default()
            .complete(&config, &cabra::engine::defaults::PLAY);
        self.engine.set_config(config);
        let l = Level::get(n).expect("a level of the table");
        Ok(if l.is_top() {
            format!("The engine now plays at its full strength (level {TOP}).")
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
        format!(
            "you         {}   ({})\ntime        {time}\niterations  {iterations}\nclock       {clock}\nlevel       {}\nthreads     {}\nseed        {}\nthreats     {}   (warn when the side to move faces a win in one)\nrules       {}\n",
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
            return Response::err(format!(
                "no setting '{}': the settings are time, iterations, clock, level, threads, seed, you and threats",
                name.chars().take(20).collect::<String>()
            ));
        }
        if value.is_empty() {
            return Response::err(format!(
                "expected a value after `set {name}` (`help set` gives examples)"
            ));
        }
        let done = match name.as_str() {
            "time" => cabra::engine::parse_duration(value).map_err(|e| e.to_string()).map(|d| {
                self.budget = Budget::time(d);
                self.clock = None;
                format!("The engine now thinks {} a placement.", format_duration(d))
            }),
            "iterations" => cabra::engine::parse_count(value).map_err(|e| e.to_string()).map(|n| {
                self.budget = Budget::iterations(n);
                self.clock = None;
                format!(
                    "The engine now thinks {} a placement.",
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
            "clock" => TimeControl::parse(value).map_err(|e| e.to_string()).map(|control| {
                self.clock = Some(EngineClock {
                    control,
                    left: control.main,
                });
                format!(
                    "The engine now plays on a clock of {control}: its share of the time left a placement, less when its choice is clear (`set clock off` to stop)."
                )
            }),
            "threads" => cabra::engine::parse_threads(value).map_err(|e| e.to_string()).map(|n| {
                let config = self.engine.config();
                self.engine.set_config(EngineConfig {
                    threads: Some(n),
                    ..config
                });
                format!(
                    "The engine now searches with {}.",
                    cabra::engine::plural(n as u64, "thread")
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

    pub(super) fn moves(&self, arg: &str) -> Response {
        let filter = match arg.trim() {
            "" => None,
            a => {
                let mut chars = a.chars();
                match (chars.next().and_then(Piece::from_letter), chars.next()) {
                    (Some(p), None) => Some(p),
                    _ => {
                        return Response::err(format!(
                            "expected a piece L, T, Z or O after `moves`, found '{}'",
                            a.chars().take(20).collect::<String>()
                        ));
                    }
                }
            }
        };
        if self.line.position().status().is_over() {
            return Response::ok(format!(
                "No legal placements: the game is over ({}).",
                result_line(self.line.position(), self.line.position().status())
            ));
        }
        let mut list = MoveList::new();
        self.line.position().legal_moves(&mut list);
        let mover = self.line.position().to_move();
        let count = |k: Piece| list.iter().filter(|p| p.entry().piece == k).count();
        let mut out = String::new();
        match filter {
            None => {
                let per: Vec<String> = Piece::ALL
                    .iter()
                    .map(|&k| format!("{k} {}", group(count(k) as u64)))
                    .collect();
                out.push_str(&format!(
                    "{} legal placements for {}: {}\n",
                    group(list.len() as u64),
                    who(mover),
                    per.join(", ")
                ));
            }
            Some(k) => {
                let n = count(k);
                let left = self.line.position().pieces_left(mover, k);
                out.push_str(&format!(
                    "{} legal placements of {k} for {}{}\n",
                    group(n as u64),
                    who(mover),
                    if left == 0 {
                        format!(" (no {k} left)")
                    } else {
                        String::new()
                    }
                ));
            }
        }
        // One line per shape: `L E180: 110 120 ...`, wrapped.
        let mut current: Option<String> = None;
        let mut line = String::new();
        for p in list
            .iter()
            .filter(|p| filter.is_none_or(|k| p.entry().piece == k))
        {
            let text = p.to_string();
            let (shape, at) = text.rsplit_once(' ').expect("notation has spaces");
            if current.as_deref() != Some(shape) {
                if !line.is_empty() {
                    out.push_str(&line);
                    out.push('\n');
                }
                line = format!("  {shape}:");
                current = Some(shape.to_string());
            }
            // Wrapped here at the terminal's width (the printer would wrap
            // it again, without the hanging indent).
            if line.len() + 4 > self.width.min(100) - 4 {
                out.push_str(&line);
                out.push('\n');
                line = format!("  {}", " ".repeat(shape.len() + 1));
            }
            line.push(' ');
            line.push_str(at);
        }
        if !line.is_empty() {
            out.push_str(&line);
            out.push('\n');
        }
        let mut specials = Vec::new();
        self.line
            .position()
            .for_each_special(|m| specials.push(m.to_string()));
        if !specials.is_empty() && filter.is_none() {
            out.push_str(&format!(
                "  and instead of a placement: {} (`help {}`)\n",
                specials.join(", "),
                specials[0]
            ));
        }
        Response::ok(out)
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
            replay.play_move(m);
        }
        out.push_str(&format!("{}\n", status_line(self.line.position())));
        out
    }
}
