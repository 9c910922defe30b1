//! `.caminos` game records (RULES.md sections 8 and 9.4): reading from
//! bytes with line-numbered errors, writing in the canonical form. Files
//! themselves are read and written by the front ends.

use super::error::{LineError, RecordError};
use super::notation::{cells_from_digits, parse_placement, placement_from_cells};
use super::position::Position;
use super::rules::{Move, Rules, special_move};
use super::table::Placement;

/// A game record as read: the game (with its rules), and the comment lines
/// before its first move (without their `#`; the rules line excepted),
/// which a program writing the game back keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position at the end of the record.
    pub position: Position,
    /// The text of each comment line before the first placement, after `#`.
    pub header: Vec<String>,
}

/// The lines of a file: ended by `\n`, `\r\n` or a lone `\r`.
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = bytes;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .unwrap_or(rest.len());
        let line = &rest[..end];
        let skip = match rest.get(end..end + 2) {
            Some(b"\r\n") => 2,
            _ if end < rest.len() => 1,
            _ => 0,
        };
        rest = &rest[end + skip..];
        Some(line)
    })
}

/// What one line of a record holds.
enum Line<'a> {
    /// Nothing but white space.
    Blank,
    /// Only a comment: the text after `#`.
    Comment(&'a [u8]),
    /// A `# rules: ...` comment line.
    Rules(Rules),
    /// A placement, `swap` or `tm`.
    Move(Move),
}

/// Reads one line of a record.
fn parse_line(line: &[u8]) -> Result<Line<'_>, LineError> {
    let (content, comment) = match line.iter().position(|&b| b == b'#') {
        Some(i) => (&line[..i], Some(&line[i + 1..])),
        None => (line, None),
    };
    if content.iter().all(u8::is_ascii_whitespace) {
        return match comment {
            None => Ok(Line::Blank),
            Some(c) => match rules_line(c) {
                Some(r) => r.map(Line::Rules),
                None => Ok(Line::Comment(c)),
            },
        };
    }
    let text =
        std::str::from_utf8(content).map_err(|e| LineError::NotUtf8(content[e.valid_up_to()]))?;
    let digits: Vec<u8> = text
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    if digits.is_empty() {
        if let Some(m) = special_move(text) {
            return Ok(Line::Move(m));
        }
    }
    let cells = cells_from_digits(&digits).map_err(|e| match parse_placement(text) {
        // A line in piece notation: say how a file writes that placement.
        Ok(placement) => LineError::PieceNotation {
            cells: e,
            placement,
        },
        Err(_) => LineError::Notation(e),
    })?;
    Ok(Line::Move(Move::Place(placement_from_cells(cells)?)))
}

/// The rules of a `# rules: ...` comment (the text after `#`), if it is one.
fn rules_line(comment: &[u8]) -> Option<Result<Rules, LineError>> {
    let text = String::from_utf8_lossy(comment);
    let t = text.trim_start();
    let head = t.get(..6)?;
    if !head.eq_ignore_ascii_case("rules:") {
        return None;
    }
    Some(t[6..].parse().map_err(LineError::Rules))
}

/// Reads a game record from the bytes of a file. A UTF-8 byte-order mark
/// is skipped; lines end with `\n`, `\r\n` or `\r`. A `# rules: ...` line
/// before the first move sets the rules (`caminos` without swap when there
/// is none). The first bad line stops reading with an error naming the line
/// and the reason; nothing past it is applied.
///
/// ```
/// use cabra::game::record::parse_record;
/// let r = parse_record(b"# a game\n110 120 121 122\n").unwrap();
/// assert_eq!(r.position.plies(), 1);
/// assert_eq!(r.header, vec![" a game".to_string()]);
/// let e = parse_record(b"110 120 121 122\n110 120 121 122\n").unwrap_err();
/// assert_eq!(e.line, 2);
/// let swap = parse_record(b"# rules: caminos swap\n110 120 121 122\nswap\n").unwrap();
/// assert!(swap.position.swapped());
/// ```
pub fn parse_record(bytes: &[u8]) -> Result<Record, RecordError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut position = Position::new();
    let mut rules: Option<Rules> = None;
    let mut header = Vec::new();
    for (i, line) in lines(bytes).enumerate() {
        let fail = |kind: LineError| RecordError { line: i + 1, kind };
        match parse_line(line).map_err(fail)? {
            Line::Blank => {}
            Line::Comment(text) => {
                if position.plies() == 0 {
                    header.push(String::from_utf8_lossy(text).into_owned());
                }
            }
            Line::Rules(r) => {
                if position.plies() > 0 {
                    return Err(fail(LineError::RulesAfterMoves));
                }
                if let Some(old) = rules.filter(|&old| old != r) {
                    return Err(fail(LineError::RulesChanged(old)));
                }
                rules = Some(r);
                position = Position::with_rules(r);
            }
            Line::Move(m) => position.play(m).map_err(|e| fail(e.into()))?,
        }
    }
    Ok(Record { position, header })
}

/// Reads a game record from text (see [`parse_record`]).
pub fn parse_game(text: &str) -> Result<Position, RecordError> {
    parse_record(text.as_bytes()).map(|r| r.position)
}

/// The four cells of a placement in ascending order: `110 120 121 122`.
pub fn cells_text(p: Placement) -> String {
    let cells: Vec<String> = p.entry().cells.cells().map(|c| c.to_string()).collect();
    cells.join(" ")
}

/// One line of a record: the four cells in ascending order, then the notation.
pub fn placement_line(p: Placement) -> String {
    format!("{}  # {}", cells_text(p), p)
}

/// One line of a record for any move: a placement line, `swap` or `tm`.
pub fn move_line(m: Move) -> String {
    match m {
        Move::Place(p) => placement_line(p),
        special => special.to_string(),
    }
}

/// The record of a game, as RULES.md sections 8 and 9.4 say: a rules line
/// when the rules are not the default, then one move per line.
pub fn write_game(pos: &Position) -> String {
    let mut s = String::new();
    if !pos.rules().is_default() {
        s.push_str(&format!("# rules: {}\n", pos.rules()));
    }
    for &m in pos.moves() {
        s.push_str(&move_line(m));
        s.push('\n');
    }
    s
}

/// The record of a game after header comment lines (each written `#` and
/// its text, as [`Record::header`] holds them), which always reads back
/// as the same game: a header text with line breaks is written as several
/// comment lines, and one that would read as a `# rules:` line is left
/// out (the game's own rules line says its rules).
///
/// ```
/// use cabra::game::record::{parse_record, write_record};
/// use cabra::game::Position;
///
/// let pos = Position::default();
/// let header = vec![" Event: club night\n Round 2".to_string(), " rules: bridget".to_string()];
/// let text = write_record(&header, &pos);
/// assert_eq!(text, "# Event: club night\n# Round 2\n");
/// assert_eq!(parse_record(text.as_bytes()).unwrap().position, pos);
/// ```
pub fn write_record(header: &[String], pos: &Position) -> String {
    let mut s = String::new();
    for h in header {
        for line in h.replace("\r\n", "\n").split(['\n', '\r']) {
            if rules_line(line.as_bytes()).is_none() {
                s.push('#');
                s.push_str(line);
                s.push('\n');
            }
        }
    }
    s.push_str(&write_game(pos));
    s
}

#[cfg(test)]
mod variant_tests {
    use super::*;
    use crate::game::Variant;

    #[test]
    fn rules_lines_and_special_moves() {
        let text = "# a header\n# Rules: SWAP bridget\n110 120 121 122\nswap\n";
        let r = parse_record(text.as_bytes()).unwrap();
        assert_eq!(
            r.position.rules(),
            Rules {
                variant: Variant::Bridget,
                swap: true
            }
        );
        assert_eq!(r.header, vec![" a header"]);
        let out = write_record(&r.header, &r.position);
        assert_eq!(
            out,
            "# a header\n# rules: bridget swap\n110 120 121 122  # L E180 110\nswap\n"
        );
        assert_eq!(parse_record(out.as_bytes()).unwrap(), r);
        // A header that says other rules, or holds line breaks, cannot
        // make the record another game or an unreadable one.
        let header = vec![" rules: caminos".to_string(), "a\r\nb\rc".to_string()];
        let out = write_record(&header, &r.position);
        assert!(
            out.starts_with("#a\n#b\n#c\n# rules: bridget swap\n"),
            "{out}"
        );
        assert_eq!(parse_record(out.as_bytes()).unwrap().position, r.position);
        // A rules line after the first move, or a second one that differs.
        let late = parse_record(b"110 120 121 122\n# rules: bridget\n").unwrap_err();
        assert_eq!(late.line, 2);
        let twice = parse_record(b"# rules: bridget\n# rules: caminos\n").unwrap_err();
        assert_eq!(twice.line, 2);
        assert!(parse_record(b"# rules: bridget\n# rules: Bridget\n").is_ok());
        let unknown = parse_record(b"# rules: chess\n").unwrap_err();
        assert!(
            unknown.kind.to_string().contains("unknown rules word"),
            "{}",
            unknown.kind.to_string()
        );
        // Special moves the rules do not allow name their line.
        let swap = parse_record(b"110 120 121 122\nswap\n").unwrap_err();
        assert_eq!(swap.line, 2);
        assert!(
            swap.kind
                .to_string()
                .contains("not part of the caminos rules"),
            "{}",
            swap.kind.to_string()
        );
        let tm =
            parse_record(b"# rules: caminos swap\n110 120 121 122\nTime Machine\n").unwrap_err();
        assert_eq!(tm.line, 3);
        assert!(
            tm.kind.to_string().contains("time machine"),
            "{}",
            tm.kind.to_string()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ends_bom_and_bytes_in_comments() {
        let one = "110 120 121 122";
        let two = "330 340 430 440";
        for text in [
            format!("{one}\n{two}\n"),
            format!("{one}\r\n{two}\r\n"),
            format!("{one}\r{two}\r"),
            format!("\u{FEFF}# header\n{one}\n{two}"),
        ] {
            let r = parse_record(text.as_bytes()).unwrap();
            assert_eq!(r.position.plies(), 2, "{text:?}");
        }
        // Latin-1 in a comment is ignored; outside one it is an error.
        let latin = b"# caf\xE9\n110 120 121 122  # caf\xE9\n".to_vec();
        let r = parse_record(&latin).unwrap();
        assert_eq!((r.position.plies(), r.header.len()), (1, 1));
        let e = parse_record(b"110 120 121 122 caf\xE9\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(
            e.kind.to_string().contains("0xE9"),
            "{}",
            e.kind.to_string()
        );
        // CR-only lines: the second line is bad and named.
        let e = parse_record(b"110 120 121 122\r110 120 121 122\r").unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn a_line_in_piece_notation_says_how_files_write_it() {
        let e = parse_record(b"L E180 110\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(
            e.kind.to_string().contains("found 6 digits, expected 12"),
            "{}",
            e.kind.to_string()
        );
        assert!(
            e.kind
                .to_string()
                .contains("`L E180 110` is written `110 120 121 122`"),
            "{}",
            e.kind.to_string()
        );
    }

    #[test]
    fn header_comments_survive_a_round_trip() {
        let text = "# cabra game 1\n#   opening: 2\n\n110 120 121 122  # L E180 110\n# later\n";
        let r = parse_record(text.as_bytes()).unwrap();
        assert_eq!(r.header, vec![" cabra game 1", "   opening: 2"]);
        let out = write_record(&r.header, &r.position);
        assert_eq!(
            out,
            "# cabra game 1\n#   opening: 2\n110 120 121 122  # L E180 110\n"
        );
        assert_eq!(parse_record(out.as_bytes()).unwrap(), r);
    }
}
