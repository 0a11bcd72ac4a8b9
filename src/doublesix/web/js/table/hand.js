// The bar below the felt: our name, round and totals, the note line, the hint button, and
// our hand (or, for a spectator, the backs of the seat below).
import { clear } from '../common.js';
import { playerName, sideOf } from '../describe.js';
import { el, lit, tattr, tx } from '../i18n.js';
import { parseTile, tileName, tileSVG } from '../tiles.js';
import { clickTile } from './controls.js';
import { ratingBadge } from './seat_ratings.js';
import { $, isTurn, movesFor, mySeat, seatNames, sortedHand, state } from './state.js';

export function renderMe() {
  const v = state.view;
  const name = $('my-name');
  clear(name);
  const meBox = $('me');
  meBox.classList.toggle('turn', isTurn(mySeat()));
  document.querySelector('.me .quick').classList.toggle('hidden', mySeat() === null);
  if (mySeat() === null) {
    // The seat below is someone else's: we are no player here.
    name.appendChild(el('span', 'table.watching', {}, 'badge watching'));
    name.appendChild(el('span', 'table.watching_below', { name: playerName(seatNames(), 0) }, 'below'));
    return;
  }
  const own = name.appendChild(lit('span', playerName(seatNames(), mySeat()), 'name'));
  own.title = own.textContent; // whole, when the bar has room only for "…"
  const rating = ratingBadge(mySeat());
  if (rating) name.appendChild(rating);
  name.appendChild(el('span', 'round.number', { round: v.round }, 'badge round-badge'));
  // On a phone the score pad is a drawer: the totals stay in sight here.
  const mine = sideOf(v.ruleset, mySeat());
  const totals = (v.scores || []).map((x, i) => (i === mine ? `[${x}]` : String(x))).join(' : ');
  const mini = lit('span', totals, 'mini-score');
  tattr(mini, 'title', 'table.scores');
  name.appendChild(mini);
  const timer = $('my-timer');
  timer.dataset.seat = String(mySeat());
}

export function renderHand() {
  const v = state.view;
  const hand = clear($('hand'));
  if (!v) return;
  hand.classList.toggle('my-turn', v.status === 'playing' && v.turn === mySeat() && !state.pending);
  if (mySeat() === null) {
    const count = (v.hand_counts || [])[0] || 0;
    for (let i = 0; i < count; i++) hand.appendChild(tileSVG('0-0', { orient: 'v', size: 22, back: true }));
    return;
  }
  const tiles = sortedHand();
  if (state.focus >= tiles.length) state.focus = Math.max(0, tiles.length - 1);
  const myTurn = v.status === 'playing' && v.turn === mySeat();
  tiles.forEach((tile, i) => {
    const name = tileName(...parseTile(tile));
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'hand-tile';
    b.dataset.tile = name;
    b.tabIndex = i === state.focus ? 0 : -1;
    const playable = movesFor(name).length > 0;
    if (myTurn && playable) b.classList.add('playable');
    if (myTurn && !playable) b.classList.add('dim');
    if (state.selected === name) b.classList.add('selected');
    if (state.drawn.has(name)) b.classList.add('drawn');
    if (state.hint && tileName(...parseTile(state.hint.tile)) === name) b.classList.add('hinted');
    b.setAttribute('aria-label', name);
    b.setAttribute('aria-pressed', String(state.selected === name));
    b.appendChild(tileSVG(name, { orient: 'v', size: 30 }));
    b.addEventListener('click', (ev) => {
      ev.preventDefault();
      state.focus = i;
      clickTile(name);
    });
    b.addEventListener('focus', () => {
      state.focus = i;
    });
    hand.appendChild(b);
  });
  if (!tiles.length) hand.appendChild(el('span', 'table.empty_hand', {}, 'muted'));
}

export function renderHint() {
  const v = state.view;
  const b = $('hint');
  const show = v && v.hints && v.status === 'playing' && v.turn === mySeat() && mySeat() !== null;
  b.classList.toggle('hidden', !show);
  const note = $('my-note');
  if (state.hint) {
    const h = state.hint;
    const key = h.end ? `hint.move_${h.end}` : 'hint.move_open';
    // Expected points of the round for our side (the review's unit too), to one decimal.
    const params = { tile: h.tile, win: Math.round((h.win ?? 0) * 100), points: Math.round(Number(h.points ?? 0) * 10) / 10 };
    tx(note, key, params);
  } else if (note.dataset.i18n && note.dataset.i18n.startsWith('hint.')) {
    clear(note);
    delete note.dataset.i18n;
  }
}
