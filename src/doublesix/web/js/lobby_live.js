// The lobby's live half: the lobby socket's frames drawn into the online list, the
// challenges' toasts, the lobby chat (issue 11) and a private message's toast and badge. `/?challenge=NAME` (a player's page's
// "Challenge") opens the dialog that challenges NAME once we have a name of our own.
import { openChallengeDialog, startChallenges } from './challenge.js';
import { toast } from './common.js';
import { isFollowed, loadFollowing } from './follow.js';
import { onLanguage } from './i18n.js';
import { addLobbyChat, lobbyChatError, removeLobbyChat, renderLobbyChat } from './lobby_chat.js';
import { connectLobby, onLobby } from './lobby_socket.js';
import { noticeMessage } from './message_notice.js';
import { renderOnline } from './online.js';

const live = { you: null, players: [], chat: [] };

function drawOnline() {
  const box = document.getElementById('online');
  if (box) renderOnline(box, live.players, live.you, openChallengeDialog, isFollowed);
}

function drawChat() {
  const box = document.getElementById('lobby-chat');
  if (box) renderLobbyChat(box, live.chat, live.you);
}

/** A value as one string, its objects' keys sorted: the same entry, the same string. */
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** The list of who is online after an `online` frame: each entry of `removed` taken out once
 * (two guests may share an entry), those of `added` put in, by name (server/online_list.py). */
function changedOnline(players, frame) {
  const gone = new Map();
  for (const p of frame.removed) gone.set(canonical(p), (gone.get(canonical(p)) || 0) + 1);
  const kept = players.filter((p) => {
    const key = canonical(p);
    if (!gone.get(key)) return true;
    gone.set(key, gone.get(key) - 1);
    return false;
  });
  const byName = (a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0);
  return [...kept, ...frame.added].sort(byName);
}

/** The challenge a player's page asked for, once we can send it (or say why not). */
function askedChallenge() {
  const url = new URL(location.href);
  const name = url.searchParams.get('challenge');
  if (!name || !live.you) return; // a name first: the welcome that follows it comes here again
  url.searchParams.delete('challenge');
  history.replaceState(null, '', url.pathname + url.search + url.hash);
  const them = live.players.find((p) => p.name === name);
  if (name === live.you.name) return;
  if (them && them.status === 'free') openChallengeDialog(name);
  else toast('lobby.challenge.not_free', { name });
}

/** `presets()`: the lobby's presets ({name: {players, defaults}}). */
export function startLobbyLive({ presets }) {
  onLobby('welcome', (f) => {
    live.you = f.you;
    live.players = f.players;
    live.chat = f.chat;
    drawOnline();
    drawChat();
    askedChallenge();
    loadFollowing(f.you).then(drawOnline);
  });
  onLobby('online', (f) => {
    const before = new Set(live.players.map((p) => p.name));
    live.players = changedOnline(live.players, f);
    drawOnline();
    for (const p of f.added) {
      if (p.account && !before.has(p.name) && isFollowed(p.name)) toast('lobby.online.arrived', { name: p.name });
    }
  });
  startChallenges({ presets, you: () => live.you, online: () => live.players });
  onLobby('chat', (f) => {
    live.chat = [...live.chat, f].slice(-50);
    addLobbyChat(f);
  });
  onLobby('unchat', (f) => {
    live.chat = live.chat.filter((m) => m.id !== f.id);
    removeLobbyChat(f.id);
  });
  onLobby('message', noticeMessage);
  onLobby('error', lobbyChatError);
  onLanguage(drawOnline);
  connectLobby();
}
