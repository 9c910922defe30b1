//! The JSON the API answers with: a game's state, an analysis, and the
//! placement a pointer aims at (with why it is illegal, if it is).

use std::sync::atomic::Ordering;

use cabra::engine::levels::TOP;
use cabra::game::record::cells_text;
use cabra::game::{Piece, Placement, PlacementError, Player, Position, parse_placement, table};
use serde::Deserialize;
use serde_json::{Value, json};

use super::super::check::GameJson;
use super::super::svg;
use super::guard::ApiError;
use super::store::{Analysis, Game};

/// A game's state as the API gives it.
pub fn state_json(g: &Game) -> Value {
    let line = g.line.moves();
    let pos = g.line.position();
    let mut replay = Position::with_rules(pos.rules());
    let moves: Vec<Value> = line
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            let player = replay.to_move().number();
            replay.play_move_unchecked(m);
            json!({
                "ply": i + 1,
                "player": player,
                "move": m.to_string(),
                "cells": m.placement().map(cells_text),
            })
        })
        .collect();
    let mut special = Vec::new();
    pos.for_each_legal(|m| {
        if m.placement().is_none() {
            special.push(m.to_string());
        }
    });
    let left: Vec<Value> = Player::BOTH
        .iter()
        .map(|&pl| {
            let mut m = serde_json::Map::new();
            for k in Piece::ALL {
                m.insert(k.letter().to_string(), pos.pieces_left(pl, k).into());
            }
            Value::Object(m)
        })
        .collect();
    let game = GameJson::of(pos);
    json!({
        "id": g.id,
        "version": g.version,
        "ply": pos.plies(),
        "length": line.len(),
        "line": moves,
        "to_move": game.to_move,
        "result": game.result,
        "by": game.by,
        "text": game.text,
        "rules": game.rules,
        "count": pos.rules().count_name(),
        "perimeter": game.perimeter,
        "edge": game.edge,
        "time_machine_used": game.time_machine_used,
        "swapped": game.swapped,
        "special": special,
        "left": left,
        "code": pos.to_code(),
        "last": pos.moves().last().map(|m| m.to_string()),
        "busy": g.busy.map(|b| b.name()),
        "can_undo": pos.plies() > 0,
        "can_redo": g.line.can_redo(),
        "analysis": g.analysis.is_some(),
        "level": g.engine.config().level.unwrap_or(TOP),
        "engine_sides": (1..=2u8).filter(|&n| g.engine_sides[usize::from(n) - 1]).collect::<Vec<_>>(),
        "hints": g.hints,
        "pondering": g.ponder.is_some(),
        "pondered": g.pondered.load(Ordering::Relaxed),
    })
}

/// An analysis as the API gives it, with its graph as SVG.
pub fn analysis_json(a: &Analysis) -> Value {
    json!({
        "placements": a.line.len(),
        "complete": a.complete,
        "moves": a.moves,
        "summary": a.summary,
        "plot": svg::plot::plot(&a.moves, a.line.len()),
    })
}

/// A placement aimed at a column: a piece in one of its orientations
/// (any of the 24 names), centred on column `(x, y)`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Aim {
    /// `L`, `T`, `Z` or `O`.
    pub piece: String,
    /// An orientation name such as `E180`.
    pub orientation: String,
    /// The column pointed at.
    pub x: i32,
    /// The column pointed at.
    pub y: i32,
}

/// Where an aimed piece would go, and whether it may.
#[derive(Clone, Debug)]
pub struct Aimed {
    /// The placement, when the piece fits inside the volume.
    pub placement: Option<Placement>,
    /// The cubes it would fill (some may lie outside the volume).
    pub cells: Vec<[i8; 3]>,
    /// Why it is not legal, if it is not.
    pub reason: Option<String>,
}

/// Why a placement is refused, in the words the page shows.
pub fn why(e: &PlacementError) -> String {
    match e {
        PlacementError::Occupied(c) => format!("occupied: cube {c} is already taken"),
        PlacementError::Floating(c) => {
            format!("overhang: cube {c} would float, with nothing below it")
        }
        PlacementError::NoPieceLeft { player, piece } => format!("{player} has no {piece} left"),
        PlacementError::GameOver(s) => format!("the game is over ({s})"),
        // The special moves' reasons start by naming the move (`swap: ...`),
        // which the message around them names already.
        other => {
            let text = other.to_string();
            match text.split_once(": ") {
                Some((head, rest)) if head == "swap" || head == "tm" => rest.to_string(),
                _ => text,
            }
        }
    }
}

/// Where the aimed piece lands: its footprint centred on the column
/// pointed at (rounding towards north and west), moved back onto the
/// board where it would stick out (the nearest footprint that fits, as
/// board programs aim at an edge), resting on the board. A column off
/// the board is not moved: the piece would reach past the edge.
pub fn aim(pos: &Position, a: &Aim) -> Result<Aimed, ApiError> {
    // Checked one by one, so that an error speaks of what was sent.
    let piece = Some(a.piece.as_str())
        .filter(|l| l.len() == 1)
        .and_then(|l| l.chars().next())
        .and_then(Piece::from_letter)
        .ok_or_else(|| ApiError::bad(format!("aim: `{}` is not a piece: L, T, Z or O", a.piece)))?;
    let orientation = a.orientation.trim();
    let p = Some(orientation)
        .filter(|o| !o.is_empty() && !o.contains(char::is_whitespace))
        .and_then(|o| parse_placement(&format!("{piece} {o} 000")).ok())
        .ok_or_else(|| {
            ApiError::bad(format!(
                "aim: `{}` is not an orientation of the {piece} (GET /api/shapes lists them, e.g. T0, E180)",
                a.orientation
            ))
        })?;
    let t = table();
    let shape = &t.shapes()[p.entry().shape as usize];
    if !(-8..16).contains(&a.x) || !(-8..16).contains(&a.y) {
        return Err(ApiError::bad("the column aimed at is far off the board"));
    }
    let x0 = anchor(a.x, shape.extent[0]);
    let y0 = anchor(a.y, shape.extent[1]);
    let cells: Vec<[i8; 3]> = shape
        .cells
        .iter()
        .map(|c| {
            [
                (x0 + i32::from(c[0])) as i8,
                (y0 + i32::from(c[1])) as i8,
                c[2] as i8,
            ]
        })
        .collect();
    let outside = cells
        .iter()
        .find(|c| !(0..8).contains(&c[0]) || !(0..8).contains(&c[1]));
    if outside.is_some() {
        // Where it was aimed, the span it would cover, and only the
        // coordinates past an edge.
        let span = |i: usize| {
            let v = cells.iter().map(|c| i32::from(c[i]));
            (v.clone().min().unwrap_or(0), v.max().unwrap_or(0))
        };
        let ((x1, x2), (y1, y2)) = (span(0), span(1));
        return Ok(Aimed {
            placement: None,
            cells,
            reason: Some(format!(
                "out of the volume: aimed at x = {}, y = {}, the piece would reach from x = {x1}, y = {y1} \
                 to x = {x2}, y = {y2}; {}",
                a.x,
                a.y,
                cabra::game::beyond([(x1, x2), (y1, y2)])
            )),
        });
    }
    let placement = t
        .placement_at(p.entry().shape as usize, x0 as u8, y0 as u8)
        .ok_or_else(|| ApiError::bad("the piece does not fit there"))?;
    Ok(Aimed {
        placement: Some(placement),
        cells,
        reason: pos.check(placement).err().map(|e| why(&e)),
    })
}

/// The smallest coordinate of a footprint `extent` columns wide centred
/// on column `c` (rounding towards north and west), moved back so that
/// the whole footprint lies on the board when `c` is on it.
fn anchor(c: i32, extent: u8) -> i32 {
    let centred = c - (i32::from(extent) - 1) / 2;
    if (0..8).contains(&c) {
        centred.clamp(0, 8 - i32::from(extent))
    } else {
        centred
    }
}

/// The aimed placement as JSON.
pub fn aimed_json(a: &Aimed) -> Value {
    json!({
        "move": a.placement.map(|p| p.to_string()),
        "legal": a.reason.is_none(),
        "reason": a.reason,
        "cells": a.cells,
    })
}

/// Every shape: for each piece its count and its canonical orientations
/// (RULES.md section 3), with their cells and extents.
pub fn shapes_json() -> Value {
    let t = table();
    let pieces: Vec<Value> = Piece::ALL
        .iter()
        .map(|&k| {
            let orientations: Vec<Value> = t
                .shapes_of(k)
                .map(|i| {
                    let s = &t.shapes()[i];
                    json!({
                        "name": s.orientation.to_string(),
                        "cells": s.cells,
                        "extent": s.extent,
                        "svg": svg::pieces::piece(&s.cells),
                    })
                })
                .collect();
            json!({
                "piece": k.letter().to_string(),
                "count": k.start_count(),
                "orientations": orientations,
            })
        })
        .collect();
    json!({ "pieces": pieces })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cabra::game::Move;

    fn aimed(piece: &str, orientation: &str, x: i32, y: i32) -> Aimed {
        let a = Aim {
            piece: piece.into(),
            orientation: orientation.into(),
            x,
            y,
        };
        aim(&Position::new(), &a).unwrap()
    }

    #[test]
    fn an_aim_at_an_edge_takes_the_nearest_footprint_that_fits() {
        // Centred, an O at the south-east corner would reach x = 8, y = 8.
        let a = aimed("O", "T0", 7, 7);
        assert_eq!(a.placement.unwrap().to_string(), "O T0 660");
        assert!(a.reason.is_none());
        // A T three columns wide at the east edge, a standing L at the north.
        assert_eq!(
            aimed("T", "T0", 7, 3).placement.unwrap().to_string(),
            "T T0 530"
        );
        assert_eq!(
            aimed("T", "T0", 0, 0).placement.unwrap().to_string(),
            "T T0 000"
        );
        // Inside the board, nothing moves.
        assert_eq!(
            aimed("O", "T0", 3, 3).placement.unwrap().to_string(),
            "O T0 330"
        );
    }

    #[test]
    fn an_aim_off_the_board_names_both_coordinates() {
        let a = aimed("O", "T0", 8, 3);
        assert!(a.placement.is_none());
        let why = a.reason.unwrap();
        assert!(
            why.starts_with("out of the volume: aimed at x = 8, y = 3, the piece would reach from"),
            "{why}"
        );
        assert!(
            why.ends_with("; x = 9 is past the east edge (x and y run from 0 to 7)"),
            "{why}"
        );
    }

    #[test]
    fn a_special_moves_reason_does_not_name_it_twice() {
        let pos = Position::new();
        let e = pos.check(Move::Swap).unwrap_err();
        let said = format!("swap is illegal: {}", why(&e));
        assert_eq!(
            said,
            "swap is illegal: the swap is not part of the caminos rules"
        );
    }
}
