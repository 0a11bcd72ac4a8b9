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
  log.scrollTop = log.scrollHeight;
}
