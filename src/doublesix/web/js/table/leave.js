// Leaving a game that goes on (docs/protocol.md, "leave"): a bot plays the seat from now on,
// so the others need not wait out the grace period of a player who is gone; the table's
// address gives the seat back while the game lasts. The page goes to the lobby once the
// server has said that the seat is left, not before: a frame sent while the page unloads
// may never arrive.
import { toast } from '../common.js';
import { el, tattr, tx } from '../i18n.js';
import { send } from './connection.js';
import { $, mySeat, seatedInPlay, state } from './state.js';

const WAIT_MS = 5000;
let leaving = null; // the timer that gives up waiting for the server's word

/** The Leave button: shown to a seated player while the game is on. */
export function renderLeave() {
  $('leave').classList.toggle('hidden', !seatedInPlay());
}

export function leaveButton() {
  const button = $('leave');
  tx(button, 'leave.button');
  tattr(button, 'title', 'leave.button_title');
  button.addEventListener('click', openLeaveDialog);
}

/** The events of an update: once our own `leave` is among them, go to the lobby. */
export function leftIn(events) {
  if (leaving === null || !events.some((e) => e.leave && e.seat === mySeat())) return;
  clearTimeout(leaving);
  leaving = null;
  location.assign('/');
}

/** The server refused (the game ended meanwhile, say): stay, and say so (the error's toast). */
export function leaveRefused() {
  if (leaving === null) return;
  clearTimeout(leaving);
  leaving = null;
}

function openLeaveDialog() {
  const old = $('leave-dialog');
  if (old) old.remove();
  const dialog = document.createElement('dialog');
  dialog.className = 'leave-dialog card';
  dialog.id = 'leave-dialog';
  dialog.setAttribute('aria-labelledby', 'leave-title');
  dialog.addEventListener('close', () => dialog.remove());
  const title = el('h2', 'leave.title');
  title.id = 'leave-title';
  dialog.appendChild(title);
  dialog.appendChild(el('p', 'leave.text'));
  if (state.table && state.table.rated) dialog.appendChild(el('p', 'leave.rated'));
  const buttons = document.createElement('div');
  buttons.className = 'buttons';
  const stay = el('button', 'leave.stay', {}, 'small');
  stay.type = 'button';
  stay.id = 'leave-stay';
  stay.addEventListener('click', () => dialog.close());
  const go = el('button', 'leave.go', {}, 'primary');
  go.type = 'button';
  go.id = 'leave-go';
  go.addEventListener('click', () => {
    dialog.close();
    if (!send({ type: 'leave' })) {
      toast('leave.not_sent', {}, 'error');
      return;
    }
    leaving = setTimeout(() => {
      leaving = null;
      toast('leave.not_sent', {}, 'error');
    }, WAIT_MS);
  });
  buttons.append(stay, go);
  dialog.appendChild(buttons);
  document.body.appendChild(dialog);
  dialog.showModal();
  stay.focus(); // staying is the choice that loses nothing
}
