//! How the game stands, and leaving: `result`, `quit`, Ctrl-C at the
//! prompt, the end of input, and what a script's exit status reports.

use super::*;

impl Session {
    pub(super) fn result(&self) -> String {
        // The counts that decide a game without a bridge under its rules.
        let [a, b] = Player::BOTH.map(|p| self.line.position().count(p));
        let counted = counted(self.line.position());
        match self.line.position().status() {
            Status::Ongoing => format!(
                "In progress after {}: {} to move; {counted} {a} (player 1) to {b} (player 2).",
                moves_of(self.line.position(), self.line.position().plies()),
                who(self.line.position().to_move())
            ),
            s => format!(
                "{} after {}.",
                result_line(self.line.position(), s),
                moves_of(self.line.position(), self.line.position().plies())
            ),
        }
    }

    pub(super) fn quit(&mut self) -> Response {
        if self.interactive && self.unsaved() && !self.quit_armed {
            self.quit_armed = true;
            return Response::ok(format!(
                "This game ({}) is not saved: `save FILE` keeps it; type `quit` again to leave anyway.",
                moves_of(self.line.position(), self.line.position().plies())
            ));
        }
        let mut r = Response::ok(if self.interactive {
            self.exit_note()
        } else {
            String::new()
        });
        r.quit = true;
        r
    }

    /// The note for being ended by a signal now: the position code of an
    /// unsaved game (empty when nothing would be lost), at a terminal or not.
    pub fn end_note(&self) -> String {
        self.exit_note()
    }

    /// Whether a question waits for its answer (replace a file?), which
    /// an empty line answers no.
    pub fn asking(&self) -> bool {
        self.pending_save.is_some()
    }

    /// Ctrl-C at the prompt: a question asked (replace a file? leave
    /// unsaved?) is answered no. Returns what to say.
    pub fn interrupt(&mut self) -> String {
        self.quit_armed = false;
        match self.pending_save.take() {
            Some(path) => format!(
                "(Ctrl-C: not saved, {} is unchanged.)\n",
                commands::echo(&path.display().to_string(), 200)
            ),
            None => "(Ctrl-C: the game is kept. Type `quit` to leave, `help` for the commands.)\n"
                .to_string(),
        }
    }

    /// How many saves failed in this session, and the error of the last.
    pub fn failed_saves(&self) -> Option<(usize, &str)> {
        let (n, last) = &self.failed_saves;
        (*n > 0).then_some((*n, last.as_str()))
    }

    /// What to say when the input ends (Ctrl-D on a terminal).
    pub fn end_of_input(&mut self) -> Response {
        let mut r = Response::ok(if self.interactive {
            self.exit_note()
        } else {
            String::new()
        });
        r.quit = true;
        r
    }
}
