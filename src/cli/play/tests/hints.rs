//! `hint`: the engine's suggestion drawn on the board, and its count in
//! the saved game.

use super::*;

/// The placement a hint names, from its line `Hint: L E180 110, ...`.
fn hinted(text: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.starts_with("Hint: "))
        .unwrap_or_else(|| panic!("no hint line in {text}"));
    line["Hint: ".len()..]
        .split(',')
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn a_hint_draws_the_suggestion_without_playing_it() {
    let mut s = session(You::One);
    let before = *s.position();
    let r = s.handle("hint");
    assert!(!r.error, "{}", r.text);
    assert_eq!(*s.position(), before, "a hint plays nothing");
    let mv = hinted(&r.text);
    let p: cabra::game::Placement = mv.parse().unwrap_or_else(|e| panic!("{mv}: {e}"));
    assert!(before.check(p).is_ok(), "{mv} is legal");
    // Its four cubes are the board's capitals, on an empty board.
    let capitals = r.text.chars().filter(|&c| c == 'X').count();
    assert!(capitals >= 4, "{}", r.text);
    assert!(r.text.contains("Hints this game: 1."), "{}", r.text);
    // Typing it plays it (and the engine answers).
    let r = s.handle(&mv);
    assert!(!r.error, "{}", r.text);
    assert_eq!(s.position().placements()[0], p);
    assert!(s.handle("hint").text.contains("Hints this game: 2."));
}

#[test]
fn a_saved_game_counts_its_hints_and_a_load_goes_on_counting() {
    let dir = temp_dir("hints");
    let file = dir.join("g.caminos");
    let name = file.display().to_string();
    let mut s = session(You::Both);
    assert!(!s.handle("L E180 110").error);
    assert!(!s.handle("hint").error);
    assert!(!s.handle("hint").error);
    let r = s.handle(&format!("save {name}"));
    assert!(!r.error, "{}", r.text);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("# hints: 2\n"), "{text}");
    // Saved again, the count is replaced, not repeated.
    assert!(!s.handle("hint").error);
    assert!(!s.handle("save").error);
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.matches("# hints:").count(), 1, "{text}");
    assert!(text.contains("# hints: 3\n"), "{text}");
    let mut t = session(You::Both);
    assert!(!t.handle(&format!("load {name}")).error);
    assert!(t.handle("hint").text.contains("Hints this game: 4."));
    // A new game starts with none, and saves none.
    assert!(!t.handle("new").error);
    assert!(!t.handle("L E180 110").error);
    let other = dir.join("h.caminos");
    assert!(!t.handle(&format!("save {}", other.display())).error);
    assert!(!std::fs::read_to_string(&other).unwrap().contains("hints"));
}

#[test]
fn a_game_given_at_the_start_goes_on_counting_its_hints() {
    let text = "# hints: 4\n000 010 100 110\n";
    let record = cabra::game::record::parse_record(text.as_bytes()).unwrap();
    let mut s = Session::new(
        record,
        None,
        options(You::Both, false),
        defaults::PLAY.handle(EngineConfig {
            threads: Some(1),
            seed: Some(1),
            ..EngineConfig::default()
        }),
        Box::new(QuietUi::default()),
    );
    assert!(s.handle("hint").text.contains("Hints this game: 5."));
}
