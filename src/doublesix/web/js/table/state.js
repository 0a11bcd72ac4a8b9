// The table page's state: what the server last said, what this browser holds, and who sits where.
// Every module of the table reads it here; a module that changes it asks for a repaint.
import { roster } from '../describe.js';
import { parseTile, tileName } from '../tiles.js';

export const tableId = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');

export const state = {
  table: null,
  seat: null, // our seat number, or null when watching
  token: null,
  version: null,
  view: null,
  closed: null, // why the table closed before its game ('expired', 'cancelled'), once it has
  ratings: null, // {variant, seats: [rating or null]}: the players' ratings (seat_ratings.js)
  ws: null,
  selected: null, // tile name lifted from the hand
  keyEnd: undefined, // the end the keyboard has chosen for the lifted tile
  bending: null, // R39: the tile of the line picked to straighten the line at
  focus: 0, // keyboard position in the hand
  pending: false, // a play was sent and its update has not come back
  continued: false,
  hint: null,
  quick: true,
  retry: 500,
  bots: [],
  drawn: new Set(), // tiles we drew in the latest update
  backlog: [], // events of missed updates that came back after a reconnect (no view of their own)
};

export const $ = (id) => document.getElementById(id);

const painters = {};

/** Register the function that draws one part of the page ('hand', 'board', 'card', ...). */
export function painter(name, fn) {
  painters[name] = fn;
}

/** Draw these parts again (a module that changed the state asks; it need not know who draws). */
export function repaint(...parts) {
  if (!state.view) return;
  for (const part of parts) if (painters[part]) painters[part]();
}

/** The view's players with each bot seat's level (the view's `bots`): [{name, bot}]. */
export function seatNames() {
  const seats = (state.table && state.table.seats) || [];
  return roster(state.view.players, state.view.bots || seats.map((s) => (s.kind === 'bot' ? s.bot : null)));
}

export function seatCount() {
  const v = state.view;
  return (v && v.ruleset && v.ruleset.players) || (v && v.players && v.players.length) || 0;
}

export function mySeat() {
  return state.seat === null || state.seat === undefined ? null : state.seat;
}

/** Whether we hold a seat in a game not over: going elsewhere would walk out on it. */
export function seatedInPlay() {
  const v = state.view;
  return mySeat() !== null && !!v && (v.status === 'playing' || v.status === 'round_over');
}

/** Where a seat sits on screen: bottom (us), then clockwise left, top, right. */
export function positionOf(seat) {
  const n = seatCount();
  const base = mySeat() ?? 0;
  const rel = (seat - base + n) % n;
  if (rel === 0) return 'bottom';
  if (n === 2) return 'top';
  if (n === 3) return rel === 1 ? 'left' : 'right';
  return ['bottom', 'left', 'top', 'right'][rel];
}

export function isTurn(seat) {
  const v = state.view;
  return v.status === 'playing' && v.turn === seat;
}

export function myTurn() {
  return mySeat() !== null && isTurn(mySeat());
}

/** The tiles a seat shows face up after a round, or null. */
export function revealed(seat) {
  const v = state.view;
  return v.revealed && v.revealed[seat] ? v.revealed[seat] : null;
}

/** Our legal moves with `tile` (empty when it is not our turn or a play is on its way). */
export function movesFor(tile) {
  const v = state.view;
  if (!v || v.status !== 'playing' || v.turn !== mySeat() || state.pending) return [];
  return (v.legal || []).filter((m) => tileName(...parseTile(m.tile)) === tile);
}

export function sortedHand() {
  const hand = [...(state.view.hand || [])];
  return hand.sort((x, y) => {
    const a = parseTile(x);
    const b = parseTile(y);
    return a[0] - b[0] || a[1] - b[1];
  });
}
