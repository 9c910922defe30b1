//! The win-rate graph of an analysis: player 1's chances after each
//! placement, a point per placement (marked ones larger, in the mark's
//! colour), clickable by `data-ply`.

use std::fmt::Write;

use cabra::engine::analysis::{Mark, MoveAnalysis};

use super::{colour, escape, num};
use cabra::game::Player;

const W: f64 = 640.0;
const HT: f64 = 240.0;
const LEFT: f64 = 58.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 18.0;
const BOTTOM: f64 = 34.0;

/// The colour of a mark.
pub fn mark_colour(m: Mark) -> &'static str {
    match m {
        Mark::Inaccuracy => "#e0b000",
        Mark::Mistake => "#ee7700",
        Mark::Blunder => "#d01010",
        Mark::MissedWin => "#8a2be2",
    }
}

/// Player 1's win probability after the placement (the analysis gives it
/// for the mover).
pub fn p1_after(m: &MoveAnalysis) -> f64 {
    if m.player == 1 {
        m.winrate_after
    } else {
        1.0 - m.winrate_after
    }
}

/// Player 1's win probability before the first placement.
fn p1_start(moves: &[MoveAnalysis]) -> f64 {
    moves.first().map_or(0.5, |m| {
        if m.player == 1 {
            m.winrate_before
        } else {
            1.0 - m.winrate_before
        }
    })
}

/// The graph as an `<svg>` element; `placements` is the length of the game
/// (the x axis), which may exceed the moves analyzed so far.
pub fn plot(moves: &[MoveAnalysis], placements: usize) -> String {
    let n = placements.max(moves.len()).max(1);
    let x = |ply: usize| LEFT + (W - LEFT - RIGHT) * ply as f64 / n as f64;
    let y = |p: f64| TOP + (HT - TOP - BOTTOM) * (1.0 - p.clamp(0.0, 1.0));
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="plot" viewBox="0 0 {W} {HT}" font-family="sans-serif" role="img" aria-label="win rate over the game"><rect x="{LEFT}" y="{TOP}" width="{}" height="{}" fill="#fbf8f1" stroke="#b9ad94"/>"##,
        W - LEFT - RIGHT,
        HT - TOP - BOTTOM
    );
    // Player 1's half above the middle line, player 2's below.
    let _ = write!(
        s,
        r##"<line x1="{LEFT}" y1="{m}" x2="{}" y2="{m}" stroke="#999" stroke-dasharray="4 3"/><text x="{}" y="{}" font-size="11" text-anchor="end" fill="{}">P1 100%</text><text x="{}" y="{}" font-size="11" text-anchor="end" fill="#666">50%</text><text x="{}" y="{}" font-size="11" text-anchor="end" fill="{}">P2 100%</text>"##,
        W - RIGHT,
        LEFT - 4.0,
        num(y(1.0) + 4.0),
        colour(Player::One),
        LEFT - 4.0,
        num(y(0.5) + 4.0),
        LEFT - 4.0,
        num(y(0.0)),
        colour(Player::Two),
        m = num(y(0.5))
    );
    let step = if n > 20 { 4 } else { 2 };
    for ply in (0..=n).step_by(step) {
        let _ = write!(
            s,
            r##"<text x="{}" y="{}" font-size="10" text-anchor="middle" fill="#666">{ply}</text>"##,
            num(x(ply)),
            num(HT - BOTTOM + 13.0)
        );
    }
    let _ = write!(
        s,
        r##"<text x="{}" y="{}" font-size="11" text-anchor="middle" fill="#444">placement</text>"##,
        num(LEFT + (W - LEFT - RIGHT) / 2.0),
        num(HT - 6.0)
    );
    if !moves.is_empty() {
        let mut pts = vec![format!("{},{}", num(x(0)), num(y(p1_start(moves))))];
        pts.extend(
            moves
                .iter()
                .map(|m| format!("{},{}", num(x(m.ply)), num(y(p1_after(m))))),
        );
        let _ = write!(
            s,
            r##"<polyline points="{}" fill="none" stroke="#333" stroke-width="1.6"/>"##,
            pts.join(" ")
        );
    }
    for m in moves {
        let (cx, cy) = (x(m.ply), y(p1_after(m)));
        let (r, fill) = match m.mark {
            Some(k) => (6.5, mark_colour(k)),
            None => (4.0, colour(Player::of_parity(usize::from(m.player) + 1))),
        };
        let title = format!(
            "{}. {}{}: player 1 {:.0}%{}",
            m.ply,
            m.played,
            m.mark.map_or(String::new(), |k| format!(" ({})", k.text())),
            100.0 * p1_after(m),
            match (&m.best, m.mark) {
                (Some(b), Some(_)) => format!("; better {b}"),
                _ => String::new(),
            }
        );
        let _ = write!(
            s,
            r##"<circle class="point{}" data-ply="{}" cx="{}" cy="{}" r="{r}" fill="{fill}" stroke="#111" stroke-width="0.8"><title>{}</title></circle>"##,
            m.mark.map_or(String::new(), |k| format!(
                " {}",
                k.text().replace(' ', "-")
            )),
            m.ply,
            num(cx),
            num(cy),
            escape(&title)
        );
    }
    // The legend of the marks.
    let mut lx = LEFT + 4.0;
    for k in [
        Mark::Inaccuracy,
        Mark::Mistake,
        Mark::Blunder,
        Mark::MissedWin,
    ] {
        let _ = write!(
            s,
            r##"<circle cx="{}" cy="9" r="4.5" fill="{}" stroke="#111" stroke-width="0.6"/><text x="{}" y="12.5" font-size="10" fill="#444">{}</text>"##,
            num(lx + 4.0),
            mark_colour(k),
            num(lx + 11.0),
            k.text()
        );
        lx += 14.0 + 6.0 * k.text().len() as f64 + 10.0;
    }
    s.push_str("</svg>");
    s
}

/// The graph as a standalone file (`cabra analyze FILE --svg`), with a title.
pub fn picture(moves: &[MoveAnalysis], placements: usize, title: &str) -> String {
    let inner = plot(moves, placements).replacen(
        "<svg ",
        r##"<svg x="0" y="28" width="640" height="240" "##,
        1,
    );
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"272\" viewBox=\"0 0 640 272\" font-family=\"sans-serif\"><rect width=\"640\" height=\"272\" fill=\"#fff\"/><text x=\"12\" y=\"20\" font-size=\"14\" fill=\"#222\">{}</text>{inner}</svg>\n",
        escape(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(ply: usize, after: f64, mark: Option<Mark>) -> MoveAnalysis {
        MoveAnalysis {
            ply,
            player: if ply % 2 == 1 { 1 } else { 2 },
            played: "O T0 330".into(),
            best: Some("O T0 000".into()),
            winrate_before: 0.5,
            winrate_after: after,
            loss: 0.0,
            mark,
            proven_before: None,
            proven_after: None,
            iterations: 10,
        }
    }

    #[test]
    fn points_are_clickable_and_marked() {
        let moves = [mv(1, 0.6, None), mv(2, 0.2, Some(Mark::Blunder))];
        let svg = plot(&moves, 4);
        assert_eq!(svg.matches("data-ply=").count(), 2);
        assert!(svg.contains(r##"class="point blunder" data-ply="2""##));
        assert!(svg.contains("better O T0 000"));
        // Player 2's 20% is player 1's 80%: above the middle line.
        assert!(svg.contains("player 1 80%"));
    }
}
