// An opponent for every player: the engine's strength level (the
// server's list, each with its rating), the sides it plays, and hints
// (the full engine's suggestion for the side to move, drawn as a ghost).
//
// The level lives with the game on the server (a reload shows it) and
// with the tab (a game the page restores or starts gets it back).

const LEVEL = 'cabra-level';

export function makeCoach({ ui, api, $, note, redraw, show, budget, recover }) {
  // The hint shown: for this game at this ply.
  ui.hint = null;

  // Each rating with its 95% interval: a tooltip never shows on a phone.
  const label = (l) => `${l.top ? 'Full strength' : `Level ${l.number}`} · ${l.elo} ± ${l.interval} Elo`;
  const sides = () => [1, 2].filter((p) => ui.players[p] === 'engine');
  const saved = () => { const n = Number(sessionStorage.getItem(LEVEL)); return sessionStorage.getItem(LEVEL) === null ? null : n; };

  // The levels from GET /api/info (the random reference, level 0, is
  // left to scripts): the weakest first.
  function fill(info) {
    const select = $('level');
    select.textContent = '';
    ui.topLevel = Math.max(...info.levels.map((l) => l.number));
    for (const l of info.levels.filter((x) => x.number > 0)) {
      const o = document.createElement('option');
      o.value = String(l.number);
      o.textContent = label(l);
      o.title = l.description;
      select.append(o);
    }
    select.value = String(info.level);
    select.onchange = () => choose(Number(select.value));
  }

  async function choose(level) {
    sessionStorage.setItem(LEVEL, String(level));
    try { await show(await api.engine(ui.id, { level })); } catch (e) {
      if (!await recover(e, ui.id)) note(e.message, 'bad');
      draw();
    }
  }

  // A new game's engine, as this tab has it.
  function wanted() {
    const level = saved();
    return level === null ? { sides: sides() } : { sides: sides(), level };
  }

  // The game's engine as this tab has it: its level and sides (after a
  // game is opened, restored or replaced).
  async function apply(game) {
    const level = saved();
    const want = { sides: sides() };
    if (level !== null && level !== game.level && !game.busy) want.level = level;
    const same = JSON.stringify(game.engine_sides) === JSON.stringify(want.sides);
    if (same && want.level === undefined) return game;
    try { return await api.engine(game.id, want); } catch (_) { return game; }
  }

  // The players changed: the server learns the engine's sides (it
  // ponders a human's turn against it).
  function players() {
    if (!ui.id) return;
    api.engine(ui.id, { sides: sides() }).then(show).catch(() => { /* shown by the next state */ });
  }

  function draw() {
    const g = ui.game;
    if (!g) return;
    if (document.activeElement !== $('level')) $('level').value = String(g.level);
    // Once past the weakest levels, the line for newcomers has done its work.
    $('level-help').hidden = g.level === 1;
    for (const b of ['hint', 'sheet-hint']) $(b).disabled = !!g.busy || g.result !== 'ongoing';
    $('hints').textContent = g.hints ? `Hints this game: ${g.hints}.` : '';
    if (ui.hint && !current()) ui.hint = null;
  }

  const current = () => ui.hint && ui.game && ui.hint.id === ui.game.id && ui.hint.ply === ui.game.ply && ui.hint.length === ui.game.length;

  // The hint as a ghost: green, marked '?'.
  function ghosts() {
    return current() && !ui.game.busy && ui.hint.placement ? [{ move: ui.hint.move, kind: 'better', label: '?' }] : [];
  }

  async function hint() {
    const { budget: limits, error } = budget();
    if (error) { note(error, 'bad'); return; }
    const id = ui.id;
    try {
      const h = await api.hint(id, { ...limits, version: ui.game.version });
      const g = h.state;
      ui.hint = { id: g.id, ply: g.ply, length: g.length, move: h.move, placement: h.placement };
      const value = h.proven === 'win' ? 'a proven win' : h.proven === 'loss' ? 'a proven loss, but the best try'
        : h.proven === 'draw' ? 'a proven draw' : `${Math.round(100 * h.winrate)}% to win for player ${g.to_move}`;
      await show(g);
      const where = h.placement ? ' (the green piece marked ?; it is not played)' : '';
      note(`Hint: ${h.move}, ${value}${where}. Hints this game: ${h.hints}.`, 'ok');
      redraw();
    } catch (e) {
      if (!await recover(e, id)) note(e.status === 409 && /stop it first/.test(e.message) ? 'The engine is working: wait, or press Stop.' : e.message, 'bad');
    }
  }

  return { fill, wanted, apply, players, draw, ghosts, hint };
}
