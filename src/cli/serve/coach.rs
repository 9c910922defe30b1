//! An opponent for every player: the strength levels a game's engine
//! may play at, the sides it plays, and hints (the full engine's
//! suggestion for the side to move, counted as `cabra play` counts them).

use std::sync::Arc;

use axum::extract::{Path, State};
use cabra::engine::levels::{LEVELS, Level, TOP};
use cabra::engine::{EngineHandle, Listener, Progress, ReportView, Request, Thinker, Thought};
use cabra::game::Move;
use serde::Deserialize;
use serde_json::{Value, json};
use std::ops::ControlFlow;

use super::App;
use super::guard::{ApiError, Json};
use super::jobs::{BudgetRequest, REPORT_EVERY, begin, run_job, threads_for};
use super::state::state_json;
use super::store::{Busy, lock};

/// A level's words for a player choosing an opponent.
fn description(l: &Level) -> String {
    match l.iterations {
        None => "the full engine, on the page's thinking time".to_string(),
        Some(0) => "random legal moves: the reference of the ratings".to_string(),
        Some(n) => {
            let search = match n {
                1 => "looks one move ahead".to_string(),
                n => format!("searches {n} iterations a move"),
            };
            match l.randomness {
                0 => search,
                r => format!("{search}, {r}% of its moves at random"),
            }
        }
    }
}

/// Every level, as `GET /api/info` lists them.
pub fn levels_json() -> Value {
    LEVELS
        .iter()
        .map(|l| {
            json!({
                "number": l.number,
                "elo": l.elo,
                "interval": l.interval,
                "top": l.is_top(),
                "description": description(l),
            })
        })
        .collect()
}

/// The body of `engine`: the game's level and the sides its engine plays.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineRequest {
    pub(super) level: Option<u8>,
    /// Level whose rating is nearest to this.
    pub(super) elo: Option<i32>,
    /// The players the engine plays (1, 2, both or none).
    pub(super) sides: Option<Vec<u8>>,
}

impl EngineRequest {
    /// The level and the sides asked for, checked.
    pub fn settings(&self) -> Result<(Option<u8>, Option<[bool; 2]>), ApiError> {
        let level = match (self.level, self.elo) {
            (Some(_), Some(_)) => return Err(ApiError::bad("give `level` or `elo`, not both")),
            (Some(n), None) if n > TOP => {
                return Err(ApiError::bad(format!(
                    "level {n}: the levels are 0 to {TOP} (GET /api/info lists them)"
                )));
            }
            (Some(n), None) => Some(n),
            (None, Some(e)) => Some(Level::nearest(e).number),
            (None, None) => None,
        };
        let sides = match &self.sides {
            None => None,
            Some(list) => {
                let mut sides = [false; 2];
                for &n in list {
                    if !(1..=2).contains(&n) {
                        return Err(ApiError::bad(format!("side {n}: the players are 1 and 2")));
                    }
                    sides[usize::from(n) - 1] = true;
                }
                Some(sides)
            }
        };
        Ok((level, sides))
    }
}

/// Makes `engine` play at level `n` (the top gets the full engine's threads).
pub fn set_level(app: &App, engine: &EngineHandle, n: u8) {
    let mut config = engine.config();
    if config.set_level(n).is_err() {
        return; // the requests' levels are checked when read
    }
    if Level::get(n).is_some_and(Level::is_top) {
        config.threads = Some(app.top_threads);
    }
    if config != engine.config() {
        engine.set_config(config);
    }
}

/// `POST /api/games/{id}/engine`: sets the game's strength level and
/// the sides its engine plays; the state.
pub async fn engine(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<EngineRequest>,
) -> Result<axum::Json<Value>, ApiError> {
    let (level, sides) = req.settings()?;
    let game = app.store.get(&id)?;
    let mut g = lock(&game);
    if let Some(n) = level {
        // The engine's configuration changes between searches only.
        g.ensure_idle()?;
        g.stop_ponder();
        set_level(&app, &g.engine, n);
    }
    if let Some(sides) = sides.filter(|&s| s != g.engine_sides) {
        // Who plays is the page's: no new version (an engine move the
        // page asked for at this version goes on), but no ponder of a
        // turn that is no longer a human's against the engine.
        g.stop_ponder();
        g.engine_sides = sides;
    }
    if level.is_some() {
        g.changed();
    }
    super::ponder::maybe(&app, &game, &mut g);
    Ok(axum::Json(state_json(&g)))
}

/// A hint's listener: only stops when told (the request waits for it).
struct Quiet;

impl Listener for Quiet {
    fn progress(&mut self, _: &Progress) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// `POST /api/games/{id}/hint`: the full engine's suggestion for the
/// side to move (an analysis's search, whatever the game's level), on
/// the limits asked for (the engine's move limits otherwise); the game
/// counts it. The answer comes when the search ends (`/stop` ends it
/// early with its best so far).
pub async fn hint(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<BudgetRequest>,
) -> Result<axum::Json<Value>, ApiError> {
    let limits = req.limits()?;
    let game = app.store.get(&id)?;
    let (taken, pos) = {
        let mut g = lock(&game);
        if g.line.position().status().is_over() {
            return Err(ApiError::conflict(
                "the game is over: there is nothing to suggest",
            ));
        }
        let taken = begin(&app, &mut g, Busy::Hinting, req.version())?;
        (taken, *g.line.position())
    };
    let (tx, rx) = tokio::sync::oneshot::channel::<Value>();
    let permit = threads_for(&app, &game, taken).await;
    let request = Request::analysis(pos)
        .limits(limits.limited())
        .report_every(REPORT_EVERY);
    let work = move |t: &mut Thinker| {
        t.search(&request, &mut Quiet)
            .expect("a hint's limits are checked (BudgetRequest::limits)")
    };
    let (app2, game2) = (app.clone(), game.clone());
    run_job(&game, Busy::Hinting, permit, work, move |g, t: Thought| {
        let unchanged = *g.line.position() == pos;
        let answer = match t.report.best {
            Some(best) if unchanged => {
                g.hints += 1;
                g.changed();
                let mut v = serde_json::to_value(ReportView::of(&pos, &t)).unwrap_or_default();
                v["move"] = best.to_string().into();
                v["placement"] = matches!(best, Move::Place(_)).into();
                v["hints"] = g.hints.into();
                v["state"] = state_json(g);
                v
            }
            _ => {
                g.changed();
                json!({ "error": "the engine found no placement to suggest" })
            }
        };
        super::ponder::maybe(&app2, &game2, g);
        let _ = tx.send(answer);
    });
    let answer = rx
        .await
        .map_err(|_| ApiError::conflict("the engine failed (a bug); it was restarted"))?;
    if let Some(e) = answer.get("error").and_then(Value::as_str) {
        return Err(ApiError::conflict(e.to_string()));
    }
    Ok(axum::Json(answer))
}
