"""What a new user meets on the page, at a desktop's 1280x800 and on a
phone upright (390x844), each check one that a user's report found
failing: how to place a piece and the typed placement on a phone, the
pieces never over a board, an analysis's result brought into view and
its review beside the board, a piece aimed at an edge, engine against
engine with no refused request, the Engine panel and the header in
800 px, the Players panel and the Opponent selector in 800 px too, the
board's labels and marks.

Usage: test_first_use.py URL CABRA_BINARY (as test_screens.py, whose
helpers it uses). Screenshots go to target/screenshots/first-*.png. The
last line is `first use: N passed, M failed`.
"""

import sys
import time
import traceback

from playwright.sync_api import expect, sync_playwright

from test_screens import ARGS, CHROMIUM, DATA, SHOTS, boxes, open_page, overlap, ply, press, set_players, wait_ply

SIZES = ("desktop", "phone")


def only(size):
    """A test of one size alone."""
    def mark(t):
        t.sizes = (size,)
        return t
    return mark


def shot(page, name):
    page.wait_for_timeout(150)
    page.screenshot(path=str(SHOTS / f"first-{page.size}-{name}.png"))


def play(page, move):
    """Plays `move` through the API, as another tab would."""
    before = ply(page)
    page.evaluate("""async (m) => {
        const r = await fetch(`/api/games/${window.cabra.ui.id}/place`, {
            method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ move: m }) });
        if (!r.ok) throw new Error(await r.text()); }""", move)
    wait_ply(page, before + 1)


def in_view(page, selector):
    """The box of `selector` on the screen (top and bottom), and the screen's height."""
    return page.evaluate("""(s) => { const r = document.querySelector(s).getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, height: window.innerHeight }; }""", selector)


def whole_in_view(page, selector):
    b = in_view(page, selector)
    return b["top"] >= -0.5 and b["bottom"] <= b["height"] + 0.5, b


def test_how_to_place_a_piece_and_the_pieces_never_over_a_board(browser, size):
    page = open_page(browser, size)
    set_players(page, "human", "human")
    # The words say how to place a piece, in the words of the hand used.
    how = page.locator("#how-to")
    expect(how).to_be_visible()
    if page.touch:
        expect(how).to_contain_text("tap a column of either board")
        assert "Point at the board" not in how.inner_text(), how.inner_text()
    else:
        expect(how).to_contain_text("Point at the board")
    # A placement can be typed, on a phone too.
    expect(page.locator("#typed-move")).to_be_visible()
    page.fill("#typed-move", "L E180 110")
    press(page, "#typed button")
    wait_ply(page, 1)
    # However far the page is scrolled, the pieces cover neither board.
    height = page.evaluate("document.documentElement.scrollHeight")
    for y in range(0, height, 150):
        page.evaluate(f"window.scrollTo(0, {y})")
        found = boxes(page, ["#tray-panel", "#iso", "#top"])
        tray = next((b for b in found if b["s"] == "#tray-panel"), None)
        for board in (b for b in found if b["s"] != "#tray-panel"):
            assert tray is None or not overlap(tray, board), f"scrolled to {y}: the pieces cover {board['s']}: {found}"
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "01-how-to")
    assert not page.errors, page.errors


def test_an_analysis_comes_into_view_and_its_review_by_the_board(browser, size):
    page = open_page(browser, size)
    set_players(page, "human", "human")
    page.set_input_files("#load", str(DATA / "games" / "hand_straight_bridge.caminos"))
    wait_ply(page, 5)
    page.fill("#an-iterations", "500")
    page.evaluate("window.scrollTo(0, 0)")
    press(page, "#banner-analyze")
    expect(page.locator("#an-status")).to_have_text("Analyzed 5 placements.", timeout=60_000)
    # The graph is in view, whole, and it reads as finished.
    page.wait_for_timeout(200)
    ok, box = whole_in_view(page, "#plot svg")
    assert ok, f"the graph is not in view once the analysis is done: {box}"
    expect(page.locator("#an-status")).to_have_class("done")
    expect(page.locator("#message")).to_contain_text("Analysis done: 5 placements")
    word = "Tap" if page.touch else "Click"
    expect(page.locator("#an-detail")).to_contain_text(f"{word} a point of the graph")
    shot(page, "02-analysed")
    # A placement chosen: the board is in view, the ghosts on it, and
    # what the analysis says of the placement right under it.
    press(page, '#plot circle.point[data-ply="2"]')
    wait_ply(page, 1)
    expect(page.locator("#iso .ghost.line")).to_have_count(4)
    expect(page.locator("#message")).to_contain_text("Placement 2 by player 2: O T0 660 (ghost 1)")
    page.wait_for_timeout(200)
    for s in ("#iso", "#message"):
        ok, box = whole_in_view(page, s)
        assert ok, f"{s} is not in view during the review: {box}"
    shot(page, "03-review")
    assert not page.errors, page.errors


def test_a_piece_aimed_at_an_edge_lies_on_the_board(browser, size):
    page = open_page(browser, size)
    set_players(page, "human", "human")
    press(page, '#tray button.piece[data-player="1"][data-piece="O"]')
    corner = '#top rect.column[data-x="7"][data-y="7"]'
    if page.touch:
        page.locator(corner).tap()
        expect(page.locator("#message")).to_contain_text("O T0 660: legal — tap again or press Place")
        page.locator(corner).tap()
    else:
        page.locator(corner).hover()
        expect(page.locator("#message")).to_contain_text("O T0 660: legal — click to place")
        page.locator(corner).click()
    wait_ply(page, 1)
    expect(page.locator('#top rect.column[data-x="7"][data-y="7"][data-height="1"]')).to_have_count(1)
    expect(page.locator('#top rect.column[data-x="6"][data-y="6"][data-height="1"]')).to_have_count(1)
    # A T three columns wide aimed at the west edge: on the board too.
    press(page, '#tray button.piece[data-player="2"][data-piece="T"]')
    west = '#top rect.column[data-x="0"][data-y="3"]'
    if page.touch:
        page.locator(west).tap()
        expect(page.locator("#message")).to_contain_text("T T0 030: legal — tap again or press Place")
    else:
        page.locator(west).hover()
        expect(page.locator("#message")).to_contain_text("T T0 030: legal — click to place")
    assert not page.errors, page.errors


def test_the_board_labels_and_marks_read(browser, size):
    page = open_page(browser, size)
    set_players(page, "human", "human")
    # Tall stacks along the north and west edges.
    for m in ["L E180 300", "L E180 030", "L E180 500", "L E180 050", "O T0 220"]:
        play(page, m)
    expect(page.locator("#top text.compass")).to_have_text(["N", "S", "W", "E"])
    for turn in range(4):
        letters = page.evaluate("""() => [...document.querySelectorAll('#iso text.compass')].map((t) => {
            const r = t.getBoundingClientRect(); return { s: t.textContent, x: r.x, y: r.y, w: r.width, h: r.height }; })""")
        cubes = page.evaluate("""() => [...document.querySelectorAll('#iso g.cube')].map((c) => {
            const r = c.getBoundingClientRect(); return { s: c.dataset.x + c.dataset.y + c.dataset.z, x: r.x, y: r.y, w: r.width, h: r.height }; })""")
        assert len(letters) == 4 and len(cubes) == 20, (letters, len(cubes))
        for a in letters:
            for c in cubes:
                assert not overlap(a, c), f"turn {turn}: {a['s']} over cube {c['s']}"
        if turn == 0:
            shot(page, "05-labels")
        press(page, "#rot-right")
        page.wait_for_function(f"document.getElementById('iso').dataset.rotation === '{(turn + 1) % 4}'")
    # The marks are explained.
    legend = page.locator("#legend")
    expect(legend).to_be_visible()
    expect(legend).to_contain_text("White dots (3D) and a thick outline (from above): the last placement")
    expect(page.locator("#iso .last-mark")).to_have_count(4)
    assert not page.errors, page.errors


@only("desktop")
def test_the_engine_panel_and_the_header_fit_in_800_px(browser, size):
    page = open_page(browser, size)
    set_players(page, "human", "engine")
    page.fill("#time", "3")
    play(page, "L T0 330")
    expect(page.locator("#live-text")).to_contain_text("Thinking for player 2:")
    expect(page.locator("#live-line")).to_contain_text("Best line")
    page.evaluate("window.scrollTo(0, 0)")
    for s in ("#engine-panel", "#status-live"):
        ok, box = whole_in_view(page, s)
        assert ok, f"{s} is not in view at 1280x800 while the engine thinks: {box}"
    cut = page.evaluate("""() => [...document.querySelectorAll('header *, #engine-panel *')]
        .filter((e) => e.offsetParent !== null && (e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth + 0.5))
        .map((e) => e.id || e.textContent.slice(0, 30))""")
    assert not cut, f"cut off: {cut}"
    shot(page, "04-thinking")
    page.click("#stop")
    assert not page.errors, page.errors


def whole_on_screen(page, selectors, when):
    """Each of `selectors` whole on the first screen, unscrolled."""
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(100)
    found = page.evaluate("""(sels) => sels.map((s) => { const r = document.querySelector(s).getBoundingClientRect();
        return { s, left: r.left, top: r.top, right: r.right, bottom: r.bottom }; })""", selectors)
    width, height = page.evaluate("[innerWidth, innerHeight]")
    for b in found:
        assert b["top"] >= -0.5 and b["left"] >= -0.5 and b["bottom"] <= height + 0.5 and b["right"] <= width + 0.5, \
            f"{when}: {b['s']} is not whole on the {width}x{height} screen without scrolling: {b}"


@only("desktop")
def test_the_players_and_the_opponent_fit_in_800_px(browser, size):
    page = open_page(browser, size)
    # Who plays which side, and at what strength, on the first screen:
    # on a new page,
    panels = ["#players-panel", "#p1", "#p2", "#opponent", "#level", "#engine-panel"]
    whole_on_screen(page, panels, "a new page")
    shot(page, "06-players")
    # with a long status (the newcomer's line shown), the Opponent
    # selector on the status's row,
    set_players(page, "human", "human")
    play(page, "L T0 330")
    press(page, "#undo")
    wait_ply(page, 0)
    expect(page.locator("#status")).to_have_text("In progress, player 1 to move (the start; 1 move in the line)")
    expect(page.locator("#level-help")).to_be_visible()
    whole_on_screen(page, panels, "a long status")
    row = page.evaluate("""['#status', '#level'].map((s) => {
        const r = document.querySelector(s).getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; })""")
    assert row[1]["top"] < row[0]["bottom"], f"the Opponent selector is under the status: {row}"
    # and once the engine has answered, with its line and a hint counted.
    press(page, "#new")
    page.wait_for_function("window.cabra.ui.game.length === 0")
    set_players(page, "human", "engine")
    play(page, "L T0 330")
    wait_ply(page, 2)
    expect(page.locator("#live-line")).to_contain_text("Best line")
    press(page, "#hint")
    expect(page.locator("#hints")).to_have_text("Hints this game: 1.")
    whole_on_screen(page, panels, "the engine's answer and a hint")
    shot(page, "07-players-in-play")
    assert not page.errors, page.errors


@only("desktop")
def test_engine_against_engine_asks_no_busy_engine(browser, size):
    page = open_page(browser, size)
    refused = []
    page.on("response", lambda r: refused.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    logged = []
    page.on("console", lambda m: logged.append(m.text) if m.type == "error" else None)
    page.fill("#time", "0.1")
    page.dispatch_event("#time", "change")
    for game in range(3):
        set_players(page, "engine", "engine")
        page.wait_for_function("window.cabra.ui.game.result !== 'ongoing'", timeout=120_000)
        set_players(page, "human", "human")
        press(page, "#new")
        wait_ply(page, 0)
    assert not refused, f"requests refused in engine against engine play: {refused}"
    assert not logged, f"the console: {logged}"


def main():
    SHOTS.mkdir(parents=True, exist_ok=True)
    tests = [v for k, v in globals().items() if k.startswith("test_")]
    passed = failed = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for size in SIZES:
            for t in (t for t in tests if size in getattr(t, "sizes", SIZES)):
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
    print(f"first use: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
