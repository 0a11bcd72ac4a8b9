// "Play again" on the game-over card (docs/protocol.md, "Rematch"): each player agrees, the
// card shows who has (bots always do); once every player has, the server opens the new
// table, and each player's browser takes its seat there (the join answers a player seated
// already with that seat and its token) and goes to it. A spectator may follow.
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

/** Seats that would play again: the players who agreed, and every bot. */
function agreed() {
  const v = state.view;
  const bots = v.bots || [];
  const yes = new Set((v.rematch && v.rematch.agreed) || []);
  const all = [...Array(seatCount()).keys()];
  return { yes: all.filter((s) => yes.has(s) || bots[s]), no: all.filter((s) => !yes.has(s) && !bots[s]) };
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
  const { yes, no } = agreed();
  const names = (seats) => seats.map((s) => playerName(seatNames(), s)).join(', ');
  if (me !== null) {
    const mine = yes.includes(me);
    const b = el('button', mine ? 'rematch.waiting_others' : 'rematch.play_again', {}, 'primary');
    b.type = 'button';
    b.id = 'rematch';
    b.disabled = mine;
    b.addEventListener('click', () => {
      if (send({ type: 'rematch' })) {
        b.disabled = true;
        tx(b, 'rematch.waiting_others');
      }
    });
    actions.appendChild(b);
  }
  const line = document.createElement('span');
  line.id = 'rematch-state';
  line.className = 'muted rematch-state';
  const asked = (v.rematch && v.rematch.agreed) || [];
  if (asked.length) {
    line.appendChild(el('span', 'rematch.ready', { names: names(yes) }));
    if (no.length) line.append(' · ', el('span', 'rematch.waiting_for', { names: names(no) }));
  }
  actions.appendChild(line);
}
