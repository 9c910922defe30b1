//! Openings read from a file (`--openings`), in place of random ones.
//!
//! One opening a line: its placements in piece notation or as twelve
//! digits, separated by commas, e.g. `L E180 600, L T180 460`. Everything
//! from a `#` on is a comment; empty lines are skipped. Every opening must
//! be legal from the match's starting position and leave the game going.

use std::path::Path;

use cabra::game::{Placement, Position, parse_placement_or_cells};

use super::process::{clip, printable};
use crate::cli::files::read_input;

/// The openings of `text`, each checked from `start`; an error names the
/// line and says what is wrong.
pub fn parse_openings(text: &str, start: &Position) -> Result<Vec<Vec<Placement>>, String> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let body = line.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let mut pos = *start;
        let mut opening = Vec::new();
        for (k, item) in body.split(',').enumerate() {
            let item = item.trim();
            let p = parse_placement_or_cells(item).map_err(|e| {
                // A binary file's bytes must not reach the terminal raw.
                let e = printable(&e.to_string(), '?');
                format!("line {line_no}, placement {}: {}: {e}", k + 1, clip(item))
            })?;
            pos.play(p)
                .map_err(|e| format!("line {line_no}, placement {} ({p}): {e}", k + 1))?;
            opening.push(p);
        }
        if pos.status().is_over() {
            return Err(format!(
                "line {line_no}: the opening ends the game ({})",
                crate::cli::render::status_line(&pos)
            ));
        }
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err("no opening in the file".into());
    }
    Ok(openings)
}

/// The openings of the file at `path` (see [`parse_openings`]).
pub fn read_openings(path: &Path, start: &Position) -> anyhow::Result<Vec<Vec<Placement>>> {
    let bytes =
        read_input(path).map_err(|e| crate::cli::files::io_error("read the openings", path, &e))?;
    // As in a .caminos file, bytes that are not UTF-8 are harmless in a
    // comment and an error naming its line elsewhere.
    let text = String::from_utf8_lossy(&bytes);
    parse_openings(&text, start).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_openings_in_notation_and_digits_with_comments() {
        let text = "# openings\n\nL E180 600, L T180 460  # two\n600 610 611 612\n";
        let o = parse_openings(text, &Position::new()).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].len(), 2);
        // The same placement written both ways.
        assert_eq!(o[1], o[0][..1]);
    }

    #[test]
    fn a_bad_opening_names_its_line_and_placement() {
        let start = Position::new();
        let e = parse_openings("L E180 600\nL E180 600, L E180 600\n", &start).unwrap_err();
        assert!(e.starts_with("line 2, placement 2 (L E180 600):"), "{e}");
        let e = parse_openings("\nQ N0 000\n", &start).unwrap_err();
        assert!(e.starts_with("line 2, placement 1: 'Q N0 000':"), "{e}");
        let e = parse_openings("L E180 600,\n", &start).unwrap_err();
        assert!(e.starts_with("line 1, placement 2: '':"), "{e}");
        assert_eq!(
            parse_openings("# nothing\n", &start).unwrap_err(),
            "no opening in the file"
        );
        // Bytes that are not UTF-8: harmless in a comment, named by line elsewhere.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bytes.txt");
        std::fs::write(&file, b"L E180 600 # caf\xe9\nL E180 6\xff00\n").unwrap();
        let e = format!("{:#}", read_openings(&file, &start).unwrap_err());
        assert!(e.contains("line 2, placement 1"), "{e}");
        std::fs::write(&file, b"L E180 600 # caf\xe9\n").unwrap();
        assert_eq!(read_openings(&file, &start).unwrap().len(), 1);
        // Control characters are not echoed raw.
        let e = parse_openings("\x1b[31mX\n", &start).unwrap_err();
        assert!(!e.contains('\x1b') && e.contains("'?[31mX'"), "{e:?}");
    }

    #[test]
    fn the_openings_shipped_in_games_read() {
        let text = include_str!("../../../games/baseline-not-won.openings");
        let o = parse_openings(text, &Position::new()).unwrap();
        assert_eq!(o.len(), 70);
        assert!(o.iter().all(|o| (2..=4).contains(&o.len())));
    }
}
