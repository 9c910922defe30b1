//! `moves`: the legal placements of the side to move, listed when they fit
//! one screen, else counted per piece (`moves L`) or per orientation
//! (`moves L E180` lists one).

use cabra::game::{Placement, parse_placement, table};

use super::*;

use crate::cli::play::help::SCREEN;

/// What `moves` was asked for.
#[derive(Clone, Copy)]
enum Filter {
    All,
    Piece(Piece),
    /// One shape, by its index in the table.
    Shape(Piece, usize),
}

impl Filter {
    fn parse(arg: &str) -> Result<Filter, String> {
        let a: String = arg.chars().filter(|c| !c.is_whitespace()).collect();
        let mut chars = a.chars();
        let Some(piece) = chars.next().map(Piece::from_letter) else {
            return Ok(Filter::All);
        };
        let bad = || {
            format!(
                "expected a piece L, T, Z or O after `moves`, and maybe an orientation \
                 (`moves L`, `moves L E180`), found '{}'",
                commands::echo(arg, 20)
            )
        };
        let piece = piece.ok_or_else(bad)?;
        if chars.as_str().is_empty() {
            return Ok(Filter::Piece(piece));
        }
        // Any of the 24 names, read as the notation reads it.
        let p = parse_placement(&format!("{piece} {} 000", chars.as_str())).map_err(|_| bad())?;
        Ok(Filter::Shape(piece, usize::from(p.entry().shape)))
    }

    fn keeps(self, p: &Placement) -> bool {
        match self {
            Filter::All => true,
            Filter::Piece(k) => p.entry().piece == k,
            Filter::Shape(_, s) => usize::from(p.entry().shape) == s,
        }
    }
}

impl Session {
    pub(super) fn moves(&self, arg: &str) -> Response {
        let filter = match Filter::parse(arg.trim()) {
            Ok(f) => f,
            Err(e) => return Response::err(e),
        };
        let pos = self.line.position();
        if pos.status().is_over() {
            return Response::ok(format!(
                "No legal placements: the game is over ({}).",
                result_line(pos, pos.status())
            ));
        }
        let mut list = PlacementList::new();
        pos.legal_placements(&mut list);
        let mover = pos.to_move();
        let count = |k: Piece| list.iter().filter(|p| p.entry().piece == k).count();
        let mut out = match filter {
            Filter::All => {
                let per: Vec<String> = Piece::ALL
                    .iter()
                    .map(|&k| format!("{k} {}", group(count(k) as u64)))
                    .collect();
                format!(
                    "{} legal placements for {}: {}\n",
                    group(list.len() as u64),
                    who(mover),
                    per.join(", ")
                )
            }
            Filter::Piece(k) | Filter::Shape(k, _) => {
                let n = list.iter().filter(|p| filter.keeps(p)).count();
                let what = match filter {
                    Filter::Shape(_, s) => format!("{k} {}", table().shapes()[s].orientation),
                    _ => k.to_string(),
                };
                let left = pos.pieces_left(mover, k);
                format!(
                    "{} legal placements of {what} for {}{}\n",
                    group(n as u64),
                    who(mover),
                    if left == 0 {
                        format!(" (no {k} left)")
                    } else {
                        String::new()
                    }
                )
            }
        };
        let lines = self.listing(&list, filter);
        let mut specials = Vec::new();
        pos.for_each_legal(|m| {
            if m.placement().is_none() {
                specials.push(m.to_string());
            }
        });
        let specials = (!specials.is_empty() && matches!(filter, Filter::All)).then(|| {
            format!(
                "  and instead of a placement: {} (`help {}`)\n",
                specials.join(", "),
                specials[0]
            )
        });
        if lines.lines().count() + 4 <= SCREEN || matches!(filter, Filter::Shape(..)) {
            out.push_str(&lines);
        } else {
            out.push_str(&self.summary(&list, filter));
        }
        out.push_str(specials.as_deref().unwrap_or(""));
        Response::ok(out)
    }

    /// One line per shape, `L E180: 110 120 ...`, wrapped at the
    /// terminal's width under the positions.
    fn listing(&self, list: &PlacementList, filter: Filter) -> String {
        let mut out = String::new();
        let mut current: Option<String> = None;
        let mut line = String::new();
        for p in list.iter().filter(|p| filter.keeps(p)) {
            let text = p.to_string();
            let (shape, at) = text.rsplit_once(' ').expect("notation has spaces");
            if current.as_deref() != Some(shape) {
                if !line.is_empty() {
                    out.push_str(&line);
                    out.push('\n');
                }
                line = format!("  {shape}:");
                current = Some(shape.to_string());
            }
            // Wrapped here (the printer would wrap it again, without the
            // hanging indent).
            if line.len() + 4 > self.width.min(100) - 4 {
                out.push_str(&line);
                out.push('\n');
                line = format!("  {}", " ".repeat(shape.len() + 1));
            }
            line.push(' ');
            line.push_str(at);
        }
        if !line.is_empty() {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// Too long a listing, counted: per orientation for one piece, with
    /// the way to list one; for all pieces, the way to list one piece.
    fn summary(&self, list: &PlacementList, filter: Filter) -> String {
        let width = self.width.min(100);
        match filter {
            Filter::Piece(k) => {
                let t = table();
                let counts: Vec<(String, usize)> = t
                    .shapes_of(k)
                    .map(|i| {
                        let n = list
                            .iter()
                            .filter(|p| usize::from(p.entry().shape) == i)
                            .count();
                        (t.shapes()[i].orientation.to_string(), n)
                    })
                    .collect();
                let fits: Vec<String> = counts
                    .iter()
                    .filter(|(_, n)| *n > 0)
                    .map(|(o, n)| format!("{o} {n}"))
                    .collect();
                let none = counts.len() - fits.len();
                let example = counts.iter().find(|(_, n)| *n > 0).map_or("T0", |(o, _)| o);
                let mut items = fits;
                if none > 0 {
                    let last = items.pop().unwrap_or_default();
                    items.push(format!("{last}; none in the other {none}"));
                }
                let mut out = packed("by orientation:", &items, width);
                out.push_str(&indented(
                    &format!(
                        "Too many to list on one screen: `moves {k} {example}` lists the positions of one orientation."
                    ),
                    width,
                ));
                out
            }
            _ => {
                // Name only pieces that have placements here.
                let t = table();
                let with: Vec<Piece> = Piece::ALL
                    .into_iter()
                    .filter(|&k| list.iter().any(|p| p.entry().piece == k))
                    .collect();
                let first = with.first().copied().unwrap_or(Piece::L);
                let shape =
                    list.iter()
                        .find(|p| p.entry().piece == first)
                        .map_or("T0".to_string(), |p| {
                            t.shapes()[usize::from(p.entry().shape)]
                                .orientation
                                .to_string()
                        });
                let others: Vec<String> = with[1.min(with.len())..]
                    .iter()
                    .map(|k| k.to_string())
                    .collect();
                let or = if others.is_empty() {
                    String::new()
                } else {
                    format!(" (or {})", others.join(", "))
                };
                indented(
                    &format!(
                        "Too many to list on one screen: `moves {first}`{or} shows one piece's, \
                         `moves {first} {shape}` one orientation's positions."
                    ),
                    width,
                )
            }
        }
    }
}

/// `head` and `items`, comma-separated, in lines of fewer than `width`
/// columns indented by two spaces, each item whole on its line.
fn packed(head: &str, items: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line = format!("  {head}");
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item},")
        } else {
            item.clone()
        };
        if line.len() + 1 + piece.len() >= width {
            out.push_str(&line);
            out.push('\n');
            line = String::from(" ");
        }
        line.push(' ');
        line.push_str(&piece);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// `text` wrapped to `width` columns, each line indented by two spaces.
fn indented(text: &str, width: usize) -> String {
    crate::cli::render::wrap(text, width.saturating_sub(2))
        .lines()
        .fold(String::new(), |s, l| s + "  " + l + "\n")
}
