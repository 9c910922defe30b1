// Cabra's page: the state of the tab, the wiring of buttons, keys, the
// board and the live channel. The rules and the engine live on the server.
//
// The game shown is the server's: every change comes as a `state` event
// (and in the answer to the request that made it), each with a version,
// and the page keeps the newest. Nothing here guesses what the engine is
// doing, so no order of answers and events can leave the page waiting.
//
// Every message belongs to its moment: a note (what an action did, or why
// it failed) lasts until the game moves on; the engine's last word and an
// analysis's status go with the game they were about.

import { api } from './api.js';
import { makeAim } from './aim.js';
import { makeCoach } from './coach.js';
import { budget, fillLimits } from './limits.js';
import { drawBoard, reaim, watchBoard } from './board.js';
import { drawTray, drawOrientations, drawGame, drawLive, drawAnalysis, drawBanner, reviewWords, say, plural } from './panels.js';

const $ = (id) => document.getElementById(id);
const KEY = 'cabra-game';
const BUSY = 'The engine is working: wait, or press Stop.';
const PLAYERS = 'cabra-players';

const ui = {
  id: null, game: null,
  piece: 'L', orient: { L: 0, T: 0, Z: 0, O: 0 }, orientations: {}, pictures: {},
  rotation: 0, layers: 3, column: null, armed: false, armedLegal: false,
  players: JSON.parse(sessionStorage.getItem(PLAYERS) || 'null') || { 1: 'human', 2: 'engine' },
  thinking: null, lastThought: '', analysis: null, reviewing: null, bannerClosed: null,
  events: null, asking: false, holding: 0, job: null, confirming: null, note: '', noteKind: '', lastBar: null,
  // The game and version at which the server accepted the page's last
  // engine move: until a newer state of that game shows, the engine is
  // busy with it (its events may come after the answer).
  accepted: null,
  // How many changes of position the note outlives: a restored game's
  // words stay said over the move that found the game gone (or the one
  // made right after), whichever started the restore.
  noteKeep: 0,
};
// Whether the engine waits to be asked (after Stop, or a game loaded) is
// kept with the tab, so that a reload does not set it going.
{
  const WAITING = 'cabra-waiting';
  let waiting = sessionStorage.getItem(WAITING) === 'true';
  Object.defineProperty(ui, 'waiting', {
    enumerable: true,
    get: () => waiting,
    set: (v) => { waiting = v; sessionStorage.setItem(WAITING, String(v)); },
  });
}
// Timings read by the browser tests (and anyone curious).
window.cabra = { ui, times: {} };

const humanTurn = () => ui.game && ui.game.result === 'ongoing' && !ui.game.busy && ui.players[ui.game.to_move] === 'human';
// Only placements are drawn as ghosts (not `swap` or `tm`).
const isPlacement = (m) => /^[LTZO] /.test(m || '');

function ghosts() {
  const out = [];
  const g = ui.game;
  if (ui.thinking && g.busy) {
    // The engine's expected line: drawn only from above, never over cubes.
    let player = ui.thinking.player;
    ui.thinking.pv.slice(0, 3).forEach((m, i) => {
      if (isPlacement(m)) out.push({ move: m, kind: 'idea', player, label: String(i + 1) });
      if (m !== 'tm') player = 3 - player;
    });
  } else if (ui.analysis && ui.reviewing && g.ply === ui.reviewing - 1) {
    const m = ui.analysis.moves.find((x) => x.ply === ui.reviewing);
    if (m) {
      if (isPlacement(m.played)) out.push({ move: m.played, kind: 'line', player: m.player, label: '1' });
      if (isPlacement(m.best) && m.best !== m.played) out.push({ move: m.best, kind: 'better', player: m.player, label: '★' });
    }
  }
  return out.concat(coach.ghosts());
}

function note(text, kind, keep = 0) { ui.note = text; ui.noteKind = kind; ui.noteKeep = keep; say(text, kind); }

const coach = makeCoach({
  ui, api, $, note, budget, recover: (e, id) => recover(e, id),
  redraw: () => redraw(), show: (g) => show(g),
});

const aim = makeAim({
  ui, humanTurn, note, say,
  redraw: () => redraw(),
  place: (body, checked) => place(body, checked),
  held: (body) => dropsTooMuch(JSON.stringify(body)),
});

// Redraws the board; with a piece aimed, says what it would do.
async function redraw() {
  const a = aim.aimed();
  const id = ui.id;
  try {
    const answer = await drawBoard({ id, ply: ui.game.ply, rotation: ui.rotation, layers: ui.layers, aim: a, ghosts: ghosts() });
    // An answer about an aim let go meanwhile (a click placed it, or
    // said why not) would hide what the click said.
    const now = aim.aimed();
    if (answer && JSON.stringify(now) === JSON.stringify(a)) aim.hint(answer);
    else if (now === null) say(ui.note || '', ui.noteKind);
  } catch (e) { if (!await recover(e, id)) say(e.message, 'bad'); }
}

// The header: how the game stands, and what the engine is doing.
function status(g) {
  if (g.busy === 'thinking') return `The engine is thinking for player ${g.to_move}`;
  // The header adds " …" while the engine works.
  if (g.busy === 'waiting') return 'The engine waits for a free search thread';
  if (g.busy === 'analyzing') return 'The engine is analyzing the game';
  if (g.busy === 'hinting') return `The engine is looking for a hint for player ${g.to_move}`;
  const text = g.text.charAt(0).toUpperCase() + g.text.slice(1);
  // Stopped, or a game loaded: the engine moves again when asked.
  const paused = ui.waiting && g.result === 'ongoing' && ui.players[g.to_move] === 'engine';
  if (g.ply >= g.length) return paused ? `${text}: the engine waits for Engine move now` : text;
  return g.ply === 0 ? `${text} (the start; ${plural(g.length, 'move')} in the line)` : `${text} (the position after move ${g.ply} of ${g.length})`;
}

function drawPanels() {
  const g = ui.game;
  $('status').textContent = status(g);
  $('status').classList.toggle('thinking', !!g.busy);
  if (g.result === 'ongoing' && g.left[g.to_move - 1][ui.piece] === 0) {
    ui.piece = ['L', 'T', 'Z', 'O'].find((k) => g.left[g.to_move - 1][k] > 0) || ui.piece;
  }
  drawTray(ui, (k) => { ui.piece = k; drawPanels(); redraw(); });
  drawOrientations(ui, (i) => { ui.orient[ui.piece] = i; drawPanels(); redraw(); });
  drawGame(ui, goto);
  drawLive(ui);
  drawAnalysis(ui, review);
  drawBanner(ui);
  coach.draw();
  aim.drawPlace(ui.armedLegal);
  // Save keeps the whole game; while earlier moves are shown, a second
  // link saves only up to the move shown.
  $('save').href = api.recordUrl(ui.id);
  $('save').textContent = `Save game (${plural(g.length, 'move')})`;
  $('save-here').hidden = g.ply === g.length;
  $('save-here').href = api.recordUrl(ui.id, g.ply);
  $('save-here').download = `game-up-to-${g.ply}.caminos`;
  $('save-here').textContent = `Save up to move ${g.ply} (${plural(g.ply, 'move')} of ${g.length})`;
  document.querySelectorAll('.layer').forEach((b) => b.classList.toggle('on', Number(b.dataset.layers) === ui.layers));
}

// Whether `next` continues the game shown (the same game, one or more
// moves on): the engine's last word still belongs to it.
function continues(prev, next) {
  if (!prev || prev.id !== next.id || next.length < prev.length) return false;
  return prev.line.every((m, i) => next.line[i] && next.line[i].move === m.move);
}

// The engine's last word (its text, win bar and best line) no longer
// applies: another game, or a position before the one it moved in.
function forgetThought() {
  ui.lastThought = '';
  ui.lastBar = null;
  $('live-line').textContent = '';
}

// Shows a state of the game, unless a newer one is shown already (a
// request's answer can arrive after the events that followed it).
async function show(game) {
  const prev = ui.game;
  if (prev && game.id === prev.id && game.version < prev.version) return;
  ui.game = game;
  if (!game.busy) ui.thinking = null;
  // The engine's last word is about the position it moved in: gone back
  // past it, or in another game, it no longer applies.
  if (!continues(prev, game) || (prev && game.ply < prev.ply)) forgetThought();
  if (prev && (prev.ply !== game.ply || prev.id !== game.id)) {
    // The position changed: an aim and a note were about the old one.
    aim.drop();
    if (ui.noteKeep > 0) ui.noteKeep -= 1;
    else ui.note = '';
  }
  if (ui.analysis && !game.analysis) { ui.analysis = null; ui.reviewing = null; }
  drawPanels();
  await redraw();
  maybeEngine();
}

// A game the server no longer holds (it expired while the tab was idle,
// or the server restarted): once however many requests about game `id`
// fail, start a new one and play the page's copy of the game into it
// (its position code, then the moves after the one shown), and say so.
let recovering = null;
async function recover(e, id) {
  if (e.status !== 404 || !/no such game/.test(e.message)) return false;
  if (ui.id !== id) return true;
  if (!recovering) {
    const lost = ui.game && ui.game.id === id ? ui.game : null;
    recovering = (async () => {
      sessionStorage.removeItem(KEY);
      ui.analysis = null;
      ui.reviewing = null;
      aim.drop();
      // No engine move in the new game until the old one is back.
      ui.holding += 1;
      try {
        await openGame();
        if (!lost || lost.length === 0) {
          note('That game had expired on the server: a new game was started.', 'bad', 1);
          return;
        }
        try {
          let g = await api.code(ui.id, lost.code);
          for (const m of lost.line.slice(lost.ply)) g = await api.place(ui.id, { move: m.move });
          if (g.ply !== lost.ply) g = await api.goto(ui.id, lost.ply);
          await show(g);
          note('The server had lost this game (it restarted, or the game sat idle too long): it was restored from this page.', 'ok', 1);
        } catch (err) {
          note(`The server had lost this game, and it could not be restored (${err.message}): its position code ${lost.code} brings it back.`, 'bad');
        }
      } finally {
        ui.holding -= 1;
      }
      maybeEngine();
    })().finally(() => { recovering = null; });
  }
  await recovering;
  return true;
}

// Runs a request that changes the game, shows the result (unless the
// result comes as events, `shows` false) or the error. A request made
// while a lost game is being restored waits for it, and one that finds
// the game lost is made again once it is back (`f` reads the game's id
// when it runs), so that no click is lost.
async function act(f, shows = true) {
  const run = async () => { const g = await f(); if (shows) await show(g); };
  if (recovering) await recovering;
  const id = ui.id;
  try { await run(); return true; } catch (e) {
    if (!await recover(e, id)) { note(refusal(e), 'bad'); return false; }
    if (ui.id === id || !ui.game) return false;
    try { await run(); return true; } catch (again) { note(refusal(again), 'bad'); return false; }
  }
}

// Why a request was refused, in the page's words where the server's
// are about its API (a change while the engine works: a key, a button).
function refusal(e) {
  return e.status === 409 && /stop it first/.test(e.message) ? BUSY : e.message;
}

// Asks the engine for a move; whether it is busy comes as a state event.
async function engineMove(auto) {
  if (ui.asking) return;
  if (recovering) await recovering;
  const id = ui.id;
  ui.asking = true;
  try {
    ui.thinking = null;
    const { budget: limits, error } = budget();
    if (error) { note(error, 'bad'); return; }
    // A complaint is over once the engine is asked (a restore's words stay).
    if (ui.noteKind === 'bad' && !ui.noteKeep) note('', '');
    try {
      ui.job = 'think';
      // A move the page asks for by itself is for the game as shown: a
      // new game or a file that replaced it meanwhile refuses it.
      const answer = await api.think(ui.id, auto ? { ...limits, version: ui.game.version } : limits);
      ui.accepted = { id, version: answer.version };
    } catch (e) {
      // Another request got the engine first (a 409): its events follow.
      if (auto && e.status === 409) return;
      if (!await recover(e, id)) { note(e.message, 'bad'); return; }
      // A game the server lost is restored; a move asked for by a click
      // is then asked for again (the engine plays its own turns anyway).
      if (!auto && ui.id !== id && ui.game && ui.game.result === 'ongoing' && !ui.game.busy) {
        const [said, kind, keep] = [ui.note, ui.noteKind, ui.noteKeep];
        await api.think(ui.id, limits);
        note(said, kind, keep);
      }
    }
  } catch (e) {
    note(e.message, 'bad');
  } finally {
    ui.asking = false;
  }
  maybeEngine();
}

// The engine plays when it is the turn of a side it holds, at the end of
// the game's line (not while earlier moves are reviewed).
function maybeEngine() {
  const g = ui.game;
  // A move accepted whose search has not shown yet: asking again would
  // only be refused as busy.
  const pending = ui.accepted && ui.accepted.id === g?.id && g.version <= ui.accepted.version;
  if (g && g.result === 'ongoing' && !g.busy && !pending && !ui.asking && ui.holding === 0 && !ui.waiting && g.ply === g.length
      && ui.players[g.to_move] === 'engine') engineMove(true);
}

// A move made where earlier moves are shown drops the moves after it,
// and an analysis of them. More than an Undo takes back (two), or an
// analysis, are dropped only when the move is asked for twice in a row;
// the first time the page says what would go.
function dropsTooMuch(what) {
  const g = ui.game;
  const dropped = g.length - g.ply;
  if (dropped === 0 || (dropped <= 2 && !g.analysis)) { ui.confirming = null; return false; }
  const key = `${g.id}:${g.version}:${what}`;
  if (ui.confirming === key) { ui.confirming = null; return false; }
  ui.confirming = key;
  const moves = dropped === 1 ? 'the later move' : `the ${dropped} later moves`;
  const again = what === 'engine' ? 'press Engine move now' : 'make the same move';
  note(`This drops ${moves} of the game${g.analysis ? ' and its analysis' : ''}: ${again} again to go on, or press End to go back to the last move.`, 'bad');
  return true;
}

// Places `body`; `checked` when `dropsTooMuch` was asked already.
async function place(body, checked = false) {
  // A placement the engine is to answer waits for limits it can use:
  // placed first, the game would sit at the engine's turn.
  const g = ui.game;
  const { error } = budget();
  if (error && g && ui.players[3 - g.to_move] === 'engine') {
    note(`${error} Correct it, then place again.`, 'bad');
    return;
  }
  if (!checked && dropsTooMuch(JSON.stringify(body))) return;
  const t0 = performance.now();
  ui.waiting = false;
  if (await act(() => api.place(ui.id, body))) {
    window.cabra.times.place = performance.now() - t0;
  }
}

async function goto(ply) { ui.reviewing = null; await act(() => api.goto(ui.id, ply)); }

// Shows placement `ply` of the analysis on the board: the position
// before it, the placement played and the engine's choice as ghosts. The
// board comes into view, with what the analysis says of the placement
// under it, where the ghosts it names are.
async function review(ply) {
  if (!await act(() => api.goto(ui.id, ply - 1))) return;
  ui.reviewing = ply;
  drawPanels();
  note(reviewWords(ui.analysis, ply), 'review');
  scrollIntoViewIfNeeded($('board-wrap'));
  await redraw();
}

async function undo() {
  if (!await act(() => api.undo(ui.id))) return;
  // Against the engine, take back its reply and your placement together.
  const g = ui.game;
  const other = ui.players[3 - g.to_move];
  if (ui.players[g.to_move] !== 'engine' || other !== 'human') return;
  if (g.can_undo) await act(() => api.undo(ui.id));
  // At the start, the engine's first move is taken back alone: say how
  // to go on, since the engine does not move by itself here.
  else note(`Player ${g.to_move} is the engine: Engine move now plays again from here, and Redo brings its move back.`, 'ok');
}

async function redo() {
  if (!await act(() => api.redo(ui.id))) return;
  // Against the engine, replay its reply too, back to your turn, as
  // `undo` takes both back (and as `play`'s redo does).
  const g = ui.game;
  if (g.can_redo && g.result === 'ongoing' && ui.players[g.to_move] === 'engine'
      && ui.players[3 - g.to_move] === 'human') await act(() => api.redo(ui.id));
}

// Stops the engine's work for this game, its move not played (the game
// is replaced), and waits (a few seconds at most) until the server says
// it is idle.
async function stopWork() {
  if (!ui.game || !ui.game.busy) return;
  try { await api.stop(ui.id, false); } catch (_) { /* it ended meanwhile */ }
  for (let i = 0; i < 50 && ui.game.busy; i++) {
    await new Promise((r) => setTimeout(r, 100));
    if (i % 5 === 4) { try { await show(await api.get(ui.id)); } catch (_) { break; } }
  }
}

// Runs `f`, a request that replaces the game (a new game, a file), with
// the engine held: its work is stopped first. A move the page asked for
// just before may start on the server after that stop (the request is
// then refused as busy): it is stopped too, and the request made again.
async function replacing(f) {
  ui.holding += 1;
  try {
    await stopWork();
    for (let i = 0; ; i++) {
      try { return await f(); } catch (e) {
        if (e.status !== 409 || i >= 20) throw e;
        try { await api.stop(ui.id, false); } catch (_) { /* it ended meanwhile */ }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    ui.holding -= 1;
  }
}

// What a loaded game waits for, when the engine is to move in it.
function engineWaits() {
  const g = ui.game;
  if (!g || g.result !== 'ongoing' || ui.players[g.to_move] !== 'engine') return '';
  return ` Player ${g.to_move} (the engine) is to move: press Engine move now when you want its move.`;
}

async function newGame() {
  ui.waiting = false;
  ui.analysis = null;
  ui.reviewing = null;
  const rules = $('rules').value + ($('swap').checked ? ' swap' : '');
  // A new game is what the player asked for, even while the engine
  // thinks: its search is stopped first, and no other one started.
  if (await act(() => replacing(() => api.newGame(ui.id, rules)))) note(`New game (${rules} rules).`, 'ok');
}

// Scrolls the page (only) so that `el` shows whole, or its top.
function scrollIntoViewIfNeeded(el) {
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight) el.scrollIntoView({ block: r.height > window.innerHeight ? 'start' : 'nearest' });
}

// An analysis this tab asked for has ended: say so where the player looks,
// and bring its result into view.
function analyzed(a) {
  const marked = a.moves.filter((m) => m.mark).length;
  const noun = ui.game.rules === 'caminos' ? 'placement' : 'move';
  const done = a.complete ? `Analysis done: ${plural(a.moves.length, noun)}` : `Analysis stopped: ${a.moves.length} of ${plural(a.placements, noun)}`;
  note(`${done}, ${marked} marked (the graph and the list in the Analysis panel).`, 'ok');
  $('analysis-panel').scrollIntoView({ block: 'start' });
}

async function analyze() {
  const count = $('an-iterations').value.trim();
  const n = Number(count);
  if (count !== '' && !(Number.isInteger(n) && n >= 1 && n <= 1e9)) {
    note(`Iterations a position: ${count} is not a whole number from 1 to 1,000,000,000.`, 'bad');
    return;
  }
  // What the analysis does comes as events: its answer may arrive after
  // them (a short game is analyzed at once).
  ui.job = 'analyze';
  await act(() => api.analyze(ui.id, count !== '' ? { iterations: n } : {}), false);
}

// The most a request may carry (the server's `BODY_LIMIT`): a game record
// takes a few hundred bytes.
const MAX_FILE = 64 * 1024;

async function loadFile(file) {
  if (file.size > MAX_FILE) {
    note(`${file.name} is too large to be a game record (${Math.ceil(file.size / 1024)} KiB; at most 64 KiB).`, 'bad');
    return;
  }
  const bytes = await file.arrayBuffer();
  const waited = ui.waiting;
  try {
    ui.waiting = true;
    await show(await replacing(() => api.load(ui.id, bytes)));
    note(`Loaded ${file.name}.${engineWaits()}`, 'ok');
  } catch (e) {
    // Nothing was loaded: the game goes on as it did.
    ui.waiting = waited;
    // The same words as `cabra check`.
    note(e.line ? `${file.name} is not a valid game: ${e.message}` : e.message, 'bad');
  }
}

function listen() {
  if (ui.events) { ui.events.close(); ui.events = null; }
  if (document.hidden) { followHidden(); return; }
  const es = new EventSource(api.eventsUrl(ui.id));
  ui.events = es;
  let drawn = 0;
  es.addEventListener('state', (e) => show(JSON.parse(e.data)));
  es.addEventListener('thinking', (e) => {
    if (!ui.game.busy) return;
    ui.thinking = JSON.parse(e.data);
    drawLive(ui);
    // The engine's line from above, at most every 200 ms.
    if (performance.now() - drawn > 200) { drawn = performance.now(); redraw(); }
  });
  es.addEventListener('moved', (e) => {
    const d = JSON.parse(e.data);
    const made = d.state && d.state.line[d.state.ply - 1];
    const mover = made ? `player ${made.player}` : 'the mover';
    const stopped = d.interrupted ? ' (stopped)' : '';
    // A level below the top searches too little for its win chance to mean
    // anything (1 iteration says 0% or 100%): it names its level instead,
    // and the bar keeps the last real estimate.
    const level = d.state ? d.state.level : ui.game.level;
    if (ui.topLevel !== undefined && level < ui.topLevel) {
      ui.lastThought = `Played ${d.move}${stopped} at level ${level}.`;
    } else {
      ui.lastThought = `Played ${d.move}${stopped}: ${(100 * d.winrate).toFixed(1)}% for ${mover} after ${plural(d.iterations, 'iteration')} in ${d.seconds.toFixed(1)} s.`;
      ui.lastBar = made && made.player === 2 ? 1 - d.winrate : d.winrate;
    }
    drawLive(ui);
  });
  es.addEventListener('analyzing', (e) => {
    ui.anProgress = JSON.parse(e.data);
    drawAnalysis(ui, review);
  });
  es.addEventListener('analysis', (e) => {
    ui.analysis = JSON.parse(e.data);
    drawPanels();
    if (ui.job === 'analyze') { ui.job = null; analyzed(ui.analysis); }
  });
  es.addEventListener('failed', (e) => note(JSON.parse(e.data).error, 'bad'));
  // While the browser tries again on its own, say that nothing reaches
  // the server; a stream open again takes the words back.
  const lostWords = 'The connection to the server is lost: trying again…';
  es.onopen = () => { if (ui.note === lostWords) note('', ''); };
  // A stream the browser gave up on (the server restarted, the game
  // expired): look at the game, start a new one if it is gone, and
  // listen again.
  es.onerror = () => {
    if (ui.events !== es) return;
    if (es.readyState === EventSource.CONNECTING) { note(lostWords, 'bad'); return; }
    if (es.readyState !== EventSource.CLOSED) return;
    ui.events = null;
    const id = ui.id;
    setTimeout(async () => {
      if (ui.id !== id || ui.events || document.hidden) return;
      try { await show(await api.get(id)); listen(); } catch (e) {
        if (!await recover(e, id)) { note('The server does not answer: reload the page once it is back.', 'bad'); }
      }
    }, 1000);
  };
}

// A hidden tab gives its event stream back (a browser allows six
// connections to a server: six hidden tabs would block a seventh) and
// looks at the game once a second instead, which also tells the server
// that someone still follows it.
let polling = null;
function followHidden() {
  if (document.hidden) {
    if (ui.events) { ui.events.close(); ui.events = null; }
    if (!polling) {
      polling = setInterval(async () => {
        const id = ui.id;
        try { await show(await api.get(id)); } catch (e) { await recover(e, id); }
      }, 1000);
    }
  } else {
    if (polling) { clearInterval(polling); polling = null; }
    if (!ui.events && ui.id) listen();
  }
}

async function openGame() {
  const saved = sessionStorage.getItem(KEY);
  let game = null;
  if (saved) { try { game = await api.get(saved); } catch (_) { game = null; } }
  // The tab's level and players hold in a game new to it, or reloaded.
  if (game) game = await coach.apply(game);
  else game = await api.create(coach.wanted());
  ui.id = game.id;
  ui.game = null;
  forgetThought();
  sessionStorage.setItem(KEY, ui.id);
  listen();
  if (game.analysis) { try { ui.analysis = await api.analysis(ui.id); } catch (_) { ui.analysis = null; } }
  await show(game);
}

// Turns the view; a still mouse then points at another column, which
// the preview (and a click) follow.
async function turn(step) { ui.rotation = (ui.rotation + step + 4) % 4; await redraw(); reaim(); }
function cycle(step) {
  const n = ui.orientations[ui.piece].length;
  ui.orient[ui.piece] = (ui.orient[ui.piece] + step + n) % n;
  drawPanels();
  redraw();
}

function wire() {
  document.addEventListener('visibilitychange', followHidden);
  for (const id of ['iso', 'top']) watchBoard($(id), aim.hover, aim.pick);
  $('rot-left').onclick = () => turn(-1);
  $('rot-right').onclick = () => turn(1);
  document.querySelectorAll('.layer').forEach((b) => { b.onclick = () => { ui.layers = Number(b.dataset.layers); drawPanels(); redraw(); }; });
  $('orient-next').onclick = () => cycle(1);
  $('orient-prev').onclick = () => cycle(-1);
  $('typed').onsubmit = (e) => { e.preventDefault(); const v = $('typed-move').value.trim(); if (v) place({ move: v }).then(() => { if (!$('message').classList.contains('bad')) $('typed-move').value = ''; }); };
  // Limits put right let the engine take the turn it was waiting for.
  for (const id of ['time', 'iterations']) $(id).addEventListener('change', () => { if (!budget().error) maybeEngine(); });
  $('new').onclick = newGame;
  $('banner-new').onclick = newGame;
  $('banner-analyze').onclick = () => { ui.bannerClosed = `${ui.game.id}:${ui.game.length}`; drawBanner(ui); analyze(); };
  $('banner-close').onclick = () => { ui.bannerClosed = `${ui.game.id}:${ui.game.length}`; drawBanner(ui); };
  $('do-swap').onclick = () => place({ move: 'swap' });
  $('do-tm').onclick = () => place({ move: 'tm' });
  $('undo').onclick = undo;
  $('sheet-undo').onclick = undo;
  $('redo').onclick = redo;
  $('go').onclick = () => {
    if (dropsTooMuch('engine')) return;
    ui.waiting = false;
    engineMove(false);
  };
  // Stop means stop: the engine plays the move it has found, and no
  // engine move follows by itself (engine against engine pauses) until
  // asked for by Engine move now, a placement or a change of players.
  $('stop').onclick = async () => {
    ui.waiting = true;
    // Between two moves there is no search to stop: the pause holds.
    try { await api.stop(ui.id); } catch (e) { if (e.status !== 409) note(e.message, 'bad'); }
    drawPanels();
  };
  $('sheet-stop').onclick = $('stop').onclick;
  for (const p of [1, 2]) {
    $(`p${p}`).value = ui.players[p];
    $(`p${p}`).onchange = () => {
      ui.players[p] = $(`p${p}`).value;
      ui.waiting = false;
      // A note about who moves next no longer holds (a restore's stays).
      if (!ui.noteKeep) note('', '');
      // The side the engine searches for is taken over: its search stops
      // and its move is not played (as detaching an engine in Sabaki).
      const g = ui.game;
      const searching = g && (g.busy === 'thinking' || (g.busy === 'waiting' && ui.job !== 'analyze'));
      if (ui.players[p] === 'human' && searching && g.to_move === p) {
        api.stop(ui.id, false)
          .then(() => note(`Player ${p} is yours: the engine stopped without playing its move.`, 'ok'))
          .catch(() => { /* it ended meanwhile */ });
      }
      sessionStorage.setItem(PLAYERS, JSON.stringify(ui.players));
      coach.players();
      drawPanels();
      redraw();
      maybeEngine();
    };
  }
  $('analyze').onclick = analyze;
  $('hint').onclick = coach.hint;
  $('sheet-hint').onclick = coach.hint;
  $('load').onchange = (e) => { const f = e.target.files[0]; if (f) loadFile(f); e.target.value = ''; };
  // The file input is hidden: its label is the button, by keyboard too.
  $('load-button').onkeydown = (e) => {
    if (ui.game && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); $('load').click(); }
  };
  $('code-form').onsubmit = async (e) => {
    e.preventDefault();
    const c = $('code-in').value.trim();
    if (!c) return;
    const waited = ui.waiting;
    ui.waiting = true;
    if (await act(() => api.code(ui.id, c))) note(`Position code loaded.${engineWaits()}`, 'ok');
    else ui.waiting = waited;
  };
  document.addEventListener('dragover', (e) => { e.preventDefault(); document.body.classList.add('dropping'); });
  document.addEventListener('dragleave', () => document.body.classList.remove('dropping'));
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    document.body.classList.remove('dropping');
    const f = e.dataTransfer.files[0];
    if (f && ui.game) loadFile(f);
  });
  document.addEventListener('keydown', (e) => {
    if (!ui.game || e.target.closest('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    if (k === 'r' || k === 'R') cycle(e.shiftKey ? -1 : 1);
    else if (['l', 't', 'z', 'o'].includes(k.toLowerCase())) {
      const p = k.toUpperCase();
      if (ui.game && ui.game.left[ui.game.to_move - 1][p] > 0) { ui.piece = p; drawPanels(); redraw(); }
    } else if (k === '[') turn(-1);
    else if (k === ']') turn(1);
    // Through the game's line, as in lichess or Sabaki.
    else if (k === 'ArrowLeft' && ui.game.ply > 0) goto(ui.game.ply - 1);
    else if (k === 'ArrowRight' && ui.game.ply < ui.game.length) goto(ui.game.ply + 1);
    else if (k === 'Home' && ui.game.ply > 0) goto(0);
    else if (k === 'End' && ui.game.ply < ui.game.length) goto(ui.game.length);
    else if (k === '1' || k === '2' || k === '3') { ui.layers = Number(k); drawPanels(); redraw(); }
    else if (k === 'u' || k === 'U') undo();
    else if (k === 'y' || k === 'Y') redo();
    else return;
    e.preventDefault();
  });
}

async function main() {
  const t0 = performance.now();
  try {
    const shapes = await api.shapes();
    for (const p of shapes.pieces) {
      ui.orientations[p.piece] = p.orientations.map((o) => o.name);
      ui.pictures[p.piece] = p.orientations.map((o) => o.svg);
    }
    const info = await api.info();
    fillLimits(info);
    // A new game's rules start as the server's (`cabra serve --rules`).
    const [variant, swap] = (info.rules || 'caminos').split(' ');
    $('rules').value = variant;
    $('swap').checked = swap === 'swap';
    coach.fill(info);
    wire();
    await openGame();
    window.cabra.times.ready = performance.now() - t0;
    window.cabra.times.loaded = performance.now();
    document.body.dataset.ready = 'true';
  } catch (e) {
    // No game to show: say why, keep the controls from doing anything,
    // and offer to try again.
    $('status').textContent = e.status === 503 ? `The server is full: ${e.message}.`
      : e.status ? `The server refused the page: ${e.message}.` : `Cannot reach the server (${e.message}).`;
    document.querySelectorAll('main button, main input, main select').forEach((c) => { c.disabled = true; });
    document.body.classList.add('no-game');
    const retry = document.createElement('button');
    retry.id = 'retry';
    retry.textContent = 'Try again';
    retry.onclick = () => location.reload();
    $('status').after(retry);
  }
}

main();
