// Chat messages as the table page and the finished game's page show them: who, when, what.
// Every text a player wrote goes in as text (textContent), never as HTML; a quick phrase is
// shown in the reader's language. Muting is this browser's own: the names it muted are kept
// in localStorage (ds_chat_muted), at every table and on every game page.
import { currentLanguage, el, lit, tattr } from './i18n.js';

const MUTED = 'ds_chat_muted';
export const PHRASES = ['good_game', 'well_played', 'your_turn', 'thanks'];

/** A refused message's `field`, where the reason has words of its own (else its message). */
export const CHAT_REFUSALS = { name: 'chat.need_name', silenced: 'chat.silenced', account: 'chat.accounts_only' };

function load() {
  try {
    const names = JSON.parse(localStorage.getItem(MUTED) || '[]');
    return new Set(Array.isArray(names) ? names.filter((n) => typeof n === 'string') : []);
  } catch (e) {
    return new Set();
  }
}

let muted = load();

export function isMuted(name) {
  return muted.has(name);
}

export function mutedNames() {
  return [...muted].sort();
}

/** Mute (or unmute) a sender's name in this browser. */
export function setMuted(name, on) {
  if (on) muted.add(name);
  else muted.delete(name);
  try {
    localStorage.setItem(MUTED, JSON.stringify([...muted]));
  } catch (e) {
    /* private mode: the choice lasts as long as the page */
  }
}

/** Another tab muted someone: take its list. */
window.addEventListener('storage', (ev) => {
  if (ev.key === MUTED) muted = load();
});

function clock(at) {
  const time = lit('time', new Intl.DateTimeFormat(currentLanguage(), { hour: '2-digit', minute: '2-digit' }).format(new Date(at * 1000)), 'chat-at');
  time.dateTime = new Date(at * 1000).toISOString();
  return time;
}

/**
 * One message as a list item. `onMute(name)`, when given, makes the sender's name a button
 * that mutes them (not for our own messages: `own`).
 */
export function chatLine(msg, { onMute = null, own = false } = {}) {
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
  return li;
}
