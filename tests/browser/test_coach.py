"""An opponent for every player, in the page: the strength selector in
the header (each level with its rating, the newcomer's line, the level
kept over a reload and a new game) and the Hint button (the engine's
suggestion as a ghost, counted in the saved file), at 1280x800 and on a
phone upright (390x844).

Usage: test_coach.py URL CABRA_BINARY (as test_screens.py, whose helpers
it uses). Screenshots go to target/screenshots/coach-*.png. The last
line is `coach: N passed, M failed`.
"""

import sys
import time
import traceback

from playwright.sync_api import expect, sync_playwright

from test_screens import ARGS, CHROMIUM, SHOTS, open_page, ply, set_players, wait_ply

SIZES = ("desktop", "phone")


def shot(page, name):
    page.wait_for_timeout(150)
    page.screenshot(path=str(SHOTS / f"coach-{page.size}-{name}.png"))


def api(page, method, path, body=None):
    return page.evaluate("""async ([method, path, body]) => {
        const r = await fetch(`/api/games/${window.cabra.ui.id}${path}`, { method,
            headers: { 'Content-Type': 'application/json' }, body: body === null ? undefined : JSON.stringify(body) });
        const t = await r.text();
        if (!r.ok) throw new Error(t);
        try { return JSON.parse(t); } catch (_) { return t; } }""", [method, path, body])


def test_the_strength_selector_is_in_view_and_kept(browser, size):
    page = open_page(browser, size)
    info = page.evaluate("fetch('/api/info').then(r => r.json())")
    levels = [l for l in info["levels"] if l["number"] > 0]
    options = page.locator("#level option").all_inner_texts()
    want = [f"{'Full strength' if l['top'] else 'Level ' + str(l['number'])} · {l['elo']} ± {l['interval']} Elo" for l in levels]
    assert options == want, options
    # Where a newcomer looks first: the header, in the first screen.
    box = page.evaluate("""() => { const r = document.querySelector('#opponent').getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, height: window.innerHeight }; }""")
    assert box["top"] >= 0 and box["bottom"] <= box["height"], box
    expect(page.locator("#level-help")).to_have_text("New to the game? Try level 1.")
    shot(page, "start")
    # The chosen level is the game's engine's.
    page.select_option("#level", "2")
    page.wait_for_function("window.cabra.ui.game.level === 2")
    assert api(page, "GET", "")["level"] == 2
    # The engine (player 2) answers a move at that level.
    page.fill("#typed-move", "O T0 330")
    page.press("#typed-move", "Enter")
    wait_ply(page, 2)
    # A weaker level's few iterations claim no win chance: the engine's
    # line names its level.
    page.wait_for_function("/ at level 2\\.$/.test(window.cabra.ui.lastThought)")
    assert "%" not in page.evaluate("window.cabra.ui.lastThought")
    # A reload keeps it, and a new game too.
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#level")).to_have_value("2")
    page.click("#new")
    page.wait_for_function("window.cabra.ui.game.ply === 0")
    assert api(page, "GET", "")["level"] == 2
    expect(page.locator("#level")).to_have_value("2")
    # Level 1 chosen: the newcomer's line has done its work.
    page.select_option("#level", "1")
    expect(page.locator("#level-help")).to_be_hidden()
    assert not page.errors, page.errors
    page.context.close()


def test_a_hint_is_a_ghost_on_the_board_and_counted_in_the_file(browser, size):
    page = open_page(browser, size)
    set_players(page, "human", "human")
    page.fill("#time", "0.2")
    # On a phone, beside the pieces; on a desktop, in the Engine panel.
    page.click("#sheet-hint" if page.touch else "#hint")
    page.wait_for_function("window.cabra.ui.hint && window.cabra.ui.game.hints === 1")
    hinted = page.evaluate("window.cabra.ui.hint.move")
    expect(page.locator("#message")).to_contain_text(f"Hint: {hinted}")
    expect(page.locator("#hints")).to_have_text("Hints this game: 1.")
    # The ghost, marked ?, on both boards; nothing played.
    expect(page.locator("#iso svg text", has_text="?")).to_have_count(1)
    expect(page.locator("#top svg text", has_text="?")).to_have_count(1)
    assert ply(page) == 0
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "hint")
    record = api(page, "GET", "/record")
    assert "# hints: 1\n" in record, record
    # Played, the hint's ghost goes.
    page.fill("#typed-move", hinted)
    page.press("#typed-move", "Enter")
    wait_ply(page, 1)
    expect(page.locator("#iso svg text", has_text="?")).to_have_count(0)
    # A saved game with hints goes on counting once loaded.
    page.set_input_files("#load", files=[{"name": "g.caminos", "mimeType": "text/plain",
                                          "buffer": record.replace("# hints: 1", "# hints: 6").encode()}])
    page.wait_for_function("window.cabra.ui.game.hints === 6")
    expect(page.locator("#hints")).to_have_text("Hints this game: 6.")
    assert not page.errors, page.errors
    page.context.close()


def main():
    SHOTS.mkdir(parents=True, exist_ok=True)
    tests = [v for k, v in globals().items() if k.startswith("test_")]
    passed = failed = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for size in SIZES:
            for t in tests:
                start = time.perf_counter()
                try:
                    t(browser, size)
                    passed += 1
                    print(f"ok   {t.__name__} [{size}] ({time.perf_counter() - start:.1f} s)")
                except Exception:
                    failed += 1
                    print(f"FAIL {t.__name__} [{size}]")
                    traceback.print_exc()
        browser.close()
    print(f"coach: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
