//! Tests of the text board: widths, wrapping, capitals, warnings.

use super::*;
use cabra::game::Position;
use cabra::game::record::parse_game;

fn longest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

#[test]
fn boards_fit_the_terminal() {
    let pos = parse_game("110 120 121 122\n330 340 430 440\n").unwrap();
    // Every width, the edges of the layouts included: a line as wide as
    // the terminal would be wrapped by `fit` (and by the terminal).
    for width in 56..=120 {
        let text = render(
            &pos,
            &View {
                width,
                ..View::PLAIN
            },
        );
        assert!(
            longest(&text) < width,
            "{width}: {}\n{text}",
            longest(&text)
        );
    }
    let wide = render(&pos, &View::PLAIN);
    assert!(
        longest(&wide) < 100 && longest(&wide) >= cabra::game::WIDE_BOARD - 4,
        "{wide}"
    );
    // The columns of every layer line up under their numbers.
    let rows: Vec<&str> = wide.lines().collect();
    // Row y = 3 of layer z = 0 has the O at x = 3 and 4.
    let digit = rows[1].find('3').unwrap();
    assert_eq!(rows[5].as_bytes()[digit], b'O', "{wide}");
    assert_eq!(rows[5].as_bytes()[digit + 2], b'O', "{wide}");
    assert!(!wide.lines().any(|l| l.ends_with(' ')));
}

#[test]
fn long_lines_are_wrapped_and_coloured_boards_are_not() {
    let long = "error: `quit` takes no argument (found 'T0 330'); `help quit` says more — to place a piece, start with its letter\n";
    let fitted = fit(long, 60);
    assert!(fitted.lines().count() > 1 && fitted.lines().all(|l| l.chars().count() < 60));
    assert!(fitted.ends_with('\n'));
    let pos = parse_game("110 120 121 122\n").unwrap();
    let coloured = render(
        &pos,
        &View {
            colours: true,
            width: 80,
            ..View::PLAIN
        },
    );
    assert_eq!(fit(&coloured, 80), coloured);
    // On a narrow terminal the layers, coloured or not, keep to its
    // width, and so does a wrapped coloured line with its indent.
    let visible = |l: &str| visible_len(l);
    for colours in [false, true] {
        let view = View {
            colours,
            width: 34,
            ..View::PLAIN
        };
        let narrow = fit(&render(&pos, &view), 34);
        assert!(narrow.lines().all(|l| visible(l) < 34), "{narrow}");
        // Every row of the layers on one line, under its two heads.
        let rows = narrow.lines().filter(|l| visible(l) == 32).count();
        assert_eq!(rows, 10, "{narrow}");
    }
    let said = format!(
        "{} {long}",
        style::paint("player 2", style::player(Player::Two), true)
    );
    assert!(fit(&said, 34).lines().all(|l| visible(l) < 34));
}

#[test]
fn a_placement_is_never_broken_across_lines() {
    let line =
        "expected line: Z S90 410, T E0 520, O T0 460, Z W90 310, L N90 210, Z S90 610, T T0 000\n";
    for width in 30..80 {
        let fitted = fit(line, width);
        for l in fitted.lines() {
            let l = l.trim();
            // Each line ends a placement (or the label) and starts one.
            assert!(
                l.ends_with(',') || l.ends_with("000") || l == "expected",
                "{width}: {fitted}"
            );
            assert!(
                !l.starts_with(|c: char| c.is_ascii_digit()),
                "{width}: {fitted}"
            );
            assert!(
                !l.split(' ')
                    .next()
                    .unwrap()
                    .starts_with(['N', 'S', 'E', 'W', 'B']),
                "{width}: {fitted}"
            );
        }
    }
    // Words that only look like a piece's letter are words.
    assert!(!unfinished_placement("a"));
    assert!(unfinished_placement("L") && unfinished_placement("T B90"));
    assert!(!unfinished_placement("T B90 110") && !unfinished_placement("L x"));
}

#[test]
fn a_won_bridge_is_drawn_in_capitals() {
    // The sample game ends with a straight north-south bridge.
    let pos = parse_game(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/games/hand_straight_bridge.caminos"
        ))
        .unwrap(),
    )
    .unwrap();
    let Status::Won { winner, .. } = pos.status() else {
        panic!("the sample game is won by a bridge");
    };
    // All 12 of the winner's cubes are linked to both edges; the path,
    // column x = 3, has 8, and only those are marked, as on the page.
    let attached = cabra::game::bridge::bridge_cubes(pos.cubes(winner), pos.cubes(winner.other()));
    let path = cabra::game::bridge::shortest_bridge(pos.cubes(winner), pos.cubes(winner.other()));
    assert_eq!((attached.count(), path.len()), (12, 8));
    // Under 66 columns the top view goes below: the first 10 lines are
    // the layers alone.
    let view = View {
        width: 60,
        ..View::PLAIN
    };
    let board = render(&pos, &view);
    let layers: Vec<&str> = board.lines().take(10).collect();
    let capitals: Vec<(usize, usize)> = layers
        .iter()
        .enumerate()
        .flat_map(|(y, l)| {
            l.char_indices()
                .filter(|&(_, c)| c == cube_symbol(winner, true))
                .map(move |(i, _)| (y, i))
        })
        .collect();
    assert_eq!(capitals.len(), 8, "{board}");
    // Each on column x = 3 of layer z = 0, under its number.
    let column = layers[1].find('3').unwrap();
    assert!(capitals.iter().all(|&(_, i)| i == column), "{board}");
    assert!(board.contains("capitals the winning bridge"), "{board}");
}

#[test]
fn a_threat_to_win_next_move_is_announced() {
    let pos = parse_game(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/tactics/block-1.caminos"
        ))
        .unwrap(),
    )
    .unwrap();
    let view = View {
        threats: true,
        ..View::PLAIN
    };
    assert!(render(&pos, &view).contains("threatens to win next move"));
    assert!(!render(&pos, &View::PLAIN).contains("threatens"));
}

/// Positions of random games where the side to move faces a win in one:
/// the first where some placement stops every such win, and the first
/// where none does.
fn threatened_positions() -> (Position, Position) {
    use rand::SeedableRng;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
    let (mut saved, mut lost) = (None, None);
    for _ in 0..2000 {
        let mut pos = Position::new();
        while let Some(p) = pos.random_move(&mut rng) {
            pos.play_unchecked(p);
            if pos.status().is_over() {
                break;
            }
            if pos.threat().is_none() {
                continue;
            }
            // Every placement, not only those near the threat, tried.
            let mut list = cabra::game::PlacementList::new();
            pos.legal_placements(&mut list);
            let stoppable = list.iter().any(|&m| {
                let mut after = pos;
                after.play_unchecked(m);
                after.status().is_over() || after.winning_move().is_none()
            });
            let slot = if stoppable { &mut saved } else { &mut lost };
            slot.get_or_insert(pos);
        }
        if let (Some(s), Some(l)) = (saved, lost) {
            return (s, l);
        }
    }
    panic!("random games gave no position of each kind");
}

#[test]
fn a_threat_that_cannot_be_stopped_is_called_a_loss() {
    let (saved, lost) = threatened_positions();
    assert!(threat::unstoppable(&lost) && !threat::unstoppable(&saved));
    let line = |pos: &Position, known| threat_line(pos, known).unwrap();
    assert!(line(&saved, Known::Nothing).ends_with("; stop it or lose"));
    let l = line(&lost, Known::Nothing);
    assert!(!l.contains("stop it"), "{l}");
    assert!(
        l.ends_with(&format!(
            "and no placement stops every such win: {} has lost",
            lost.to_move()
        )),
        "{l}"
    );
    // A search's proof counts where the board alone shows no loss.
    let proven = line(&saved, Known::ProvenLoss);
    assert!(!proven.contains("stop it"), "{proven}");
    assert!(proven.contains("proven that"), "{proven}");
}

#[test]
fn a_long_warning_wraps_with_the_indent_of_other_long_lines() {
    let (saved, _) = threatened_positions();
    let view = View {
        threats: true,
        width: 60,
        ..View::PLAIN
    };
    let board = render(&saved, &view);
    let at = board
        .lines()
        .position(|l| l.starts_with("warning: "))
        .expect("a warning");
    let rest: Vec<&str> = board.lines().skip(at + 1).collect();
    assert!(
        !rest.is_empty(),
        "the warning wraps at 60 columns:\n{board}"
    );
    for l in rest {
        assert!(l.starts_with("  ") && l.len() < 60, "{board}");
    }
}

#[test]
fn the_board_itself_is_never_wider_than_the_terminal() {
    // `render` wraps what is too wide, which would scramble the board's
    // columns: the layout chosen for a width must fit it as it is.
    let pos = parse_game("110 120 121 122\n330 340 430 440\n").unwrap();
    for width in 40..=120 {
        let board = cabra::game::board_text(&pos, width);
        assert!(
            longest(&board) < width,
            "{width}: {}\n{board}",
            longest(&board)
        );
    }
}
