//! The engine's work for a game: a move search (`think`) or a whole-game
//! analysis, started on the game's engine handle once it holds as many
//! permits of the server's threads as it searches with, reporting on the
//! game's live channel (server-sent events), stoppable, and stopped when
//! nobody follows the game any more.

use std::convert::Infallible;
use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use cabra::engine::analysis::analyze;
use cabra::engine::{Budget, Listener, Progress, ReportView, Request, Thinker, Thought};
use cabra::game::Position;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::OwnedSemaphorePermit;
use tokio_stream::{Stream, StreamExt};

use super::App;
use super::guard::{ApiError, Json};
use super::state::{analysis_json, state_json};
use super::store::{Analysis, Busy, Game, Presence, lock};

/// A job whose game has had no page listening to its events and no
/// request for this long is stopped: nobody follows it any more.
pub const ABANDONED_AFTER: Duration = Duration::from_millis(1500);

/// How often a job reports progress (and looks whether it is followed).
pub(super) const REPORT_EVERY: Duration = Duration::from_millis(100);

/// A budget asked for by the page.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BudgetRequest {
    time_ms: Option<u64>,
    iterations: Option<u64>,
    /// Only while the game is at this version (409 otherwise): a page's
    /// own engine move is moot once the game changed under it.
    version: Option<u64>,
}

impl BudgetRequest {
    /// The version the request is for, if it names one.
    pub(super) fn version(&self) -> Option<u64> {
        self.version
    }

    /// The request's own limits (unlimited: the engine's); 400 when out
    /// of range.
    pub(super) fn limits(&self) -> Result<Budget, ApiError> {
        if self.time_ms.is_some_and(|t| !(1..=600_000).contains(&t)) {
            return Err(ApiError::bad("time_ms is 1 to 600000 (10 minutes)"));
        }
        if self
            .iterations
            .is_some_and(|n| !(1..=1_000_000_000).contains(&n))
        {
            return Err(ApiError::bad("iterations is 1 to 1000000000"));
        }
        Ok(Budget {
            time: self.time_ms.map(Duration::from_millis),
            iterations: self.iterations,
            ..Budget::UNLIMITED
        })
    }
}

/// Whether anyone follows a game: a page listening to its events, or a
/// request about it lately.
pub(super) fn followed(presence: &Presence) -> bool {
    presence.listened() || presence.quiet_for() < ABANDONED_AFTER
}

/// A search's listener: sends its progress as `thinking` events, and
/// stops it when nobody follows the game any more.
struct Follow {
    presence: Arc<Presence>,
    pos: Position,
    abandoned: bool,
}

impl Listener for Follow {
    fn progress(&mut self, p: &Progress) -> ControlFlow<()> {
        if !followed(&self.presence) {
            self.abandoned = true;
            return ControlFlow::Break(());
        }
        let mut data =
            serde_json::to_value(ReportView::new(&self.pos, p.report, false)).unwrap_or_default();
        data["elapsed_ms"] = (p.elapsed.as_millis() as u64).into();
        data["fraction"] = p.fraction.into();
        let _ = self.presence.events.send(super::store::Event {
            name: "thinking",
            data: data.to_string(),
        });
        ControlFlow::Continue(())
    }
}

/// Marks an idle game (at `version`, if given) busy with `job`, and takes
/// the threads it searches with when they are free: then it is busy with
/// `job` at once (the page says "thinking"), otherwise it waits for them
/// first ([`Busy::Waiting`] and `None`).
pub(super) fn begin(
    app: &App,
    g: &mut Game,
    job: Busy,
    version: Option<u64>,
) -> Result<Option<OwnedSemaphorePermit>, ApiError> {
    g.ensure_idle()?;
    if let Some(v) = version.filter(|&v| v != g.version) {
        return Err(ApiError::conflict(format!(
            "the game changed: it is at version {}, not {v}",
            g.version
        )));
    }
    g.cancel_wait.store(false, Ordering::SeqCst);
    g.drop_move = false;
    let permit = app
        .permits
        .clone()
        .try_acquire_many_owned(permits(app, g))
        .ok();
    if permit.is_none() {
        // Ponders give their threads to a search that needs them.
        super::ponder::stop_all(app);
    }
    g.busy = Some(if permit.is_some() { job } else { Busy::Waiting });
    g.changed();
    Ok(permit)
}

/// The permits of the server's threads that the game's engine searches with.
pub(super) fn permits(app: &App, g: &Game) -> u32 {
    g.engine.threads().min(app.threads) as u32
}

/// The threads for a job that [`begin`] started: those it took (`taken`), or as
/// many as it searches with once they are free; `None` when the job was
/// stopped meanwhile (it then ends at once, and a search answers with a
/// short one).
pub(super) async fn threads_for(
    app: &App,
    game: &Mutex<Game>,
    taken: Option<OwnedSemaphorePermit>,
) -> Option<OwnedSemaphorePermit> {
    if taken.is_some() {
        return taken;
    }
    let (permits, cancel) = {
        let g = lock(game);
        (permits(app, &g), g.cancel_wait.clone())
    };
    tokio::select! {
        p = app.permits.clone().acquire_many_owned(permits) => p.ok(),
        () = async {
            while !cancel.load(Ordering::SeqCst) {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        } => None,
    }
}

/// Runs `work` on the game's engine, holding `permit`; when it is done
/// and the engine free, `finish` updates the game, which is idle again (and says so with
/// [`Game::changed`]). A job that fails (a bug) leaves the game idle, says
/// so, and the engine starts its next job afresh.
pub(super) fn run_job<T: Send + 'static>(
    game: &Arc<Mutex<Game>>,
    busy: Busy,
    permit: Option<OwnedSemaphorePermit>,
    work: impl FnOnce(&mut Thinker) -> T + Send + 'static,
    finish: impl FnOnce(&mut Game, T) + Send + 'static,
) {
    let mut g = lock(game);
    if g.busy != Some(busy) {
        g.busy = Some(busy);
        g.changed();
    }
    // A stop that came before the job reached the engine (which it would
    // not have stopped) holds too: it was made under this lock.
    let cancelled = permit.is_none() || g.cancel_wait.load(Ordering::SeqCst);
    let done = game.clone();
    let work = move |t: &mut Thinker| {
        let out = catch_unwind(AssertUnwindSafe(|| work(t)));
        if out.is_err() {
            t.forget();
        }
        out
    };
    // The threads go back once the engine is free, so that the next
    // search may drop this game's tree if it needs the room.
    let job = g.engine.spawn_then(work, move |out| {
        drop(permit);
        let mut g = lock(&done);
        g.busy = None;
        // Time spent working is not idle time.
        g.presence.touch();
        match out {
            Ok(out) => finish(&mut g, out),
            Err(_) => {
                g.changed();
                g.send(
                    "failed",
                    json!({ "error": "the engine failed (a bug); it was restarted" }),
                );
            }
        }
    });
    if cancelled {
        job.stop();
    }
}

/// `POST /api/games/{id}/think`: the engine searches for the side to move
/// and plays its choice; progress and the move come as events.
pub async fn think(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<BudgetRequest>,
) -> Result<Response, ApiError> {
    let limits = req.limits()?;
    let game = app.store.get(&id)?;
    let (version, busy, taken) = {
        let mut g = lock(&game);
        if g.line.position().status().is_over() {
            return Err(ApiError::conflict(
                "the game is over: nothing to think about",
            ));
        }
        let taken = begin(&app, &mut g, Busy::Thinking, req.version)?;
        (g.version, g.busy, taken)
    };
    tokio::spawn(async move {
        let permit = threads_for(&app, &game, taken).await;
        let (pos, presence) = {
            let g = lock(&game);
            (*g.line.position(), g.presence.clone())
        };
        let request = Request::new(pos)
            .limits(limits.limited())
            .report_every(REPORT_EVERY);
        let mut follow = Follow {
            presence,
            pos,
            abandoned: false,
        };
        let work = move |t: &mut Thinker| {
            let thought = t
                .search(&request, &mut follow)
                .expect("a move's limits are checked (BudgetRequest::limits)");
            (thought, follow.abandoned)
        };
        let (app2, game2) = (app.clone(), game.clone());
        run_job(&game, Busy::Thinking, permit, work, move |g, out| {
            moved(g, pos, out);
            // The human's turn now: the server may ponder it.
            super::ponder::maybe(&app2, &game2, g);
        });
    });
    Ok(accepted(version, busy))
}

/// The end of a move's search: its move is played, unless nobody followed
/// the game any more, the game changed meanwhile or a stop dropped it;
/// then `moved` (the report, the move and the state after it) follows the
/// `state` event.
fn moved(g: &mut Game, pos: Position, (thought, abandoned): (Thought, bool)) {
    let best = thought.report.best;
    let keep = !abandoned && !g.drop_move && *g.line.position() == pos;
    let Some(best) = best.filter(|_| keep) else {
        g.changed();
        return;
    };
    g.line.play(best).expect("the engine plays legal moves");
    g.changed();
    let mut data = serde_json::to_value(ReportView::of(&pos, &thought)).unwrap_or_default();
    data["move"] = best.to_string().into();
    data["state"] = state_json(g);
    g.send("moved", data);
}

/// 202 with what the game is busy with and its version when the job was
/// asked for.
pub(super) fn accepted(version: u64, busy: Option<Busy>) -> Response {
    let busy = busy.map_or("waiting", Busy::name);
    (
        StatusCode::ACCEPTED,
        axum::Json(json!({ "busy": busy, "version": version })),
    )
        .into_response()
}

/// An analysis's listener: stops it when nobody follows the game.
pub(super) struct Watch {
    pub(super) presence: Arc<Presence>,
    pub(super) abandoned: bool,
}

impl Listener for Watch {
    fn progress(&mut self, _: &Progress) -> ControlFlow<()> {
        if followed(&self.presence) {
            ControlFlow::Continue(())
        } else {
            self.abandoned = true;
            ControlFlow::Break(())
        }
    }
}

/// `POST /api/games/{id}/analyze`: the engine reviews the whole line;
/// progress and the result come as events (and from `GET .../analysis`).
pub async fn start_analysis(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<BudgetRequest>,
) -> Result<Response, ApiError> {
    let limits = req
        .limits()?
        .or(crate::cli::defaults::SERVE_ANALYSIS.budget);
    let game = app.store.get(&id)?;
    let (version, busy, taken, line, rules) = {
        let mut g = lock(&game);
        let line = g.line.moves().to_vec();
        if line.is_empty() {
            return Err(ApiError::conflict("there is no placement to analyze yet"));
        }
        let taken = begin(&app, &mut g, Busy::Analyzing, req.version)?;
        (g.version, g.busy, taken, line, g.line.position().rules())
    };
    let end = Position::from_moves(rules, &line)
        .map_err(|_| ApiError::conflict("the game's line does not replay"))?;
    tokio::spawn(async move {
        let permit = threads_for(&app, &game, taken).await;
        let presence = lock(&game).presence.clone();
        let mut watch = Watch {
            presence: presence.clone(),
            abandoned: false,
        };
        let work = move |t: &mut Thinker| {
            analyze(t, &end, Some(limits), &mut watch, &mut |done, total| {
                let _ = presence.events.send(super::store::Event {
                    name: "analyzing",
                    data: json!({ "done": done, "total": total }).to_string(),
                });
            })
            .expect("the analysis's limits are checked (BudgetRequest::limits)")
        };
        run_job(
            &game,
            Busy::Analyzing,
            permit,
            work,
            move |g, (moves, summary)| {
                if moves.is_empty() && g.analysis.is_some() {
                    // Stopped before it finished a placement: the last
                    // analysis stays (or goes, if the line changed meanwhile).
                    g.changed();
                    return;
                }
                let analysis = Analysis {
                    complete: moves.len() == line.len(),
                    line,
                    moves,
                    summary,
                };
                let data = analysis_json(&analysis);
                g.analysis = Some(analysis);
                g.changed();
                g.send("analysis", data);
            },
        );
    });
    Ok(accepted(version, busy))
}

/// `GET /api/games/{id}/analysis`: the last analysis of the line.
pub async fn get_analysis(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<axum::Json<Value>, ApiError> {
    let game = app.store.get(&id)?;
    let g = lock(&game);
    g.analysis
        .as_ref()
        .map(|a| axum::Json(analysis_json(a)))
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "this game has not been analyzed"))
}

/// What a stop asks for.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopRequest {
    /// Whether a stopped search plays its move (it does unless `false`).
    play: Option<bool>,
}

/// `POST /api/games/{id}/stop`: ends the search (which then plays its best
/// move so far, or with `"play": false` none) or the analysis (which keeps
/// what it finished).
pub async fn stop(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<StopRequest>,
) -> Result<axum::Json<Value>, ApiError> {
    let game = app.store.get(&id)?;
    let mut g = lock(&game);
    let Some(busy) = g.busy else {
        return Err(ApiError::conflict(
            "the engine is not working for this game",
        ));
    };
    let play = req.play.unwrap_or(true);
    if !play {
        g.drop_move = true;
    }
    g.cancel_wait.store(true, Ordering::SeqCst);
    g.engine.stop();
    Ok(axum::Json(json!({ "stopping": busy.name(), "play": play })))
}

/// `GET /api/games/{id}/events`: the live channel, as server-sent events;
/// the first event, `state`, carries the game as it is.
pub async fn events(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let game = app.store.get(&id)?;
    let (rx, ready) = {
        let g = lock(&game);
        (g.presence.events.subscribe(), state_json(&g))
    };
    let first = tokio_stream::once(Ok(SseEvent::default()
        .event("state")
        .data(ready.to_string())));
    let rest = tokio_stream::wrappers::BroadcastStream::new(rx).filter_map(|e| {
        // A listener that fell behind skips what it missed (the next
        // `state` event brings it up to date).
        e.ok()
            .map(|e| Ok(SseEvent::default().event(e.name).data(e.data)))
    });
    // A comment every second: a page that has gone is noticed soon (its
    // stream fails), and the jobs of its game stop.
    Ok(Sse::new(first.chain(rest)).keep_alive(KeepAlive::new().interval(Duration::from_secs(1))))
}
