//! A piece alone in one orientation, drawn as the board draws its cubes:
//! the pictures of the page's orientation picker. The faces carry classes
//! (`t` top, `l` and `r` the sides) that the page colours for the player
//! to move.

use std::fmt::Write;

use super::board::{faces, project};
use super::num;

/// The piece made of `cells` (`[x, y, z]` from its smallest corner) as an
/// `<svg>` element, its view box fitted to the cubes.
pub fn piece(cells: &[[u8; 3]]) -> String {
    let mut cubes: Vec<[u8; 3]> = cells.to_vec();
    // Far to near, low to high, as on the board.
    cubes.sort_by_key(|c| (c[0] + c[1] + c[2], c[2]));
    let corners = cubes.iter().flat_map(|c| {
        let (x, y, z) = (f64::from(c[0]), f64::from(c[1]), f64::from(c[2]));
        [0.0, 1.0].into_iter().flat_map(move |du| {
            [0.0, 1.0].into_iter().flat_map(move |dv| {
                [0.0, 1.0]
                    .into_iter()
                    .map(move |dz| project(x + du, y + dv, z + dz))
            })
        })
    });
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (x, y) in corners {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let pad = 2.0;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="pic" viewBox="{} {} {} {}" role="img" aria-hidden="true" stroke="#1b1b1b" stroke-width="1" stroke-linejoin="round">"##,
        num(x0 - pad),
        num(y0 - pad),
        num(x1 - x0 + 2.0 * pad),
        num(y1 - y0 + 2.0 * pad)
    );
    for c in cubes {
        let [top, left, right] = faces(f64::from(c[0]), f64::from(c[1]), f64::from(c[2]));
        let _ = write!(
            s,
            r##"<polygon class="t" points="{top}"/><polygon class="l" points="{left}"/><polygon class="r" points="{right}"/>"##
        );
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_is_four_cubes_of_three_faces() {
        let svg = piece(&[[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]]);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert_eq!(svg.matches("<polygon").count(), 12);
        assert_eq!(svg.matches(r#"class="t""#).count(), 4);
    }
}
