// Chat messages as the table page and the finished game's page show them: who, when, what.
// Every text a player wrote goes in as text (textContent), never as HTML; a quick phrase is
// shown in the reader's language. Muting is this browser's own: the names it muted are kept
// in localStorage (ds_chat_muted), one list for the lobby, every table and every game page;
// a muted name's challenges are declined unseen (challenge.js). An account's blocked names
// (block.js, read from the site) are hidden alike, without joining the browser's list.
import { api } from './api.js';
import { isBlocked, onBlockedChange, readBlocked } from './block.js';
import { clear, toast } from './common.js';
import { currentLanguage, el, lit, tattr } from './i18n.js';

const MUTED = 'ds_chat_muted';
const LOBBY_MUTED = 'ds_lobby_muted'; // the lobby's own list, before there was one list
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

function save() {
  try {
    localStorage.setItem(MUTED, JSON.stringify([...muted]));
  } catch (e) {
    /* private mode: the choice lasts as long as the page */
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

// The blocked names of the account reading, read as the page opens and again when the lobby
// logs in or out (its "ds:me").
onBlockedChange(() => {
  for (const listener of listeners) listener();
});
readBlocked();
document.addEventListener('ds:me', readBlocked);

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

/** Mute (or unmute) a sender's name in this browser. */
export function setMuted(name, on) {
  if (on) muted.add(name);
  else muted.delete(name);
  save();
  for (const listener of listeners) listener();
}

/** Another tab muted someone: take its list. */
window.addEventListener('storage', (ev) => {
  if (ev.key !== MUTED) return;
  muted = load();
  for (const listener of listeners) listener();
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
 * One message as a list item. `onMute(name)`, when given, makes the sender's name a button
 * that mutes them (not for our own messages: `own`).
 */
/**
 * One of the site's operators' "✕" on a message from `name` (`title`: its key): it asks the
 * server to remove it (`path`, a DELETE), whose `unchat` frame then takes the line away on
 * every page that shows it, this one included.
 */
export function removeButton(title, name, path) {
  const b = lit('button', '✕', 'link-button chat-remove');
  b.type = 'button';
  tattr(b, 'title', title, { name });
  tattr(b, 'aria-label', title, { name });
  b.addEventListener('click', async () => {
    b.disabled = true;
    try {
      await api('DELETE', path);
    } catch (e) {
      toast('operator.error', { message: e.message }, 'error');
      b.disabled = false;
    }
  });
  return b;
}

export function chatLine(msg, { onMute = null, own = false, removePath = null } = {}) {
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
  if (removePath) li.appendChild(removeButton('chat.remove', msg.from, removePath));
  return li;
}
