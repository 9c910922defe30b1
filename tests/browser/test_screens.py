"""The page at three sizes, as people hold it: a desktop at 1280x800 with
a mouse, and a phone with touch (Playwright's has_touch and tap) upright
at 390x844 and on its side at 844x390.

Usage: test_screens.py URL CABRA_BINARY. A whole game played by taps alone,
with a preview before each placement; a placement through the view from
above; the orientation pictures; no element cut off or overlapping (from
the element boxes); the end banner; messages that clear when what they
describe is gone. Screenshots of each screen at each size go to
target/screenshots/ (desktop-*.png, phone-*.png, landscape-*.png). The last line is
`screens: N passed, M failed`.
"""

import json
import os
import subprocess
import sys
import time
import traceback
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

URL, BIN = sys.argv[1], sys.argv[2]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "target" / "screenshots"
DATA = ROOT / "tests" / "data"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox", "--headless=new", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
TIMEOUT = 30_000
expect.set_options(timeout=TIMEOUT)

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
              "device_scale_factor": 2},
    "landscape": {"viewport": {"width": 844, "height": 390}, "has_touch": True, "is_mobile": True,
                  "device_scale_factor": 2},
}


def open_page(browser, size):
    ctx = browser.new_context(accept_downloads=True, **SIZES[size])
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
    page.errors = errors
    page.set_default_timeout(TIMEOUT)
    page.goto(URL)
    page.wait_for_selector("body[data-ready=true]")
    page.size = size
    page.touch = size != "desktop"
    return page


def shot(page, name):
    page.wait_for_timeout(150)
    page.screenshot(path=str(SHOTS / f"{page.size}-{name}.png"))


def ply(page):
    return page.evaluate("window.cabra.ui.game.ply")


def wait_ply(page, n):
    page.wait_for_function(f"window.cabra.ui.game && window.cabra.ui.game.ply === {n}")


def set_players(page, p1, p2):
    page.select_option("#p1", p1)
    page.select_option("#p2", p2)


def notation(file):
    out = subprocess.run([BIN, "show", str(DATA / file), "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["record"]


def extents(page):
    """Each orientation's extent, by piece and name."""
    shapes = page.evaluate("fetch('/api/shapes').then(r => r.json())")
    return {p["piece"]: {o["name"]: o["extent"] for o in p["orientations"]} for p in shapes["pieces"]}


def column(ext, move):
    """The column to aim at for placement `move` (`L E180 110`): the
    piece's footprint is centred on it, rounding towards north and west."""
    piece, orient, pos = move.split()
    e = ext[piece][orient]
    x, y = int(pos[0]), int(pos[1])
    return x + (e[0] - 1) // 2, y + (e[1] - 1) // 2


def press(page, selector):
    """A tap on a phone, a click on a desktop."""
    if page.touch:
        page.locator(selector).tap()
    else:
        page.locator(selector).click()


def choose(page, move):
    """Selects the piece and the orientation of `move` in the tray."""
    piece, orient, _ = move.split()
    to_move = page.evaluate("window.cabra.ui.game.to_move")
    press(page, f'#tray button.piece[data-player="{to_move}"][data-piece="{piece}"]')
    press(page, f'#orient-list button[data-orientation="{orient}"]')
    expect(page.locator("#orient-name")).to_have_text(f"{piece} {orient}")


def boxes(page, selectors):
    return page.evaluate("""(sels) => sels.map((s) => {
        const e = document.querySelector(s);
        if (!e || e.offsetParent === null && getComputedStyle(e).position !== 'fixed') return null;
        const r = e.getBoundingClientRect();
        return r.width > 0 && r.height > 0 ? { s, x: r.x, y: r.y, w: r.width, h: r.height } : null;
    }).filter(Boolean)""", selectors)


def overlap(a, b):
    return (a["x"] < b["x"] + b["w"] - 0.5 and b["x"] < a["x"] + a["w"] - 0.5
            and a["y"] < b["y"] + b["h"] - 0.5 and b["y"] < a["y"] + a["h"] - 0.5)


def check_layout(page, label):
    """Nothing wider than the screen, no text cut off in its box, and the
    main regions side by side or one above the other, never over another."""
    width = page.evaluate("window.innerWidth")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{label}: the page is {scroll} px wide on a {width} px screen"
    # (The orientations scroll sideways in their own strip on a phone.)
    cut = page.evaluate("""() => [...document.querySelectorAll('button, .button, h1, h2, #status, #result, label, select, #orient-list')]
        .filter((e) => e.offsetParent !== null && !e.parentElement.closest('#orient-list'))
        .filter((e) => { const r = e.getBoundingClientRect();
            const scrolls = e.id === 'orient-list';
            return r.right > window.innerWidth + 0.5 || r.left < -0.5 || (!scrolls && e.scrollWidth > e.clientWidth + 1); })
        .map((e) => (e.id || e.textContent).trim().slice(0, 40))""")
    assert not cut, f"{label}: cut off: {cut}"
    if page.size != "desktop":
        # Every control big enough for a finger (a checkbox by its label).
        small = page.evaluate("""() => [...document.querySelectorAll('button, select, input, label.check')]
            .filter((e) => (e.offsetParent !== null || getComputedStyle(e).position === 'fixed') && e.type !== 'checkbox')
            .map((e) => { const r = e.getBoundingClientRect(); return { id: e.id || e.textContent.trim().slice(0, 20), w: r.width, h: r.height }; })
            .filter((b) => b.w > 0 && (b.w < 32 || b.h < 32))""")
        assert not small, f"{label}: too small to tap (under 32 px): {small}"
    if page.size == "desktop":
        groups = [["header", "#left", "#centre", "#analysis", "#right"], ["#iso", "#banner", "#view-controls", "#message"]]
    elif page.size == "landscape":
        page.evaluate("window.scrollTo(0, 0)")
        height = page.evaluate("window.innerHeight")
        found = boxes(page, ["#iso", "#tray-panel"])
        board = next(b for b in found if b["s"] == "#iso")
        bar = next((b for b in found if b["s"] == "#tray-panel"), None)
        # The whole board on the screen, and the pieces beside it in view.
        assert board["y"] + board["h"] <= height + 0.5, f"{label}: the board is taller than the screen: {board}"
        assert bar is None or (bar["x"] >= board["x"] + board["w"] - 0.5 and bar["y"] < height), \
            f"{label}: the pieces are not beside the board: {found}"
        groups = [["header", "#centre", "#left"], ["#iso", "#banner", "#view-controls", "#message"]]
    else:
        page.evaluate("window.scrollTo(0, 0)")
        found = boxes(page, ["#iso", "#tray-panel"])
        board = next(b for b in found if b["s"] == "#iso")
        bar = next((b for b in found if b["s"] == "#tray-panel"), None)
        # The board comes first, as wide as the screen, whole above the
        # pieces' bar (while there are pieces to place).
        assert bar is None or board["y"] + board["h"] <= bar["y"] + 0.5, f"{label}: the pieces' bar covers the board: {found}"
        assert board["w"] >= width - 20, f"{label}: the board is not as wide as the screen: {board}"
        groups = [["header", "#iso", "#banner", "#view-controls", "#message", "#tray-panel"]]
    for group in groups:
        regions = boxes(page, group)
        for i, a in enumerate(regions):
            for b in regions[i + 1:]:
                assert not overlap(a, b), f"{label}: {a['s']} overlaps {b['s']}: {a} {b}"


def test_a_whole_game_by_taps_alone(browser, size):
    page = open_page(browser, size)
    set_players(page, "human", "human")
    ext = extents(page)
    moves = notation("games/hand_straight_bridge.caminos")
    shot(page, "01-start")
    check_layout(page, "start")
    for i, move in enumerate(moves):
        choose(page, move)
        x, y = column(ext, move)
        square = f'#top rect.column[data-x="{x}"][data-y="{y}"]'
        if page.touch:
            # The first tap shows where the piece would go, and plays nothing.
            page.locator(square).tap()
            expect(page.locator("#message")).to_contain_text(f"{move}: legal — tap again or press Place")
            expect(page.locator("#top .ghost.legal").first).to_be_visible()
            expect(page.locator("#iso .ghost.legal")).to_have_count(4)
            expect(page.locator("#place")).to_be_enabled()
            assert ply(page) == i
            if i == 0:
                shot(page, "02-preview")
                check_layout(page, "preview")
            # Then a second tap, or the Place button.
            if i % 2 == 0:
                page.locator(square).scroll_into_view_if_needed()
                scrolled = page.evaluate("window.scrollY")
                page.locator(square).tap()
            else:
                scrolled = None
                page.locator("#place").tap()
        else:
            page.locator(square).hover()
            expect(page.locator("#message")).to_contain_text(f"{move}: legal — click to place")
            if i == 0:
                shot(page, "02-preview")
            scrolled = page.evaluate("window.scrollY")
            page.locator(square).click()
        wait_ply(page, i + 1)
        # The page stays where the player put it: drawing the move (and the
        # move list following it) scrolls nothing else. (The last move ends
        # the game: the pieces' tray goes, and the browser keeps what is
        # in view where it was.)
        if scrolled is not None and i < len(moves) - 1:
            now = page.evaluate("[window.scrollY, document.documentElement.scrollHeight, window.innerHeight]")
            assert now[0] == scrolled, f"move {i + 1}: the page scrolled by itself from {scrolled} to {now}"
    # The end: a banner says who won and how, over the board, with its bridge.
    expect(page.locator("#banner")).to_be_visible()
    expect(page.locator("#banner-title")).to_have_text("Player 1 wins by bridge")
    expect(page.locator("#banner-how")).to_contain_text("opposite edges")
    expect(page.locator("#iso .bridge-outline polygon").first).to_be_attached()
    expect(page.locator("#status")).to_have_text("Player 1 wins by bridge")
    check_layout(page, "end")
    shot(page, "03-end-banner")
    press(page, "#banner-new")
    wait_ply(page, 0)
    expect(page.locator("#banner")).to_be_hidden()
    assert not page.errors, page.errors


def test_the_3d_board_by_a_tap_and_the_pictures(browser, size):
    page = open_page(browser, size)
    set_players(page, "human", "human")
    # Every orientation of the L has its picture: four cubes, three faces each.
    buttons = page.locator("#orient-list button")
    expect(buttons).to_have_count(24)
    for i in range(24):
        expect(buttons.nth(i).locator("svg.pic polygon")).to_have_count(12)
    press(page, '#tray button.piece[data-player="1"][data-piece="T"]')
    expect(buttons).to_have_count(12)
    press(page, '#tray button.piece[data-player="1"][data-piece="L"]')
    cell = page.locator('#iso polygon.cell[data-x="3"][data-y="3"]')
    if page.touch:
        cell.tap()
        expect(page.locator("#message")).to_contain_text("legal — tap again or press Place")
        # The aimed piece turns before it is played.
        page.locator("#orient-next").tap()
        expect(page.locator("#orient-name")).to_have_text("L T90")
        expect(page.locator("#message")).to_contain_text("L T90")
        assert ply(page) == 0
        page.locator("#place").tap()
    else:
        cell.click()
    wait_ply(page, 1)
    expect(page.locator("#iso g.cube.p1")).to_have_count(4)
    assert not page.errors, page.errors


def test_messages_belong_to_their_moment(browser, size):
    page = open_page(browser, size)
    set_players(page, "human", "engine")
    page.fill("#time", "0.3")
    # The header says when the engine thinks, and the engine's word stays
    # with its game.
    press(page, '#top rect.column[data-x="4"][data-y="4"]')
    if page.touch:
        press(page, '#top rect.column[data-x="4"][data-y="4"]')
    expect(page.locator("#status")).to_contain_text("is thinking")
    shot(page, "04-thinking")
    check_layout(page, "thinking")
    wait_ply(page, 2)
    expect(page.locator("#live-text")).to_contain_text("Played")
    # A mistake's message goes once the game moves on.
    set_players(page, "human", "human")
    if size == "desktop":
        page.fill("#typed-move", "Q X1 999")
        page.click("#typed button")
    else:
        page.evaluate("window.cabra.ui.note = ''")
        press(page, '#top rect.column[data-x="4"][data-y="4"]')
        press(page, '#top rect.column[data-x="4"][data-y="4"]')
    expect(page.locator("#message")).not_to_be_empty()
    bad = page.text_content("#message")
    press(page, "#undo")
    wait_ply(page, 1)
    expect(page.locator("#message")).not_to_have_text(bad)
    # A new game: the old game's words are gone.
    press(page, "#new")
    wait_ply(page, 0)
    expect(page.locator("#live-text")).to_have_text("Idle.")
    # An analysis's status goes with the game it was about.
    page.set_input_files("#load", str(DATA / "games" / "hand_straight_bridge.caminos"))
    wait_ply(page, 5)
    page.fill("#an-iterations", "500")
    press(page, "#analyze")
    expect(page.locator("#an-status")).to_have_text("Analyzed 5 placements.", timeout=60_000)
    expect(page.locator("#plot circle.point")).to_have_count(5)
    shot(page, "05-analysis")
    check_layout(page, "analysis")
    press(page, "#new")
    wait_ply(page, 0)
    expect(page.locator("#an-status")).to_have_text("")
    expect(page.locator("#plot circle.point")).to_have_count(0)
    assert not page.errors, page.errors


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
    print(f"screens: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
