// "Play again" on the game-over card (docs/protocol.md, "Rematch"): each player agrees, the
// card shows who has (bots always do); once every player has, the server opens the new
// table, and each player's browser takes its seat there (the join answers a player seated
// already with that seat and its token) and goes to it. A spectator may follow. A player
// may say "No thanks" instead: the card tells the others, who need not wait (and a player
// may still agree after all).
import { keepSeat, post } from '../api.js';
import { toast } from '../common.js';
import { playerName } from '../describe.js';
import { el, tx } from '../i18n.js';
import { send } from './connection.js';
import { mySeat, repaint, seatCount, seatNames, state } from './state.js';

let going = null; // the new table we are on our way to

/** Take our seat at the rematch's table `id`, then open it. */
export async function goToRematch(id) {
  if (going === id) return;
  going = id;
  try {
    const seat = await post(`/api/tables/${encodeURIComponent(id)}/join`, {});
    keepSeat(id, seat.seat, seat.token);
    location.assign(`/table/${encodeURIComponent(id)}`);
  } catch (e) {
    going = null;
    toast('err.server', { message: e.message }, 'error');
    repaint('card');
  }
}

/** An update said the rematch's table is open: a player goes there at once. */
export function followRematch(events) {
  if (mySeat() === null) return;
  for (const e of events) if (typeof e.rematch === 'string') goToRematch(e.rematch);
}

/** Seats that would play again (the players who agreed, and every bot), seats not heard
 * from yet, and players who would rather not. */
function agreed() {
  const v = state.view;
  const bots = v.bots || [];
  const yes = new Set((v.rematch && v.rematch.agreed) || []);
  const declined = new Set((v.rematch && v.rematch.declined) || []);
  const all = [...Array(seatCount()).keys()];
  return {
    yes: all.filter((s) => yes.has(s) || bots[s]),
    no: all.filter((s) => !yes.has(s) && !bots[s] && !declined.has(s)),
    declined: all.filter((s) => declined.has(s)),
  };
}

/** A button of the card that sends `frame` once, then shows `waiting`. */
function answerButton(id, label, frame, waiting, primary) {
  const b = el('button', label, {}, primary ? 'primary' : '');
  b.type = 'button';
  b.id = id;
  b.addEventListener('click', () => {
    if (send(frame)) {
      b.disabled = true;
      if (waiting) tx(b, waiting);
    }
  });
  return b;
}

/** The rematch's part of the game-over card's actions: a button, and who has agreed. */
export function rematchActions(actions) {
  const v = state.view;
  const table = v.rematch && v.rematch.table;
  const me = mySeat();
  if (table) {
    if (me !== null) {
      const b = el('button', going === table ? 'rematch.opening' : 'rematch.go', {}, 'primary');
      b.type = 'button';
      b.id = 'rematch-go';
      b.disabled = going === table;
      b.addEventListener('click', () => goToRematch(table));
      actions.appendChild(b);
    } else {
      const a = el('a', 'rematch.watch', {}, 'button primary');
      a.id = 'rematch-watch';
      a.href = `/table/${encodeURIComponent(table)}`;
      actions.appendChild(a);
    }
    return;
  }
  const { yes, no, declined } = agreed();
  const names = (seats) => seats.map((s) => playerName(seatNames(), s)).join(', ');
  if (me !== null) {
    const mine = yes.includes(me);
    const play = answerButton('rematch', mine ? 'rematch.waiting_others' : 'rematch.play_again', { type: 'rematch' }, 'rematch.waiting_others', true);
    play.disabled = mine;
    actions.appendChild(play);
    if (!declined.includes(me)) actions.appendChild(answerButton('rematch-decline', 'rematch.decline', { type: 'rematch', agree: false }, null, false));
  }
  const line = document.createElement('span');
  line.id = 'rematch-state';
  line.className = 'muted rematch-state';
  const asked = (v.rematch && v.rematch.agreed) || [];
  const parts = [];
  if (asked.length) parts.push(el('span', 'rematch.ready', { names: names(yes) }));
  if (declined.length) parts.push(el('span', 'rematch.declined', { names: names(declined) }));
  else if (asked.length && no.length) parts.push(el('span', 'rematch.waiting_for', { names: names(no) }));
  parts.forEach((part, i) => line.append(...(i ? [' · ', part] : [part])));
  actions.appendChild(line);
}
