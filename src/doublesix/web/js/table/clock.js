// The clocks: each turn timer (red in its last ten seconds, and ours ticks then), the clock
// for Continue, and "disconnected — 0:42" under a
// seat whose player has no connection (then "a bot plays"). Ticked four times a second.
import { clear } from '../common.js';
import { tx } from '../i18n.js';
import { clockAt, LOW } from './attention.js';
import { mySeat, state } from './state.js';

function mmss(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function tickAway() {
  const v = state.view;
  for (const node of document.querySelectorAll('.away[data-seat]')) {
    const seat = Number(node.dataset.seat);
    // A page reload or a slow first connection is no absence: shown after 3 seconds.
    const now = Date.now() / 1000;
    const away = v && v.status !== 'finished' ? (v.away || []).find((a) => a.seat === seat && (a.bot || now - a.since >= 3)) : null;
    node.classList.toggle('shown', Boolean(away));
    if (!away) {
      if (node.dataset.i18n) {
        clear(node);
        delete node.dataset.i18n;
      }
      continue;
    }
    if (away.bot) {
      const key = away.left ? 'seat.left_bot' : 'seat.away_bot';
      if (node.dataset.i18n !== key) tx(node, key);
      continue;
    }
    const time = mmss(Math.max(0, Math.ceil(away.until - now)));
    if (node.dataset.i18nArgs !== JSON.stringify({ time })) tx(node, 'seat.away', { time });
  }
}

export function tickTimers() {
  tickAway();
  const v = state.view;
  let mine = null;
  for (const node of document.querySelectorAll('.timer')) {
    const forContinue = node.dataset.seat === 'continue';
    const runs = forContinue
      ? v && v.timer && v.timer.seat === null && v.status === 'round_over'
      : v && v.timer && v.timer.seat === Number(node.dataset.seat) && v.status === 'playing';
    if (!runs) {
      node.textContent = '';
      node.classList.remove('running', 'low');
      continue;
    }
    const left = Math.max(0, Math.ceil(v.timer.deadline - Date.now() / 1000));
    node.dataset.literal = '';
    node.textContent = mmss(left);
    node.classList.add('running');
    node.classList.toggle('low', left <= LOW);
    if (!forContinue && Number(node.dataset.seat) === mySeat()) mine = left;
  }
  clockAt(mine);
}
