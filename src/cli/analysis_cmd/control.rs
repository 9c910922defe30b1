//! Stopping queries of `cabra analysis` before their end, as KataGo's
//! analysis engine does: `{"id": .., "action": "terminate", "terminate_id":
//! ..}` stops the queries of that id read before it, `{"id": ..,
//! "action": "terminate_all"}` every query read before it. A search under
//! way stops and is answered as it stands (`interrupted`); a turn not yet
//! searched is answered `{"id", "turn", "terminated": true}`.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use cabra::engine::Stopper;
use serde_json::{Map, Value, json};

use super::query::{Failure, id_of};

/// What a query is known by here: its id as JSON text, and its place in
/// the input (a terminate affects the queries read before it only).
#[derive(Clone, Debug)]
pub struct Tag {
    pub key: String,
    pub seq: u64,
}

impl Tag {
    pub fn new(id: &Value, seq: u64) -> Tag {
        Tag { key: key(id), seq }
    }
}

/// What ids are compared by: a string as it is, a number by its value
/// (`5`, `5.0` and `5e0` are one id), a whole number exactly (two ids
/// above 2^53 that one double would hold stay two).
pub fn key(id: &Value) -> String {
    match id {
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => format!("#{u}"),
            (_, Some(i), _) => format!("#{i}"),
            (_, _, Some(f)) if f.fract() == 0.0 && f.abs() < 1e20 => format!("#{}", f as i128),
            (_, _, f) => format!("#{}", f.unwrap_or(f64::NAN)),
        },
        other => other.to_string(),
    }
}

/// The terminations asked for, and the queries the workers run.
pub struct Control {
    inner: Mutex<Inner>,
    /// A signal came: no query starts any more.
    closed: AtomicBool,
}

struct Inner {
    /// For each id terminated, the place of the last terminate.
    by_id: HashMap<String, u64>,
    /// The place of the last `terminate_all`.
    all_before: u64,
    /// The query each worker runs (or ran last), and what stops it.
    running: Vec<Option<(Tag, Stopper)>>,
}

impl Inner {
    fn terminated(&self, tag: &Tag) -> bool {
        tag.seq < self.all_before || self.by_id.get(&tag.key).is_some_and(|&s| tag.seq < s)
    }
}

impl Control {
    pub fn new(workers: usize) -> Control {
        Control {
            inner: Mutex::new(Inner {
                by_id: HashMap::new(),
                all_before: 0,
                running: (0..workers).map(|_| None).collect(),
            }),
            closed: AtomicBool::new(false),
        }
    }

    /// After a signal: stops the searches under way (they answer as
    /// they stand) and starts no query again.
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.terminate(None, u64::MAX);
    }

    /// Whether [`Control::close`] was called.
    pub fn closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `start` for the query `tag` on `worker` unless it was
    /// terminated (then `false`), as one step with respect to
    /// [`Control::terminate`], so that no terminate misses it.
    pub fn start(&self, worker: usize, tag: Tag, start: impl FnOnce() -> Stopper) -> bool {
        let mut inner = self.lock();
        if inner.terminated(&tag) {
            return false;
        }
        inner.running[worker] = Some((tag, start()));
        true
    }

    /// Terminates the queries read before `seq` whose id is `key` (all of
    /// them without one), and stops those that run.
    pub fn terminate(&self, key: Option<&str>, seq: u64) {
        let mut inner = self.lock();
        match key {
            Some(k) => {
                inner.by_id.insert(k.to_string(), seq);
            }
            None => inner.all_before = seq,
        }
        for (tag, stopper) in inner.running.iter().flatten() {
            if tag.seq < seq && key.is_none_or(|k| k == tag.key) {
                stopper.stop();
            }
        }
    }
}

/// An action read from a query line, and its acknowledgement.
pub struct Action {
    /// The id of the queries to terminate (all without one).
    pub target: Option<Value>,
    /// What is written back once it has taken effect.
    pub ack: Value,
}

/// The action in the object `q` (which has an `"action"` field).
pub fn parse_action(q: &Map<String, Value>) -> Result<Action, Failure> {
    let id = id_of(q)?;
    let fail = |error: String| Failure::new(&id, error);
    let fields: &[&str] = match q.get("action").and_then(Value::as_str) {
        Some("terminate") => &["id", "action", "terminate_id"],
        Some("terminate_all") => &["id", "action"],
        _ => {
            return Err(fail(
                "\"action\" must be \"terminate\" or \"terminate_all\"".into(),
            ));
        }
    };
    if let Some(k) = q.keys().find(|k| !fields.contains(&k.as_str())) {
        return Err(fail(format!(
            "unknown field \"{k}\" for this action (fields: {})",
            fields.join(", ")
        )));
    }
    if fields.len() == 2 {
        return Ok(Action {
            target: None,
            ack: json!({"id": id, "action": "terminate_all"}),
        });
    }
    match q.get("terminate_id") {
        Some(t @ (Value::String(_) | Value::Number(_))) => Ok(Action {
            target: Some(t.clone()),
            ack: json!({"id": id, "action": "terminate", "terminate_id": t}),
        }),
        None => Err(fail(
            "\"terminate_id\" (the id of the queries to stop) is required".into(),
        )),
        Some(_) => Err(fail(
            "\"terminate_id\" must be an id: a string or a number".into(),
        )),
    }
}

/// The answer for a turn of a terminated query that was not searched,
/// its fields in the order of every answer's.
#[derive(serde::Serialize)]
pub struct TerminatedTurn<'a> {
    id: &'a Value,
    turn: usize,
    terminated: bool,
}

pub fn terminated_turn(id: &Value, turn: usize) -> TerminatedTurn<'_> {
    TerminatedTurn {
        id,
        turn,
        terminated: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_strings_as_they_are_and_numbers_by_value() {
        let n = |t: &str| key(&serde_json::from_str(t).unwrap());
        assert_eq!(n("5"), n("5.0"));
        assert_eq!(n("5"), n("5e0"));
        assert_ne!(n("5"), n("\"5\""));
        assert_ne!(n("5"), n("6"));
        assert_eq!(n("-3"), n("-3.0"));
        assert_ne!(n("1.5"), n("1"));
        // Whole numbers that one double would round together stay apart.
        assert_ne!(n("12345678901234567890"), n("12345678901234567891"));
        let q = |t: &str| -> Map<String, Value> { serde_json::from_str(t).unwrap() };
        let e = parse_action(&q(
            r#"{"id": 1, "action": "terminate", "terminate_id": [1]}"#,
        ));
        assert!(e.err().unwrap().error.contains("must be an id"));
        let e = parse_action(&q(r#"{"id": true, "action": "terminate_all"}"#));
        assert!(e.err().unwrap().id.is_null());
    }
}
