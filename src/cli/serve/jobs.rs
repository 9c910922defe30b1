//! The engine's work for a game, off the async threads: a move search
//! (`think`) or a whole-game analysis, each in `spawn_blocking` once it
//! holds as many permits of the server's thread pool as it uses threads,
//! reporting on the game's live channel (server-sent events), stoppable.

use std::convert::Infallible;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use cabra::engine::analysis::analyse;
use cabra::engine::{Budget, Engine};
use cabra::game::{Move, Position};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio_stream::{Stream, StreamExt};

use super::App;
use super::api::play;
use super::guard::{ApiError, Json};
use super::state::{analysis_json, state_json};
use super::store::{Analysis, Busy, Game, lock};

/// Iterations per search of an analysis when the page sets no budget.
pub const ANALYSIS_ITERATIONS: u64 = 20_000;

/// A budget asked for by the page.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BudgetRequest {
    time_ms: Option<u64>,
    iterations: Option<u64>,
}

impl BudgetRequest {
    /// The budget, `default` when none is given; 400 when out of range.
    fn budget(&self, default: Budget) -> Result<Budget, ApiError> {
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
        }
        .or(default))
    }
}

/// Takes the engine of an idle game for a job; the game is then busy.
fn start(g: &mut Game, busy: Busy) -> Result<Engine, ApiError> {
    g.ensure_idle()?;
    let engine = g
        .engine
        .take()
        .ok_or_else(|| ApiError::conflict("the engine is busy"))?;
    g.stop.store(false, Ordering::SeqCst);
    g.busy = Some(busy);
    Ok(engine)
}

/// Waits for threads, then runs `work` on a blocking thread; gives the
/// engine back to the game (a new one if the work panicked).
async fn run<T: Send + 'static>(
    app: Arc<App>,
    game: Arc<Mutex<Game>>,
    busy: Busy,
    engine: Engine,
    work: impl FnOnce(&mut Engine) -> T + Send + 'static,
) -> Option<T> {
    let permits = engine.threads().min(app.threads) as u32;
    let stop = lock(&game).stop.clone();
    // A job stopped while it waits for threads stops waiting: its work
    // then ends at once (a search still answers with a short one).
    let permit = tokio::select! {
        p = app.permits.clone().acquire_many_owned(permits) => p.ok(),
        () = async {
            while !stop.load(Ordering::SeqCst) {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        } => None,
    };
    {
        let mut g = lock(&game);
        g.busy = Some(busy);
        g.send("started", json!({ "busy": busy.name() }));
    }
    let result = tokio::task::spawn_blocking(move || {
        let mut engine = engine;
        let out = work(&mut engine);
        (engine, out)
    })
    .await;
    drop(permit);
    let mut g = lock(&game);
    g.busy = None;
    // Time spent working is not idle time.
    g.last_used = std::time::Instant::now();
    match result {
        Ok((engine, out)) => {
            g.engine = Some(engine);
            Some(out)
        }
        Err(_) => {
            let mut engine = app.engine();
            engine.share_stop_flag(g.stop.clone());
            g.engine = Some(engine);
            g.send(
                "failed",
                json!({ "error": "the engine failed; it was restarted" }),
            );
            None
        }
    }
}

/// `POST /api/games/{id}/think`: the engine searches for the side to move
/// and plays its choice; progress and the move come as events.
pub async fn think(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<BudgetRequest>,
) -> Result<Response, ApiError> {
    let game = app.store.get(&id)?;
    let (engine, pos, budget) = {
        let mut g = lock(&game);
        if g.line.position().status().is_over() {
            return Err(ApiError::conflict(
                "the game is over: nothing to think about",
            ));
        }
        let default = g
            .engine
            .as_ref()
            .map(|e| e.budget().or(Budget::time(Duration::from_secs(1))))
            .unwrap_or_default();
        let budget = req.budget(default)?;
        (start(&mut g, Busy::Waiting)?, *g.line.position(), budget)
    };
    let (app2, game2) = (app.clone(), game.clone());
    tokio::spawn(async move {
        let events = lock(&game2).events.clone();
        let chosen = run(app2, game2.clone(), Busy::Thinking, engine, move |engine| {
            let t = engine.think(&pos, budget, &mut |p| {
                let r = p.report;
                let data = json!({
                    "elapsed_ms": p.elapsed.as_millis() as u64,
                    "fraction": p.fraction,
                    "iterations": r.iterations,
                    "nodes": r.nodes,
                    "winrate": r.winrate,
                    "player": pos.to_move().number(),
                    "best": r.best.map(|b| b.to_string()),
                    "pv": r.pv.iter().map(Move::to_string).collect::<Vec<_>>(),
                });
                let _ = events.send(super::store::Event {
                    name: "thinking",
                    data: data.to_string(),
                });
            });
            let best = t.report.best;
            (t, best)
        })
        .await;
        let mut g = lock(&game2);
        let Some((t, best)) = chosen else { return };
        let Some(best) = best.filter(|_| *g.line.position() == pos) else {
            g.send("idle", json!({}));
            return;
        };
        play(&mut g, best);
        let r = &t.report;
        let moved = json!({
            "move": best.to_string(),
            "interrupted": t.interrupted,
            "winrate": r.winrate,
            "iterations": r.iterations,
            "seconds": r.seconds,
            "pv": r.pv.iter().map(Move::to_string).collect::<Vec<_>>(),
            "state": state_json(&id, &g),
        });
        g.send("moved", moved);
    });
    Ok((
        StatusCode::ACCEPTED,
        axum::Json(json!({ "busy": "waiting" })),
    )
        .into_response())
}

/// `POST /api/games/{id}/analyse`: the engine reviews the whole line;
/// progress and the result come as events (and from `GET .../analysis`).
pub async fn start_analysis(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<BudgetRequest>,
) -> Result<Response, ApiError> {
    let budget = req.budget(Budget::iterations(ANALYSIS_ITERATIONS))?;
    let game = app.store.get(&id)?;
    let (engine, line) = {
        let mut g = lock(&game);
        let line = g.line.moves().to_vec();
        if line.is_empty() {
            return Err(ApiError::conflict("there is no placement to analyse yet"));
        }
        (start(&mut g, Busy::Waiting)?, line)
    };
    let rules = lock(&game).line.position().rules();
    let end = Position::from_moves(rules, &line)
        .map_err(|_| ApiError::conflict("the game's line does not replay"))?;
    let (app2, game2) = (app.clone(), game.clone());
    tokio::spawn(async move {
        let events = lock(&game2).events.clone();
        let done = run(
            app2,
            game2.clone(),
            Busy::Analysing,
            engine,
            move |engine| {
                let top_moves = engine.config().search.top_moves;
                let out = analyse(engine, &end, budget, &mut |done, total| {
                    let _ = events.send(super::store::Event {
                        name: "analysing",
                        data: json!({ "done": done, "total": total }).to_string(),
                    });
                });
                engine.set_top_moves(top_moves);
                out
            },
        )
        .await;
        let Some((moves, summary)) = done else { return };
        let mut g = lock(&game2);
        if moves.is_empty() && g.analysis.is_some() {
            // Stopped before it finished a placement: the last analysis
            // stays (or goes, if the line changed meanwhile).
            g.keep_analysis_if_current();
            g.send("idle", json!({}));
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
        g.keep_analysis_if_current();
        g.send("analysis", data);
    });
    Ok((
        StatusCode::ACCEPTED,
        axum::Json(json!({ "busy": "waiting" })),
    )
        .into_response())
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
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "this game has not been analysed"))
}

/// `POST /api/games/{id}/stop`: ends the search (which then plays its best
/// move so far) or the analysis (which keeps what it finished).
pub async fn stop(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<axum::Json<Value>, ApiError> {
    let game = app.store.get(&id)?;
    let g = lock(&game);
    let Some(busy) = g.busy else {
        return Err(ApiError::conflict(
            "the engine is not working for this game",
        ));
    };
    g.stop.store(true, Ordering::SeqCst);
    Ok(axum::Json(json!({ "stopping": busy.name() })))
}

/// `GET /api/games/{id}/events`: the live channel, as server-sent events;
/// the first event, `ready`, carries the state.
pub async fn events(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let game = app.store.get(&id)?;
    let (rx, ready) = {
        let g = lock(&game);
        (g.events.subscribe(), state_json(&id, &g))
    };
    let first = tokio_stream::once(Ok(SseEvent::default()
        .event("ready")
        .data(ready.to_string())));
    let rest = tokio_stream::wrappers::BroadcastStream::new(rx).filter_map(|e| {
        // A listener that fell behind skips what it missed.
        e.ok()
            .map(|e| Ok(SseEvent::default().event(e.name).data(e.data)))
    });
    Ok(Sse::new(first.chain(rest)).keep_alive(KeepAlive::default()))
}
