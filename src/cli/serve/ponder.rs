//! `cabra serve --ponder`: while a human is to move against the engine,
//! the game's engine searches the position on threads no other search
//! needs, and keeps the tree for its reply. A ponder is no job of the
//! game (it stays idle for the API): any change of the game, a job of
//! its own, or another game's search that waits for threads stops it at
//! once, and a level below the top never ponders.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use cabra::engine::{Listener, Progress, Request, Thinker};

use super::App;
use super::jobs::{REPORT_EVERY, followed, permits};
use super::store::{Game, Presence, lock};

/// A ponder's listener: counts its iterations, and stops it when nobody
/// follows the game any more.
struct Count {
    presence: Arc<Presence>,
    pondered: Arc<AtomicU64>,
}

impl Listener for Count {
    fn progress(&mut self, p: &Progress) -> ControlFlow<()> {
        self.pondered.store(p.report.iterations, Ordering::Relaxed);
        if followed(&self.presence) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    }
}

/// Whether `g` is a human's turn against the full engine, at the end of
/// its line, with nothing else to do.
fn wanted(g: &Game) -> bool {
    let pos = g.line.position();
    if pos.status().is_over() {
        return false;
    }
    let mover = pos.to_move().index();
    g.busy.is_none()
        && g.ponder.is_none()
        && g.line.ply() == g.line.moves().len()
        && !g.engine_sides[mover]
        && g.engine_sides[1 - mover]
        && g.engine.config().fixed_level().is_none()
        && followed(&g.presence)
}

/// Starts pondering `game` (locked as `g`) if the server ponders, it is
/// a human's turn against the full engine, and its threads are free now.
pub fn maybe(app: &Arc<App>, game: &Arc<Mutex<Game>>, g: &mut Game) {
    if !app.ponder || !wanted(g) {
        return;
    }
    let Ok(permit) = app.permits.clone().try_acquire_many_owned(permits(app, g)) else {
        return;
    };
    let pos = *g.line.position();
    let request = Request::analysis(pos)
        .until_stopped()
        .report_every(REPORT_EVERY);
    g.pondered.store(0, Ordering::Relaxed);
    let mut count = Count {
        presence: g.presence.clone(),
        pondered: g.pondered.clone(),
    };
    let (app2, done) = (app.clone(), game.clone());
    let id = g.id.clone();
    let serial = NEXT.fetch_add(1, Ordering::Relaxed);
    let work = move |t: &mut Thinker| {
        // Its limits are none: nothing to refuse.
        let _ = t.search(&request, &mut count);
    };
    let job = g.engine.spawn_then(work, move |()| {
        drop(permit);
        let mut g = lock(&done);
        if g.ponder.as_ref().is_some_and(|(n, _)| *n == serial) {
            g.ponder = None;
        }
        let mut ponders = lock(&app2.ponders);
        if ponders.get(&id).is_some_and(|(n, _)| *n == serial) {
            ponders.remove(&id);
        }
    });
    let stopper = job.stopper();
    lock(&app.ponders).insert(g.id.clone(), (serial, stopper.clone()));
    g.ponder = Some((serial, stopper));
}

/// The number of the next ponder (to tell a ponder from the next one).
static NEXT: AtomicU64 = AtomicU64::new(0);

/// Stops every ponder: a search needs the threads.
pub fn stop_all(app: &App) {
    for (_, s) in lock(&app.ponders).values() {
        s.stop();
    }
}
