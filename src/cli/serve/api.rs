//! The JSON API of a game: create, read, place, undo/redo, go to a ply,
//! new game, load and save `.caminos` files, position codes, the legal
//! placements of a piece, and the SVG views (see docs/API.md).

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use cabra::engine::Budget;
use cabra::game::record::{parse_record, write_record};
use cabra::game::{
    Move, Piece, Player, Position, Rules, parse_move, parse_placement_or_cells, table,
};
use serde::Deserialize;
use serde_json::{Value, json};

use super::super::play::session::hint;
use super::super::svg::board::{self, Ghost, GhostKind, View};
use super::super::svg::top;
use super::App;
use super::guard::{ApiError, Body, Json};
use super::state::{Aim, aim, aimed_json, shapes_json, state_json, why};
use super::store::lock;
use crate::cli::defaults;

type Answer = Result<axum::Json<Value>, ApiError>;

/// `GET /api/shapes`: the pieces and their orientations.
pub async fn shapes() -> axum::Json<Value> {
    axum::Json(shapes_json())
}

/// `GET /api/info`: the server's version, limits and the size of its page.
pub async fn info(State(app): State<Arc<App>>) -> axum::Json<Value> {
    axum::Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "threads": app.threads,
        "max_games": app.store.max_games,
        "games": app.store.len(),
        "working": app.store.working(),
        "idle_seconds": app.store.idle.as_secs(),
        "memory_bytes": app.memory.cap(),
        "memory_used_bytes": app.memory.used(),
        "assets_bytes": super::assets::total_size(),
        "move_limits": limits_json(app.config.budget.or(defaults::SERVE.budget)),
        "analysis_limits": limits_json(defaults::SERVE_ANALYSIS.budget),
        "levels": super::coach::levels_json(),
        "level": app.config.level.unwrap_or(cabra::engine::levels::TOP),
        "ponder": app.ponder,
        "rules": app.rules.to_string(),
    }))
}

/// A budget as the page's fields hold it (absent: no limit).
fn limits_json(b: Budget) -> Value {
    json!({
        "time_ms": b.time.map(|t| t.as_millis() as u64),
        "iterations": b.iterations,
    })
}

/// The body of `create` and `new`: the rules (those of `cabra serve`'s
/// options when absent).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesRequest {
    rules: Option<String>,
}

impl RulesRequest {
    fn rules(&self, default: Rules) -> Result<Rules, ApiError> {
        match &self.rules {
            None => Ok(default),
            Some(text) => text
                .parse()
                .map_err(|e: cabra::game::RulesError| ApiError::bad(e.to_string())),
        }
    }
}

/// The body of `create`: the rules, and the engine as `engine` sets it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    rules: Option<String>,
    level: Option<u8>,
    elo: Option<i32>,
    sides: Option<Vec<u8>>,
}

/// `POST /api/games`: a new game for a tab.
pub async fn create(
    State(app): State<Arc<App>>,
    Json(req): Json<CreateRequest>,
) -> Result<Response, ApiError> {
    let rules = RulesRequest { rules: req.rules }.rules(app.rules)?;
    let (level, sides) = super::coach::EngineRequest {
        level: req.level,
        elo: req.elo,
        sides: req.sides,
    }
    .settings()?;
    let engine = app.engine();
    if let Some(n) = level {
        super::coach::set_level(&app, &engine, n);
    }
    let (_, game) = app.store.create(engine, rules)?;
    if let Some(sides) = sides {
        lock(&game).engine_sides = sides;
    }
    let state = state_json(&lock(&game));
    Ok((StatusCode::CREATED, axum::Json(state)).into_response())
}

/// `GET /api/games/{id}`: the state.
pub async fn get(State(app): State<Arc<App>>, Path(id): Path<String>) -> Answer {
    let game = app.store.get(&id)?;
    let g = lock(&game);
    Ok(axum::Json(state_json(&g)))
}

/// The body of a call that takes none: empty, or `{}` (anything else is
/// refused, as a field a call does not know is).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoFields {}

/// `DELETE /api/games/{id}`: forgets the game.
pub async fn delete(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Json(NoFields {}): Json<NoFields>,
) -> Answer {
    if app.store.remove(&id) {
        Ok(axum::Json(json!({ "deleted": id })))
    } else {
        Err(ApiError::new(StatusCode::NOT_FOUND, "no such game"))
    }
}

/// The body of `place`: a placement typed (`move`) or aimed (`aim`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceRequest {
    #[serde(rename = "move")]
    text: Option<String>,
    aim: Option<Aim>,
}

/// `POST /api/games/{id}/place`.
pub async fn place(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<PlaceRequest>,
) -> Answer {
    let game = app.store.get(&id)?;
    let mut g = lock(&game);
    g.ensure_idle()?;
    let p = match (&req.text, &req.aim) {
        (Some(text), None) => {
            let m = parse_move(text).map_err(|e| ApiError::bad(e.to_string()))?;
            if let Err(e) = g.line.position().check(m) {
                return Err(ApiError::unprocessable(format!(
                    "{m} is illegal: {}",
                    why(&e)
                )));
            }
            m
        }
        (None, Some(a)) => {
            let aimed = aim(g.line.position(), a)?;
            match (aimed.placement, aimed.reason) {
                (Some(p), None) => Move::Place(p),
                (Some(p), Some(r)) => {
                    return Err(ApiError::unprocessable(format!("{p} is illegal: {r}")));
                }
                (None, r) => return Err(ApiError::unprocessable(r.unwrap_or_default())),
            }
        }
        _ => return Err(ApiError::bad("give either `move` (notation) or `aim`")),
    };
    play(&mut g, p);
    g.changed();
    Ok(axum::Json(state_json(&g)))
}

/// Plays a legal move: the redo line is kept when it is its next move,
/// dropped otherwise.
pub fn play(g: &mut super::store::Game, m: Move) {
    g.line.play(m).expect("a legal move");
}

/// `POST /api/games/{id}/undo`.
pub async fn undo(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Json(NoFields {}): Json<NoFields>,
) -> Answer {
    let game = app.store.get(&id)?;
    let mut g = lock(&game);
    g.ensure_idle()?;
    if g.line.undo().is_none() {
        return Err(ApiError::conflict(if g.line.can_redo() {
            "nothing to undo: this is the start of the game (redo replays the placements taken back)"
        } else {
            "nothing to undo: no placement has been made"
        }));
    }
    g.changed();
    Ok(axum::Json(state_json(&g)))
}

/// `POST /api/games/{id}/redo`.
pub async fn redo(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Json(NoFields {}): Json<NoFields>,
) -> Answer {
    let game = app.store.get(&id)?;
    let mut g = lock(&game);
    g.ensure_idle()?;
    g.line
        .redo()
        .ok_or_else(|| ApiError::conflict("nothing to redo"))?;
    g.changed();
    Ok(axum::Json(state_json(&g)))
}

/// The body of `goto`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GotoRequest {
    ply: usize,
}

/// `POST /api/games/{id}/goto`: undo or redo to this ply of the line.
pub async fn goto(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<GotoRequest>,
) -> Answer {
    let game = app.store.get(&id)?;
    let mut g = lock(&game);
    g.ensure_idle()?;
    // Going where the game already is changes nothing (not its version).
    if req.ply != g.line.ply() {
        g.line
            .goto(req.ply)
            .map_err(|e| ApiError::bad(e.to_string()))?;
        g.changed();
    }
    Ok(axum::Json(state_json(&g)))
}

/// `POST /api/games/{id}/new`: the empty board, under the rules asked
/// for (the game's rules when absent).
pub async fn new_game(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<RulesRequest>,
) -> Answer {
    let game = app.store.get(&id)?;
    let mut g = lock(&game);
    g.ensure_idle()?;
    let rules = req.rules(g.line.position().rules())?;
    set_position(&mut g, Position::with_rules(rules), Vec::new());
    g.changed();
    Ok(axum::Json(state_json(&g)))
}

fn set_position(g: &mut super::store::Game, pos: Position, header: Vec<String>) {
    g.line.replace(pos);
    // A loaded file's count of hints goes on; another game starts at 0.
    g.hints = hint::taken(&header);
    g.header = header;
    g.analysis = None;
}

/// `POST /api/games/{id}/load`: the body is the bytes of a `.caminos`
/// file; a bad file is refused with its `line N: reason`.
pub async fn load(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Body(bytes): Body,
) -> Answer {
    let game = app.store.get(&id)?;
    let mut g = lock(&game);
    g.ensure_idle()?;
    let record = parse_record(&bytes).map_err(|e| ApiError {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        message: e.to_string(),
        line: Some(e.line),
    })?;
    set_position(&mut g, record.position, record.header);
    g.changed();
    Ok(axum::Json(state_json(&g)))
}

/// The query of `record`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordQuery {
    /// Save only the first `ply` moves of the line.
    ply: Option<usize>,
}

/// `GET /api/games/{id}/record`: the whole game (every move of its line,
/// whatever ply is shown) as a `.caminos` file, as `cabra play` saves it;
/// `?ply=N` its first N moves.
pub async fn record(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    query: Result<Query<RecordQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) =
        query.map_err(|e| ApiError::bad(format!("a bad query: {}", e.body_text())))?;
    let game = app.store.get(&id)?;
    let g = lock(&game);
    let mut upto = g.line;
    if let Some(ply) = query.ply {
        upto.goto(ply).map_err(|e| ApiError::bad(e.to_string()))?;
        upto.truncate();
    }
    let text = write_record(&hint::with_hints(&g.header, g.hints), upto.end());
    // A part of the game is named so: it does not pass for the whole.
    let disposition = match query.ply {
        Some(ply) => format!("attachment; filename=\"game-up-to-{ply}.caminos\""),
        None => "attachment; filename=\"game.caminos\"".to_string(),
    };
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// The body of `code`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodeRequest {
    code: String,
}

/// `POST /api/games/{id}/code`: the game of a position code.
pub async fn load_code(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<CodeRequest>,
) -> Answer {
    let game = app.store.get(&id)?;
    let mut g = lock(&game);
    g.ensure_idle()?;
    let pos = cabra::game::Position::from_code(&req.code)
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    set_position(&mut g, pos, Vec::new());
    g.changed();
    Ok(axum::Json(state_json(&g)))
}

/// The query of `legal`.
#[derive(Deserialize)]
pub struct LegalQuery {
    piece: Option<String>,
}

/// `GET /api/games/{id}/legal?piece=L`: the legal placements of a piece
/// for the side to move.
pub async fn legal(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    query: Result<Query<LegalQuery>, QueryRejection>,
) -> Answer {
    // Decoded as any query string is (`%4C` is `L`).
    let Query(query) =
        query.map_err(|e| ApiError::bad(format!("a bad query: {}", e.body_text())))?;
    let letter = query
        .piece
        .ok_or_else(|| ApiError::bad("say which piece: ?piece=L (or T, Z, O)"))?;
    let letter = letter.as_str();
    let piece = letter
        .chars()
        .next()
        .filter(|_| letter.len() == 1)
        .and_then(Piece::from_letter)
        .ok_or_else(|| ApiError::bad(format!("`{letter}` is not a piece: L, T, Z or O")))?;
    let game = app.store.get(&id)?;
    let g = lock(&game);
    let t = table();
    let moves: Vec<String> = t
        .placements_of(piece)
        .filter(|&p| g.line.position().check(p).is_ok())
        .map(|p| p.to_string())
        .collect();
    Ok(axum::Json(
        json!({ "piece": piece.to_string(), "moves": moves }),
    ))
}

/// A ghost asked for by the page.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GhostRequest {
    #[serde(rename = "move")]
    text: String,
    /// `line`, `better` or `idea`.
    kind: String,
    /// 1 or 2 (the side to move when absent).
    player: Option<u8>,
    label: Option<String>,
}

/// The body of `view`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ViewRequest {
    #[serde(default)]
    rotation: u8,
    layers: Option<u8>,
    #[serde(default)]
    ghosts: Vec<GhostRequest>,
    aim: Option<Aim>,
}

/// `POST /api/games/{id}/view`: the 3D view and the top view as SVG, with
/// ghosts, and what the aimed piece would do.
pub async fn view(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Json(req): Json<ViewRequest>,
) -> Answer {
    if req.rotation > 3 {
        return Err(ApiError::bad("rotation is 0 to 3 quarter turns"));
    }
    let layers = req.layers.unwrap_or(3);
    if !(1..=3).contains(&layers) {
        return Err(ApiError::bad("layers is 1 to 3"));
    }
    if req.ghosts.len() > 32 {
        return Err(ApiError::bad("at most 32 ghosts"));
    }
    let game = app.store.get(&id)?;
    let pos = *lock(&game).line.position();
    let mut ghosts = Vec::new();
    for gr in &req.ghosts {
        let p = parse_placement_or_cells(&gr.text)
            .map_err(|e| ApiError::bad(format!("a ghost is a placement: {e}")))?;
        let kind = match gr.kind.as_str() {
            "line" => GhostKind::Line,
            "better" => GhostKind::Better,
            "idea" => GhostKind::Idea,
            k => {
                return Err(ApiError::bad(format!(
                    "ghost kind `{k}`: line, better or idea"
                )));
            }
        };
        let player = match gr.player {
            None => pos.to_move(),
            Some(n @ 1..=2) => Player::of_parity(usize::from(n) - 1),
            Some(n) => return Err(ApiError::bad(format!("player {n}: 1 or 2"))),
        };
        ghosts.push(Ghost {
            cells: p
                .entry()
                .cells
                .cells()
                .map(|c| [c.x() as i8, c.y() as i8, c.z() as i8])
                .collect(),
            kind,
            player,
            label: gr.label.clone(),
        });
    }
    let aimed = req.aim.as_ref().map(|a| aim(&pos, a)).transpose()?;
    if let Some(a) = &aimed {
        ghosts.push(Ghost {
            cells: a.cells.clone(),
            kind: if a.reason.is_none() {
                GhostKind::Legal
            } else {
                GhostKind::Illegal
            },
            player: pos.to_move(),
            label: None,
        });
    }
    let v = View {
        rotation: req.rotation,
        layers,
        ghosts,
    };
    Ok(axum::Json(json!({
        "board": board::iso(&pos, &v),
        "top": top::top(&pos, &v),
        "aim": aimed.as_ref().map(aimed_json),
    })))
}
