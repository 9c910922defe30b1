//! Thinking on the opponent's time (`--ponder`).

use super::line::Command;
use super::*;

fn session(config: &str) -> Gtp {
    let config = cabra::engine::EngineConfig::parse(config).unwrap();
    let mut gtp = Gtp::new(defaults::GTP.handle(config), Rules::default(), false);
    gtp.set_ponder(true);
    gtp
}

#[test]
fn after_a_genmove_the_engine_grows_its_tree_until_the_next_command() {
    let mut gtp = session("threads=1,seed=1,iterations=200");
    let genmove = Command {
        id: None,
        name: "genmove".into(),
        args: vec!["1".into()],
    };
    assert!(matches!(gtp.execute(&genmove), Reply::Ok(_)));
    let after_move = gtp.engine.nodes();
    // On a busy machine the search may need a few tries to grow.
    let mut pondered = 0;
    for _ in 0..100 {
        gtp.start_pondering();
        assert!(gtp.pondering.is_some());
        std::thread::sleep(std::time::Duration::from_millis(100));
        gtp.stop_pondering();
        pondered = gtp.engine.nodes();
        if pondered > after_move + 1_000 {
            break;
        }
    }
    assert!(
        pondered > after_move + 1_000,
        "{after_move} then {pondered}"
    );
    // A level below the top keeps to its own search.
    let mut weak = session("level=3,seed=1");
    assert!(matches!(weak.execute(&genmove), Reply::Ok(_)));
    weak.start_pondering();
    assert!(weak.pondering.is_none());
}
