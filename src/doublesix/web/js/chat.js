// Chat messages as the table page and the finished game's page show them: who, when, what.
// Every text a player wrote goes in as text (textContent), never as HTML; a quick phrase is
// shown in the reader's language. The muted names are one list for the lobby, every table
// and every game page, kept in localStorage (ds_chat_muted); a muted name's challenges are
// declined unseen (challenge.js). A guest's list is its browser's. An account's is kept on
// the site (/api/account/muted), so it follows the account to every browser: read as a page
// opens and when the lobby logs in, changed there with every mute; the first time any
// account logs in on a browser, the names that browser muted before join its list. An
// account's blocked names (block.js) are hidden alike, without joining the list.
import { api, get, me, post } from './api.js';
import { isBlocked, onBlockedChange, readBlocked } from './block.js';
import { clear, toast } from './common.js';
import { currentLanguage, el, lit, tattr } from './i18n.js';

const MUTED = 'ds_chat_muted';
const LOBBY_MUTED = 'ds_lobby_muted'; // the lobby's own list, before there was one list
const SYNCED = 'ds_chat_muted_synced'; // set once an account's list replaced the browser's
const MUTED_MAX = 200; // the site's bound (server/mutes.py)
export const PHRASES = ['good_game', 'well_played', 'your_turn', 'thanks'];

/** A refused message's `field`, where the reason has words of its own (else its message). */
export const CHAT_REFUSALS = { name: 'chat.need_name', silenced: 'chat.silenced', account: 'chat.accounts_only', closed: 'account.err.closed' };

function names(key) {
  try {
    const list = JSON.parse(localStorage.getItem(key) || '[]');
    return Array.isArray(list) ? list.filter((n) => typeof n === 'string') : [];
  } catch (e) {
    return [];
  }
}

function load() {
  return new Set(names(MUTED));
}

function keep(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (e) {
    /* private mode: the choice lasts as long as the page */
  }
}

function save() {
  keep(MUTED, JSON.stringify([...muted]));
}

function synced() {
  try {
    return localStorage.getItem(SYNCED) !== null;
  } catch (e) {
    return false;
  }
}

let muted = load();
const before = names(LOBBY_MUTED);
if (before.length) {
  for (const name of before) muted.add(name);
  save();
  try {
    localStorage.removeItem(LOBBY_MUTED);
  } catch (e) {
    /* private mode: nothing was kept */
  }
}
const listeners = new Set();

let account = false; // whether the reader is an account whose list the site keeps

function changed() {
  for (const listener of listeners) listener();
}

/** The account's list, from the site (and, the first time an account reads it on this
 * browser, with the names muted here before); a guest keeps the browser's. */
async function readAccountMuted() {
  const you = await me().catch(() => null);
  account = false;
  if (!you || !you.account) return;
  try {
    let names = (await get('/api/account/muted')).muted;
    if (!synced()) {
      const here = [...muted].filter((name) => !names.includes(name));
      const room = MUTED_MAX - names.length;
      if (here.length && room > 0) {
        names = (await post('/api/account/muted', { names: here.slice(0, room) })).muted;
      }
      keep(SYNCED, '1');
    }
    account = true;
    muted = new Set(names);
    save();
    changed();
  } catch (e) {
    /* not read: this browser's list stands, and stays this browser's */
  }
}

// The blocked names and the muted names of the account reading, read as the page opens and
// again when the lobby logs in or out (its "ds:me").
onBlockedChange(changed);
readBlocked();
readAccountMuted();
document.addEventListener('ds:me', () => {
  readBlocked();
  readAccountMuted();
});

/** Whether `name`'s messages are hidden: muted in this browser, or blocked by the account. */
export function isMuted(name) {
  return muted.has(name) || isBlocked(name);
}

/** The names muted in this browser (not the account's blocked names: the player's page
 * unblocks those). */
export function mutedNames() {
  return [...muted].sort();
}

/** Call `listener()` whenever the muted names change, here or in another tab. */
export function onMutedChange(listener) {
  listeners.add(listener);
}

function put(name, on) {
  if (on) muted.add(name);
  else muted.delete(name);
  save();
  changed();
}

/** Mute (or unmute) a sender's name: in this browser, and on the site for an account. */
export function setMuted(name, on) {
  put(name, on);
  if (!account) return;
  api(on ? 'PUT' : 'DELETE', `/api/account/muted/${encodeURIComponent(name)}`).catch((e) => {
    put(name, !on); // the site's list stands: so does this one
    const key = e.body && e.body.code === 'too_many' ? 'chat.mute_too_many' : 'err.server';
    toast(key, { count: MUTED_MAX, message: String(e.message || e) }, 'error');
  });
}

/** Another tab muted someone: take its list. */
window.addEventListener('storage', (ev) => {
  if (ev.key !== MUTED) return;
  muted = load();
  changed();
});

/** The muted names in `box`, each a chip that shows its messages again (`box` hidden when
 * none is muted). */
export function renderMuted(box) {
  clear(box);
  const all = mutedNames();
  box.classList.toggle('hidden', all.length === 0);
  if (!all.length) return;
  box.appendChild(el('span', 'chat.muted', {}, 'muted'));
  for (const name of all) {
    const b = lit('button', name, 'small chip unmute');
    b.type = 'button';
    tattr(b, 'title', 'chat.unmute', { name });
    b.addEventListener('click', () => setMuted(name, false));
    box.append(' ', b);
  }
}

function clock(at) {
  const time = lit('time', new Intl.DateTimeFormat(currentLanguage(), { hour: '2-digit', minute: '2-digit' }).format(new Date(at * 1000)), 'chat-at');
  time.dateTime = new Date(at * 1000).toISOString();
  return time;
}

/**
 * One of the site's operators' "✕" on a message from `name` (`title`: its key): it asks the
 * server to remove it (`path`, a DELETE), whose `unchat` frame then takes the line away on
 * every page that shows it, this one included; a page with no socket (a finished game's)
 * hears it from `removed()`, called once the server has taken it.
 */
export function removeButton(title, name, path, removed = null) {
  const b = lit('button', '✕', 'link-button chat-remove');
  b.type = 'button';
  tattr(b, 'title', title, { name });
  tattr(b, 'aria-label', title, { name });
  b.addEventListener('click', async () => {
    b.disabled = true;
    try {
      await api('DELETE', path);
      if (removed) removed();
    } catch (e) {
      toast('operator.error', { message: e.message }, 'error');
      b.disabled = false;
    }
  });
  return b;
}

/**
 * A message whose words are not shown (`chat.removed`): an operator removed it, or an
 * account's erasure took its words. `restorePath`, for one of the site's operators, adds a
 * "Restore" that asks the server to show it again there (a POST); `onRestored()` once it has.
 */
export function removedLine(msg, { restorePath = null, onRestored = null } = {}) {
  const li = document.createElement('li');
  li.className = 'chat-line removed';
  li.dataset.version = String(msg.version);
  li.appendChild(el('span', 'chat.removed', {}, 'chat-text'));
  if (!restorePath) return li;
  const b = el('button', 'chat.restore', {}, 'link-button chat-restore');
  b.type = 'button';
  tattr(b, 'title', 'chat.restore_title', { name: msg.from || '?' });
  b.addEventListener('click', async () => {
    b.disabled = true;
    try {
      await post(restorePath, {});
      if (onRestored) onRestored();
    } catch (e) {
      toast('operator.error', { message: e.message }, 'error');
      b.disabled = false;
    }
  });
  li.append(' ', b);
  return li;
}

/**
 * One message as a list item. `onMute(name)`, when given, makes the sender's name a button
 * that mutes them (not for our own messages: `own`); `removePath`, an operator's "✕" that
 * removes it there (`onRemoved()` once it is removed, see `removeButton`).
 */
export function chatLine(msg, { onMute = null, own = false, removePath = null, onRemoved = null } = {}) {
  const li = document.createElement('li');
  li.className = `chat-line ${msg.channel === 'spectators' ? 'spectators' : 'players'}`;
  li.dataset.version = String(msg.version);
  li.dataset.from = msg.from;
  li.appendChild(clock(msg.at));
  let who;
  if (onMute && !own) {
    who = lit('button', msg.from, 'chat-from link-button');
    who.type = 'button';
    tattr(who, 'title', 'chat.mute', { name: msg.from });
    who.addEventListener('click', () => onMute(msg.from));
  } else {
    who = lit('span', msg.from, own ? 'chat-from own' : 'chat-from');
  }
  li.appendChild(who);
  if (msg.channel === 'spectators') li.appendChild(el('span', 'chat.spectator', {}, 'chat-channel'));
  li.appendChild(msg.phrase ? el('span', `chat.phrase.${msg.phrase}`, {}, 'chat-text phrase') : lit('span', msg.text, 'chat-text'));
  if (removePath) li.appendChild(removeButton('chat.remove', msg.from, removePath, onRemoved));
  return li;
}
