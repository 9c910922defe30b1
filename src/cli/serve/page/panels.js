// The panels around the board: pieces, orientations, moves, result,
// position code, live thinking and analysis. Each draws from the state.

const $ = (id) => document.getElementById(id);

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else e.setAttribute(k, v);
  }
  if (text !== undefined) e.textContent = text;
  return e;
}

const PIECES = ['L', 'T', 'Z', 'O'];

// `n` `noun`s, `n` written as in English ("1 iteration", "2,500 moves").
export const plural = (n, noun) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;

// The tray: each player's pieces left; the side to move's are buttons.
export function drawTray(ui, onPiece) {
  const g = ui.game;
  const tray = $('tray');
  tray.replaceChildren();
  for (const p of [1, 2]) {
    const side = el('div', { class: 'side' + (g.to_move === p ? '' : ' waiting') });
    const kind = ui.players[p] === 'engine' ? 'engine' : 'human';
    // One line whatever it says: a line that wrapped while the engine
    // thinks moved every control below it at each move.
    const turn = g.to_move !== p ? '' : g.busy === 'thinking' ? ', thinking' : ' to move';
    side.append(el('div', { class: `who p${p}` }, `Player ${p} (${kind})${turn}`));
    const row = el('div', { class: 'pieces' });
    for (const k of PIECES) {
      const n = g.left[p - 1][k];
      const b = el('button', { class: 'piece', 'data-player': p, 'data-piece': k }, `${k} ×${n}`);
      if (n === 0) b.classList.add('empty');
      if (g.to_move === p && ui.piece === k) b.classList.add('on');
      b.disabled = g.to_move !== p || n === 0;
      b.addEventListener('click', () => onPiece(k));
      row.append(b);
    }
    side.append(row);
    tray.append(side);
  }
}

// The orientations of the selected piece: each a picture of its cubes
// (drawn by the server as the board draws them) and its name, in the
// colours of the side to move.
export function drawOrientations(ui, onPick) {
  const names = ui.orientations[ui.piece];
  const pictures = ui.pictures[ui.piece];
  $('orient-name').textContent = `${ui.piece} ${names[ui.orient[ui.piece]]}`;
  const list = $('orient-list');
  list.className = ui.game && ui.game.to_move === 2 ? 'p2' : 'p1';
  list.replaceChildren();
  // One Tab stop for the list, the orientation chosen; the arrows go
  // through it (a listbox's keys).
  list.onkeydown = (e) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (!step) return;
    e.preventDefault();
    e.stopPropagation();
    onPick((ui.orient[ui.piece] + step + names.length) % names.length);
    const on = list.querySelector('.on');
    if (on) on.focus();
  };
  names.forEach((n, i) => {
    const b = el('button', { role: 'option', 'data-orientation': n, title: `${ui.piece} ${n}`, tabindex: i === ui.orient[ui.piece] ? '0' : '-1' });
    b.innerHTML = pictures[i];
    b.append(el('span', {}, n));
    if (i === ui.orient[ui.piece]) { b.classList.add('on'); b.setAttribute('aria-selected', 'true'); }
    b.addEventListener('click', () => onPick(i));
    list.append(b);
  });
  const on = list.querySelector('.on');
  if (on) keepInView(list, on);
}

// Scrolls `box` (a list with its own scroll bar) so that `item` shows,
// and nothing else: scrollIntoView would scroll the page too, moving the
// board away on a phone after every placement.
function keepInView(box, item) {
  const b = box.getBoundingClientRect(), r = item.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
  if (r.left < b.left) box.scrollLeft -= b.left - r.left;
  else if (r.right > b.right) box.scrollLeft += r.right - b.right;
}

// How a finished game was decided, for the banner.
function decided(g) {
  if (g.by === 'bridge') return 'A path of the winner\'s colour joins two opposite edges (outlined in gold).';
  if (g.count === 'edge') return `Nobody built a bridge: more edge columns seen from above wins (${g.edge[0]} to ${g.edge[1]}).`;
  return `Nobody built a bridge: fewer pieces on the bottom perimeter wins (${g.perimeter[0]} to ${g.perimeter[1]}).`;
}

// The banner under the board at the end of a game (never over it: the
// winning bridge stays in view): who won and how, with a new game and an
// analysis at hand. Hidden while earlier moves are reviewed, or once
// closed for this game.
export function drawBanner(ui) {
  const g = ui.game;
  // Nothing to place once the game is over.
  document.getElementById('orientation').hidden = g.result !== 'ongoing';
  document.body.classList.toggle('game-over', g.result !== 'ongoing');
  const over = g.result !== 'ongoing' && g.ply === g.length && ui.bannerClosed !== `${g.id}:${g.length}`;
  $('banner').hidden = !over;
  if (!over) return;
  const title = $('banner-title');
  title.textContent = g.text.charAt(0).toUpperCase() + g.text.slice(1);
  title.className = g.result === 'p1' ? 'p1' : g.result === 'p2' ? 'p2' : '';
  $('banner-how').textContent = decided(g);
  $('banner-analyze').disabled = !!g.busy || g.length === 0;
}

// The plies of the placements that a time machine played up to the
// shown move took back: the last two on the board when it was called
// (the rules make them the caller's and then the opponent's).
function takenBack(g) {
  const taken = new Set();
  const onBoard = [];
  for (const m of g.line) {
    if (m.ply > g.ply) break;
    if (m.move === 'tm') for (const p of onBoard.splice(-2)) taken.add(p);
    else if (m.move !== 'swap') onBoard.push(m.ply);
  }
  return taken;
}

// The move list (the whole line: moves undone are dimmed, placements a
// time machine took back struck through), the result,
// the bottom-perimeter counts and the position code.
export function drawGame(ui, onGoto) {
  const g = ui.game;
  const list = $('moves');
  list.replaceChildren();
  const marks = new Map();
  if (ui.analysis) for (const m of ui.analysis.moves) if (m.mark) marks.set(m.ply, m.mark.replace('_', ' '));
  const taken = takenBack(g);
  for (const m of g.line) {
    const back = taken.has(m.ply);
    const title = back ? `${m.move}: taken back by the time machine` : m.cells || m.move;
    const li = el('li', { class: `p${m.player}`, 'data-ply': m.ply, title }, m.move);
    if (m.ply === g.ply) li.classList.add('current');
    if (m.ply > g.ply) li.classList.add('future');
    if (back) li.classList.add('taken');
    if (marks.has(m.ply)) li.append(el('span', { class: 'mark' }, marks.get(m.ply)));
    // The move shown is where the game is: a click on it changes nothing.
    li.addEventListener('click', () => { if (m.ply !== g.ply) onGoto(m.ply); });
    list.append(li);
  }
  const cur = list.querySelector('.current');
  if (cur) keepInView(list, cur);
  $('result').textContent = g.result === 'ongoing' ? `Move ${g.ply + 1}: player ${g.to_move} to move` : g.text.charAt(0).toUpperCase() + g.text.slice(1);
  const counts = g.count === 'edge'
    ? `Edge columns: player 1 ${g.edge[0]}, player 2 ${g.edge[1]} (more wins if nobody bridges)`
    : `Bottom-perimeter pieces: player 1 ${g.perimeter[0]}, player 2 ${g.perimeter[1]} (fewer wins if nobody bridges)`;
  const extras = [];
  if (g.swapped) extras.push('player 2 swapped');
  g.time_machine_used.forEach((u, i) => { if (u) extras.push(`player ${i + 1} used the time machine`); });
  $('perimeter').textContent = `Rules: ${g.rules}. ${counts}${extras.length ? '; ' + extras.join(', ') : ''}.`;
  for (const [id, m] of [['do-swap', 'swap'], ['do-tm', 'tm']]) {
    const b = $(id);
    b.hidden = !g.special.includes(m);
    b.disabled = !!g.busy;
  }
  $('code').value = g.code;
  $('undo').disabled = !g.can_undo || !!g.busy;
  $('redo').disabled = !g.can_redo || !!g.busy;
}

// The live view of a search: win rate for player 1 as a bar, the numbers,
// the best line; between searches, the last word about this game (or,
// once it is over, its result), never another game's.
export function drawLive(ui) {
  const t = ui.thinking;
  const g = ui.game;
  const busy = g.busy;
  drawSheet(ui);
  $('stop').disabled = !busy;
  $('go').disabled = !!busy || g.result !== 'ongoing';
  $('analyze').disabled = !!busy || g.line.length === 0;
  const bar = (p1) => { $('winbar').style.width = `${(100 * p1).toFixed(1)}%`; };
  if (!t) {
    // A finished game's result, else the engine's last word (its line
    // stays beside it), else even.
    if (g.result !== 'ongoing') bar(g.result === 'p1' ? 1 : g.result === 'p2' ? 0 : 0.5);
    else bar(ui.lastBar ?? 0.5);
    $('status-live').textContent = '';
    if (busy === 'waiting') $('live-text').textContent = 'Waiting for a free search thread (other games hold them)…';
    else if (busy === 'analyzing') $('live-text').textContent = 'Analyzing the game: see the Analysis panel.';
    else if (busy === 'thinking') $('live-text').textContent = `Thinking for player ${g.to_move}…`;
    else if (busy === 'hinting') $('live-text').textContent = `Looking for a hint for player ${g.to_move} (the full engine)…`;
    else $('live-text').textContent = ui.lastThought || 'Idle.';
    return;
  }
  const p1 = t.player === 1 ? t.winrate : 1 - t.winrate;
  ui.lastBar = p1;
  bar(p1);
  $('live-text').textContent =
    `Thinking for player ${t.player}: ${(100 * t.winrate).toFixed(1)}% to win, ` +
    `${plural(t.iterations, 'iteration')}, ${(t.elapsed_ms / 1000).toFixed(1)} s`;
  $('live-line').textContent = t.pv.length ? `Best line: ${t.pv.join(', ')}` : '';
  // In the header too, where a desktop screen always shows it.
  $('status-live').textContent = t.pv.length ? `${t.pv[0]}, ${(100 * t.winrate).toFixed(0)}% to win` : '';
}

// On a phone, a line at the top of the pieces' sheet: what the engine
// does or said last, with Stop and Undo at hand beside the board.
function drawSheet(ui) {
  const g = ui.game;
  const t = ui.thinking;
  let text = '';
  if (g.busy === 'thinking') {
    text = t ? `Engine: ${t.pv[0] || '…'} ${(100 * t.winrate).toFixed(0)}% for player ${t.player}` : 'Engine thinking…';
  } else if (g.busy) {
    text = { analyzing: 'Analyzing…', hinting: 'Looking for a hint…' }[g.busy] || 'Waiting for a search thread…';
  } else if (ui.lastThought) {
    text = ui.lastThought.replace(/ after .*$/, '.');
  }
  $('sheet-text').textContent = text;
  $('sheet-stop').hidden = !g.busy;
  $('sheet-undo').disabled = !g.can_undo || !!g.busy;
}

// The analysis: progress, the graph, the summary and the selected move.
export function drawAnalysis(ui, onPoint) {
  const a = ui.analysis;
  const plot = $('plot');
  // While the engine analyzes, its progress; then what the analysis holds.
  const p = ui.anProgress;
  const working = ui.game.busy === 'analyzing';
  if (!working) ui.anProgress = null;
  // Counted as `cabra analyze` counts: placements under the default
  // rules, moves under the variants (a swap or a time machine is one).
  const noun = ui.game.rules === 'caminos' ? 'placement' : 'move';
  const count = (n) => plural(n, noun);
  $('an-status').textContent = working
    ? (p ? `Analyzing: ${p.done} of ${count(p.total)}…` : 'Analyzing…')
    : !a ? '' : a.complete
      ? `Analyzed ${count(a.moves.length)}.`
      : `Stopped: ${a.moves.length} of ${count(a.placements)} analyzed.`;
  // Finished: it reads as done, not as one more line of the panel.
  $('an-status').classList.toggle('done', !working && !!a);
  if (!a) {
    plot.replaceChildren();
    $('an-list').replaceChildren();
    $('an-summary').replaceChildren();
    $('an-detail').textContent = '';
    return;
  }
  plot.innerHTML = a.plot;
  plot.querySelectorAll('[data-ply]').forEach((pt) => {
    pt.addEventListener('click', () => onPoint(Number(pt.dataset.ply)));
  });
  // The placements marked, as a list (readable at any width, and a larger
  // target than the graph's points on a phone).
  const list = $('an-list');
  list.replaceChildren();
  for (const m of a.moves.filter((x) => x.mark)) {
    const li = el('li', { class: `p${m.player}`, 'data-ply': m.ply });
    li.append(el('span', { class: 'who' }, `${m.ply}. player ${m.player} `), `${m.played}: ${m.mark.replace('_', ' ')}, ${(100 * m.loss).toFixed(0)} points`);
    if (m.ply === ui.reviewing) li.classList.add('on');
    li.addEventListener('click', () => onPoint(m.ply));
    list.append(li);
  }
  const t = $('an-summary');
  t.replaceChildren();
  const head = el('tr');
  for (const h of ['', 'inacc.', 'mistakes', 'blunders', 'missed wins', 'avg loss']) head.append(el('th', {}, h));
  t.append(head);
  for (const s of a.summary) {
    const r = el('tr');
    for (const v of [`player ${s.player}`, s.inaccuracies, s.mistakes, s.blunders, s.missed_wins, (100 * s.average_loss).toFixed(1)]) r.append(el('td', {}, String(v)));
    t.append(r);
  }
  const words = ui.reviewing ? reviewWords(a, ui.reviewing) : '';
  $('an-detail').textContent = words ||
    `${touch() ? 'Tap' : 'Click'} a point of the graph, or a placement of the list, to review it on the board.`;
}

// Whether the page is used by a finger (no mouse to point with).
const touch = () => matchMedia('(hover: none)').matches;

// What the analysis `a` says of placement `ply` (its ghosts on the board).
export function reviewWords(a, ply) {
  const m = a && a.moves.find((x) => x.ply === ply);
  if (!m) return '';
  const mark = m.mark ? ` — ${m.mark.replace('_', ' ')}, ${(100 * m.loss).toFixed(1)} points lost` : '';
  const better = m.best && m.best !== m.played ? ` The engine preferred ${m.best} (green ghost).` : ' It was the engine\'s choice too.';
  return `Placement ${m.ply} by player ${m.player}: ${m.played} (ghost 1)${mark}. ` +
    `Win rate for the mover ${(100 * m.winrate_before).toFixed(0)}% → ${(100 * m.winrate_after).toFixed(0)}%.${better}`;
}

// A message under the board: good news, bad news or nothing.
export function say(text, kind) {
  const m = $('message');
  m.textContent = text || '';
  m.className = kind || '';
}
