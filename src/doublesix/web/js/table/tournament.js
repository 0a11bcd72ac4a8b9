// A tournament's table (docs/protocol.md, "Tournaments"): the table's JSON names its
// tournament (`state.table.tournament`, {id, name}); the bar shows its name, a link to its
// page. At the game's end there is no "Play again" (the site pairs the tournament's players
// itself): "Back to the tournament" instead, where a seated player goes by itself 5 s after
// the game ended in sight, unless they press "Stay".
import { el, lit, tattr, tx } from '../i18n.js';
import { cupIcon } from '../tournament_text.js';
import { $, mySeat, state } from './state.js';

const BACK_SECONDS = 5;

let sawPlay = false; // this page showed the game before its end
let back = null; // {deadline, timer} while counting down to going back
let stayed = false;

/** The table's tournament ({id, name}), or null. */
export function tournamentOf() {
  return (state.table && state.table.tournament) || null;
}

function pageOf(t) {
  return `/tournament/${encodeURIComponent(t.id)}`;
}

/** The tournament's name in the bar under the felt, linked to its page. */
export function showTournament() {
  const t = tournamentOf();
  const old = $('table-tournament');
  if (old) old.remove();
  if (!t) return;
  const a = document.createElement('a');
  a.id = 'table-tournament';
  a.className = 'table-tournament';
  a.href = pageOf(t);
  a.append(cupIcon(), lit('span', t.name, 'table-tournament-name'));
  tattr(a, 'title', 'table.tournament.link_title', { name: t.name });
  const after = $('my-timer') || $('my-name'); // in the bar, after our name and clock
  if (after) after.after(a);
}

/** Each view: remember whether the game was on while this page watched it. */
export function seenTournamentView(view) {
  if (view && view.status !== 'finished') sawPlay = true;
}

function go() {
  const t = tournamentOf();
  if (t) location.assign(pageOf(t));
}

function showBack() {
  const count = $('tournament-back-count');
  if (!count || !back) return;
  const left = Math.max(0, Math.ceil((back.deadline - Date.now()) / 1000));
  tx(count, 'table.tournament.back_in', { seconds: left });
}

function startBack() {
  if (back || stayed) return;
  back = { deadline: Date.now() + BACK_SECONDS * 1000, timer: null };
  back.timer = setInterval(() => {
    if (Date.now() >= back.deadline) {
      clearInterval(back.timer);
      go();
      return;
    }
    showBack();
  }, 200);
}

function stay() {
  stayed = true;
  if (back) clearInterval(back.timer);
  back = null;
  for (const node of document.querySelectorAll('#tournament-back-count, #tournament-stay')) node.remove();
}

/** The game-over card's actions at a tournament's table (instead of the rematch's): "Back to
 * the tournament" and, while it counts down to going there, "Stay". */
export function tournamentActions(actions) {
  const t = tournamentOf();
  const a = el('a', 'table.tournament.back', {}, 'button primary');
  a.id = 'tournament-back';
  a.href = pageOf(t);
  actions.appendChild(a);
  if (mySeat() === null || stayed || !sawPlay) return;
  startBack();
  const count = el('span', 'table.tournament.back_in', { seconds: BACK_SECONDS }, 'muted tournament-back-count');
  count.id = 'tournament-back-count';
  const s = el('button', 'table.tournament.stay', {}, 'small');
  s.type = 'button';
  s.id = 'tournament-stay';
  s.addEventListener('click', stay);
  actions.append(count, s);
  showBack();
}
