//! The help of `cabra play`: the command list, one command, the pieces in
//! every orientation, and the special moves.

use cabra::game::{Piece, table};

use super::commands::{Cmd, SPECS, echo, lookup, spec, suggest};

/// The most lines an answer should take to stay on one screen: a 24-line
/// terminal keeps room for the line typed and the next prompt. A longer
/// listing of `moves` is summarised; the help keeps within it.
pub const SCREEN: usize = 22;

/// The command list, one line each, wrapped to `width` columns.
pub fn help_list(width: usize, rules: cabra::game::Rules) -> String {
    // One line a command from 80 columns on, so that the list and the
    // pointer to `help pieces` below it fit a 24-line terminal.
    let mut out = crate::cli::render::wrap(
        "Type a placement such as `L E180 110`, or a command (any case):",
        width,
    );
    let column = 27;
    for s in SPECS {
        let names = s.names.join(", ");
        let left = if s.args.is_empty() {
            names
        } else {
            format!("{names} {}", s.args)
        };
        // The summary wraps under itself; a narrow terminal gets it below.
        let (first, indent) = if width >= column + 30 {
            (format!("  {left:<w$}", w = column - 2), column)
        } else {
            (format!("  {left}\n"), 6)
        };
        let wrapped = crate::cli::render::wrap(s.summary, width.saturating_sub(indent));
        for (i, line) in wrapped.lines().enumerate() {
            if i == 0 && first.ends_with('\n') {
                out.push_str(&first);
                out.push_str(&format!("{}{line}\n", " ".repeat(indent)));
            } else if i == 0 {
                out.push_str(&format!("{first}{line}\n"));
            } else {
                out.push_str(&format!("{}{line}\n", " ".repeat(indent)));
            }
        }
    }
    // The special moves of these rules, which are moves, not commands.
    let special = match (rules.swap, rules.time_machine()) {
        (true, true) => Some("`swap` or `tm`"),
        (true, false) => Some("`swap` (player 2's first turn)"),
        (false, true) => Some("`tm` (the time machine)"),
        (false, false) => None,
    };
    if let Some(moves) = special {
        out.push_str(&crate::cli::render::wrap(
            &format!("Under these rules a move may also be {moves}: `help swap`, `help tm`."),
            width,
        ));
    }
    out.push_str(&crate::cli::render::wrap(
        "`help COMMAND` tells more, `help rules` the rules, `help pieces` the pieces.",
        width,
    ));
    out
}

/// `text` wrapped to `width` columns: its lines of prose joined into
/// paragraphs and wrapped at words; lines laid out in columns (two spaces
/// in a row) kept as they are, a long one continued under its second
/// column.
fn reflow(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut paragraph = String::new();
    let flush = |out: &mut String, paragraph: &mut String| {
        if !paragraph.is_empty() {
            out.push_str(&crate::cli::render::wrap(paragraph, width));
            paragraph.clear();
        }
    };
    for line in text.lines() {
        let laid_out = line.trim_start().contains("  ") || line.starts_with(' ');
        if !laid_out {
            if !paragraph.is_empty() {
                paragraph.push(' ');
            }
            paragraph.push_str(line.trim());
            continue;
        }
        flush(&mut out, &mut paragraph);
        if line.chars().count() < width {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        // The second column starts after the first run of spaces.
        let start = line.len() - line.trim_start().len();
        let gap = line[start..].find("  ").map_or(start, |i| start + i);
        let indent = gap + line[gap..].len() - line[gap..].trim_start().len();
        let rest = crate::cli::render::wrap(&line[indent..], width.saturating_sub(indent));
        for (i, part) in rest.lines().enumerate() {
            let lead = if i == 0 {
                line[..indent].to_string()
            } else {
                " ".repeat(indent)
            };
            out.push_str(&format!("{lead}{part}\n"));
        }
    }
    flush(&mut out, &mut paragraph);
    out
}

/// `help pieces [L|T|Z|O]`: alone, each piece in its first orientation
/// and how many it has; with a piece, every orientation of that piece,
/// drawn layer by layer with its name; wrapped to `width` columns, each
/// within one 24-line screen.
pub fn pieces_help(which: &str, width: usize) -> Result<String, String> {
    let t = table();
    let which = which.trim();
    let mut out = crate::cli::render::wrap(
        "Each drawing shows a piece's layers from the bottom (z=0) up, separated by `|`, \
         x to the right and y down; `#` is a cube. Above it, its orientation: a placement \
         names the piece, the orientation and the corner of its box (`L E180 110`).",
        width,
    );
    if which.is_empty() {
        let firsts: Vec<&cabra::game::Shape> = Piece::ALL
            .iter()
            .map(|k| &t.shapes()[t.shapes_of(*k).start])
            .collect();
        let blocks: Vec<Vec<String>> = firsts
            .iter()
            .map(|s| {
                let mut b = drawing(s);
                b[0] = format!("{} {}", s.piece, b[0]);
                b
            })
            .collect();
        side_by_side(&mut out, &blocks, width);
        let counts: Vec<String> = Piece::ALL
            .iter()
            .map(|&k| format!("{k} {}", t.shapes_of(k).len()))
            .collect();
        out.push_str(&crate::cli::render::wrap(
            &format!(
                "Orientations: {} (51 shapes; any of the 24 names T0 ... W270 is accepted, \
                 the program prints these). `help pieces L` draws every orientation of L \
                 (or T, Z, O); `help place` says what the faces T, B, N, S, E, W mean.",
                counts.join(", ")
            ),
            width,
        ));
        return Ok(out);
    }
    let piece = match which.chars().next().and_then(Piece::from_letter) {
        Some(p) if which.chars().count() == 1 => p,
        _ => {
            return Err(format!(
                "no piece '{}': the pieces are L, T, Z and O",
                echo(which, 12)
            ));
        }
    };
    let shapes: Vec<_> = t.shapes_of(piece).map(|i| &t.shapes()[i]).collect();
    out.push_str(&format!("{piece}: {} orientations\n", shapes.len()));
    let blocks: Vec<Vec<String>> = shapes.iter().map(|s| drawing(s)).collect();
    side_by_side(&mut out, &blocks, width);
    Ok(out)
}

/// A shape's drawing: its orientation's name, then one row a y, the
/// layers side by side.
fn drawing(s: &cabra::game::Shape) -> Vec<String> {
    let [ex, ey, ez] = s.extent.map(usize::from);
    let mut rows = vec![format!("{}", s.orientation)];
    for y in 0..ey {
        let layers: Vec<String> = (0..ez)
            .map(|z| {
                (0..ex)
                    .map(|x| {
                        let on = s
                            .cells
                            .iter()
                            .any(|c| [c[0], c[1], c[2]] == [x as u8, y as u8, z as u8]);
                        if on { '#' } else { '.' }
                    })
                    .collect()
            })
            .collect();
        rows.push(layers.join("|"));
    }
    rows
}

/// Appends `blocks` to `out`, as many side by side as fit in `width`.
fn side_by_side(out: &mut String, blocks: &[Vec<String>], width: usize) {
    let cell = 12;
    let per_line = (width.saturating_sub(2) / cell).max(1);
    for chunk in blocks.chunks(per_line) {
        let height = chunk.iter().map(Vec::len).max().unwrap_or(0);
        for r in 0..height {
            let mut line = String::from("  ");
            for b in chunk {
                let text = b.get(r).map_or("", String::as_str);
                line.push_str(&format!("{text:<cell$}"));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
}

/// What the help says about a topic that is no command.
const TOPICS: &[(&[&str], &str)] = &[
    (
        &[
            "rules", "rule", "bridge", "goal", "win", "winning", "visible",
        ],
        "rules   (the whole rules: docs/RULES.md)
Each player has 14 pieces (4 L, 4 T, 4 Z, 2 O) and places one a turn on the 8 x 8 board, up
to 3 cubes high: at least one cube on the board, none over a gap. You win at once with a
bridge: a chain of your visible cubes from one edge to the opposite one (west to east or
north to south, either for either player). A cube is visible while no opponent cube lies
above it; neighbouring columns link at heights that differ by at most 1. When the player to
move cannot place, the game ends: the player with fewer pieces touching the board's rim at
the bottom wins (under bridget: more rim columns topped in their colour), equal is a draw.",
    ),
    (
        &["swap"],
        "swap   (a move, under rules with the swap option: --swap or `# rules: ... swap`)
Player 2's first turn may be `swap` instead of a placement: player 1's first piece becomes
player 2's, and player 1 moves next. Only on the second turn of the game.",
    ),
    (
        &["tm", "time", "timemachine"],
        "tm   (a move, also `time machine`, under the bridget rules: --rules bridget)
Once a game, instead of placing: when the last placement on the board is your opponent's
and the one before it your own, both go back to their owners' stocks and you place again
at once. It cannot take back a piece the swap recoloured and does not keep a game alive.",
    ),
];

/// The help of one command (or an error line for an unknown topic).
pub fn help_for(topic: &str, width: usize) -> Result<String, String> {
    let word = topic.split_whitespace().next().unwrap_or("");
    let lower = word.to_ascii_lowercase();
    if ["pieces", "piece", "orientations", "shapes"].contains(&lower.as_str()) {
        let rest = topic.trim_start()[word.len()..].trim();
        return pieces_help(rest, width);
    }
    if let Some((_, text)) = TOPICS
        .iter()
        .find(|(names, _)| names.contains(&lower.as_str()))
    {
        return Ok(reflow(text, width));
    }
    let Some(cmd) = lookup(word).or_else(|| {
        ["placement", "notation", "placements"]
            .contains(&word.to_ascii_lowercase().as_str())
            .then_some(Cmd::Place)
    }) else {
        return Err(match suggest(word) {
            Some(s) => {
                format!("no command '{word}' — did you mean '{s}'? (`help` lists the commands)")
            }
            None => format!("no command '{word}': `help` lists the commands"),
        });
    };
    let s = spec(cmd);
    let mut out = format!("{} {}", s.names[0], s.args).trim_end().to_string();
    if s.names.len() > 1 {
        out.push_str(&format!("   (also: {})", s.names[1..].join(", ")));
    }
    out.push('\n');
    out.push_str(&reflow(s.summary, width));
    out.push_str(&reflow(s.details, width));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::play::commands::looks_like_placement;
    use cabra::game::Rules;

    #[test]
    fn the_rules_have_a_help_topic() {
        let rules = help_for("rules", 80).unwrap();
        assert!(
            rules.contains("bridge") && rules.contains("fewer pieces"),
            "{rules}"
        );
        assert_eq!(help_for("Bridge", 80).unwrap(), rules);
        assert!(rules.lines().count() <= SCREEN, "{rules}");
        assert!(help_list(80, Rules::default()).contains("`help rules`"));
    }

    #[test]
    fn every_command_has_help_without_blank_lines() {
        for s in SPECS {
            let h = help_for(s.names[0], 100).unwrap();
            assert!(!h.contains("\n\n"), "{}", s.names[0]);
            for n in s.names {
                assert_eq!(lookup(n), Some(s.cmd));
                assert!(!looks_like_placement(n), "{n} would read as a placement");
            }
        }
        assert!(help_for("nope", 100).is_err());
        for width in [100, 80, 40] {
            let list = help_list(width, "bridget swap".parse::<Rules>().unwrap());
            assert!(!list.contains("\n\n"));
            assert!(
                list.lines().all(|l| l.chars().count() < width),
                "{width}:\n{list}"
            );
            // Every command's help fits too, prose and columns alike (a
            // terminal narrower than 80 columns may wrap the second column).
            for s in SPECS.iter().filter(|_| width >= 80) {
                let h = help_for(s.names[0], width).unwrap();
                assert!(
                    h.lines().all(|l| l.chars().count() < width),
                    "{width}:\n{h}"
                );
            }
        }
        // At 80 columns the list fits a 24-line terminal with the line
        // typed and the next prompt, and ends with the pointer to the
        // pictures of the pieces.
        for rules in ["caminos", "bridget swap"] {
            let list = help_list(80, rules.parse::<Rules>().unwrap());
            assert!(
                list.lines().count() <= SCREEN,
                "{}:\n{list}",
                list.lines().count()
            );
            assert!(list.lines().last().unwrap().contains("`help pieces`"));
            // The special moves are named under the rules that have them.
            assert_eq!(list.contains("`help swap`"), rules != "caminos", "{list}");
        }
        // Prose is reflowed, not broken where the source was.
        let place = help_for("place", 80).unwrap();
        assert!(place.contains("Z or O; orientation a face T"), "{place}");
        assert!(place.contains("`110 120 121 122`"), "{place}");
        // The faces are explained, not only named.
        assert!(
            place.contains("The face says how the piece is tipped: T lies flat"),
            "{place}"
        );
        // Every help, the pieces' too, fits one 24-line screen at 80 columns.
        for s in SPECS {
            let h = help_for(s.names[0], 80).unwrap();
            assert!(h.lines().count() <= SCREEN, "{h}");
        }
        let pieces = help_for("pieces", 80).unwrap();
        assert!(pieces.lines().count() <= SCREEN, "{pieces}");
        assert!(
            pieces.contains("`help pieces L` draws every orientation"),
            "{pieces}"
        );
        assert!(pieces.contains("L 24, T 12, Z 12, O 3"), "{pieces}");
        // Every canonical name of every piece is drawn, a piece at a time:
        // 51 in all.
        let mut names = 0;
        for (k, n) in [("L", 24), ("T", 12), ("Z", 12), ("O", 3)] {
            let one = help_for(&format!("pieces {k}"), 80).unwrap();
            assert!(!one.contains("\n\n"));
            assert!(one.lines().all(|l| l.chars().count() < 80), "{one}");
            assert!(
                one.lines().count() <= SCREEN,
                "{}:\n{one}",
                one.lines().count()
            );
            assert!(one.contains(&format!("{k}: {n} orientations")), "{one}");
            names += one
                .lines()
                .filter(|l| l.starts_with("  "))
                .flat_map(str::split_whitespace)
                .filter(|w| {
                    w.len() > 1 && w[1..].parse::<u32>().is_ok() && "TBNSEW".contains(&w[..1])
                })
                .count();
        }
        assert_eq!(names, 51);
        assert!(
            help_for("pieces q", 80)
                .unwrap_err()
                .contains("L, T, Z and O")
        );
        assert!(help_for("tm", 80).unwrap().contains("time machine"));
        assert!(
            help_for("swap", 80)
                .unwrap()
                .replace('\n', " ")
                .contains("first piece")
        );
    }
}
