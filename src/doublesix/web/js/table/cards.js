// The cards over the felt after a round and after the game: how the round was scored,
// the score pad, and "Continue" (with the table's clock) or "Play again" (at a tournament's
// table: "Back to the tournament") and the way to the record.
import { clear } from '../common.js';
import { gameEndText, playerName, roundExplanation, scorePad } from '../describe.js';
import { el } from '../i18n.js';
import { send } from './connection.js';
import { rematchActions } from './rematch.js';
import { $, mySeat, repaint, seatCount, seatNames, state, tableId } from './state.js';
import { tournamentActions, tournamentOf } from './tournament.js';

let forwarding = false;

export function renderCard() {
  const v = state.view;
  const box = clear($('overlay'));
  if (!forwarding) {
    // The card lies over the felt (and the bar below it): a click on it does what one on the
    // felt does, which closes a phone's drawer (web/js/table.js).
    forwarding = true;
    box.addEventListener('click', () => $('felt').dispatchEvent(new MouseEvent('click')));
  }
  if (v.status !== 'round_over' && v.status !== 'finished') {
    box.classList.add('hidden');
    return;
  }
  box.classList.remove('hidden');
  const card = document.createElement('div');
  card.className = `card result-card ${v.status}`;
  card.id = v.status === 'finished' ? 'game-end' : 'round-end';
  const finished = v.status === 'finished' || (v.game_result && v.game_result.finished);
  // The head and the buttons stay in sight; the body between them scrolls when the card is long.
  const head = document.createElement('div');
  head.className = 'card-head';
  if (finished) {
    head.appendChild(el('p', 'end.title', {}, 'kicker'));
    head.appendChild(gameEndText(v.ruleset, seatNames(), v.game_result));
  } else {
    head.appendChild(el('h2', 'round.over', { round: v.round }));
  }
  card.appendChild(head);
  const body = document.createElement('div');
  body.className = 'card-body';
  if (v.round_result) body.appendChild(roundExplanation(v.ruleset, seatNames(), v.round_result, v.revealed));
  const scores = document.createElement('div');
  scores.className = 'result-scores';
  scores.appendChild(scorePad(v.ruleset, seatNames(), v.results || [], v.scores || [], { current: v.round_result, eggs: v.eggs || 0 }));
  body.appendChild(scores);
  card.appendChild(body);
  const actions = card.appendChild(finished ? gameEndActions() : roundEndActions());
  box.appendChild(card);
  // A keyboard player's focus, lost with the hand's last tile or the card drawn again, goes to
  // the card's first button ("Continue", "Play again"), not back to the page's top.
  const active = document.activeElement;
  const first = actions.querySelector('button:not(:disabled), a[href]');
  if (first && (!active || active === document.body)) first.focus({ preventScroll: true });
}

function gameEndActions() {
  const actions = document.createElement('div');
  actions.className = 'actions';
  if (tournamentOf()) tournamentActions(actions); // no rematch: the tournament pairs again
  else rematchActions(actions);
  const rec = el('a', 'end.record', {}, 'button');
  rec.href = `/game/${encodeURIComponent(tableId)}`;
  rec.id = 'to-record';
  actions.appendChild(rec);
  const lobby = el('a', 'nav.lobby', {}, 'button');
  lobby.href = '/';
  actions.appendChild(lobby);
  return actions;
}

function roundEndActions() {
  const v = state.view;
  const actions = document.createElement('div');
  actions.className = 'actions';
  if (mySeat() === null) return actions;
  const ready = (v.continue || []).includes(mySeat()) || state.continued;
  const b = el('button', ready ? 'round.waiting_others' : 'round.continue', {}, 'primary');
  b.type = 'button';
  b.id = 'continue';
  b.disabled = ready;
  b.addEventListener('click', () => {
    if (send({ type: 'continue' })) {
      state.continued = true;
      repaint('card');
    }
  });
  actions.appendChild(b);
  const waiting = [];
  for (let s = 0; s < seatCount(); s++) if (!(v.continue || []).includes(s) && s !== mySeat()) waiting.push(playerName(seatNames(), s));
  if (ready && waiting.length) actions.appendChild(el('span', 'round.waiting_for', { names: waiting.join(', ') }, 'muted'));
  if (v.timer) {
    // A timer table's clock for Continue: then the server presses it for whoever has not.
    const clock = document.createElement('span');
    clock.className = 'muted continue-clock';
    const timer = document.createElement('span');
    timer.className = 'timer';
    timer.id = 'continue-timer';
    timer.dataset.seat = 'continue';
    clock.append(el('span', 'round.auto_continue'), ' ', timer);
    actions.appendChild(clock);
  }
  return actions;
}
