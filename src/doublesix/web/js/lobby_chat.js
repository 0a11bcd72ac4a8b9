// The lobby's chat: text (shown as text, never as HTML) and quick phrases, each reader
// seeing a phrase in their own language; the last messages come with the socket's welcome.
// One of the site's operators has a "✕" on each line that removes it from every lobby.
import { CHAT_REFUSALS, isMuted, onMutedChange, removeButton, renderMuted, setMuted } from './chat.js';
import { clear } from './common.js';
import { el, lit, tattr, tx } from './i18n.js';
import { sendLobby } from './lobby_socket.js';

const PHRASES = ['good_game', 'well_played', 'your_turn', 'thanks'];
const MAX = 300;
let list = null;
let error = null;
let input = null;
let mutedBox = null;
let shown = [];
let own = null; // our name: we do not mute ourselves
let operator = false; // one of the site's operators reads: each line can be removed

function line(m) {
  const li = document.createElement('li');
  li.className = 'chat-line';
  const from = lit('button', m.from, 'chat-from link-button');
  from.type = 'button';
  if (m.from !== own) {
    tattr(from, 'title', 'chat.mute', { name: m.from });
    from.addEventListener('click', () => setMuted(m.from, true));
  }
  li.appendChild(from);
  if (m.phrase) li.appendChild(el('span', `lobby.chat.phrase.${m.phrase}`, {}, 'chat-text phrase'));
  else li.appendChild(lit('span', m.text, 'chat-text'));
  if (operator && m.id) {
    li.appendChild(removeButton('lobby.chat.remove', m.from, `/api/operator/lobby-chat/${encodeURIComponent(m.id)}`));
  }
  return li;
}

/** A message an operator removed: gone from the list (its `unchat` frame). */
export function removeLobbyChat(id) {
  shown = shown.filter((m) => m.id !== id);
  drawLines();
}

function drawLines() {
  if (!list) return;
  clear(list);
  const visible = shown.filter((m) => m.from === own || !isMuted(m.from));
  if (!visible.length) list.appendChild(el('li', 'lobby.chat.empty', {}, 'muted empty'));
  for (const m of visible) list.appendChild(line(m));
  list.scrollTop = list.scrollHeight;
  renderMuted(mutedBox);
}

onMutedChange(drawLines);

/** Draw the chat panel in `box`; `you`: whether we have a name to write with. */
export function renderLobbyChat(box, messages, you) {
  clear(box);
  box.appendChild(el('h2', 'lobby.chat.title'));
  own = you ? you.name : null;
  operator = Boolean(you && you.operator);
  shown = messages.slice(-50);
  list = document.createElement('ul');
  list.className = 'chat-lines';
  list.id = 'lobby-chat-lines';
  box.appendChild(list);
  mutedBox = document.createElement('p');
  mutedBox.className = 'chat-muted';
  box.appendChild(mutedBox);
  drawLines();
  error = document.createElement('p');
  error.className = 'error';
  error.id = 'lobby-chat-error';
  if (!you) {
    box.appendChild(el('p', 'lobby.chat.name_first', {}, 'muted'));
    return;
  }
  const phrases = document.createElement('div');
  phrases.className = 'phrases';
  for (const p of PHRASES) {
    const b = el('button', `lobby.chat.phrase.${p}`, {}, 'small phrase');
    b.type = 'button';
    b.addEventListener('click', () => sendLobby({ type: 'chat', phrase: p }));
    phrases.appendChild(b);
  }
  box.appendChild(phrases);
  const form = document.createElement('form');
  form.className = 'chat-form';
  input = document.createElement('input');
  input.id = 'lobby-chat-input';
  input.maxLength = MAX;
  input.autocomplete = 'off';
  tattr(input, 'placeholder', 'lobby.chat.placeholder');
  tattr(input, 'aria-label', 'lobby.chat.placeholder');
  const send = el('button', 'lobby.chat.send', {}, 'primary small');
  send.type = 'submit';
  form.append(input, send);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (sendLobby({ type: 'chat', text })) input.value = '';
  });
  box.appendChild(form);
  box.appendChild(error);
}

export function addLobbyChat(m) {
  if (!list) return;
  shown = [...shown, m].slice(-50);
  if (error && m.from === own) clear(error);
  if (m.from !== own && isMuted(m.from)) return;
  const empty = list.querySelector('.empty');
  if (empty) empty.remove();
  list.appendChild(line(m));
  while (list.children.length > 50) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

export function lobbyChatError(frame) {
  if (!error) return;
  const why = CHAT_REFUSALS[frame.field];
  if (why) tx(error, why);
  else tx(error, 'lobby.chat.error', { message: frame.message });
}
