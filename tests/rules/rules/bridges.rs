//! Section 6: winning with a bridge.

use super::*;

// --------------------------------------------------- 6. Bridges

#[test]
fn r6_visible_means_no_opponent_cube_anywhere_above() {
    // Column 00: own 000, own 001, opponent 002: both own cubes are hidden
    // (000 two levels below the opponent's cube). Column 10: own 100 under
    // own 101: both visible. Column 20: own 200 under opponent 201 under own
    // 202: 200 hidden, 202 visible.
    let own = vol("000 001 100 101 200 202");
    let opp = vol("002 201");
    assert_eq!(visible(own, opp), vol("100 101 202"));
    assert_eq!(visible(opp, own), vol("002"));
}

#[test]
fn r6_links_one_level_apart_orthogonal_columns_only() {
    // A chain of visible cubes, each pair checked on its own.
    let linked = |a: &str, b: &str| {
        let v = vol(&format!("{a} {b}"));
        flood(v, vol(a)) == v
    };
    assert!(linked("000", "001"), "same column, one apart");
    assert!(!linked("000", "002"), "same column, two apart");
    assert!(linked("000", "100"), "east neighbour, same height");
    assert!(linked("000", "010"), "south neighbour, same height");
    assert!(linked("330", "331") && linked("331", "430") && linked("330", "431"));
    assert!(linked("331", "231") && linked("331", "321") && linked("331", "341"));
    assert!(linked("000", "101"), "east neighbour, one up");
    assert!(!linked("000", "111"), "diagonal columns, one up");
    assert!(!linked("000", "110"), "diagonal columns, same height");
    assert!(!linked("330", "432"), "neighbours two levels apart");
    assert!(!linked("332", "230"), "neighbours two levels apart (down)");
    assert!(!linked("000", "200"), "not neighbours");
    assert!(!linked("070", "700"), "no wrap around the board");
    assert!(!linked("700", "010"), "no wrap from east edge to next row");
}

#[test]
fn r6_straight_north_south_bridge_at_floor_level() {
    // P1 fills column x = 3 at z = 0: 200 300 310 320, 230 330 340 350,
    // 260 360 270 370. P2 plays two O's in the south-east corner.
    let (before, after) =
        game_until_last(&["L T90 200", "O T0 660", "L T90 230", "O T0 640", "O T0 260"]);
    assert!(!before.has_bridge(P1));
    assert!(after.has_bridge(P1));
    assert!(!after.has_bridge(P2));
    assert_eq!(after.status(), bridge_win(P1));
    assert_eq!(after.plies(), 5);
    assert_eq!(after, load("hand_straight_bridge"));
    assert_nothing_more(&after);
}

#[test]
fn r6_west_east_bridge_at_floor_level() {
    // P1 fills row y = 2: 020 120 220 (030), 320 420 520 (330), 620 720
    // (630 730). P2's O's sit in the south-west corner.
    let (before, after) =
        game_until_last(&["L T0 020", "O T0 060", "L T0 320", "O T0 260", "O T0 620"]);
    assert!(!before.has_bridge(P1));
    assert_eq!(after.status(), bridge_win(P1));
    // It is a west-east bridge: P1's cubes only cover rows 2 and 3.
    assert_eq!(after.cubes(P1).columns() & (NORTH | SOUTH), 0);
    assert_nothing_more(&after);
}

#[test]
fn r6_a_row_along_the_north_edge_is_a_west_east_bridge() {
    // 000 100 200 (010), 300 400 500 (310), 600 700 (610 710): all of row
    // y = 0 is P1's. It touches the north edge only, yet joins x = 0 to x = 7.
    let (_, after) = game_until_last(&["L T0 000", "O T0 660", "L T0 300", "O T0 640", "O T0 600"]);
    assert_eq!(after.status(), bridge_win(P1));
}

#[test]
fn r6_a_bridge_climbing_to_z1() {
    // tests/data/games/hand_climb_z1_ns.caminos: P2's O at 330 blocks
    // column x = 3 at y = 3, 4 on the floor. P1's `L N270 330`
    // (331 341 351 350) runs over it at z = 1 and hides P2's 330 and 340.
    // Chain: 300-310-320 -> 331 -> 341 -> 351 -> 360 -> 370.
    let (before, after) = game_until_last(&[
        "L T90 200",
        "O T0 330",
        "L N270 330",
        "O T0 660",
        "O T0 260",
    ]);
    assert_eq!(cells(mv("L N270 330")), "331 341 350 351");
    assert!(!before.has_bridge(P1));
    assert_eq!(after.status(), bridge_win(P1));
    let vis2 = visible(after.cubes(P2), after.cubes(P1));
    assert!(!vis2.contains(c("330")) && !vis2.contains(c("340")));
    assert!(vis2.contains(c("430")) && vis2.contains(c("440")));
    assert_eq!(after, load("hand_climb_z1_ns"));
}

#[test]
fn r6_a_bridge_climbing_to_z2_one_level_at_a_time() {
    // tests/data/games/hand_climb_z2_ns.caminos. P2's upright O N0 330 is a
    // wall two high at y = 3 (330 331 430 431). P1 climbs it in steps of
    // one: 320 -> 321 (own, same column) -> 332 (on P2's 331) -> 342 ->
    // 341 -> 350 -> 360 -> 370.
    let (before, after) = game_until_last(&[
        "L S270 300",
        "O N0 330",
        "L W180 330",
        "O T0 660",
        "L T90 250",
    ]);
    assert_eq!(cells(mv("L S270 300")), "300 310 320 321");
    assert_eq!(cells(mv("L W180 330")), "332 340 341 342");
    assert!(!before.has_bridge(P1));
    assert_eq!(after.status(), bridge_win(P1));
    assert_eq!(after, load("hand_climb_z2_ns"));
}

/// As the z = 2 climb, but P1's first L is `L T90 200` (200 300 310 320):
/// there is no 321, so the only way over the wall would be 320 -> 332, a
/// step of two levels between neighbouring columns.
const TWO_LEVEL_STEP: [&str; 5] = [
    "L T90 200",
    "O N0 330",
    "L W180 330",
    "O T0 660",
    "L T90 250",
];

#[test]
fn r6_a_two_level_step_is_not_a_link() {
    let pos = game(&TWO_LEVEL_STEP);
    // P1 has cubes on both the north (200, 300) and south (370) edges...
    let cols = pos.cubes(P1).columns();
    assert!(cols & NORTH != 0 && cols & SOUTH != 0);
    // ...but no bridge: 320 (z = 0) and 332 (z = 2) are two levels apart.
    assert!(!pos.has_bridge(P1));
    assert_eq!(pos.status(), Status::Ongoing);
    // Fill in the step: P2 plays away, then P1's T 220 221 222 321 puts a
    // cube at 321 on its own 320, and 320 -> 321 -> 332 is a chain.
    let mut pos = pos;
    pos.play(mv("L T0 500")).unwrap();
    assert_eq!(pos.status(), Status::Ongoing);
    let t = mv("220 221 222 321");
    assert_eq!(t.entry().piece, Piece::T);
    pos.play(t).unwrap();
    assert_eq!(pos.status(), bridge_win(P1));
}

#[test]
fn r6_player_two_climbs_to_z2_west_east() {
    // tests/data/games/hand_p2_climb_z2_we.caminos: P2's chain
    // 030-130-230 -> 231 -> 332 (on P1's 331) -> 432 -> 431 -> 530 -> 630 -> 730.
    let (before, after) = game_until_last(&[
        "O E0 330",
        "L S180 030",
        "O T0 060",
        "L W90 330",
        "T T0 560",
        "L T0 530",
    ]);
    assert!(!before.has_bridge(P2));
    assert_eq!(after.status(), bridge_win(P2));
    assert!(!after.has_bridge(P1));
    assert_eq!(after, load("hand_p2_climb_z2_we"));
}

#[test]
fn r6_an_opponent_cube_on_top_breaks_the_bridge() {
    // tests/data/games/hand_broken_bridge_ongoing.caminos: P1 fills column
    // x = 3 on the floor, but P2's `Z N0 310` (311 410 411 510) sits on P1's
    // 310, hiding it. No chain passes y = 1 and the game goes on.
    let pos = game(&["L T90 200", "Z N0 310", "L T90 230", "O T0 660", "O T0 260"]);
    assert_eq!(pos.status(), Status::Ongoing);
    assert!(!pos.has_bridge(P1));
    assert!(!visible(pos.cubes(P1), pos.cubes(P2)).contains(c("310")));
    assert_eq!(pos, load("hand_broken_bridge_ongoing"));
    // P1 goes around: O T0 110 adds 110 210 120 220, and 200 -> 210 -> 220
    // -> 320 avoids the hidden cube (hand_broken_bridge_detour.caminos).
    let mut pos = pos;
    pos.play(mv("O T0 640")).unwrap();
    pos.play(mv("O T0 110")).unwrap();
    assert_eq!(pos.status(), bridge_win(P1));
    assert_eq!(pos, load("hand_broken_bridge_detour"));
}

/// P1's column x = 3 on the floor (moves 1, 3, 7) with a Z at move 5 that
/// puts P1's own cube 341 on P1's 340: 341 440 441 540.
fn hidden_two_up(p2_move_6: &str) -> (Position, Position) {
    game_until_last(&[
        "L T90 200",       // P1: 200 300 310 320
        "O T0 660",        // P2
        "L T90 230",       // P1: 230 330 340 350
        "O T0 000",        // P2: 000 100 010 110
        "341 440 441 540", // P1: a Z standing on its own 340
        p2_move_6,
        "O T0 260", // P1: 260 360 270 370
    ])
}

#[test]
fn r6_an_opponent_cube_two_levels_up_still_hides() {
    // P2's L 240 241 242 342 puts 342 on P1's 341: P1's 340 (two levels
    // below 342) and 341 are both hidden, and the column is broken at y = 4.
    // P1's 440 441 540 touch 340/341 only, so they do not help.
    let (_, after) = hidden_two_up("240 241 242 342");
    assert_eq!(after.owner(c("341")), Some(P1));
    assert_eq!(after.owner(c("342")), Some(P2));
    let vis = visible(after.cubes(P1), after.cubes(P2));
    assert!(!vis.contains(c("340")) && !vis.contains(c("341")));
    assert!(!after.has_bridge(P1));
    assert_eq!(after.status(), Status::Ongoing);
}

#[test]
fn r6_own_cubes_above_do_not_hide() {
    // The same game with P2 playing away at move 6: 340 has only P1's own
    // 341 above it, stays visible, and column x = 3 is a bridge.
    let (before, after) = hidden_two_up("T T0 500");
    assert!(!before.has_bridge(P1));
    let vis = visible(after.cubes(P1), after.cubes(P2));
    assert!(vis.contains(c("340")) && vis.contains(c("341")));
    assert_eq!(after.status(), bridge_win(P1));
}

#[test]
fn r6_diagonal_contact_does_not_link() {
    //   x: 2 3 4 5     P1's north group 200 300 310 320 ends at (3, 2);
    // y=2  . # . .     the south group 430 440 450 550 + 460 560 470 570
    // y=3  . . # .     starts at (4, 3): the two only meet corner to corner.
    let moves = [
        "L T90 200",       // P1
        "O T0 000",        // P2
        "430 440 450 550", // P1: an L
        "O T0 660",        // P2
        "O T0 460",        // P1
    ];
    let pos = game(&moves);
    let cols = pos.cubes(P1).columns();
    assert!(cols & NORTH != 0 && cols & SOUTH != 0);
    assert!(!pos.has_bridge(P1));
    assert_eq!(pos.status(), Status::Ongoing);
    // O T0 230 (230 330 240 340) joins them through 330, which neighbours
    // both 320 and 430.
    let mut pos = pos;
    pos.play(mv("T T0 500")).unwrap();
    pos.play(mv("O T0 230")).unwrap();
    assert_eq!(pos.status(), bridge_win(P1));
}

#[test]
fn r6_player_two_bridges_north_south() {
    // P2 builds the column x = 3 of the straight bridge; P1 plays away
    // (000 100 010 110, 660 760 670 770, 050 150 250 060: no span).
    let (before, after) = game_until_last(&[
        "O T0 000",
        "L T90 200",
        "O T0 660",
        "L T90 230",
        "L T0 050",
        "O T0 260",
    ]);
    assert!(!before.has_bridge(P2) && !before.has_bridge(P1));
    assert_eq!(after.status(), bridge_win(P2));
    assert_nothing_more(&after);
}

#[test]
fn r6_player_two_bridges_west_east() {
    let (before, after) = game_until_last(&[
        "O T0 000", "L T0 020", "O T0 060", "L T0 320", "L T0 350", "O T0 620",
    ]);
    assert!(!before.has_bridge(P2));
    assert_eq!(after.status(), bridge_win(P2));
    assert_eq!(after.cubes(P2).columns() & (NORTH | SOUTH), 0);
}

#[test]
fn r6_the_bridge_test_on_bare_volumes() {
    // The library's bridge test on volumes that need no game: a north-south
    // line of single cubes at z = 0 and at z = 2 (the formal rule does not
    // ask for support), broken by a gap, by a diagonal, or by a hidden cube.
    let ns = |z: u8| {
        let v: Vec<String> = (0..8).map(|y| format!("3{y}{z}")).collect();
        vol(&v.join(" "))
    };
    assert!(has_bridge(ns(0), Volume::EMPTY));
    assert!(has_bridge(ns(2), Volume::EMPTY));
    assert!(!has_bridge(ns(0), vol("341")), "hidden at y = 4");
    assert!(!has_bridge(ns(0), vol("342")), "hidden two levels up");
    assert!(
        has_bridge(ns(0) | vol("341"), Volume::EMPTY),
        "own cube above"
    );
    let mut gap = ns(0);
    gap = Volume::from_layers([
        gap.layers()[0] & !bit(3, 4),
        gap.layers()[1],
        gap.layers()[2],
    ]);
    assert!(!has_bridge(gap, Volume::EMPTY));
    assert!(
        !has_bridge(gap | vol("440"), Volume::EMPTY),
        "diagonal only"
    );
    assert!(
        has_bridge(gap | vol("430 440 450"), Volume::EMPTY),
        "detour"
    );
    assert!(
        has_bridge(gap | vol("331 341 351"), Volume::EMPTY),
        "over at z = 1"
    );
    assert!(
        !has_bridge(gap | vol("332 342 352"), Volume::EMPTY),
        "z = 2 is too high"
    );
    // West-east along y = 5 for the other colour; either may use either way.
    let we: Vec<String> = (0..8).map(|x| format!("{x}51")).collect();
    assert!(has_bridge(vol(&we.join(" ")), ns(0)));
}
