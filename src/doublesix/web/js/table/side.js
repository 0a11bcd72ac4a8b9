// The side of the table: the score pad with the rules link, and the round's log.
import { clear } from '../common.js';
import { drawGroupText, eventText, groupDraws, openingText, playerName, redealText, scorePad } from '../describe.js';
import { el, tx } from '../i18n.js';
import { $, seatNames, state } from './state.js';

export function renderPad() {
  const v = state.view;
  const pad = clear($('pad'));
  const current = v.round_result && v.status !== 'playing' ? v.round_result : null;
  pad.appendChild(scorePad(v.ruleset, seatNames(), v.results || [], v.scores || [], { current, eggs: v.eggs || 0 }));
  const rules = el('a', 'table.rules_link', { preset: { $t: `preset.${v.ruleset.preset}` } }, 'rules-inline');
  rules.href = `/rules/${document.documentElement.lang}/${v.ruleset.preset}`;
  rules.target = '_blank';
  pad.appendChild(rules);
}

export function renderLog() {
  const v = state.view;
  const log = clear($('log'));
  tx($('log-title'), 'round.number', { round: v.round });
  if (v.round === 1) {
    for (const d of v.lead_draws || []) log.appendChild(el('li', 'ev.lead_draw', { name: playerName(seatNames(), d.seat), tile: d.tile }, 'ev lead'));
  }
  for (const reason of v.redeal_reasons || v.redeals || []) {
    const [key, params] = redealText(reason, seatNames());
    log.appendChild(el('li', key, params, 'ev redeal'));
  }
  if (v.opening) {
    const [key, params] = openingText(v.opening, seatNames());
    log.appendChild(el('li', key, params, 'ev opening'));
  }
  let first = true;
  for (const g of groupDraws(v.events || [])) {
    const [key, params] = g.event.draw !== undefined ? drawGroupText(g, seatNames()) : eventText(g.event, seatNames(), v.ruleset, { first: first && g.event.play !== undefined });
    if (g.event.play !== undefined) first = false;
    log.appendChild(el('li', key, params, `ev ev-seat-${g.event.seat}`));
  }
  followLog(log);
}

let watched = false;

/** The newest line in sight, and no line cut across at the top: an empty block below the last
 * line gets the room that lifts a half-hidden top line out of sight (padding would grow the
 * list, a flex item). Again when the list's size changes (the pad grows, a phone's drawer opens). */
function followLog(log) {
  if (!watched && window.ResizeObserver) {
    watched = true;
    new ResizeObserver(() => followLog(log)).observe(log);
  }
  let room = log.querySelector(':scope > .log-room');
  if (!room) {
    room = document.createElement('li');
    room.className = 'log-room';
    room.setAttribute('aria-hidden', 'true');
  }
  log.appendChild(room); // the last
  room.style.height = '0';
  log.scrollTop = log.scrollHeight;
  if (log.scrollHeight <= log.clientHeight) return;
  const top = log.getBoundingClientRect().top + log.clientTop;
  const first = [...log.children].find((li) => li.getBoundingClientRect().top >= top - 0.5);
  const gap = first && first !== room ? first.getBoundingClientRect().top - top : 0;
  if (gap < 0.5) return;
  room.style.height = `${Math.floor(gap)}px`; // the scroll goes by whole pixels: never past the line
  log.scrollTop = log.scrollHeight;
}
