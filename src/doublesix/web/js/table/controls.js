// Playing: lift a tile, play it at an end by a circle or at once, cancel, ask for a hint,
// and the same by keyboard (arrows pick, Enter lifts, left/right play, Escape cancels);
// on a hand-laid line (R39) the circles also say which way, and a click on a tile of the
// line offers to straighten the line there.
import { toast } from '../common.js';
import { tx } from '../i18n.js';
import { send } from './connection.js';
import { $, movesFor, mySeat, repaint, state } from './state.js';

export function cancel() {
  state.selected = null;
  state.keyEnd = undefined;
  state.bending = null;
  repaint('hand', 'board');
  focusHand();
}

export function clickTile(name) {
  const moves = movesFor(name);
  if (state.selected === name) {
    cancel();
    return;
  }
  if (!moves.length) {
    const b = document.querySelector(`.hand-tile[data-tile="${name}"]`);
    if (b && state.view.status === 'playing' && state.view.turn === mySeat()) {
      b.classList.remove('shake');
      void b.offsetWidth;
      b.classList.add('shake');
      tx($('my-note'), 'table.no_fit', { tile: name });
    }
    return;
  }
  // One click plays a tile that fits one end, unless the line is laid by hand and it may turn.
  if (moves.length === 1 && state.quick && !moves[0].turns) {
    sendPlay(name, moves[0].end ?? null);
    return;
  }
  state.selected = name;
  state.bending = null;
  state.keyEnd = moves.length === 1 ? moves[0].end ?? null : undefined;
  repaint('hand', 'board');
  focusHand();
}

/** Play the lifted tile at `end` (the circle that was clicked), turning `turn` by hand. */
export function playSelected(end, turn = null) {
  if (!state.selected) return;
  const move = movesFor(state.selected).find((m) => (m.end ?? null) === (end ?? null));
  if (!move) return;
  sendPlay(state.selected, move.end ?? null, turn);
}

function sendPlay(tile, end, turn = null) {
  const move = movesFor(tile).find((m) => (m.end ?? null) === end);
  if (!move) return;
  const frame = { type: 'play', tile: move.tile, end: move.end ?? null, version: state.version };
  if (turn) frame.turn = turn; // R39: a hand-laid line turns left or right; straight on says nothing
  if (!send(frame)) {
    toast('err.offline', {}, 'error');
    return;
  }
  state.pending = true;
  state.selected = null;
  state.keyEnd = undefined;
  state.bending = null;
  repaint('hand', 'board');
}

/** R39: pick the tile of the line to straighten at (again: put it back). */
export function bendAt(tile) {
  state.bending = state.bending === tile ? null : tile;
  repaint('board');
}

/** R39: rotate the tail of the line beyond `tile` a quarter `turn`; then we still play. */
export function straighten(tile, turn) {
  if (!send({ type: 'straighten', at: tile, turn, version: state.version })) {
    toast('err.offline', {}, 'error');
    return;
  }
  state.pending = true;
  state.bending = null;
  repaint('hand', 'board');
}

export function askHint() {
  if (send({ type: 'hint' })) tx($('my-note'), 'hint.thinking');
}

function focusHand() {
  const b = document.querySelectorAll('#hand .hand-tile')[state.focus];
  const active = document.activeElement;
  if (b && active !== b && (!active || active === document.body || active.closest('#hand'))) b.focus({ preventScroll: true });
}

export function onKey(ev) {
  const v = state.view;
  if (!v || mySeat() === null) return;
  const tag = (document.activeElement && document.activeElement.tagName) || '';
  if (['INPUT', 'SELECT', 'TEXTAREA'].includes(tag)) return;
  const tiles = document.querySelectorAll('#hand .hand-tile');
  if (ev.key === 'Escape') {
    if (state.selected || state.bending) cancel();
    return;
  }
  if (state.selected) {
    const moves = movesFor(state.selected);
    const want = ev.key === 'ArrowLeft' ? 'left' : ev.key === 'ArrowRight' ? 'right' : null;
    if (want) {
      ev.preventDefault();
      if (moves.some((m) => m.end === want)) playSelected(want);
      else {
        state.keyEnd = moves.length ? moves[0].end ?? null : undefined;
        repaint('board');
      }
      return;
    }
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      if (state.keyEnd !== undefined) playSelected(state.keyEnd);
      return;
    }
    return;
  }
  if (!tiles.length) return;
  if (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') {
    ev.preventDefault();
    state.focus = (state.focus + (ev.key === 'ArrowLeft' ? -1 : 1) + tiles.length) % tiles.length;
    tiles.forEach((b, i) => {
      b.tabIndex = i === state.focus ? 0 : -1;
    });
    tiles[state.focus].focus();
    return;
  }
  if (ev.key === 'Enter' || ev.key === ' ') {
    const active = document.activeElement;
    const onTile = active && active.classList.contains('hand-tile');
    if (onTile || !active || active === document.body) {
      ev.preventDefault();
      const name = onTile ? active.dataset.tile : tiles[state.focus].dataset.tile;
      const moves = movesFor(name);
      if (moves.length === 1 && !state.quick) {
        state.selected = name;
        state.keyEnd = moves[0].end ?? null;
        repaint('hand', 'board');
        focusHand();
      } else clickTile(name);
    }
  }
}
