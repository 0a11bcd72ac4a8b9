// What the others did, said briefly: a bubble at the seat ("Anna knocks"), our own note
// line for us, a toast for a move made by the clock or for an absent player.
import { clear, toast } from '../common.js';
import { drawGroupText, eventText, groupDraws, playerName } from '../describe.js';
import { tx } from '../i18n.js';
import { $, mySeat, seatNames, state } from './state.js';

function bubble(seat, key, params) {
  if (seat === mySeat()) {
    tx($('my-note'), key, params);
    return;
  }
  const b = document.querySelector(`.seat[data-seat="${seat}"] .bubble`);
  if (!b) return;
  tx(b, key, params);
  b.classList.remove('show');
  void b.offsetWidth;
  b.classList.add('show');
}

/** Forget what was said during the round (the round-end card tells the rest). */
export function clearNotes() {
  const note = $('my-note');
  clear(note);
  delete note.dataset.i18n;
  delete note.dataset.i18nArgs;
  for (const b of document.querySelectorAll('.seat .bubble')) {
    clear(b);
    b.classList.remove('show');
  }
}

export function announce(events) {
  const v = state.view;
  if (!events.length) return;
  const playing = v.status === 'playing';
  for (const g of groupDraws(events)) {
    const e = g.event;
    if (!playing && (e.pass !== undefined || e.draw !== undefined)) continue;
    if (e.timeout && e.continue !== undefined) {
      toast('ev.continue_timeout', { name: playerName(seatNames(), e.seat) }, 'event');
    } else if (e.timeout || (e.away && e.continue === undefined)) {
      // A player who left was told of once (`leave`): their bot's moves need no toast each.
      const left = e.away && (v.away || []).some((a) => a.seat === e.seat && a.left);
      const key = e.timeout ? 'ev.timeout' : left ? 'ev.left' : 'ev.away';
      const params = { name: playerName(seatNames(), e.seat) };
      bubble(e.seat, key, params);
      if (!left) toast(key, params, 'event');
    } else if (e.leave && e.seat !== mySeat()) {
      const params = { name: playerName(seatNames(), e.seat) };
      bubble(e.seat, 'ev.left', params);
      toast('ev.left', params, 'event');
    } else if (e.pass !== undefined) {
      const [key, params] = eventText(e, seatNames(), v.ruleset);
      bubble(e.seat, key, params);
    } else if (e.draw !== undefined) {
      const [key, params] = drawGroupText(g, seatNames());
      bubble(e.seat, key, params);
    }
  }
}
