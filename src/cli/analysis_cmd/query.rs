//! One query of `cabra analysis`: read from a JSON object and checked
//! field by field (a bad field is named in the error), and the answers it
//! gets, one per analyzed turn.

use std::time::Duration;

use crate::cli::defaults::{ANALYSIS, Options};
use cabra::engine::{
    Budget, EngineConfig, MAX_COUNT, ReportView, Request, Thought, group, parse_count,
    parse_duration,
};
use cabra::game::record::parse_record;
use cabra::game::{MOVE_COUNT, Position, Rules, parse_move};
use serde::Serialize;
use serde_json::{Map, Value};

/// Top moves listed when the query does not say.
pub const DEFAULT_TOP: usize = 5;

/// The keys a query may hold.
const FIELDS: &[&str] = &[
    "id",
    "rules",
    "moves",
    "game",
    "turns",
    "iterations",
    "time",
    "nodes",
    "top",
    "engine",
    "seed",
];

/// What a query leaves to the command line.
#[derive(Clone, Debug)]
pub struct Defaults {
    /// The engine configuration (`--engine`).
    pub config: EngineConfig,
    /// The command's options (`--time`, `--threads`, `--seed`, ...).
    pub options: Options,
}

/// A checked query.
#[derive(Clone, Debug)]
pub struct Query {
    /// The id, as given (a string or a number).
    pub id: Value,
    /// The whole game given.
    pub game: Position,
    /// The turns to analyze (placements made before each), in order.
    pub turns: Vec<usize>,
    /// The engine, completed from the command line.
    pub config: EngineConfig,
    /// The query's own limits, which win over the engine's.
    pub limits: Budget,
    /// Top moves to list.
    pub top: usize,
}

/// A query that cannot be run: its id (null when unknown) and why.
#[derive(Debug, Serialize)]
pub struct Failure {
    pub id: Value,
    pub error: String,
    /// The input line, where the id could not be read: all a script has
    /// to find the query by.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

impl Failure {
    /// A failure of the query (or action) of `id`.
    pub fn new(id: &Value, error: impl Into<String>) -> Failure {
        Failure {
            id: id.clone(),
            error: error.into(),
            line: None,
        }
    }
}

/// The id of the object `q`, which every query and action must have.
pub fn id_of(q: &Map<String, Value>) -> Result<Value, Failure> {
    match q.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => Ok(id.clone()),
        // Not an id: the answer says `null`, and the line finds the query.
        Some(other) if !other.is_null() => Err(Failure::new(
            &Value::Null,
            format!("\"id\" must be a string or a number, not {other}"),
        )),
        _ => Err(Failure::new(
            &Value::Null,
            "\"id\" (a string or a number) is required",
        )),
    }
}

/// The JSON object on one line of input.
pub fn object(line: &str) -> Result<Map<String, Value>, Failure> {
    // A file saved by an editor that marks UTF-8 starts with a BOM.
    let line = line.strip_prefix('\u{feff}').unwrap_or(line);
    let value: Value = serde_json::from_str(line)
        .map_err(|e| Failure::new(&Value::Null, format!("not JSON: {e}")))?;
    match value {
        Value::Object(q) => Ok(q),
        _ => Err(Failure::new(&Value::Null, "a query is a JSON object")),
    }
}

/// Reads a count from a number or a string such as `50k`.
fn count(v: &Value, key: &str) -> Result<u64, String> {
    match v {
        // 1e3 and 2.0 are whole numbers too; the cap is the one of "50k"
        // strings, so that no query holds a worker for ever.
        Value::Number(n) => n
            .as_u64()
            .map(|n| n as f64)
            .or_else(|| n.as_f64())
            .filter(|v| v.fract() == 0.0 && (1.0..=MAX_COUNT as f64).contains(v))
            .map(|v| v as u64)
            .ok_or_else(|| {
                format!(
                    "\"{key}\" must be a whole number from 1 to {}",
                    group(MAX_COUNT)
                )
            }),
        Value::String(s) => parse_count(s).map_err(|e| format!("\"{key}\": {e}")),
        _ => Err(format!(
            "\"{key}\" must be a number or a string such as \"50k\""
        )),
    }
}

/// Reads a duration from seconds or a string such as `200ms`.
fn duration(v: &Value) -> Result<Duration, String> {
    match v {
        Value::Number(n) => n
            .as_f64()
            .filter(|s| *s > 0.0 && *s < 1e7)
            .map(Duration::from_secs_f64)
            // Below a nanosecond is no time either.
            .filter(|d| !d.is_zero())
            .ok_or_else(|| {
                "\"time\" must be a number of seconds above 0 and below 10,000,000".to_string()
            }),
        Value::String(s) => parse_duration(s).map_err(|e| format!("\"time\": {e}")),
        _ => Err("\"time\" must be seconds or a string such as \"200ms\"".into()),
    }
}

/// The game of the query: `moves` (placements in notation or as twelve
/// digits, `swap`, `tm`) under `rules`, or `game` (the text of a
/// `.caminos` file, whose rules line must agree with `rules`).
fn game(q: &Map<String, Value>) -> Result<Position, String> {
    let rules = match q.get("rules") {
        None => None,
        Some(Value::String(r)) => Some(r.parse::<Rules>().map_err(|e| format!("\"rules\": {e}"))?),
        Some(_) => return Err("\"rules\" must be a string such as \"bridget swap\"".into()),
    };
    match (q.get("moves"), q.get("game")) {
        (Some(_), Some(_)) => Err("give \"moves\" or \"game\", not both".into()),
        (Some(Value::Array(moves)), None) => {
            let mut pos = Position::with_rules(rules.unwrap_or_default());
            for (i, m) in moves.iter().enumerate() {
                let text = m
                    .as_str()
                    .ok_or_else(|| format!("\"moves\"[{i}] is not a string"))?;
                let mv = parse_move(text).map_err(|e| format!("\"moves\"[{i}]: {e}"))?;
                pos.play(mv)
                    .map_err(|e| format!("\"moves\"[{i}] {mv} is illegal: {e}"))?;
            }
            Ok(pos)
        }
        (Some(_), None) => Err("\"moves\" must be an array of placements".into()),
        (None, Some(Value::String(text))) => {
            let pos = parse_record(text.as_bytes())
                .map(|r| r.position)
                .map_err(|e| format!("\"game\": {e}"))?;
            match rules {
                Some(r) if r != pos.rules() => Err(format!(
                    "\"game\" is played under the {} rules, but \"rules\" says {r}",
                    pos.rules()
                )),
                _ => Ok(pos),
            }
        }
        (None, Some(_)) => Err("\"game\" must be the text of a .caminos file".into()),
        (None, None) => Ok(Position::with_rules(rules.unwrap_or_default())),
    }
}

/// The turns to analyze: a list of placement counts, or `"all"`.
fn turns(v: Option<&Value>, plies: usize) -> Result<Vec<usize>, String> {
    match v {
        None => Ok(vec![plies]),
        Some(Value::String(s)) if s == "all" => Ok((0..=plies).collect()),
        Some(Value::Array(list)) if !list.is_empty() => list
            .iter()
            .map(|t| {
                // 3.0 is a whole number too, as in the limits.
                let whole = t
                    .as_u64()
                    .or_else(|| t.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0).map(|f| f as u64));
                match whole {
                    Some(n) if n as usize <= plies => Ok(n as usize),
                    Some(n) => Err(format!(
                        "\"turns\": {n} is not a turn of this game (0 to {plies})"
                    )),
                    None => Err(format!(
                        "\"turns\": {t} is not a turn: turns are whole numbers of moves made (0 to {plies})"
                    )),
                }
            })
            .collect(),
        Some(_) => Err("\"turns\" must be \"all\" or a non-empty array of turns".into()),
    }
}

impl Query {
    /// Reads a query from its JSON object.
    pub fn of(q: &Map<String, Value>, defaults: &Defaults) -> Result<Query, Failure> {
        let id = id_of(q)?;
        let fail = |error: String| Failure::new(&id, error);
        if let Some(k) = q.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            return Err(fail(format!(
                "unknown field \"{k}\" (fields: {})",
                FIELDS.join(", ")
            )));
        }
        // A field given as null is not given (Python's None), as KataGo
        // reads it.
        let q: Map<String, Value> = q
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let q = &q;
        let game = game(q).map_err(fail)?;
        let turns = turns(q.get("turns"), game.plies()).map_err(fail)?;
        let config = match q.get("engine") {
            None => defaults.config.clone(),
            Some(Value::String(s)) => EngineConfig::parse(s)
                .map_err(|e| fail(format!("\"engine\": {}", crate::cli::chain(&e))))?,
            Some(_) => return Err(fail("\"engine\" must be a configuration string".into())),
        };
        let mut own = Budget::UNLIMITED;
        if let Some(v) = q.get("iterations") {
            own.iterations = Some(count(v, "iterations").map_err(fail)?);
        }
        if let Some(v) = q.get("nodes") {
            own.nodes = Some(count(v, "nodes").map_err(fail)?);
        }
        if let Some(v) = q.get("time") {
            own.time = Some(duration(v).map_err(fail)?);
        }
        let mut config = defaults.options.complete(&config, &ANALYSIS);
        // Read as the counts are (`3`, `3.0`, `"3"`), then within the moves.
        let top = match q.get("top") {
            None => DEFAULT_TOP,
            Some(v) => match count(v, "top") {
                Ok(n) if n <= MOVE_COUNT as u64 => n as usize,
                _ => return Err(fail(format!("\"top\" must be 1 to {MOVE_COUNT}"))),
            },
        };
        if let Some(v) = q.get("seed") {
            config.seed = Some(v.as_u64().ok_or_else(|| {
                fail(format!(
                    "\"seed\" must be a whole number from 0 to {}",
                    u64::MAX
                ))
            })?);
        }
        Ok(Query {
            id,
            game,
            turns,
            config,
            limits: own,
            top,
        })
    }

    /// The position at `turn` (after that many moves).
    pub fn position(&self, turn: usize) -> Position {
        let mut pos = Position::with_rules(self.game.rules());
        for &m in &self.game.moves()[..turn] {
            pos.play_move_unchecked(m);
        }
        pos
    }

    /// The search of `turn`: from scratch, so that every position gets the
    /// same effort and its answer does not depend on the other turns; the
    /// search of `cabra search` (the move to play), so that the two agree.
    pub fn request(&self, turn: usize) -> Request {
        Request::new(self.position(turn))
            .limits(self.limits.limited())
            .top_moves(self.top)
            .fresh()
    }
}

/// The answer for one turn: the game at that turn and the search's
/// report (none once the game is over), its fields side by side.
#[derive(Debug, Serialize)]
pub struct Answer {
    pub id: Value,
    pub turn: usize,
    /// The move the game given makes at this turn (null at its end).
    pub played: Option<String>,
    /// The rules of the game (`caminos`, `bridget swap`, ...).
    pub rules: String,
    /// 1 or 2; null once the game is over.
    pub to_move: Option<u8>,
    /// `ongoing`, `p1`, `p2` or `draw`.
    pub result: &'static str,
    /// The report, as every front end gives it.
    #[serde(flatten)]
    pub report: Option<ReportView>,
}

impl Answer {
    /// The answer at `turn` of the query's game (`pos` is the position
    /// there), with the search's `thought` (none for a finished game).
    pub fn new(q: &Query, turn: usize, pos: &Position, thought: Option<&Thought>) -> Answer {
        let status = pos.status();
        Answer {
            id: q.id.clone(),
            turn,
            played: q.game.moves().get(turn).map(|m| m.to_string()),
            rules: q.game.rules().to_string(),
            to_move: (!status.is_over()).then(|| pos.to_move().number()),
            result: status.code(),
            report: thought.map(|t| ReportView::of(pos, t)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str, defaults: &Defaults) -> Result<Query, Failure> {
        Query::of(&object(line)?, defaults)
    }

    fn defaults() -> Defaults {
        Defaults {
            config: EngineConfig::default(),
            options: Options {
                budget: Budget::iterations(1000),
                threads: None,
                seed: Some(4),
            },
        }
    }

    /// The limits a query's searches get.
    fn budget(q: &Query) -> Budget {
        let engine = ANALYSIS.handle(q.config.clone());
        engine.budget(&q.request(0))
    }

    fn error(line: &str) -> String {
        parse(line, &defaults()).unwrap_err().error
    }

    #[test]
    fn queries_read_their_fields_and_defaults() {
        let q = parse(
            r#"{"id":"a","moves":["L E180 110","330 340 430 440"],"turns":"all","top":3}"#,
            &defaults(),
        )
        .unwrap();
        assert_eq!(
            (q.game.plies(), q.turns.clone(), q.top),
            (2, vec![0, 1, 2], 3)
        );
        assert_eq!(
            (budget(&q), q.config.seed),
            (Budget::iterations(1000), Some(4))
        );
        assert_eq!(q.position(1).plies(), 1);
        let q = parse(
            r#"{"id":"s","rules":"swap","moves":["L E180 110","swap"],"turns":[2]}"#,
            &defaults(),
        )
        .unwrap();
        assert!(q.position(2).swapped());
        let q = parse(
            r#"{"id":7,"game":"110 120 121 122\n","time":"50ms","engine":"baseline","seed":2}"#,
            &defaults(),
        )
        .unwrap();
        assert_eq!(q.turns, vec![1]);
        assert_eq!(budget(&q), Budget::time(Duration::from_millis(50)));
        assert!(!q.config.reuse);
        assert_eq!(q.config.seed, Some(2));
        // A top as a whole float or a string, as the counts take them.
        for top in ["2.0", "\"2\""] {
            let q = parse(&format!(r#"{{"id":9,"top":{top}}}"#), &defaults()).unwrap();
            assert_eq!(q.top, 2);
        }
        assert!(error(r#"{"id":9,"top":2.5}"#).contains("\"top\" must be 1 to"));
        assert!(error(r#"{"id":9,"top":99999}"#).contains("\"top\" must be 1 to"));
        // Fields given as null are not given.
        let q = parse(
            r#"{"id":8,"moves":null,"time":null,"turns":null,"top":null,"seed":null}"#,
            &defaults(),
        )
        .unwrap();
        assert_eq!(
            (q.game.plies(), q.turns.clone(), q.top),
            (0, vec![0], DEFAULT_TOP)
        );
        assert_eq!(budget(&q), Budget::iterations(1000));
        // A limit in the engine string wins over the command's.
        let q = parse(r#"{"id":1,"engine":"iterations=20"}"#, &defaults()).unwrap();
        assert_eq!(budget(&q), Budget::iterations(20));
    }

    #[test]
    fn bad_queries_say_what_is_wrong() {
        assert!(error("{").contains("not JSON"));
        // A byte order mark before the object is no part of it.
        assert!(object("\u{feff}{\"id\": 1}").is_ok());
        assert!(error("[1]").contains("JSON object"));
        assert!(error(r#"{"moves":[]}"#).contains("\"id\""));
        assert!(error(r#"{"id":1,"iteration":5}"#).contains("unknown field \"iteration\""));
        assert!(error(r#"{"id":true}"#).contains("must be a string or a number, not true"));
        assert!(error(r#"{"moves":[]}"#).contains("is required"));
        assert!(error(r#"{"id":1,"moves":["L E180 110","L E180 110"]}"#).contains("illegal"));
        assert!(error(r#"{"id":1,"moves":["Q"]}"#).contains("\"moves\"[0]"));
        assert!(error(r#"{"id":1,"moves":"L E180 110"}"#).contains("array"));
        assert!(error(r#"{"id":1,"moves":[],"game":""}"#).contains("not both"));
        assert!(error(r#"{"id":1,"game":"110 110 121 122"}"#).contains("line 1"));
        assert!(error(r#"{"id":1,"turns":[2]}"#).contains("0 to 0"));
        assert!(error(r#"{"id":1,"iterations":0}"#).contains("iterations"));
        // Whole numbers however written, and the cap of "50k" strings.
        let q = parse(r#"{"id":1,"iterations":1e3}"#, &defaults()).unwrap();
        assert_eq!(budget(&q), Budget::iterations(1000));
        for big in ["9223372036854775808", "1e13", "2.5"] {
            let e = error(&format!(r#"{{"id":1,"iterations":{big}}}"#));
            assert!(e.contains("from 1 to 1,000,000,000,000"), "{big}: {e}");
        }
        assert!(error(r#"{"id":1,"time":-1}"#).contains("time"));
        assert!(error(r#"{"id":1,"top":0}"#).contains("top"));
        assert!(error(r#"{"id":1,"engine":"c=-1"}"#).contains("engine"));
        assert!(error(r#"{"id":1,"seed":-3}"#).contains("seed"));
        assert!(error(r#"{"id":1,"rules":"chess"}"#).contains("rules"));
        assert!(
            error(r#"{"id":1,"rules":"bridget","game":"110 120 121 122"}"#)
                .contains("caminos rules")
        );
        let f = parse(r#"{"id":"x","top":"many"}"#, &defaults()).unwrap_err();
        assert_eq!(f.id, Value::String("x".into()));
    }
}
