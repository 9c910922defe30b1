//! Thinking on the player's time (`--ponder`): while the person is to
//! move against the engine, it searches their position until their next
//! line comes, and keeps the tree for its reply.

use super::*;

impl Session {
    /// Starts a search of the position if the engine ponders, plays one
    /// side, and the other side (the person) is to move. A level below the
    /// top never ponders: its strength is its fixed search.
    pub(super) fn ponder_if_due(&mut self) {
        let pos = *self.line.position();
        if !self.ponder
            || self.pondering.is_some()
            || !self.you.one_side()
            || pos.status().is_over()
            || self.you.engine_plays(pos.to_move())
            || self.engine.config().fixed_level().is_some()
        {
            return;
        }
        let request = Request::analysis(pos).until_stopped();
        // Its limits are none: it starts.
        self.pondering = self.engine.start(request, |_: &Progress| {}).ok();
    }

    /// Stops the search on the player's time, if one runs, and waits for
    /// it: its tree stays with the engine.
    pub(super) fn stop_pondering(&mut self) {
        if let Some(job) = self.pondering.take() {
            let _ = job.stop_and_wait();
        }
    }
}

#[cfg(test)]
impl Session {
    /// Whether a search on the player's time runs.
    pub fn is_pondering(&self) -> bool {
        self.pondering.is_some()
    }

    /// Nodes of the tree the engine keeps (0 while it searches).
    pub fn kept_nodes(&self) -> usize {
        self.engine.nodes()
    }
}
