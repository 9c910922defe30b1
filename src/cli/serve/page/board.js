// The board: asks the server for the SVG views (3D and from above) with
// the aimed piece and the ghosts, and turns pointer gestures into columns.

import { api } from './api.js';

let seq = 0;       // the latest view asked for; older answers are dropped
let shown = 0;

// Draws the views for `ui` (rotation, layers, aim, ghosts); resolves with
// the server's word on the aimed piece (or null).
export async function drawBoard(ui) {
  const mine = ++seq;
  const body = { rotation: ui.rotation, layers: ui.layers, ghosts: ui.ghosts || [] };
  if (ui.aim) body.aim = ui.aim;
  const v = await api.view(ui.id, body);
  if (mine < shown) return null;
  shown = mine;
  const iso = document.getElementById('iso');
  const top = document.getElementById('top');
  iso.innerHTML = v.board;
  top.innerHTML = v.top;
  iso.dataset.ply = String(ui.ply);
  iso.dataset.rotation = String(ui.rotation);
  return v.aim;
}

// The column `(x, y)` under an event, from the `data-x`/`data-y` of the
// shape hit (a floor cell, a cube, a square of the top view).
function columnAt(target) {
  const el = target && target.closest ? target.closest('[data-x]') : null;
  if (!el) return null;
  return { x: Number(el.dataset.x), y: Number(el.dataset.y) };
}

// Calls `onAim(column or null)` as a mouse moves over `container` (a
// finger has no hover), and `onPick(column, touch)` on a click or a tap.
// A click is a press and release close together; the release is read
// from the point, as the views are redrawn under the pointer while it aims.
// The column each view last saw under the mouse.
const lastSeen = new Map();

// Forgets what the mouse pointed at: the next move aims again, even over
// the same column (after the position changed under a still pointer).
export function forgetPointer() { lastSeen.clear(); }

// Where the mouse last was over a view (null once it left): turning the
// view moves another column under a still pointer.
let lastPoint = null;

// Aims again at what is under a still mouse now (after the view turned).
export function reaim() {
  if (!lastPoint) return;
  const { container, x, y, onAim } = lastPoint;
  const c = columnAt(document.elementFromPoint(x, y));
  const key = c ? `${c.x},${c.y}` : null;
  if (key !== lastSeen.get(container)) { lastSeen.set(container, key); onAim(c); }
}

export function watchBoard(container, onAim, onPick) {
  let down = null;
  container.addEventListener('pointermove', (e) => {
    if (e.pointerType === 'touch') return;
    lastPoint = { container, x: e.clientX, y: e.clientY, onAim };
    const c = columnAt(document.elementFromPoint(e.clientX, e.clientY));
    const key = c ? `${c.x},${c.y}` : null;
    if (key !== lastSeen.get(container)) { lastSeen.set(container, key); onAim(c); }
  });
  container.addEventListener('pointerleave', (e) => {
    if (e.pointerType === 'touch') return;
    lastPoint = null;
    lastSeen.delete(container);
    onAim(null);
  });
  container.addEventListener('pointerdown', (e) => { down = { x: e.clientX, y: e.clientY }; });
  container.addEventListener('pointerup', (e) => {
    if (!down) return;
    const moved = Math.hypot(e.clientX - down.x, e.clientY - down.y);
    down = null;
    if (moved > 10) return;
    const c = columnAt(document.elementFromPoint(e.clientX, e.clientY));
    if (c) onPick(c, e.pointerType === 'touch');
  });
}
