// The lobby's live half: the lobby socket's frames drawn into the online list, the
// challenges' toasts and the lobby chat (issue 11).
import { openChallengeDialog, showChallenge, startChallenges } from './challenge.js';
import { onLanguage } from './i18n.js';
import { addLobbyChat, lobbyChatError, renderLobbyChat } from './lobby_chat.js';
import { connectLobby, onLobby } from './lobby_socket.js';
import { renderOnline } from './online.js';

const live = { you: null, players: [], chat: [] };

function drawOnline() {
  const box = document.getElementById('online');
  if (box) renderOnline(box, live.players, live.you, openChallengeDialog);
}

function drawChat() {
  const box = document.getElementById('lobby-chat');
  if (box) renderLobbyChat(box, live.chat, live.you);
}

/** `presets()`: the lobby's presets ({name: {players, defaults}}). */
export function startLobbyLive({ presets }) {
  startChallenges({ presets, you: () => live.you, online: () => live.players });
  onLobby('welcome', (f) => {
    live.you = f.you;
    live.players = f.players;
    live.chat = f.chat;
    drawOnline();
    drawChat();
    for (const c of f.challenges) showChallenge(c);
  });
  onLobby('online', (f) => {
    live.players = f.players;
    drawOnline();
  });
  onLobby('challenge', (f) => showChallenge(f.challenge));
  onLobby('chat', (f) => {
    live.chat = [...live.chat, f].slice(-50);
    addLobbyChat(f);
  });
  onLobby('error', lobbyChatError);
  onLanguage(drawOnline);
  connectLobby();
}
