// Drawing the felt: the seats around it, the line, the boneyard and the status line.
import { drawLine } from '../board.js';
import { clear } from '../common.js';
import { playerName, sideOf } from '../describe.js';
import { el, tx } from '../i18n.js';
import { parseTile, tileName, tileSVG } from '../tiles.js';
import { seatName } from './seat_menu.js';
import { ratingBadge } from './seat_ratings.js';
import { $, isTurn, movesFor, mySeat, myTurn, positionOf, revealed, seatCount, seatNames, state } from './state.js';

export function renderSeats() {
  for (const slot of document.querySelectorAll('.seat-slot')) clear(slot);
  const n = seatCount();
  for (let s = 0; s < n; s++) {
    const pos = positionOf(s);
    if (pos === 'bottom') continue; // us, or seat 0 for a spectator: the bar below the felt
    const slot = document.querySelector(`.seat-slot.pos-${pos}`);
    slot.appendChild(seatPanel(s, pos));
  }
  fitSideNames();
}

let fitting = false;

/** A bot's name on a plate beside the felt, "Bot 1 · greedy": on one line where the plate has
 * room, else "Bot 1" over "greedy", never "Bot 1 ·" over "greedy". Again when the window's
 * size changes. */
function fitSideNames() {
  if (!fitting) {
    fitting = true;
    window.addEventListener('resize', fitSideNames);
  }
  for (const name of document.querySelectorAll('.seat.pos-left .name, .seat.pos-right .name')) {
    const parts = name.querySelectorAll(':scope > .name-part');
    if (parts.length !== 2) continue;
    name.classList.remove('split');
    name.classList.toggle('split', parts[1].getBoundingClientRect().top > parts[0].getBoundingClientRect().top + 1);
  }
}

/** "Bot 1 · greedy" as its two halves, each kept whole, for fitSideNames. */
function halves(name) {
  const [first, second, ...more] = name.textContent.split(' · ');
  if (second === undefined || more.length) return name;
  const part = (text, cls) => {
    const span = document.createElement('span');
    span.className = cls;
    span.textContent = text;
    return span;
  };
  name.replaceChildren(part(first, 'name-part'), part(' · ', 'name-sep'), document.createElement('br'), part(second, 'name-part'));
  return name;
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
  const name = seatName(s, playerName(seatNames(), s));
  head.appendChild(pos === 'left' || pos === 'right' ? halves(name) : name);
  const rating = ratingBadge(s);
  if (rating) head.appendChild(rating);
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

/** The choices for the lifted tile: each end it fits, and on a hand-laid line each way
 * (straight on, left, right) that the move allows and the table has room for. */
function choices(lay) {
  if (!state.selected) return [];
  const manual = state.view.ruleset.line === 'manual';
  const [a, b] = parseTile(state.selected);
  const out = [];
  for (const m of movesFor(state.selected)) {
    const end = m.end ?? null;
    if (!manual || end === null) {
      out.push({ end });
      continue;
    }
    const ways = m.turns ? [null, 'left', 'right'].filter((turn) => lay.room(end, turn, a === b)) : [];
    // No room any way: straight on all the same (the move stays legal; the line then shrinks).
    for (const turn of ways.length ? ways : [null]) out.push({ end, turn, double: a === b });
  }
  return out;
}

/** Where we may straighten the line now (our turn, no tile lifted), with room for it. */
function bends(lay) {
  const v = state.view;
  const out = new Map();
  if (v.ruleset.line !== 'manual' || state.selected || state.pending || !myTurn()) return out;
  for (const s of v.straightenings || []) {
    if (!lay.roomToStraighten(s.at, s.turn)) continue;
    out.set(s.at, [...(out.get(s.at) || []), s.turn]);
  }
  return out;
}

/**
 * The line. `on.play(end, turn)` plays the lifted tile where its circle was clicked;
 * on a hand-laid line `on.bend(tile)` picks a tile to straighten the line at and
 * `on.straighten(tile, turn)` does it.
 */
export function renderBoard(fresh, on) {
  const v = state.view;
  const highlight = new Set();
  if (state.hint && !state.selected) highlight.add(state.hint.tile);
  drawLine($('board'), v.line || [], {
    events: v.events || [],
    manual: v.ruleset.line === 'manual',
    fresh,
    targets: choices,
    marks: v.status === 'playing' ? ['left', 'right'] : [],
    chosen: state.keyEnd,
    onTarget: on.play,
    bends,
    bending: state.bending,
    onBend: on.bend,
    onStraighten: on.straighten,
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
  else tx(line, 'status.turn_of', { name: playerName(seatNames(), v.turn) });
  line.classList.toggle('mine', v.status === 'playing' && v.turn === mySeat());
}
