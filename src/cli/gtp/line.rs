//! One GTP line in, one answer out: the preprocessing of GTP version 2
//! (control characters dropped, tabs as spaces, `#` comments removed,
//! blank lines ignored), the optional numeric id, and the answer format
//! (`=id text` or `?id reason`, ended by a blank line). Players and
//! placements as arguments are read here too.

use cabra::game::{Move, Player, parse_move};

use crate::cli::lines::Line;

/// The longest line read (longer ones are answered with an error).
pub const MAX_LINE: usize = 4096;

/// A command as read: its id, name and arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The number the controller gave it, repeated in the answer.
    pub id: Option<u64>,
    /// The command name (case-sensitive).
    pub name: String,
    /// The arguments, split at white space.
    pub args: Vec<String>,
}

/// What a line holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parsed {
    /// Nothing (white space or a comment): no answer.
    Empty,
    /// A command to run.
    Command(Command),
    /// A line that cannot be run: answered with `?` and the reason.
    Error {
        /// The id, when one could be read.
        id: Option<u64>,
        /// Why.
        reason: String,
    },
}

/// Reads one line of input.
pub fn parse(line: &Line) -> Parsed {
    if line.too_long {
        return Parsed::Error {
            id: None,
            reason: format!("line too long (at most {MAX_LINE} bytes)"),
        };
    }
    let (text, utf8) = match std::str::from_utf8(&line.bytes) {
        Ok(t) => (t.to_string(), true),
        Err(_) => (String::from_utf8_lossy(&line.bytes).into_owned(), false),
    };
    let clean: String = text
        .chars()
        .take_while(|&c| c != '#')
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let mut words = clean.split_whitespace();
    let Some(first) = words.next() else {
        return if utf8 {
            Parsed::Empty
        } else {
            Parsed::Error {
                id: None,
                reason: "the line is not UTF-8 text".into(),
            }
        };
    };
    let (id, name) = if first.starts_with(|c: char| c.is_ascii_digit()) {
        if !first.chars().all(|c| c.is_ascii_digit()) {
            return Parsed::Error {
                id: None,
                reason: format!("invalid id '{first}': an id is a number"),
            };
        }
        let Ok(id) = first.parse::<u64>() else {
            return Parsed::Error {
                id: None,
                reason: format!("id {first} is too large"),
            };
        };
        match words.next() {
            Some(name) => (Some(id), name),
            None => {
                return Parsed::Error {
                    id: Some(id),
                    reason: "no command after the id".into(),
                };
            }
        }
    } else {
        (None, first)
    };
    if !utf8 {
        return Parsed::Error {
            id,
            reason: "the line is not UTF-8 text".into(),
        };
    }
    Parsed::Command(Command {
        id,
        name: name.to_string(),
        args: words.map(str::to_string).collect(),
    })
}

/// The answer to a command: `=id text` (or `?id text` when `ok` is false),
/// then a blank line. Blank lines inside the text are dropped, as a blank
/// line ends an answer.
pub fn answer(id: Option<u64>, ok: bool, text: &str) -> String {
    let mut out = String::from(if ok { "=" } else { "?" });
    if let Some(id) = id {
        out.push_str(&id.to_string());
    }
    out.push(' ');
    let mut lines = text.lines();
    out.push_str(lines.next().unwrap_or("").trim_end());
    for l in lines.filter(|l| !l.trim().is_empty()) {
        out.push('\n');
        out.push_str(l.trim_end());
    }
    out.push_str("\n\n");
    out
}

/// Reads a player: `1`, `2`, `x`, `o` (also `b`/`black` for the first
/// player and `w`/`white` for the second, as Go controllers send them).
pub fn parse_player(word: &str) -> Result<Player, String> {
    match word.to_ascii_lowercase().as_str() {
        "1" | "x" | "b" | "black" => Ok(Player::One),
        "2" | "o" | "w" | "white" => Ok(Player::Two),
        _ => Err(format!("'{word}' is not a player (1, 2, x or o)")),
    }
}

/// Reads a move from the words of the arguments: a placement (`L E180
/// 110` or twelve digits), `swap` or `tm`.
pub fn parse_move_words(words: &[String]) -> Result<Move, String> {
    if words.is_empty() {
        return Err("missing placement (e.g. `L E180 110` or `110 120 121 122`)".into());
    }
    parse_move(&words.join(" ")).map_err(|e| format!("bad placement: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &[u8]) -> Parsed {
        parse(&Line {
            bytes: s.to_vec(),
            too_long: false,
        })
    }

    fn command(id: Option<u64>, name: &str, args: &[&str]) -> Parsed {
        Parsed::Command(Command {
            id,
            name: name.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
        })
    }

    #[test]
    fn ids_comments_tabs_and_control_characters() {
        assert_eq!(line(b"name"), command(None, "name", &[]));
        assert_eq!(
            line(b"12\tplay 1 L\x01 E180 110 # a comment"),
            command(Some(12), "play", &["1", "L", "E180", "110"])
        );
        for empty in [&b""[..], b"   ", b"# only a comment", b"\x07\x08"] {
            assert_eq!(line(empty), Parsed::Empty, "{empty:?}");
        }
        let err = |p: Parsed| match p {
            Parsed::Error { id, reason } => (id, reason),
            other => panic!("{other:?}"),
        };
        assert!(err(line(b"12x name")).1.contains("invalid id"));
        assert!(
            err(line(b"99999999999999999999999 name"))
                .1
                .contains("too large")
        );
        assert_eq!(err(line(b"7")), (Some(7), "no command after the id".into()));
        assert_eq!(err(line(b"3 name \xff\xfe")).0, Some(3));
        assert!(err(line(b"\xff\xfe")).1.contains("UTF-8"));
        let long = parse(&Line {
            bytes: vec![b'a'; 10],
            too_long: true,
        });
        assert!(err(long).1.contains("too long"));
    }

    #[test]
    fn answers_end_with_one_blank_line() {
        assert_eq!(answer(Some(4), true, "2"), "=4 2\n\n");
        assert_eq!(
            answer(None, false, "unknown command"),
            "? unknown command\n\n"
        );
        assert_eq!(answer(None, true, "a\n\nb\n"), "= a\nb\n\n");
    }

    #[test]
    fn players_and_placements() {
        for (w, p) in [("1", Player::One), ("X", Player::One), ("o", Player::Two)] {
            assert_eq!(parse_player(w), Ok(p));
        }
        assert!(parse_player("3").is_err());
        let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let p = parse_move_words(&words("L E180 110")).unwrap();
        assert_eq!(parse_move_words(&words("110 120 121 122")), Ok(p));
        assert_eq!(
            parse_move_words(&words("time machine")),
            Ok(Move::TimeMachine)
        );
        assert_eq!(parse_move_words(&words("swap")), Ok(Move::Swap));
        assert!(
            parse_move_words(&words("L E180"))
                .unwrap_err()
                .contains("bad placement")
        );
        assert!(parse_move_words(&[]).unwrap_err().contains("missing"));
    }
}
