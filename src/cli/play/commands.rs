//! The commands of `cabra play`: names, aliases, help texts, and telling a
//! command from a placement (with a suggestion for a misspelt command).

/// One command of the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmd {
    Place,
    Show,
    Moves,
    History,
    Go,
    Hint,
    Engine,
    Auto,
    Undo,
    Redo,
    New,
    Load,
    Save,
    ForceSave,
    Pos,
    Set,
    Result,
    Help,
    Quit,
}

/// What the help says about a command.
pub struct Spec {
    pub cmd: Cmd,
    /// The name, then the aliases.
    pub names: &'static [&'static str],
    /// The arguments, as in `undo [N]`.
    pub args: &'static str,
    /// One line for the command list.
    pub summary: &'static str,
    /// More lines for `help COMMAND` (no blank lines: a block has none).
    pub details: &'static str,
}

/// Every command, in the order `help` lists them.
pub const SPECS: &[Spec] = &[
    Spec {
        cmd: Cmd::Place,
        names: &["place", "p"],
        args: "PLACEMENT",
        summary: "play a placement (typing it alone does the same)",
        details: "A placement is piece, orientation and position, as in `L E180 110`: piece L, T, Z or O;
orientation a face T, B, N, S, E or W and an angle 0, 90, 180 or 270; position XYZ, the
smallest corner of the piece's bounding box (z is always 0). The face says how the piece is
tipped: T lies flat as `help pieces` draws it, B lies flat upside down (north and south
swapped), and N, S, E and W stand it on edge with its north, south, east or west side at the
top. The angle then turns it clockwise, seen from above, about the vertical. Case and spaces do not matter
(`le180110` works) and any of the 24 orientation names is accepted. Or give the four cubes
as twelve digits, in any order: `110 120 121 122`.
When you play against the engine, it answers at once.",
    },
    Spec {
        cmd: Cmd::Show,
        names: &["show", "d", "board"],
        args: "",
        summary: "show the board",
        details: "The three layers z=0, z=1, z=2 side by side (rows y from north 0 to south 7, columns x
from west 0 to east 7), then a top view with the owner of each column's top cube and the
column's height (below the layers on a narrow terminal). x is player 1, o is player 2; the
cubes of the last placement are capitals (X, O), and once a bridge has won, the cubes of a
shortest path of the bridge. Below: the last move, pieces left and the count of each player (bottom-perimeter
pieces: those with a cube on the floor along an edge; or edge columns and the time machine under bridget), whose turn it is, and a warning when
the side to move faces a win in one (`set threats`).",
    },
    Spec {
        cmd: Cmd::Moves,
        names: &["moves", "m"],
        args: "[PIECE]",
        summary: "count and list the legal placements (`moves L`)",
        details: "Lists the legal placements of the side to move, grouped by piece and orientation, each
line giving the positions where that shape fits: `L E180: 110 120` means `L E180 110` and
`L E180 120` are legal. `moves L` lists one piece's, `moves L E180` one orientation's (any of
its 24 names). A list too long for one screen is counted instead: per piece for `moves`,
per orientation for `moves L`.",
    },
    Spec {
        cmd: Cmd::History,
        names: &["history", "hist"],
        args: "",
        summary: "list the moves played so far",
        details: "One move a line, numbered as the prompt numbers them (`move N`), with the player who made
it, then how the game stands.",
    },
    Spec {
        cmd: Cmd::Go,
        names: &["go", "g"],
        args: "",
        summary: "the engine's best placements, without playing",
        details: "Searches the position with the full engine (whatever level you play against) and the
current budget (see `set`; 2 s when none is set), and prints the best placements with their
visits and win probabilities for the side to move, and the line of play the engine expects.
Ctrl-C stops the search early and shows what it found so far.",
    },
    Spec {
        cmd: Cmd::Hint,
        names: &["hint"],
        args: "",
        summary: "the engine's suggestion, drawn on the board",
        details: "Searches the position with the full engine (whatever level you play against) and the
current budget, then draws the placement it suggests into the board as capitals, without
playing it: type it to play it. A saved game records how many hints were taken (`# hints: N`).",
    },
    Spec {
        cmd: Cmd::Engine,
        names: &["engine", "e"],
        args: "",
        summary: "let the engine play for the side to move now",
        details: "The engine searches with the current budget and plays its best placement for the side to
move, whoever that is; when you play against the engine and it played for you, it then
answers as usual. Ctrl-C stops the search: then nothing is played.",
    },
    Spec {
        cmd: Cmd::Auto,
        names: &["auto"],
        args: "",
        summary: "let the engine play the game out, both sides",
        details: "The engine plays for both sides until the game ends, one line per placement, then shows
the board. Ctrl-C stops it; the placements made so far stay on the board (`undo` takes
them back).",
    },
    Spec {
        cmd: Cmd::Undo,
        names: &["undo", "u", "back"],
        args: "[N|all]",
        summary: "take back placements (alone: back to your turn)",
        details: "`undo N` takes back N placements, `undo all` all of them. `undo` alone takes back one,
and when you play against the engine, as many as needed to make it your turn again (your
last placement and the engine's answer). Taken back placements can be replayed with `redo`
until a different placement is played.",
    },
    Spec {
        cmd: Cmd::Redo,
        names: &["redo", "r", "forward"],
        args: "[N|all]",
        summary: "replay placements taken back with undo",
        details: "`redo N` replays N placements taken back, `redo all` all of them; `redo` alone replays
one, and when you play against the engine, as many as needed to make it your turn again.
The engine does not answer a redo by itself.",
    },
    Spec {
        cmd: Cmd::New,
        names: &["new"],
        args: "",
        summary: "start a new game on the empty board",
        details: "Clears the board. If the game you leave was not saved, its position code is printed so
that `pos CODE` can bring it back. If the engine plays player 1, it opens at once.",
    },
    Spec {
        cmd: Cmd::Load,
        names: &["load", "open"],
        args: "FILE",
        summary: "load a .caminos game file",
        details: "Reads a game record (one placement per line, see RULES.md section 8). A file with a bad
line is refused with the line number and the reason, and the current game is kept. The
engine does not move by itself after a load: type `engine` when it is its turn.",
    },
    Spec {
        cmd: Cmd::Save,
        names: &["save", "write"],
        args: "[FILE]",
        summary: "save the game (FILE: the last one loaded or saved)",
        details: "Writes one placement per line (four cells, then the notation as a comment). The file is
written to a temporary file beside it and renamed over it, so a failed save never leaves a
half-written or emptied file. The comment lines at the head of a loaded file are kept. A file
that this session did not load or write is not replaced: `save! FILE` (or `save --force
FILE`) does that.",
    },
    Spec {
        cmd: Cmd::ForceSave,
        names: &["save!"],
        args: "FILE",
        summary: "save, replacing a file this session did not write",
        details: "As `save`, but an existing file is replaced whoever wrote it (for scripts, and when `save`
refused).",
    },
    Spec {
        cmd: Cmd::Pos,
        names: &["pos", "code"],
        args: "[CODE]",
        summary: "print this game's position code, or set one",
        details: "A position code is one line of letters and digits, starting with `c1` (`c2` for a
game under other rules than plain caminos), that gives back the whole game (every placement in order, so undo works after `pos CODE`). Two characters
per placement, then two check characters; see docs/PLAY.md for the format.",
    },
    Spec {
        cmd: Cmd::Set,
        names: &["set"],
        args: "[NAME VALUE]",
        summary: "change a setting (`set level 1`: the weakest engine)",
        details: "set time 2s          think this long for a placement (also 500ms, 1.5s, 1m)
set iterations 50k   think this many iterations instead (reproducible with 1 thread)
set clock 5m+5s      play on a clock: 5 minutes for the game, 5 s back a placement
                     (`set clock off` goes back to the time or iterations)
set level 3          play against strength level 3: 1 is the weakest, 11 the full engine
                     (`cabra engines` lists the levels with their Elo ratings)
set threads 2        search with this many threads
set seed 7           the engine's random seed
set you 1            which side you play: 1, 2, both (two people) or none (watch)
set threats on       warn under the board when the side to move faces a win in one",
    },
    Spec {
        cmd: Cmd::Result,
        names: &["result", "status"],
        args: "",
        summary: "say how the game stands",
        details: "The result when the game is over (with the bottom-perimeter or edge
counts when they decided it), or
whose turn it is.",
    },
    Spec {
        cmd: Cmd::Help,
        names: &["help", "h", "?"],
        args: "[COMMAND]",
        summary: "list the commands, or describe one",
        details: "`help` lists the commands; `help COMMAND` describes one (`help place` explains the
placement notation).",
    },
    Spec {
        cmd: Cmd::Quit,
        names: &["quit", "exit", "q"],
        args: "",
        summary: "leave (end of input does the same)",
        details: "On a terminal, quitting with a game that is not saved asks you to type `quit` again; its
position code is printed so it can be brought back with `pos CODE`.",
    },
];

/// The spec of a command.
pub fn spec(cmd: Cmd) -> &'static Spec {
    SPECS
        .iter()
        .find(|s| s.cmd == cmd)
        .expect("every command has a spec")
}

/// The command named `word` (any case, aliases included).
pub fn lookup(word: &str) -> Option<Cmd> {
    let w = word.to_ascii_lowercase();
    SPECS
        .iter()
        .find(|s| s.names.contains(&w.as_str()))
        .map(|s| s.cmd)
}

/// What a line of input is.
#[derive(Debug, PartialEq, Eq)]
pub enum Input<'a> {
    /// Nothing to do (blank or a comment).
    Empty,
    /// A command with the rest of the line as its argument (trimmed).
    Command(Cmd, &'a str),
    /// A placement typed without `place`.
    Placement(&'a str),
    /// A first word that is no command.
    Unknown(&'a str),
}

/// Drops a comment: everything from a `#` at the start or after white space.
pub fn strip_comment(line: &str) -> &str {
    let mut prev_space = true;
    for (i, c) in line.char_indices() {
        if c == '#' && prev_space {
            return &line[..i];
        }
        prev_space = c.is_whitespace();
    }
    line
}

/// Whether `text` looks like an attempt at a move rather than a command:
/// `swap`, `tm` or `time machine`; it starts with a digit, its first word
/// is a piece letter, or it starts with a piece letter, a face letter and a
/// digit (`le180110`).
pub fn looks_like_placement(text: &str) -> bool {
    let t = text.trim_start();
    if cabra::game::special_move(t).is_some() {
        return true;
    }
    if t.starts_with(|c: char| c.is_ascii_digit()) {
        return true;
    }
    let first = t.split_whitespace().next().unwrap_or("");
    let is_piece = |c: char| "LTZOltzo".contains(c);
    if first.chars().count() == 1 && first.chars().all(is_piece) {
        return true;
    }
    let compact: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).take(3).collect();
    matches!(compact.as_slice(), [p, f, d] if is_piece(*p) && "TBNSEWtbnsew".contains(*f) && d.is_ascii_digit())
}

/// Reads one line of input.
pub fn classify(line: &str) -> Input<'_> {
    let t = strip_comment(line).trim();
    if t.is_empty() {
        return Input::Empty;
    }
    let (word, rest) = match t.find(char::is_whitespace) {
        Some(i) => (&t[..i], t[i..].trim()),
        None => (t, ""),
    };
    if let Some(cmd) = lookup(word) {
        return Input::Command(cmd, rest);
    }
    if looks_like_placement(t) {
        return Input::Placement(t);
    }
    Input::Unknown(word)
}

/// The command name closest to a misspelt `word`, if one is close enough.
pub fn suggest(word: &str) -> Option<&'static str> {
    let w = word.to_ascii_lowercase();
    if w.chars().count() > 20 {
        return None;
    }
    let (best, d) = SPECS
        .iter()
        .flat_map(|s| s.names.iter().map(move |&n| (s.names[0], n)))
        .filter(|(_, n)| n.len() > 1)
        .map(|(name, n)| (name, strsim::osa_distance(&w, n)))
        .min_by_key(|&(_, d)| d)?;
    let allowed = if w.chars().count() <= 3 { 1 } else { 2 };
    (d <= allowed).then_some(best)
}

/// Up to `max` characters of what the person typed, for an error message:
/// control characters escaped (so no escape sequence reaches the terminal),
/// `...` when cut.
pub fn echo(text: &str, max: usize) -> String {
    let mut out: String = text
        .chars()
        .take(max)
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<char>>()
            } else {
                vec![c]
            }
        })
        .collect();
    if text.chars().count() > max {
        out.push_str("...");
    }
    out
}

/// The one-line message for a first word that is no command.
pub fn unknown_message(word: &str) -> String {
    let shown = echo(word, 24);
    // `T0 110`: an orientation where the piece letter should come first.
    if word.parse::<cabra::game::Orientation>().is_ok() {
        return format!(
            "'{shown}' is an orientation: a placement starts with its piece, e.g. `L {} 110`",
            word.to_ascii_uppercase()
        );
    }
    match suggest(word) {
        Some(s) => {
            format!("unknown command '{shown}' — did you mean '{s}'? (`help` lists the commands)")
        }
        None => format!(
            "unknown command '{shown}': type `help` for the commands, or a placement such as `L E180 110`"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_placements_and_unknown_words() {
        assert_eq!(classify("  UNDO 3 "), Input::Command(Cmd::Undo, "3"));
        assert_eq!(
            classify("p L E180 110"),
            Input::Command(Cmd::Place, "L E180 110")
        );
        assert_eq!(classify("L E180 110"), Input::Placement("L E180 110"));
        assert_eq!(classify("le180110"), Input::Placement("le180110"));
        assert_eq!(
            classify("110 120 121 122"),
            Input::Placement("110 120 121 122")
        );
        assert_eq!(classify("test"), Input::Unknown("test"));
        assert_eq!(classify("   # just a comment"), Input::Empty);
        assert_eq!(classify("show # the board"), Input::Command(Cmd::Show, ""));
        assert_eq!(classify("?"), Input::Command(Cmd::Help, ""));
    }

    #[test]
    fn misspelt_commands_get_a_suggestion() {
        assert_eq!(suggest("udno"), Some("undo"));
        assert_eq!(suggest("shwo"), Some("show"));
        assert_eq!(suggest("qiut"), Some("quit"));
        assert_eq!(suggest("rdo"), Some("redo"));
        assert_eq!(suggest("xyzzy"), None);
        assert!(unknown_message("udno").contains("did you mean 'undo'"));
    }
}
