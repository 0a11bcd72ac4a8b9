// Drawing the felt: the seats around it, the line, the boneyard and the status line.
import { drawLine } from '../board.js';
import { clear } from '../common.js';
import { playerName, sideOf } from '../describe.js';
import { el, lit, tx } from '../i18n.js';
import { parseTile, tileName, tileSVG } from '../tiles.js';
import { $, isTurn, movesFor, mySeat, positionOf, revealed, seatCount, state } from './state.js';

export function renderSeats() {
  for (const slot of document.querySelectorAll('.seat-slot')) clear(slot);
  const n = seatCount();
  for (let s = 0; s < n; s++) {
    const pos = positionOf(s);
    if (pos === 'bottom') continue; // us, or seat 0 for a spectator: the bar below the felt
    const slot = document.querySelector(`.seat-slot.pos-${pos}`);
    slot.appendChild(seatPanel(s, pos));
  }
}

function seatPanel(s, pos) {
  const v = state.view;
  const panel = document.createElement('div');
  panel.className = `seat pos-${pos}`;
  panel.dataset.seat = String(s);
  if (isTurn(s)) panel.classList.add('turn');
  if (v.ruleset.pairs) panel.classList.add(`side-${sideOf(v.ruleset, s)}`);
  if (v.ruleset.pairs && mySeat() !== null && sideOf(v.ruleset, s) === sideOf(v.ruleset, mySeat())) panel.classList.add('partner');
  const head = document.createElement('div');
  head.className = 'seat-head';
  head.appendChild(lit('span', playerName(v.players, s), 'name'));
  if (v.ruleset.pairs && mySeat() !== null && s !== mySeat() && sideOf(v.ruleset, s) === sideOf(v.ruleset, mySeat())) {
    head.appendChild(el('span', 'seat.partner', {}, 'badge'));
  }
  const timer = document.createElement('span');
  timer.className = 'timer';
  timer.dataset.seat = String(s);
  head.appendChild(timer);
  panel.appendChild(head);
  const away = document.createElement('div');
  away.className = 'away';
  away.dataset.seat = String(s);
  panel.appendChild(away);
  const tiles = document.createElement('div');
  tiles.className = 'seat-tiles';
  const shown = revealed(s);
  if (shown) {
    for (const tile of shown) tiles.appendChild(tileSVG(tile, { orient: 'v', size: 15, cls: 'shown' }));
  } else {
    const count = (v.hand_counts || [])[s] || 0;
    for (let i = 0; i < count; i++) tiles.appendChild(tileSVG('0-0', { orient: 'v', size: 11, back: true }));
  }
  panel.appendChild(tiles);
  const count = (v.hand_counts || [])[s] || 0;
  panel.appendChild(el('div', 'seat.count', { count }, 'seat-count'));
  const bubble = document.createElement('div');
  bubble.className = 'bubble';
  panel.appendChild(bubble);
  return panel;
}

/** Where a tile laid by `seat` flies in from: the side of the felt the seat sits at. */
function directionOf(seat) {
  const box = $('board').getBoundingClientRect();
  const pos = positionOf(seat);
  const far = { bottom: [0, 0.6], top: [0, -0.6], left: [-0.6, 0], right: [0.6, 0] }[pos];
  return { dx: far[0] * box.width, dy: far[1] * box.height };
}

/** The tiles `events` added to the line since `prev`, with where each flies in from. */
export function freshTiles(prev, events) {
  const fresh = new Map();
  if (!prev) return fresh;
  const before = new Set((prev.line || []).map(([a, b]) => tileName(a, b)));
  let k = 0;
  for (const e of events) {
    if (e.play === undefined) continue;
    const name = tileName(...parseTile(e.play));
    if (before.has(name)) continue;
    const d = directionOf(e.seat);
    fresh.set(name, { dx: d.dx, dy: d.dy, delay: e.seat === mySeat() ? 0 : 180 * k++ });
  }
  return fresh;
}

function legalTargets() {
  if (!state.selected) return [];
  return movesFor(state.selected).map((m) => m.end ?? null);
}

/** The line; `onTarget(end)` plays the lifted tile at the end whose circle was clicked. */
export function renderBoard(fresh, onTarget) {
  const v = state.view;
  const highlight = new Set();
  if (state.hint && !state.selected) highlight.add(state.hint.tile);
  drawLine($('board'), v.line || [], {
    events: v.events || [],
    fresh,
    targets: legalTargets(),
    marks: v.status === 'playing' ? ['left', 'right'] : [],
    chosen: state.keyEnd,
    onTarget,
    highlight,
  });
}

export function renderBoneyard() {
  const v = state.view;
  const box = clear($('boneyard'));
  if (!v.ruleset.boneyard) {
    box.classList.add('hidden');
    return;
  }
  box.classList.remove('hidden');
  const stack = document.createElement('div');
  stack.className = 'stack';
  for (let i = 0; i < Math.min(3, v.boneyard || 0); i++) stack.appendChild(tileSVG('0-0', { orient: 'h', size: 12, back: true }));
  box.appendChild(stack);
  box.appendChild(el('span', 'table.boneyard', { count: v.boneyard || 0 }, 'boneyard-count'));
}

export function renderStatus() {
  const v = state.view;
  const line = $('status');
  if (v.status === 'finished') tx(line, 'status.finished');
  else if (v.status === 'round_over') tx(line, 'status.round_over', { round: v.round });
  else if (v.status === 'waiting') tx(line, 'table.waiting');
  else if (v.turn === mySeat()) tx(line, 'status.your_turn');
  else tx(line, 'status.turn_of', { name: playerName(v.players, v.turn) });
  line.classList.toggle('mine', v.status === 'playing' && v.turn === mySeat());
}
