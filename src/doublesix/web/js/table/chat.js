// The table's chat (docs/protocol.md, "Chat"): the messages of both channels, quick phrases,
// a line to write in, muting a sender (this browser's, see ../chat.js), the players' switch
// for the spectators' channel, an unread count and a short sound (the table's mute switch
// silences it). Beside the felt on a laptop; on a phone the side's drawer, opened by the
// "Chat" button of the bar below the felt.
import { me } from '../api.js';
import { CHAT_REFUSALS, PHRASES, chatLine, isMuted, onMutedChange, removedLine, renderMuted, setMuted } from '../chat.js';
import { clear, toast } from '../common.js';
import { el, tattr, tx } from '../i18n.js';
import { play } from './attention.js';
import { send } from './connection.js';
import { $, mySeat, tableId } from './state.js';

const SPECTATORS = 'ds_chat_spectators'; // '0': this browser's players hide the spectators' channel
const LENGTH = 300;
const KEPT = 200; // messages the page keeps
const DRAWER = window.matchMedia('(max-width: 820px), (max-height: 520px)');

const messages = new Map(); // version -> chat frame
let unread = 0;
let showSpectators = true;
let myName = null; // a spectator's guest name, to tell its own messages
let nameless = false; // a spectator without a name: reads only
let operator = false; // one of the site's operators reads: each line can be removed

/** Whether the chat is in sight: the tab in front and, on a phone, the drawer open on it. */
function inView() {
  if (document.hidden) return false;
  const side = $('side');
  return !DRAWER.matches || (side.classList.contains('open') && side.classList.contains('chat-mode'));
}

function own(msg) {
  if (mySeat() !== null) return msg.channel === 'players' && msg.seat === mySeat();
  return msg.channel === 'spectators' && myName !== null && msg.from === myName;
}

function shown(msg) {
  if (isMuted(msg.from) && !own(msg)) return false;
  return showSpectators || mySeat() === null || msg.channel !== 'spectators';
}

function showUnread() {
  if (inView()) unread = 0;
  const badge = $('chat-unread');
  badge.classList.toggle('hidden', unread === 0);
  badge.textContent = unread > 99 ? '99+' : String(unread);
  if (unread) tattr(badge, 'aria-label', 'chat.unread', { count: unread });
}

function mute(name) {
  setMuted(name, true); // onMutedChange draws the chat again
}

/** Draw the messages again (a new one, a mute, the channel switch, another language). */
export function renderChat() {
  const list = $('chat-list');
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  clear(list);
  const lines = [...messages.values()].sort((a, b) => a.version - b.version).filter(shown);
  if (!lines.length) list.appendChild(el('li', 'chat.empty', {}, 'chat-empty muted'));
  for (const msg of lines) list.appendChild(line(msg));
  if (atBottom) list.scrollTop = list.scrollHeight;
  $('chat-spectators').classList.toggle('hidden', mySeat() === null);
  // Nothing to write in until the socket's first view; a spectator needs a name.
  const note = !opened ? 'chat.connecting' : nameless && mySeat() === null ? 'chat.need_name' : null;
  $('chat-form').classList.toggle('hidden', note !== null);
  $('chat-phrases').classList.toggle('hidden', note !== null);
  $('chat-note').classList.toggle('hidden', note === null);
  if (note) tx($('chat-note'), note);
  renderMuted($('chat-muted'));
  showUnread();
}

function line(msg) {
  const path = operator ? `/api/operator/tables/${encodeURIComponent(tableId)}/chat/${msg.version}` : null;
  if (msg.removed) return removedLine(msg, { restorePath: path && `${path}/restore` });
  return chatLine(msg, { onMute: mute, own: own(msg), removePath: path });
}

/** A message one of the site's operators removed (the socket's `unchat` frame): gone; an
 * operator's page keeps its place, with a "Restore" (whose `rechat` frame brings it back). */
export function unheardChat(version) {
  const msg = messages.get(version);
  if (!msg) return;
  if (operator) messages.set(version, { version, from: msg.from, channel: msg.channel, removed: true });
  else messages.delete(version);
  renderChat();
}

/** A message an operator restored (the socket's `rechat` frame, with its words): back in its
 * place among the others. */
export function restoredChat(frame) {
  const msg = frame.message;
  if (!msg || msg.removed) return; // removed again since (a resume's placeholder)
  messages.delete(msg.version);
  keep(msg);
  renderChat();
}

function keep(msg) {
  if (messages.has(msg.version)) return false;
  messages.set(msg.version, msg);
  if (messages.size > KEPT) {
    const versions = [...messages.keys()].sort((a, b) => a - b);
    for (const v of versions.slice(0, messages.size - KEPT)) messages.delete(v);
  }
  return true;
}

let opened = false; // a first view has come: the socket is open, the line to write in too

/** A view's last messages (a snapshot, an update): those not seen yet are added. */
export function chatFromView(view) {
  let added = !opened;
  opened = true;
  for (const msg of view.chat || []) added = keep(msg) || added;
  if (added) renderChat();
}

/** A `chat` frame from the socket: its line is added (a screen reader reads just that one). */
export function heardChat(msg) {
  if (!keep(msg)) return;
  const input = $('chat-input');
  if (own(msg) && msg.text !== undefined && input.value.trim() === msg.text) input.value = '';
  if (!shown(msg)) return;
  if (!own(msg)) {
    if (!inView()) unread += 1;
    play('chat'); // unless the table's sound is off
  }
  const list = $('chat-list');
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  for (const empty of list.querySelectorAll('.chat-empty')) empty.remove();
  list.appendChild(line(msg));
  while (list.children.length > KEPT) list.firstElementChild.remove();
  if (atBottom || own(msg)) list.scrollTop = list.scrollHeight;
  showUnread();
}

/** A refused message (`chat` errors): it stays in the line, and the reader is told why. */
export function chatRefused(msg) {
  const why = CHAT_REFUSALS[msg.field];
  if (why) toast(why, {}, 'error');
  else toast('chat.refused', { message: msg.message || '' }, 'error');
}

function say(frame) {
  if (!send({ type: 'chat', ...frame })) toast('err.offline', {}, 'error');
}

function buildForm() {
  const phrases = clear($('chat-phrases'));
  for (const phrase of PHRASES) {
    const b = el('button', `chat.phrase.${phrase}`, {}, 'small phrase');
    b.type = 'button';
    b.dataset.phrase = phrase;
    b.addEventListener('click', () => say({ phrase }));
    phrases.appendChild(b);
  }
  const input = $('chat-input');
  input.maxLength = LENGTH;
  tattr(input, 'placeholder', 'chat.placeholder');
  tattr(input, 'aria-label', 'chat.placeholder');
  tx($('chat-send'), 'chat.send');
  $('chat-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (text) say({ text });
  });
}

let asked = 0; // the latest question of who reads: an older answer comes too late

/** A spectator without a name reads only: the line to write in says where to choose one. One
 * of the site's operators gets a "✕" on each line. Asked again whenever who we are changes
 * (`ds:me`: a name taken, a log-in, a log-out here or, told by the socket, elsewhere). */
async function reader() {
  const question = ++asked;
  let who = null;
  try {
    who = await me();
  } catch (e) {
    who = null;
  }
  if (question !== asked) return;
  operator = Boolean(who && who.operator);
  if (mySeat() === null) {
    const player = who && (who.player !== undefined ? who.player : who);
    myName = player && player.name ? player.name : null;
    nameless = myName === null;
  }
  renderChat();
}

function spectatorSwitch() {
  try {
    showSpectators = localStorage.getItem(SPECTATORS) !== '0';
  } catch (e) {
    showSpectators = true;
  }
  const box = $('chat-show-spectators');
  box.checked = showSpectators;
  tx($('chat-show-spectators-label'), 'chat.show_spectators');
  box.addEventListener('change', () => {
    showSpectators = box.checked;
    try {
      localStorage.setItem(SPECTATORS, showSpectators ? '1' : '0');
    } catch (e) {
      /* private mode: the choice lasts as long as the page */
    }
    renderChat();
  });
}

/** On a phone: "Chat" opens the side's drawer on the chat (and closes it again). */
function drawerButton() {
  const side = $('side');
  const toggle = $('chat-toggle');
  tx($('chat-toggle-label'), 'chat.title');
  toggle.addEventListener('click', (ev) => {
    ev.stopPropagation();
    const open = side.classList.contains('open') && side.classList.contains('chat-mode');
    side.classList.toggle('chat-mode', !open);
    side.classList.toggle('open', !open);
    if (!open) $('chat-list').scrollTop = $('chat-list').scrollHeight;
  });
  new MutationObserver(() => {
    toggle.setAttribute('aria-expanded', String(side.classList.contains('open') && side.classList.contains('chat-mode')));
    showUnread();
  }).observe(side, { attributes: true, attributeFilter: ['class'] });
  document.addEventListener('visibilitychange', showUnread);
  DRAWER.addEventListener('change', showUnread);
}

/** Set the chat up once, before the socket opens; `seated` is known by then. */
export function chatPanel() {
  tx($('chat-title'), 'chat.title');
  buildForm();
  spectatorSwitch();
  drawerButton();
  onMutedChange(renderChat);
  renderChat();
  document.addEventListener('ds:me', reader);
  reader();
}
