// Before the game: the waiting room (seats, bots for open seats, the invitation link),
// taking a seat with a guest name, and the page for a table that does not exist.
import { refusalKey } from '../account.js';
import { forgetSeat, get, keepSeat, me, post } from '../api.js';
import { clear, toast } from '../common.js';
import { playerName } from '../describe.js';
import { el, lit, tattr, tx } from '../i18n.js';
import { reconnect, send } from './connection.js';
import { $, state, tableId } from './state.js';

/**
 * A card in place of the table when there is no game to show: `title` says why, `text` (a
 * key, or null) says more, and the way back to the lobby is a button. The hand's bar and the
 * sidebar (score pad, chat, log) have nothing to hold, so they go.
 */
function noTable(title, text, params) {
  $('table').classList.add('no-table');
  const w = $('waiting');
  w.classList.remove('hidden');
  const card = document.createElement('div');
  card.className = 'card waiting-card no-table-card';
  card.appendChild(el('h2', title));
  if (text) card.appendChild(el('p', text, params));
  const actions = document.createElement('p');
  actions.className = 'actions';
  const a = el('a', 'line.missing_home', {}, 'button primary');
  a.href = '/';
  actions.appendChild(a);
  card.appendChild(actions);
  clear(w).appendChild(card);
}

/** The table's address names no table (the server answered 404, or closed the socket so). */
export function showMissing() {
  noTable('table.missing', 'table.missing_text');
}

/** The table could not be asked for: the server is down, or answered with an error. */
export function showUnreachable(error) {
  noTable('table.unreachable', 'err.server', { message: error.message });
}

async function ensureGuest(container) {
  const who = await me();
  if (who) return who;
  return new Promise((resolve) => {
    const form = document.createElement('form');
    form.className = 'guest-form';
    form.appendChild(el('label', 'lobby.name_label', {}, 'label'));
    const input = document.createElement('input');
    input.name = 'name';
    input.maxLength = 24;
    input.required = true;
    tattr(input, 'placeholder', 'lobby.name_placeholder');
    form.appendChild(input);
    const b = el('button', 'table.sit_down');
    b.type = 'submit';
    form.appendChild(b);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      try {
        const guest = await post('/api/guest', { name: input.value.trim() });
        document.dispatchEvent(new CustomEvent('ds:me'));
        form.remove();
        resolve(guest.player);
      } catch (e) {
        const key = refusalKey(e, 'guest');
        if (key) toast(key, {}, 'error');
        else toast('err.server', { message: e.message }, 'error');
      }
    });
    container.appendChild(form);
    input.focus();
  });
}

export async function joinWith(body) {
  const w = $('waiting');
  w.classList.remove('hidden');
  await ensureGuest(w);
  try {
    const r = await post(`/api/tables/${encodeURIComponent(tableId)}/join`, body);
    state.seat = r.seat;
    state.token = r.token;
    keepSeat(tableId, r.seat, r.token);
    state.table = await get(`/api/tables/${encodeURIComponent(tableId)}`);
    return true;
  } catch (e) {
    toast('err.server', { message: e.message }, 'error');
    return false;
  }
}

/**
 * An invitation opened after the start: a guest who already sits here gets the seat back
 * (the server answers it again); anyone else watches, and is told so.
 */
export async function rejoin(body) {
  try {
    if (await me()) {
      const r = await post(`/api/tables/${encodeURIComponent(tableId)}/join`, body);
      state.seat = r.seat;
      state.token = r.token;
      keepSeat(tableId, r.seat, r.token);
      return;
    }
  } catch (e) {
    /* not one of the players: watch */
  }
  toast('table.started_watching');
}

let asking = null;
let askAgain = false;

/**
 * Draw the waiting room. It is kept up to date by the socket (open meanwhile: the chat works),
 * not by polling: each view before the game, a snapshot or a seat taken, brings `tableChanged`;
 * the game's first view closes the room.
 */
export function waitForPlayers() {
  renderWaiting();
}

/**
 * The table as the server has it now, drawn if it changed. One request at a time: a change
 * that comes while one is on its way asks once more after it, so the last change is never lost.
 */
export async function tableChanged() {
  if (asking) {
    askAgain = true;
    return asking;
  }
  asking = (async () => {
    do {
      askAgain = false;
      try {
        const table = await get(`/api/tables/${encodeURIComponent(tableId)}`);
        const changed = JSON.stringify(table) !== JSON.stringify(state.table);
        if (changed) tellStoodUp(state.table, table);
        state.table = table;
        if (changed) renderWaiting();
      } catch (e) {
        /* the socket's next view asks again */
      }
    } while (askAgain);
  })();
  try {
    await asking;
  } finally {
    asking = null;
  }
}

let ownLeft = null; // the seat this browser left, which its own toast tells of

/** Someone else stood up before the start: say who (the room shows their seat free). */
function tellStoodUp(before, now) {
  if (!before || now.status !== 'open') return;
  now.seats.forEach((seat, i) => {
    const was = before.seats[i];
    if (was && was.kind === 'human' && seat.kind !== 'human' && i !== ownLeft && i !== state.seat) {
      toast('table.seat_left', { name: was.name, n: i + 1 });
    }
  });
  ownLeft = null;
}

function tableUrl(invite) {
  const url = `${location.origin}/table/${encodeURIComponent(tableId)}`;
  return invite ? `${url}?invite=${encodeURIComponent(invite)}` : url;
}

/** A read-only link with a copy button (the creator's invitation links, the table's address). */
function linkRow(id, url) {
  const row = document.createElement('div');
  row.className = 'invite-row';
  const input = document.createElement('input');
  input.readOnly = true;
  input.value = url;
  input.id = id;
  input.dataset.literal = '';
  row.appendChild(input);
  const copy = el('button', 'table.copy', {}, 'small');
  copy.type = 'button';
  copy.id = `copy-${id}`;
  copy.addEventListener('click', async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
    } catch (e) {
      document.execCommand('copy');
    }
    toast('table.copied');
  });
  row.appendChild(copy);
  return row;
}

function renderWaiting() {
  if (state.view) return; // the game's first view came: the felt shows the table now
  const table = state.table;
  if (table.status === 'closed') {
    noTable(state.closed === 'cancelled' ? 'table.cancelled' : 'table.expired', null);
    return;
  }
  const w = clear($('waiting'));
  w.classList.remove('hidden');
  const card = document.createElement('div');
  card.className = 'card waiting-card';
  card.appendChild(el('h2', 'table.waiting'));
  card.appendChild(el('p', 'table.preset_line', { preset: { $t: `preset.${table.preset}` }, players: table.seats.length }, 'muted'));
  const list = document.createElement('ol');
  list.className = 'seat-list';
  const creator = state.seat === 0;
  table.seats.forEach((s, i) => {
    const li = document.createElement('li');
    li.dataset.seat = String(i);
    if (s.kind === 'invite' && !creator) {
      li.appendChild(el('span', 'seat.invited', {}, 'open'));
    } else if (s.kind === 'open' || s.kind === 'invite') {
      li.appendChild(el('span', s.kind === 'open' ? 'seat.open' : 'seat.invited', {}, 'open'));
      if (creator) {
        const sel = document.createElement('select');
        sel.className = 'bot-level';
        for (const b of state.bots) {
          const o = el('option', `bot.${b}`);
          o.value = b;
          o.selected = b === 'greedy';
          sel.appendChild(o);
        }
        li.appendChild(sel);
        const add = el('button', 'table.seat_bot', {}, 'small seat-bot');
        add.type = 'button';
        add.addEventListener('click', async () => {
          try {
            state.table = await post(`/api/tables/${encodeURIComponent(tableId)}/seats/${i}/bot`, { bot: sel.value });
            renderWaiting();
          } catch (e) {
            toast('err.server', { message: e.message }, 'error');
          }
        });
        li.appendChild(add);
      } else if (state.seat === null) {
        const take = el('button', 'table.take_seat', {}, 'small take-seat');
        take.type = 'button';
        take.addEventListener('click', async () => {
          if (!(await joinWith({ seat: i }))) return;
          renderWaiting();
          reconnect(); // the socket says hello again, now as the seat's player
        });
        li.appendChild(take);
      }
    } else {
      const names = table.seats.map((x) => ({ name: x.name, bot: x.kind === 'bot' ? x.bot : null }));
      li.appendChild(lit('span', playerName(names, i), 'name'));
      if (i === state.seat) li.appendChild(el('span', 'seat.you', {}, 'badge you'));
    }
    list.appendChild(li);
  });
  card.appendChild(list);
  for (const held of table.invites || []) {
    card.appendChild(el('p', 'table.invite_seat', { n: held.seat + 1 }, 'label'));
    card.appendChild(linkRow(`invite-link-${held.seat}`, tableUrl(held.invite)));
  }
  if (table.seats.some((s) => s.kind === 'open')) {
    card.appendChild(el('p', 'table.open_link', {}, 'label'));
    card.appendChild(linkRow('table-link', tableUrl(null)));
  }
  card.appendChild(el('p', 'table.starts_itself', {}, 'muted'));
  if (creator) card.appendChild(closeButton());
  else if (state.seat !== null) card.appendChild(standUpButton());
  w.appendChild(card);
}

let standing = false; // this page asked to leave its seat, and waits for the server's word

/** "Leave this seat", for a seated player who did not make the table: the server frees the
 * seat (`leave` before the start) and answers every page of it with `unseat`. */
function standUpButton() {
  const p = document.createElement('p');
  p.className = 'actions stand-up';
  const b = el('button', 'table.stand_up', {}, 'small');
  b.type = 'button';
  b.id = 'stand-up';
  tattr(b, 'title', 'table.stand_up_title');
  b.addEventListener('click', () => {
    standing = send({ type: 'leave', before_start: true });
    if (!standing) toast('leave.not_sent', {}, 'error');
  });
  p.appendChild(b);
  return p;
}

/** The server refused (the game started meanwhile): the seat stays ours (the error's toast). */
export function standRefused() {
  standing = false;
}

/** The seat was left before the start, from this page or another (`why` 'left'), or took a
 * new token this page may not take ('rekeyed': a new password for its account ended our
 * session): forget its token (and an invitation in the address, which would take the seat
 * again on reload) and watch. */
export function unseated(seat, why) {
  ownLeft = seat;
  if (why === 'rekeyed') toast('table.seat_rekeyed');
  else toast(standing ? 'table.stood_up' : 'table.stood_up_elsewhere');
  standing = false;
  forgetSeat(tableId);
  const url = new URL(location.href);
  if (url.searchParams.has('invite')) {
    url.searchParams.delete('invite');
    history.replaceState(null, '', url);
  }
  tableChanged();
  renderWaiting();
}

let closing = null; // the timer of "Press again", while the close button asks to be sure

/** The creator's "Close the table": a second press within a few seconds closes it (the
 * server's `leave` of seat 0 before the start), and everyone's room then says so. */
function closeButton() {
  const p = document.createElement('p');
  p.className = 'actions close-table';
  const b = el('button', closing ? 'table.close_sure' : 'table.close', {}, 'small');
  b.type = 'button';
  b.id = 'close-table';
  b.addEventListener('click', () => {
    if (!closing) {
      tx(b, 'table.close_sure');
      closing = setTimeout(() => {
        closing = null;
        const shown = $('close-table'); // the room may have been drawn again meanwhile
        if (shown) tx(shown, 'table.close');
      }, 4000);
      return;
    }
    clearTimeout(closing);
    closing = null;
    if (!send({ type: 'leave', before_start: true })) toast('leave.not_sent', {}, 'error');
  });
  p.appendChild(b);
  return p;
}
