// Cabra's page: the state of the tab, the wiring of buttons, keys, the
// board and the live channel. The rules and the engine live on the server.
//
// The game shown is the server's: every change comes as a `state` event
// (and in the answer to the request that made it), each with a version,
// and the page keeps the newest. Nothing here guesses what the engine is
// doing, so no order of answers and events can leave the page waiting.

import { api } from './api.js';
import { drawBoard, watchBoard } from './board.js';
import { drawTray, drawOrientations, drawGame, drawLive, drawAnalysis, say } from './panels.js';

const $ = (id) => document.getElementById(id);
const KEY = 'cabra-game';
const PLAYERS = 'cabra-players';

const ui = {
  id: null, game: null, ply: 0,
  piece: 'L', orient: { L: 0, T: 0, Z: 0, O: 0 }, orientations: {},
  rotation: 0, layers: 3, column: null,
  players: JSON.parse(sessionStorage.getItem(PLAYERS) || 'null') || { 1: 'human', 2: 'engine' },
  thinking: null, lastThought: '', analysis: null, reviewing: null,
  events: null, asking: false,
};
// Timings read by the browser tests (and anyone curious).
window.cabra = { ui, times: {} };

const humanTurn = () => ui.game && ui.game.result === 'ongoing' && !ui.game.busy && ui.players[ui.game.to_move] === 'human';
const orientation = () => ui.orientations[ui.piece][ui.orient[ui.piece]];
// Only placements are drawn as ghosts (not `swap` or `tm`).
const isPlacement = (m) => /^[LTZO] /.test(m || '');

function ghosts() {
  const out = [];
  const g = ui.game;
  if (ui.thinking && g.busy) {
    let player = ui.thinking.player;
    ui.thinking.pv.slice(0, 3).forEach((m, i) => {
      if (isPlacement(m)) out.push({ move: m, kind: 'line', player, label: String(i + 1) });
      if (m !== 'tm') player = 3 - player;
    });
  } else if (ui.analysis && ui.reviewing && g.ply === ui.reviewing - 1) {
    const m = ui.analysis.moves.find((x) => x.ply === ui.reviewing);
    if (m) {
      if (isPlacement(m.played)) out.push({ move: m.played, kind: 'line', player: m.player, label: '1' });
      if (isPlacement(m.best) && m.best !== m.played) out.push({ move: m.best, kind: 'better', player: m.player, label: '★' });
    }
  }
  return out;
}

// Redraws the board; with a column aimed at, says what the piece would do.
async function redraw() {
  const aim = ui.column && humanTurn()
    ? { piece: ui.piece, orientation: orientation(), x: ui.column.x, y: ui.column.y }
    : null;
  const id = ui.id;
  try {
    const a = await drawBoard({ id, ply: ui.game.ply, rotation: ui.rotation, layers: ui.layers, aim, ghosts: ghosts() });
    if (a) say(a.legal ? `${a.move}: legal — click to place` : `Illegal: ${a.reason}`, a.legal ? 'ok' : 'bad');
    else if (aim === null && ui.column === null) say(ui.note || '', ui.noteKind);
  } catch (e) { if (!await recover(e, id)) say(e.message, 'bad'); }
}

function note(text, kind) { ui.note = text; ui.noteKind = kind; say(text, kind); }

function drawPanels() {
  const g = ui.game;
  $('status').textContent = g.busy === 'thinking' ? `${g.text} — the engine is thinking` : g.busy === 'analyzing' ? 'Analyzing the game…' : g.text;
  if (g.result === 'ongoing' && g.left[g.to_move - 1][ui.piece] === 0) {
    ui.piece = ['L', 'T', 'Z', 'O'].find((k) => g.left[g.to_move - 1][k] > 0) || ui.piece;
  }
  drawTray(ui, (k) => { ui.piece = k; drawPanels(); redraw(); });
  drawOrientations(ui, (i) => { ui.orient[ui.piece] = i; drawPanels(); redraw(); });
  drawGame(ui, goto);
  drawLive(ui);
  drawAnalysis(ui, review);
  // Save keeps the whole game; while earlier moves are shown, a second
  // link saves only up to the move shown.
  const moves = (n) => `${n} move${n === 1 ? '' : 's'}`;
  $('save').href = api.recordUrl(ui.id);
  $('save').textContent = `Save game (${moves(g.length)})`;
  $('save-here').hidden = g.ply === g.length;
  $('save-here').href = api.recordUrl(ui.id, g.ply);
  $('save-here').textContent = `Save up to move ${g.ply} (${moves(g.ply)} of ${g.length})`;
  document.querySelectorAll('.layer').forEach((b) => b.classList.toggle('on', Number(b.dataset.layers) === ui.layers));
}

// Shows a state of the game, unless a newer one is shown already (a
// request's answer can arrive after the events that followed it).
async function show(game) {
  if (ui.game && game.id === ui.game.id && game.version < ui.game.version) return;
  ui.game = game;
  if (!game.busy) ui.thinking = null;
  if (ui.analysis && !game.analysis) { ui.analysis = null; ui.reviewing = null; }
  drawPanels();
  await redraw();
  maybeEngine();
}

// A game the server no longer holds (it expired while the tab was idle,
// or the server restarted): start a new one, once however many requests
// about game `id` fail, and say so. The piece aimed before is let go: it
// was aimed at the old game.
let recovering = null;
async function recover(e, id) {
  if (e.status !== 404 || !/no such game/.test(e.message)) return false;
  if (ui.id !== id) return true;
  if (!recovering) {
    recovering = (async () => {
      sessionStorage.removeItem(KEY);
      ui.analysis = null;
      ui.reviewing = null;
      ui.column = null;
      await openGame();
      note('That game had expired on the server: a new game was started.', 'bad');
    })().finally(() => { recovering = null; });
  }
  await recovering;
  return true;
}

// Runs a request that changes the game, shows the result or the error.
async function act(f) {
  const id = ui.id;
  try { await show(await f()); return true; } catch (e) {
    if (!await recover(e, id)) note(e.message, 'bad');
    return false;
  }
}

function budget() {
  const b = {};
  const t = parseFloat($('time').value);
  const n = parseInt($('iterations').value, 10);
  if (t > 0) b.time_ms = Math.max(1, Math.round(t * 1000));
  if (n > 0) b.iterations = n;
  return b;
}

// Asks the engine for a move; whether it is busy comes as a state event.
async function engineMove(auto) {
  if (ui.asking) return;
  ui.asking = true;
  try {
    ui.thinking = null;
    await api.think(ui.id, budget());
  } catch (e) {
    // Another request got the engine first (a 409): its events follow.
    if (!(auto && e.status === 409)) note(e.message, 'bad');
  } finally {
    ui.asking = false;
  }
  maybeEngine();
}

// The engine plays when it is the turn of a side it holds, at the end of
// the game's line (not while earlier moves are reviewed).
function maybeEngine() {
  const g = ui.game;
  if (g && g.result === 'ongoing' && !g.busy && !ui.asking && g.ply === g.length
      && ui.players[g.to_move] === 'engine') engineMove(true);
}

async function place(body) {
  const t0 = performance.now();
  if (await act(() => api.place(ui.id, body))) {
    window.cabra.times.place = performance.now() - t0;
    note('', '');
  }
}

async function goto(ply) { ui.reviewing = null; await act(() => api.goto(ui.id, ply)); }

async function review(ply) {
  await act(() => api.goto(ui.id, ply - 1));
  ui.reviewing = ply;
  drawPanels();
  await redraw();
}

async function undo() {
  if (!await act(() => api.undo(ui.id))) return;
  // Against the engine, take back its reply and your placement together.
  const g = ui.game;
  const other = ui.players[3 - g.to_move];
  if (g.can_undo && ui.players[g.to_move] === 'engine' && other === 'human') await act(() => api.undo(ui.id));
}

async function loadFile(file) {
  const bytes = await file.arrayBuffer();
  try {
    await show(await api.load(ui.id, bytes));
    note(`Loaded ${file.name}.`, 'ok');
  } catch (e) {
    // The same words as `cabra check`.
    note(e.line ? `${file.name} is not a valid game: ${e.message}` : e.message, 'bad');
  }
}

function listen() {
  if (ui.events) ui.events.close();
  const es = new EventSource(api.eventsUrl(ui.id));
  ui.events = es;
  let drawn = 0;
  es.addEventListener('state', (e) => show(JSON.parse(e.data)));
  es.addEventListener('thinking', (e) => {
    if (!ui.game.busy) return;
    ui.thinking = JSON.parse(e.data);
    drawLive(ui);
    // The ghosts of the best line, at most every 200 ms.
    if (performance.now() - drawn > 200) { drawn = performance.now(); redraw(); }
  });
  es.addEventListener('moved', (e) => {
    const d = JSON.parse(e.data);
    ui.lastThought = `Played ${d.move}${d.interrupted ? ' (stopped)' : ''}: ${(100 * d.winrate).toFixed(1)}% for the mover after ${d.iterations.toLocaleString('en')} iterations in ${d.seconds.toFixed(1)} s.`;
    drawLive(ui);
  });
  es.addEventListener('analyzing', (e) => {
    const d = JSON.parse(e.data);
    $('an-status').textContent = `Analyzing: ${d.done} of ${d.total} placements…`;
  });
  es.addEventListener('analysis', (e) => {
    ui.analysis = JSON.parse(e.data);
    drawPanels();
  });
  es.addEventListener('failed', (e) => note(JSON.parse(e.data).error, 'bad'));
}

async function openGame() {
  const saved = sessionStorage.getItem(KEY);
  let game = null;
  if (saved) { try { game = await api.get(saved); } catch (_) { game = null; } }
  if (!game) game = await api.create();
  ui.id = game.id;
  sessionStorage.setItem(KEY, ui.id);
  listen();
  if (game.analysis) { try { ui.analysis = await api.analysis(ui.id); } catch (_) { ui.analysis = null; } }
  await show(game);
}

function turn(step) { ui.rotation = (ui.rotation + step + 4) % 4; redraw(); }
function cycle(step) {
  const n = ui.orientations[ui.piece].length;
  ui.orient[ui.piece] = (ui.orient[ui.piece] + step + n) % n;
  drawPanels();
  redraw();
}

function wire() {
  for (const id of ['iso', 'top']) {
    watchBoard($(id), (c) => { ui.column = c; redraw(); }, (c) => {
      if (!ui.game || ui.game.busy) { note('The engine is working: wait, or press Stop.', 'bad'); return; }
      if (ui.game.result !== 'ongoing') { note(`The game is over: ${ui.game.text}. Undo or start a new game.`, 'bad'); return; }
      if (!humanTurn()) { note(`It is the engine's turn (player ${ui.game.to_move}).`, 'bad'); return; }
      place({ aim: { piece: ui.piece, orientation: orientation(), x: c.x, y: c.y } });
    });
  }
  $('rot-left').onclick = () => turn(-1);
  $('rot-right').onclick = () => turn(1);
  document.querySelectorAll('.layer').forEach((b) => { b.onclick = () => { ui.layers = Number(b.dataset.layers); drawPanels(); redraw(); }; });
  $('orient-next').onclick = () => cycle(1);
  $('orient-prev').onclick = () => cycle(-1);
  $('typed').onsubmit = (e) => { e.preventDefault(); const v = $('typed-move').value.trim(); if (v) place({ move: v }).then(() => { if (!$('message').classList.contains('bad')) $('typed-move').value = ''; }); };
  $('new').onclick = async () => {
    ui.analysis = null;
    ui.reviewing = null;
    const rules = $('rules').value + ($('swap').checked ? ' swap' : '');
    if (await act(() => api.newGame(ui.id, rules))) note(`New game (${rules} rules).`, 'ok');
  };
  $('do-swap').onclick = () => place({ move: 'swap' });
  $('do-tm').onclick = () => place({ move: 'tm' });
  $('undo').onclick = undo;
  $('redo').onclick = () => act(() => api.redo(ui.id));
  $('go').onclick = () => engineMove(false);
  $('stop').onclick = async () => { try { await api.stop(ui.id); } catch (e) { note(e.message, 'bad'); } };
  for (const p of [1, 2]) {
    $(`p${p}`).value = ui.players[p];
    $(`p${p}`).onchange = () => {
      ui.players[p] = $(`p${p}`).value;
      sessionStorage.setItem(PLAYERS, JSON.stringify(ui.players));
      drawPanels();
      maybeEngine();
    };
  }
  $('analyze').onclick = async () => {
    const n = parseInt($('an-iterations').value, 10);
    try {
      await api.analyze(ui.id, n > 0 ? { iterations: n } : {});
      $('an-status').textContent = 'Analyzing…';
    } catch (e) { note(e.message, 'bad'); }
  };
  $('load').onchange = (e) => { const f = e.target.files[0]; if (f) loadFile(f); e.target.value = ''; };
  $('code-form').onsubmit = (e) => { e.preventDefault(); const c = $('code-in').value.trim(); if (c) act(() => api.code(ui.id, c)); };
  document.addEventListener('dragover', (e) => { e.preventDefault(); document.body.classList.add('dropping'); });
  document.addEventListener('dragleave', () => document.body.classList.remove('dropping'));
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    document.body.classList.remove('dropping');
    const f = e.dataTransfer.files[0];
    if (f) loadFile(f);
  });
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    if (k === 'r' || k === 'R') cycle(e.shiftKey ? -1 : 1);
    else if (['l', 't', 'z', 'o'].includes(k.toLowerCase())) {
      const p = k.toUpperCase();
      if (ui.game && ui.game.left[ui.game.to_move - 1][p] > 0) { ui.piece = p; drawPanels(); redraw(); }
    } else if (k === '[' || k === 'ArrowLeft') turn(-1);
    else if (k === ']' || k === 'ArrowRight') turn(1);
    else if (k === '1' || k === '2' || k === '3') { ui.layers = Number(k); drawPanels(); redraw(); }
    else if (k === 'u' || k === 'U') undo();
    else if (k === 'y' || k === 'Y') act(() => api.redo(ui.id));
    else return;
    e.preventDefault();
  });
}

async function main() {
  const t0 = performance.now();
  try {
    const shapes = await api.shapes();
    for (const p of shapes.pieces) ui.orientations[p.piece] = p.orientations.map((o) => o.name);
    wire();
    await openGame();
    window.cabra.times.ready = performance.now() - t0;
    window.cabra.times.loaded = performance.now();
    document.body.dataset.ready = 'true';
  } catch (e) {
    $('status').textContent = `Cannot reach the server: ${e.message}`;
  }
}

main();
