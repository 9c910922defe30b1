"""End-to-end tests of the page of `cabra serve` in headless Chromium.

Usage: test_page.py URL CABRA_BINARY. Each test opens a fresh browser
context (so a fresh tab and game). A test that cannot run fails: there is
no skipping. Screenshots of the main screens go to target/screenshots/.
The last line is `browser: N passed, M failed`.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request
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
# Assertions wait as long as actions do: a loaded machine answers late.
expect.set_options(timeout=TIMEOUT)
figures = {}


def open_page(browser, url=None):
    ctx = browser.new_context(viewport={"width": 1400, "height": 950}, accept_downloads=True)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # A refused request (4xx) is logged by the browser; that is expected.
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
    page.errors = errors
    page.set_default_timeout(TIMEOUT)
    page.goto(url or URL)
    page.wait_for_selector("body[data-ready=true]")
    return page


def open_page_unready(browser):
    """A page that may not get as far as a game."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(URL)
    return page


def ply(page):
    return int(page.get_attribute("#iso", "data-ply"))


def wait_ply(page, n):
    page.wait_for_function(f"document.getElementById('iso').dataset.ply === '{n}'")


def set_players(page, p1, p2):
    page.select_option("#p1", p1)
    page.select_option("#p2", p2)


def cell(page, x, y):
    return page.locator(f'#iso polygon.cell[data-x="{x}"][data-y="{y}"]')


def shot(page, name, aiming=False, full=False):
    """A screenshot; the pointer is moved off the board unless it aims."""
    if not aiming:
        page.mouse.move(5, 5)
    page.wait_for_timeout(150)
    page.screenshot(path=str(SHOTS / name), full_page=full)


def typed(page, move):
    """Plays a placement through the notation box."""
    before = ply(page)
    page.fill("#typed-move", move)
    page.click("#typed button")
    wait_ply(page, before + 1)


def placements(name):
    lines = (DATA / name).read_text().splitlines()
    return [l.split("#")[0].strip() for l in lines if l.split("#")[0].strip()]


def test_the_page_loads_offline_and_shows_the_board(browser):
    t0 = time.perf_counter()
    page = open_page(browser)
    figures["page load, navigation to board drawn (Python side, ms)"] = round(1000 * (time.perf_counter() - t0))
    figures["page load, navigation start to board drawn (in page, ms)"] = round(page.evaluate("window.cabra.times.loaded"))
    expect(page.locator("#iso polygon.cell")).to_have_count(64)
    expect(page.locator("#top rect.column")).to_have_count(64)
    expect(page.locator("#status")).to_have_text("In progress, player 1 to move")
    # All of L's canonical orientation names, by name (RULES.md section 3).
    expect(page.locator("#orient-list button")).to_have_count(24)
    page.keyboard.press("t")
    expect(page.locator("#orient-list button")).to_have_text(
        "T0 T90 T180 T270 N0 N90 S0 S90 E0 E90 E180 E270".split())
    page.keyboard.press("o")
    expect(page.locator("#orient-list button")).to_have_text(["T0", "N0", "E0"])
    page.keyboard.press("r")
    expect(page.locator("#orient-name")).to_have_text("O N0")
    page.click("#orient-next")
    expect(page.locator("#orient-name")).to_have_text("O E0")
    # By keyboard: Tab goes from the pieces at the left to the board's
    # controls, the orientations are one stop whose arrows choose.
    order = page.evaluate("""() => { return [...document.querySelectorAll('button, select, input, [tabindex]')]
            .filter((e) => e.tabIndex >= 0 && e.offsetParent !== null && !e.disabled).map((e) => e.id || e.dataset.orientation || e.dataset.piece); }""")
    assert order.index("rot-left") > order.index("new") > order.index("E0"), order
    assert sum(1 for e in order if e in ("T0", "N0", "E0")) == 1, order
    page.focus("#orient-list button.on")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#orient-name")).to_have_text("O T0")
    expect(page.locator("#orient-list button.on")).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#orient-name")).to_have_text("O E0")
    assert ply(page) == 0
    # Nothing was fetched from anywhere but the server.
    hosts = page.evaluate("[...new Set(performance.getEntriesByType('resource').map(e => new URL(e.name).host))]")
    assert hosts == [URL.split("/")[2]], hosts
    assert not page.errors, page.errors
    shot(page, "01-start.png")


def test_placing_by_clicking_the_board_and_the_engine_answers(browser):
    page = open_page(browser)
    page.fill("#time", "0.3")
    page.keyboard.press("Escape")
    # Aim first: the message says where the piece would go.
    cell(page, 2, 2).hover()
    expect(page.locator("#message")).to_contain_text("L T0 120: legal")
    expect(page.locator("#iso .ghost.legal")).to_have_count(4)
    t0 = time.perf_counter()
    cell(page, 2, 2).click()
    wait_ply(page, 1)
    figures["click to placed piece drawn (Python side, ms)"] = round(1000 * (time.perf_counter() - t0))
    # The event stream may draw the move before the request's reply is read.
    page.wait_for_function("window.cabra.times.place !== undefined")
    figures["place request to new board in the page (in page, ms)"] = round(page.evaluate("window.cabra.times.place"))
    expect(page.locator("#iso g.cube.p1")).to_have_count(4)
    expect(page.locator("#moves li").first).to_have_text("L T0 120")
    # The engine (player 2) answers by itself.
    wait_ply(page, 2)
    expect(page.locator("#iso g.cube.p2")).to_have_count(4)
    expect(page.locator("#iso g.cube.last")).to_have_count(4)
    expect(page.locator("#live-text")).to_contain_text("Played")
    shot(page, "02-engine-answered.png")
    # Undo takes back the engine's reply and the placement.
    page.click("#undo")
    wait_ply(page, 0)
    expect(page.locator("#iso g.cube")).to_have_count(0)
    expect(page.locator("#moves li.future")).to_have_count(2)
    # Redo replays both, back to the player's turn, as undo took both.
    page.click("#redo")
    wait_ply(page, 2)
    expect(page.locator("#moves li.future")).to_have_count(0)
    assert not page.errors, page.errors


def test_an_illegal_click_says_why(browser):
    page = open_page(browser)
    set_players(page, "human", "human")
    cell(page, 3, 3).click()          # L T0 230: 230 330 430 240
    wait_ply(page, 1)
    # Player 2 aims an O over player 1's cubes: occupied.
    page.keyboard.press("o")
    page.locator('#iso g.cube[data-x="3"][data-y="3"] polygon').first.hover()
    expect(page.locator("#message")).to_contain_text("Illegal: occupied")
    expect(page.locator("#iso .ghost.illegal")).to_have_count(4)
    shot(page, "03-illegal-aim.png", aiming=True)
    page.locator('#iso g.cube[data-x="3"][data-y="3"] polygon').first.click()
    expect(page.locator("#message")).to_contain_text("is illegal: occupied: cube")
    assert ply(page) == 1
    # An upright L aimed at empty ground would overhang.
    page.keyboard.press("l")
    for _ in range(9):                # T0 ... N0: the upright L over nothing
        page.keyboard.press("r")
    expect(page.locator("#orient-name")).to_have_text("L N90")
    cell(page, 6, 1).hover()
    expect(page.locator("#message")).to_contain_text("Illegal: overhang")
    # At the edge, centred would stick out: the nearest footprint that fits.
    page.keyboard.press("t")
    cell(page, 7, 5).hover()
    expect(page.locator("#message")).to_contain_text("T T0 550: legal — click to place")
    # Typed placements: a piece that does not touch the board.
    page.fill("#typed-move", "111 121 122 112")
    page.click("#typed button")
    expect(page.locator("#message")).to_contain_text("does not touch the board")
    assert ply(page) == 1
    assert not page.errors, page.errors


def test_the_view_turns_and_shows_lower_layers(browser):
    page = open_page(browser)
    set_players(page, "human", "human")
    typed(page, "L E180 110")
    typed(page, "T T0 330")
    typed(page, "O T0 550")
    north = page.locator("#iso line.goal.north")
    before = north.get_attribute("x1"), north.get_attribute("y1")
    page.keyboard.press("]")
    expect(page.locator("#iso svg")).to_have_attribute("data-rotation", "1")
    assert (north.get_attribute("x1"), north.get_attribute("y1")) != before
    page.click("#rot-right")
    expect(page.locator("#iso svg")).to_have_attribute("data-rotation", "2")
    shot(page, "04-turned.png")
    page.click("#rot-left")
    page.click("#rot-left")
    expect(page.locator("#iso svg")).to_have_attribute("data-rotation", "0")
    # Layers: with one, the cubes above z = 0 are faded.
    page.click("button.layer[data-layers='1']")
    expect(page.locator("#iso g.cube.faded")).to_have_count(2)
    shot(page, "05-bottom-layer.png")
    page.keyboard.press("3")
    expect(page.locator("#iso g.cube.faded")).to_have_count(0)
    # The arrows, Home and End go through the moves; the board stays put.
    page.keyboard.press("ArrowLeft")
    wait_ply(page, 2)
    page.keyboard.press("Home")
    wait_ply(page, 0)
    page.keyboard.press("ArrowRight")
    wait_ply(page, 1)
    page.keyboard.press("End")
    wait_ply(page, 3)
    expect(page.locator("#iso svg")).to_have_attribute("data-rotation", "0")
    # A click on the move shown changes nothing.
    page.click("#moves li.current")
    page.wait_for_timeout(300)
    assert ply(page) == 3
    # A placement at the start would drop all three moves: the first click
    # says so and changes nothing, the same placement again makes it.
    page.keyboard.press("Home")
    wait_ply(page, 0)
    cell(page, 2, 2).click()
    expect(page.locator("#message")).to_contain_text("This drops the 3 later moves of the game")
    page.wait_for_timeout(300)
    assert page.evaluate("window.cabra.ui.game.length") == 3
    cell(page, 2, 2).click()
    wait_ply(page, 1)
    assert page.evaluate("window.cabra.ui.game.length") == 1
    assert not page.errors, page.errors


def test_a_short_game_is_analysed(browser):
    page = open_page(browser)
    set_players(page, "human", "human")
    for m in placements("games/hand_straight_bridge.caminos"):
        typed(page, m)
    expect(page.locator("#result")).to_have_text("Player 1 wins by bridge")
    expect(page.locator("#iso g.cube.bridge")).to_have_count(8)
    shot(page, "06-bridge.png")
    page.fill("#an-iterations", "2000")
    page.click("#analyze")
    expect(page.locator("#plot circle.point")).to_have_count(5, timeout=60_000)
    expect(page.locator("#an-status")).to_have_text("Analyzed 5 placements.")
    page.locator('#plot circle.point[data-ply="2"]').click()
    wait_ply(page, 1)
    expect(page.locator("#an-detail")).to_contain_text("Placement 2 by player 2: O T0 660")
    expect(page.locator("#iso .ghost.line")).to_have_count(4)
    shot(page, "07-analysis.png", full=True)
    assert not page.errors, page.errors


def test_saving_downloads_a_file_cabra_check_accepts(browser):
    page = open_page(browser)
    set_players(page, "human", "human")
    moves = placements("games/hand_straight_bridge.caminos")
    for m in moves[:3]:
        typed(page, m)
    with page.expect_download() as d:
        page.click("#save")
    path = Path(tempfile.mkdtemp()) / "game.caminos"
    d.value.save_as(path)
    text = path.read_text()
    lines = (DATA / "games/hand_straight_bridge.caminos").read_text().splitlines()
    want = [l for l in lines if not l.startswith("#")][:3]
    assert text == "".join(l + "\n" for l in want), text
    out = subprocess.run([BIN, "check", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok: 3 placements; in progress, player 2 to move"), out.stdout
    assert not page.errors, page.errors


def test_a_bad_file_is_refused_with_its_line(browser):
    page = open_page(browser)
    bad = DATA / "bad" / "bad_14_floating.caminos"
    # The Load button takes the keyboard's focus, and Enter opens the
    # file input (whose choice Playwright then makes).
    page.evaluate("document.getElementById('load').addEventListener('click', () => { window.loadOpened = true; })")
    page.focus("#load-button")
    page.keyboard.press("Enter")
    page.wait_for_function("window.loadOpened === true")
    page.set_input_files("#load", str(bad))
    expect(page.locator("#message")).to_contain_text("is not a valid game: line")
    shown = page.text_content("#message")
    check = subprocess.run([BIN, "check", str(bad)], capture_output=True, text=True)
    assert check.returncode == 1
    # The same `line N: reason` as `cabra check`.
    reason = re.search(r"is not a valid game: (line \d+: .*)$", check.stderr.strip()).group(1)
    assert shown == f"{bad.name} is not a valid game: {reason}", (shown, reason)
    shot(page, "08-bad-file.png")
    # A file far larger than any game is refused for its size.
    big = Path(tempfile.mkdtemp()) / "huge.caminos"
    big.write_text("110 120 121 122\n" * 8000)
    page.set_input_files("#load", str(big))
    expect(page.locator("#message")).to_contain_text("huge.caminos is too large to be a game record")
    # A good file loads.
    page.set_input_files("#load", str(DATA / "games" / "hand_straight_bridge.caminos"))
    wait_ply(page, 5)
    expect(page.locator("#message")).to_have_text("Loaded hand_straight_bridge.caminos.")
    assert not page.errors, page.errors


def test_a_new_game_under_other_rules_offers_the_swap(browser):
    page = open_page(browser)
    set_players(page, "human", "human")
    page.select_option("#rules", "bridget")
    page.check("#swap")
    page.click("#new")
    expect(page.locator("#perimeter")).to_contain_text("Rules: bridget swap. Edge columns")
    expect(page.locator("#do-swap")).to_be_hidden()
    cell(page, 1, 1).click()
    wait_ply(page, 1)
    expect(page.locator("#do-swap")).to_be_visible()
    page.click("#do-swap")
    wait_ply(page, 2)
    expect(page.locator("#moves li").nth(1)).to_have_text("swap")
    expect(page.locator("#iso g.cube.p2")).to_have_count(4)
    expect(page.locator("#result")).to_have_text("Move 3: player 1 to move")
    # A time machine's placements taken back are struck through, and not
    # before it is played.
    typed(page, "O T0 550")
    typed(page, "O T0 330")
    expect(page.locator("#do-tm")).to_be_visible()
    page.click("#do-tm")
    wait_ply(page, 5)
    items = page.locator("#moves li")
    expect(items.nth(4)).to_have_text("tm")
    expect(page.locator("#moves li.taken")).to_have_count(2)
    expect(items.nth(2)).to_have_class(re.compile(r"\btaken\b"))
    expect(items.nth(3)).to_have_class(re.compile(r"\btaken\b"))
    items.nth(3).click()
    wait_ply(page, 4)
    expect(page.locator("#moves li.taken")).to_have_count(0)
    page.click("#moves li:nth-child(5)")
    wait_ply(page, 5)
    with page.expect_download() as d:
        page.click("#save")
    path = Path(tempfile.mkdtemp()) / "swap.caminos"
    d.value.save_as(path)
    assert path.read_text().startswith("# rules: bridget swap\n"), path.read_text()
    out = subprocess.run([BIN, "check", str(path)], capture_output=True, text=True)
    assert out.returncode == 0 and "5 moves" in out.stdout, (out.stdout, out.stderr)
    assert not page.errors, page.errors


def test_a_game_the_server_forgot_is_replaced(browser):
    page = open_page(browser)
    set_players(page, "human", "human")
    old = page.evaluate("window.cabra.ui.id")
    status = page.evaluate(f"fetch('/api/games/{old}', {{method: 'DELETE'}}).then(r => r.status)")
    assert status == 200
    # Pointing at the board finds the game gone, and the click after that
    # is placed in the new one: what the page said stays said over it
    # (whether the click or the pointing found the game gone is a race).
    cell(page, 4, 4).hover()
    expect(page.locator("#message")).to_contain_text("a new game was started")
    cell(page, 4, 4).click()
    wait_ply(page, 1)
    expect(page.locator("#message")).to_contain_text("a new game was started")
    assert page.evaluate("window.cabra.ui.id") != old
    # A game with moves is played into the new one from the page's copy,
    # the moves after the one shown included (as after a restart or an
    # expiry of the server's copy).
    cell(page, 1, 1).click()
    wait_ply(page, 2)
    expect(page.locator("#message")).not_to_contain_text("a new game was started")
    page.click("#undo")
    wait_ply(page, 1)
    line = page.evaluate("window.cabra.ui.game.line.map((m) => m.move)")
    assert len(line) == 2, line
    moves = lambda: page.evaluate("window.cabra.ui.game.line.map((m) => m.move)")
    old = page.evaluate("window.cabra.ui.id")
    page.evaluate(f"fetch('/api/games/{old}', {{method: 'DELETE'}})")
    page.click("#rot-left")
    expect(page.locator("#message")).to_contain_text("it was restored from this page")
    assert page.evaluate("window.cabra.ui.id") != old
    assert ply(page) == 1 and moves() == line, (ply(page), moves(), line)
    # Lost again: the placement that finds it gone is made once it is back.
    old = page.evaluate("window.cabra.ui.id")
    page.evaluate(f"fetch('/api/games/{old}', {{method: 'DELETE'}})")
    cell(page, 2, 2).click()
    wait_ply(page, 2)
    expect(page.locator("#message")).to_contain_text("it was restored from this page")
    assert moves()[0] == line[0] and moves()[1] != line[1], (moves(), line)
    # Lost again: "Engine move now" is asked again once the game is back.
    old = page.evaluate("window.cabra.ui.id")
    page.evaluate(f"fetch('/api/games/{old}', {{method: 'DELETE'}})")
    page.click("#go")
    wait_ply(page, 3)
    assert page.evaluate("window.cabra.ui.id") != old
    assert not page.errors, page.errors


def test_a_loaded_game_waits_for_the_player(browser):
    page = open_page(browser)
    set_players(page, "human", "engine")
    # Player 2 (the engine) is to move in it: it does not move until asked.
    page.set_input_files("#load", str(ROOT / "games" / "midgame-11.caminos"))
    wait_ply(page, 11)
    expect(page.locator("#status")).to_contain_text("the engine waits for Engine move now")
    page.wait_for_timeout(1500)
    assert ply(page) == 11
    assert not page.evaluate("window.cabra.ui.game.busy")
    # A reload of the tab keeps it waiting.
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    wait_ply(page, 11)
    expect(page.locator("#status")).to_contain_text("the engine waits for Engine move now")
    page.wait_for_timeout(1500)
    assert ply(page) == 11 and not page.evaluate("window.cabra.ui.game.busy")
    # Limits in the Engine panel that cannot be used are refused there.
    page.fill("#time", "-3")
    page.click("#go")
    expect(page.locator("#message")).to_have_text("Time a move: -3 is not 0.05 to 600 seconds.")
    assert ply(page) == 11
    page.fill("#time", "0.2")
    page.click("#go")
    wait_ply(page, 12)
    expect(page.locator("#message")).not_to_have_class("bad")
    # The win bar stays with the engine's last word once it has moved.
    expect(page.locator("#live-text")).to_contain_text("Played ")
    page.wait_for_timeout(300)
    said = page.text_content("#live-text")
    for_p2 = float(re.search(r"([0-9.]+)% for player 2", said).group(1))
    width = page.evaluate("parseFloat(document.getElementById('winbar').style.width)")
    assert abs(width - (100 - for_p2)) < 0.11, (said, width)
    assert page.text_content("#live-line").startswith("Best line: ")
    assert not page.errors, page.errors


def engine_answering_for_a_minute(browser):
    """A page where player 2, the engine, searches its answer for 60 s."""
    page = open_page(browser)
    set_players(page, "human", "engine")
    page.fill("#time", "60")
    cell(page, 4, 4).click()
    expect(page.locator("#stop")).to_be_enabled()
    page.wait_for_function("window.cabra.ui.game.busy === 'thinking'")
    return page


def test_a_new_game_while_the_engine_thinks(browser):
    page = engine_answering_for_a_minute(browser)
    page.click("#new")
    expect(page.locator("#message")).to_contain_text("New game", timeout=10_000)
    wait_ply(page, 0)
    assert page.evaluate("window.cabra.ui.game.busy") is None
    # Nothing of the old game's search is left in the Engine panel.
    expect(page.locator("#live-line")).to_have_text("")
    expect(page.locator("#live-text")).to_have_text("Idle.")
    assert page.evaluate("parseFloat(document.getElementById('winbar').style.width)") == 50
    # A click the moment an engine move was asked for, before the page
    # hears that the engine works: the new game is made all the same.
    page.fill("#time", "0.5")
    cell(page, 4, 4).click()
    wait_ply(page, 2)
    # (As the page asks for its own moves: for the game at its version,
    # so that one arriving after the new game is refused.)
    page.evaluate("""() => {
        const body = JSON.stringify({time_ms: 60000, version: window.cabra.ui.game.version});
        fetch(`/api/games/${window.cabra.ui.id}/think`, {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body});
        document.getElementById('new').click();
    }""")
    expect(page.locator("#message")).to_contain_text("New game", timeout=10_000)
    wait_ply(page, 0)
    page.wait_for_function("!window.cabra.ui.game.busy && window.cabra.ui.game.length === 0")
    assert not page.errors, page.errors


def test_taking_over_the_engine_side_mid_search_drops_its_move(browser):
    page = engine_answering_for_a_minute(browser)
    # A key that would change the game says why it cannot, in the page's words.
    page.keyboard.press("u")
    expect(page.locator("#message")).to_have_text("The engine is working: wait, or press Stop.")
    # Player 2 becomes a person while the engine searches for it (after a
    # reload of the tab, which asked for the search before): the search
    # stops, its move is not played, and the person moves.
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_function("window.cabra.ui.game.busy === 'thinking'")
    page.select_option("#p2", "human")
    expect(page.locator("#message")).to_contain_text("Player 2 is yours")
    page.wait_for_function("!window.cabra.ui.game.busy")
    assert ply(page) == 1
    cell(page, 1, 1).click()
    wait_ply(page, 2)
    page.wait_for_timeout(500)
    assert ply(page) == 2 and not page.evaluate("window.cabra.ui.game.busy")
    assert not page.errors, page.errors


HIDE = """Object.defineProperty(document, 'hidden', {value: %s, configurable: true});
document.dispatchEvent(new Event('visibilitychange'));"""


def test_hidden_tabs_leave_room_for_another(browser):
    # A browser keeps six connections to a server; six tabs each holding
    # an event stream would leave a seventh nothing. Hidden tabs let go.
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.set_default_timeout(TIMEOUT)
    hidden = []
    for _ in range(6):
        page = ctx.new_page()
        page.goto(URL)
        page.wait_for_selector("body[data-ready=true]")
        page.evaluate(HIDE % "true")
        hidden.append(page)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.goto(URL)
    page.wait_for_selector("body[data-ready=true]")
    set_players(page, "human", "engine")
    page.fill("#time", "0.05")
    cell(page, 4, 4).click()
    wait_ply(page, 2)
    # A hidden tab still follows its game, and listens again when shown.
    first = hidden[0]
    set_players(first, "human", "human")
    game = first.evaluate("window.cabra.ui.id")
    status = page.evaluate(f"""fetch('/api/games/{game}/place', {{method: 'POST',
        headers: {{'Content-Type': 'application/json'}},
        body: JSON.stringify({{move: 'O T0 330'}})}}).then(r => r.status)""")
    assert status == 200, status
    first.wait_for_function("document.getElementById('iso').dataset.ply === '1'", timeout=5000)
    first.evaluate(HIDE % "false")
    first.wait_for_function("window.cabra.ui.events !== null", timeout=5000)
    ctx.close()


def test_the_engine_plays_itself_thinking_live_and_stops(browser):
    page = open_page(browser)
    page.fill("#time", "60")
    set_players(page, "engine", "human")
    expect(page.locator("#live-text")).to_contain_text("Thinking for player 1", timeout=10_000)
    # Several updates a second; the best line is drawn as numbered ghosts.
    texts = set()
    for _ in range(8):
        texts.add(page.text_content("#live-text"))
        page.wait_for_timeout(120)
    assert len(texts) >= 4, texts
    # The expected line is drawn from above only, never over the cubes.
    expect(page.locator("#top .ghost.idea").first).to_be_visible()
    expect(page.locator("#iso .ghost")).to_have_count(0)
    expect(page.locator("#live-line")).to_contain_text("Best line: ")
    shot(page, "09-thinking.png")
    page.click("#stop")
    wait_ply(page, 1)
    expect(page.locator("#live-text")).to_contain_text("(stopped)")
    # The engine's first move taken back: the page says how to go on, and
    # the engine does not move by itself.
    page.click("#undo")
    wait_ply(page, 0)
    expect(page.locator("#message")).to_contain_text("Engine move now plays again from here, and Redo")
    page.wait_for_timeout(1000)
    assert ply(page) == 0 and not page.evaluate("window.cabra.ui.game.busy")
    page.click("#redo")
    wait_ply(page, 1)
    # Engine against itself: Stop pauses it after the stopped move, and
    # Engine move now goes on.
    page.select_option("#p2", "engine")
    expect(page.locator("#live-text")).to_contain_text("Thinking for player 2", timeout=10_000)
    page.click("#stop")
    wait_ply(page, 2)
    expect(page.locator("#status")).to_contain_text("the engine waits for Engine move now")
    page.wait_for_timeout(1500)
    assert ply(page) == 2 and not page.evaluate("window.cabra.ui.game.busy")
    page.fill("#time", "0.2")
    page.click("#go")
    wait_ply(page, 4)
    set_players(page, "human", "human")
    page.wait_for_function("!window.cabra.ui.game.busy")
    assert ply(page) >= 4
    assert not page.errors, page.errors


def play_engine_games(page, games, label):
    """Engine against engine from a new game, `games` times; every game
    must reach its end (a page that waits for nothing would stall)."""
    # Every game the page shows is seen, however briefly: the version of
    # the last empty board shown after `__after` is the new game's start
    # (a click can land late: Playwright waits for a still button).
    page.evaluate("""() => {
        const ui = window.cabra.ui;
        let shown = ui.game;
        window.__after = Infinity;
        window.__started = null;
        Object.defineProperty(ui, 'game', { configurable: true, get: () => shown, set: (g) => {
            if (g && g.length === 0 && g.version > window.__after) window.__started = g.version;
            shown = g;
        } });
    }""")
    set_players(page, "engine", "engine")
    # The engine plays in the game open first: its empty board is behind.
    page.wait_for_function("window.cabra.ui.game.length > 0")
    for g in range(games):
        page.evaluate("window.__started = null; window.__after = window.cabra.ui.game.version")
        page.click("#new")
        page.wait_for_function(
            "(g => window.__started !== null && g.version > window.__started"
            " && g.result !== 'ongoing' && !g.busy)(window.cabra.ui.game)", timeout=90_000)
        result = page.text_content("#result").lower()
        assert "wins" in result or "draw" in result, (label, g, result)
    set_players(page, "human", "human")


def test_engine_against_engine_at_one_iteration_a_move_never_stalls(browser):
    page = open_page(browser)
    page.fill("#time", "")
    page.fill("#iterations", "1")
    t0 = time.perf_counter()
    play_engine_games(page, 10, "1 iteration")
    figures["10 engine games at 1 iteration a move (s)"] = round(time.perf_counter() - t0, 1)
    assert not page.errors, page.errors


def test_engine_against_engine_at_50_ms_a_move_never_stalls(browser):
    page = open_page(browser)
    page.fill("#time", "0.05")
    page.fill("#iterations", "")
    t0 = time.perf_counter()
    play_engine_games(page, 10, "50 ms")
    figures["10 engine games at 50 ms a move (s)"] = round(time.perf_counter() - t0, 1)
    shot(page, "10-engine-games-over.png")
    assert not page.errors, page.errors


def download(page, selector, name):
    """Saves what the link downloads; returns the path and the name the
    browser suggested."""
    with page.expect_download() as d:
        page.click(selector)
    path = Path(tempfile.mkdtemp()) / name
    d.value.save_as(path)
    return path, d.value.suggested_filename


def test_save_after_a_review_writes_what_the_page_says(browser):
    page = open_page(browser)
    set_players(page, "human", "human")
    moves = placements("games/hand_straight_bridge.caminos")
    for m in moves:
        typed(page, m)
    page.fill("#an-iterations", "500")
    page.click("#analyze")
    expect(page.locator("#plot circle.point")).to_have_count(5, timeout=60_000)
    # Reviewing placement 2 shows the board before it.
    page.locator('#plot circle.point[data-ply="2"]').click()
    wait_ply(page, 1)
    expect(page.locator("#save")).to_have_text("Save game (5 moves)")
    expect(page.locator("#save-here")).to_have_text("Save up to move 1 (1 move of 5)")
    whole, suggested = download(page, "#save", "whole.caminos")
    assert suggested == "game.caminos", suggested
    out = subprocess.run([BIN, "check", str(whole)], capture_output=True, text=True)
    assert out.stdout.startswith("ok: 5 placements; player 1 wins by bridge"), out.stdout
    part, suggested = download(page, "#save-here", "part.caminos")
    assert suggested == "game-up-to-1.caminos", suggested
    out = subprocess.run([BIN, "check", str(part)], capture_output=True, text=True)
    assert out.stdout.startswith("ok: 1 placement; in progress"), out.stdout
    shot(page, "11-save-after-review.png")
    # At the end of the line there is one way to save.
    page.click("#moves li >> nth=4")
    wait_ply(page, 5)
    expect(page.locator("#save-here")).to_be_hidden()
    assert not page.errors, page.errors


def test_a_full_server_says_so_and_offers_to_try_again(browser):
    def call(method, path):
        req = urllib.request.Request(URL.split("?")[0].rstrip("/") + path, method=method, data=b"{}" if method == "POST" else None,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, None
    status, info = call("GET", "/api/info")
    made = []
    try:
        # Until the server refuses one: a full server first makes room
        # from games nobody has followed for a minute (earlier tests').
        for _ in range(2 * info["max_games"]):
            status, game = call("POST", "/api/games")
            if status == 503:
                break
            assert status == 201, status
            made.append(game["id"])
        assert status == 503, "the server never filled up"
        page = open_page_unready(browser)
        expect(page.locator("#status")).to_contain_text("The server is full")
        expect(page.locator("#retry")).to_be_visible()
        assert page.locator("#undo").is_disabled() and page.locator("#go").is_disabled()
        # No link saves a game that is not there.
        assert page.evaluate("getComputedStyle(document.getElementById('save')).pointerEvents") == "none"
        shot(page, "12-server-full.png")
        # Room again: trying again opens a game.
        call("DELETE", f"/api/games/{made.pop()}")
        page.click("#retry")
        page.wait_for_selector("body[data-ready=true]")
        expect(page.locator("#status")).to_have_text("In progress, player 1 to move")
    finally:
        for g in made:
            call("DELETE", f"/api/games/{g}")

def test_a_bad_time_keeps_the_placement_until_it_is_put_right(browser):
    page = open_page(browser)
    page.fill("#time", "0")
    page.keyboard.press("Escape")
    cell(page, 2, 2).click()
    # Placed first, the game would sit at the engine's turn.
    expect(page.locator("#message")).to_contain_text("is not 0.05 to 600 seconds")
    page.wait_for_timeout(300)
    assert ply(page) == 0
    page.fill("#time", "0.2")
    page.locator("#time").blur()
    cell(page, 2, 2).click()
    wait_ply(page, 2)   # the engine answers
    assert not page.errors, page.errors


def test_turning_under_a_still_mouse_aims_where_it_points(browser):
    page = open_page(browser)
    set_players(page, "human", "human")
    cell(page, 1, 1).hover()
    expect(page.locator("#message")).to_contain_text("L T0 010: legal")
    page.keyboard.press("]")
    expect(page.locator("#iso svg")).to_have_attribute("data-rotation", "1")
    # Another column is under the pointer now: the preview says which.
    expect(page.locator("#message")).not_to_contain_text("L T0 010")
    expect(page.locator("#message")).to_contain_text("click to place")
    aimed = page.locator("#message").inner_text().split(":")[0]
    page.mouse.down()
    page.mouse.up()
    wait_ply(page, 1)
    expect(page.locator("#moves li").first).to_have_text(aimed)
    assert not page.errors, page.errors


def test_the_rules_of_a_new_game_start_as_the_servers(browser):
    server = subprocess.Popen([BIN, "serve", "--port", "0", "--bind", "127.0.0.1", "--threads", "1",
                               "--rules", "bridget swap"], stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split()[0]
        assert url.startswith("http://"), url
        page = open_page(browser, url)
        expect(page.locator("#rules")).to_have_value("bridget")
        expect(page.locator("#swap")).to_be_checked()
        page.click("#new")
        expect(page.locator("#message")).to_contain_text("New game (bridget swap rules).")
        assert not page.errors, page.errors
        page.context.close()
    finally:
        server.terminate()
        server.wait()


def main():
    SHOTS.mkdir(parents=True, exist_ok=True)
    tests = [v for k, v in globals().items() if k.startswith(os.environ.get("ONLY", "test_"))]
    passed = failed = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        print(f"browser: {browser.version}, server {URL}")
        for t in tests:
            start = time.perf_counter()
            try:
                t(browser)
                passed += 1
                print(f"ok   {t.__name__} ({time.perf_counter() - start:.1f} s)")
            except Exception:
                failed += 1
                print(f"FAIL {t.__name__}")
                traceback.print_exc()
        browser.close()
    with urllib.request.urlopen(URL + "api/info") as r:
        sizes = json.load(r)
    figures["embedded assets (bytes)"] = sizes.get("assets_bytes")
    for k, v in figures.items():
        print(f"figure: {k}: {v}")
    print(f"browser: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
