// Aiming and placing a piece. With a mouse, pointing at a column shows
// where the selected piece would go (legal or why not) and a click places
// it. With a finger, which has no hover, a tap shows it (the preview), and
// a second tap on the same column, or the Place button, places it; the
// aimed piece can be turned (another orientation, another piece) or moved
// (a tap elsewhere) first. The view from above aims the same way, and no
// stack can hide a column there.

import { forgetPointer } from './board.js';

const $ = (id) => document.getElementById(id);

// `hooks`: { ui, humanTurn, redraw, place, held, note, say } from the page;
// `held(body)` says whether a placement waits to be asked again.
export function makeAim(hooks) {
  const { ui } = hooks;

  // The aim the board shows: the column under the mouse, or tapped.
  function aimed() {
    if (!ui.column || !hooks.humanTurn()) return null;
    return { piece: ui.piece, orientation: ui.orientations[ui.piece][ui.orient[ui.piece]], x: ui.column.x, y: ui.column.y };
  }

  // The Place button, for a piece aimed by a tap.
  function drawPlace(legal) {
    const b = $('place');
    b.hidden = !ui.armed || !hooks.humanTurn();
    b.disabled = !legal;
  }

  // What the aimed piece would do, as the server said (`a`).
  function hint(a) {
    if (!a) return;
    if (ui.armed) {
      ui.armedLegal = a.legal;
      drawPlace(a.legal);
      hooks.say(a.legal ? `${a.move}: legal — tap again or press Place` : `Illegal: ${a.reason}`, a.legal ? 'ok' : 'bad');
    } else if (!ui.noteKeep) {
      // Pointing is passive: it does not cover words the page keeps up
      // (a lost game replaced) until the position changes.
      hooks.say(a.legal ? `${a.move}: legal — click to place` : `Illegal: ${a.reason}`, a.legal ? 'ok' : 'bad');
    }
  }

  // Lets go of the aim (the game changed under it, or it is not the
  // player's turn any more).
  function drop() {
    forgetPointer();
    ui.column = null;
    ui.armed = false;
    ui.armedLegal = false;
    drawPlace(false);
  }

  function placeAimed() {
    const a = aimed();
    if (!a) return;
    const [column, armed, legal] = [ui.column, ui.armed, ui.armedLegal];
    drop();
    if (hooks.held({ aim: a })) {
      // To be asked again (it would drop later moves): a tapped aim
      // stays, so that Place asks again.
      if (armed) {
        ui.column = column;
        ui.armed = true;
        ui.armedLegal = legal;
        drawPlace(legal);
      }
      return;
    }
    hooks.place({ aim: a }, true);
  }

  // A click or a tap on column `c` of either view.
  function pick(c, touch) {
    if (!ui.game || ui.game.busy) { hooks.note('The engine is working: wait, or press Stop.', 'bad'); return; }
    if (ui.game.result !== 'ongoing') { hooks.note(`The game is over: ${ui.game.text}. Undo or start a new game.`, 'bad'); return; }
    if (!hooks.humanTurn()) { hooks.note(`It is the engine's turn (player ${ui.game.to_move}).`, 'bad'); return; }
    const same = ui.column && ui.column.x === c.x && ui.column.y === c.y;
    if (touch && !(ui.armed && same)) {
      // The first tap: a preview, to be confirmed.
      ui.column = c;
      ui.armed = true;
      ui.armedLegal = false;
      hooks.redraw();
      return;
    }
    ui.column = c;
    placeAimed();
  }

  // The mouse over column `c` (or off the board: null).
  function hover(c) {
    if (ui.armed) return;
    ui.column = c;
    hooks.redraw();
  }

  $('place').onclick = () => { if (ui.armed && ui.armedLegal) placeAimed(); };
  return { aimed, hint, drop, pick, hover, drawPlace };
}
