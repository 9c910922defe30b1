//! Game files and position codes: `load`, `save`, `pos`, and not losing an unsaved game.

use super::*;

impl Session {
    /// Whether leaving the current game would lose placements: it has some,
    /// and it is not the saved game or a beginning of it.
    pub(super) fn unsaved(&self) -> bool {
        let h = self.line.position().moves();
        let kept = h.len() <= self.saved.len() && self.saved[..h.len()] == *h;
        !h.is_empty() && !kept
    }

    /// A line giving the code of the game being left, when it is not saved.
    pub(super) fn leaving_note(&self) -> String {
        if self.unsaved() {
            format!(
                "The game you left ({}) was not saved; `pos {}` brings it back.\n",
                moves_of(self.line.position(), self.line.position().plies()),
                self.line.position().to_code()
            )
        } else {
            String::new()
        }
    }

    /// The same when leaving the program.
    pub(super) fn exit_note(&self) -> String {
        if self.unsaved() {
            format!(
                "This game ({}) was not saved; to get it back, run `cabra play` and type `pos {}`.\n",
                moves_of(self.line.position(), self.line.position().plies()),
                self.line.position().to_code()
            )
        } else {
            String::new()
        }
    }

    /// A file name argument: quotes removed, `~/` expanded.
    pub(super) fn path_arg(arg: &str) -> PathBuf {
        let a = arg.trim();
        let a = a
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .or_else(|| a.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')))
            .unwrap_or(a);
        if let (Some(rest), Some(home)) = (a.strip_prefix("~/"), std::env::var_os("HOME")) {
            return Path::new(&home).join(rest);
        }
        PathBuf::from(a)
    }

    pub(super) fn load(&mut self, arg: &str) -> Response {
        if arg.is_empty() {
            return Response::err(
                "expected a file name after `load`, e.g. `load games/midgame-9.caminos`",
            );
        }
        let path = Self::path_arg(arg);
        // A pipe or a device would hold the prompt until someone writes to
        // it, past Ctrl-C: only files are loaded here (a pipe may be given
        // on the command line).
        if std::fs::metadata(&path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            return Response::err(format!(
                "cannot load {}: it is not a regular file (the current game is unchanged)",
                commands::echo(&path.display().to_string(), 200)
            ));
        }
        match read_record(&path) {
            Ok(record) => {
                let pos = record.position;
                let mut out = self.leaving_note();
                self.forget_file();
                self.replace(pos);
                self.saved = pos.moves().to_vec();
                self.hints = hint::taken(&record.header);
                self.header = record.header;
                self.left_files.remove(&own_key(&path));
                self.own_files.insert(own_key(&path));
                self.file = Some(path.clone());
                out.push_str(&format!(
                    "Loaded {}: {}.\n",
                    commands::echo(&path.display().to_string(), 200),
                    moves_of(&pos, pos.plies())
                ));
                out.push_str(&self.board());
                out.push_str(&self.turn_hint());
                Response::ok(out)
            }
            Err(e) => Response::err(format!("{e:#} (the current game is unchanged)")),
        }
    }

    /// `save [FILE]`, and `save! FILE` (`force`) that replaces a file the
    /// session did not load or write itself.
    pub(super) fn save(&mut self, arg: &str, force: bool) -> Response {
        let (arg, force) = match arg.strip_prefix("--force") {
            Some(rest) if rest.is_empty() || rest.starts_with(char::is_whitespace) => {
                (rest.trim(), true)
            }
            _ => (arg, force),
        };
        let path = if arg.is_empty() {
            match &self.file {
                Some(f) => f.clone(),
                None => {
                    let cmd = if force { "save!" } else { "save" };
                    return Response::err(format!(
                        "expected a file name after `{cmd}`, e.g. `{cmd} mygame.caminos`"
                    ));
                }
            }
        } else {
            Self::path_arg(arg)
        };
        if path.as_os_str().is_empty() {
            // `save ''`: quotes around nothing.
            return Response::err("expected a file name after `save`, e.g. `save mygame.caminos`");
        }
        if path.is_dir() {
            return Response::err(format!(
                "{} is a directory: give a file name, e.g. `save {}`",
                path.display(),
                path.join("game.caminos").display()
            ));
        }
        // A file that cannot be written is refused before any question.
        if let Err(e) = crate::cli::save::check(&path) {
            return Response::err(format!("{e:#} (nothing was written)"));
        }
        if path.exists() && !force && !self.own_files.contains(&own_key(&path)) {
            let shown = commands::echo(&path.display().to_string(), 200);
            let why = if self.left_files.contains(&own_key(&path)) {
                "holds the game this session had before this one"
            } else {
                "exists and this session did not write it"
            };
            if self.interactive {
                // The question itself is the prompt (see `prompt`): asked
                // once, it stays in view until it is answered.
                self.pending_save = Some(path);
                return Response::ok(format!("{shown} {why}."));
            }
            return Response::err(format!(
                "{shown} {why}: `save! {}` replaces it",
                commands::echo(arg, 200)
            ));
        }
        self.save_to(path)
    }

    /// Saves the game to `path` (replacing whatever file is there).
    pub(super) fn save_to(&mut self, path: PathBuf) -> Response {
        let existed = path.exists();
        match save_game(&path, &self.header_to_save(), self.line.position()) {
            Ok(()) => {
                self.saved = self.line.position().moves().to_vec();
                self.left_files.remove(&own_key(&path));
                self.own_files.insert(own_key(&path));
                self.file = Some(path.clone());
                let ahead = self.line.ahead().len();
                let noun = moves_of(self.line.end(), ahead);
                let left_out = match ahead {
                    0 => String::new(),
                    1 => format!(
                        " The {} taken back is not saved: `redo` first to keep it.",
                        noun.trim_start_matches("1 ")
                    ),
                    _ => format!(
                        " The {noun} taken back are not saved: `redo all` first to keep them."
                    ),
                };
                Response::ok(format!(
                    "Saved {} to {}{}.{left_out}",
                    moves_of(self.line.position(), self.line.position().plies()),
                    commands::echo(&path.display().to_string(), 200),
                    if existed { " (replacing it)" } else { "" }
                ))
            }
            Err(e) => Response::err(format!("{e:#} (nothing was written)")),
        }
    }

    /// Another game takes the place of the one loaded or saved: a plain
    /// `save` no longer goes to its file, whose header comments described
    /// that game, and replacing the file asks first.
    pub(super) fn forget_file(&mut self) {
        if let Some(f) = self.file.take() {
            let key = own_key(&f);
            self.own_files.remove(&key);
            self.left_files.insert(key);
        }
        self.header.clear();
    }

    pub(super) fn pos(&mut self, arg: &str) -> Response {
        if arg.is_empty() {
            return Response::ok(self.line.position().to_code());
        }
        match cabra::game::Position::from_code(arg) {
            Ok(pos) => {
                let mut out = if pos.moves() == self.line.position().moves() {
                    String::new()
                } else {
                    self.leaving_note()
                };
                if pos.moves() != self.line.position().moves() {
                    self.forget_file();
                }
                self.replace(pos);
                out.push_str(&format!("Position set: {}.\n", moves_of(&pos, pos.plies())));
                out.push_str(&self.board());
                out.push_str(&self.turn_hint());
                Response::ok(out)
            }
            Err(e) => Response::err(format!("{e} (`pos` alone gives this game's code)")),
        }
    }

    // ----- settings, listings ----------------------------------------
}
