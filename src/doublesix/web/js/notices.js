// What reaches a player on a page without the lobby (a table, a player's page, the
// leaderboard...): the personal lobby socket (/ws/lobby?only=me, docs/protocol.md "The lobby")
// brings their challenges, shown as in the lobby (challenge.js: accepted, they go to the
// table), and their private messages: the header's unread badge follows, and a toast links
// the thread. Opened once the reader has a name (a guest's or an account's); the lobby, the
// inbox and a tournament's page keep the whole lobby socket instead.
import { me } from './api.js';
import { startChallenges } from './challenge.js';
import { toast } from './common.js';
import { el } from './i18n.js';
import { showUnread } from './inbox_badge.js';
import { connectLobby, onLobby } from './lobby_socket.js';

let you = null; // who the socket's welcome said we are ({name, account}, or null)
let opened = false;

/** A toast that says who wrote, linked to the thread with them. */
function messageToast(name) {
  const shown = toast(null, {}, 'info message-toast');
  const link = el('a', 'inbox.toast', { name }, 'message-link');
  link.href = `/inbox/${encodeURIComponent(name)}`;
  shown.appendChild(link);
}

/** Open the personal socket once we have a name (from then on lobby_socket.js opens it
 * again after a drop or a change of who we are). */
async function openWhenNamed() {
  if (opened || !(await me().catch(() => null))) return;
  opened = true;
  connectLobby({ only: 'me' });
}

/** Start the page's notices: call once, after `startPage`. */
export function startNotices() {
  onLobby('welcome', (f) => {
    you = f.you || null;
    if (f.unread !== undefined) showUnread(f.unread);
  });
  onLobby('message', (f) => {
    if (f.unread === undefined) return; // one we wrote, from another tab
    showUnread(f.unread);
    messageToast(f.with);
  });
  // Closed with our account (a ban, our own close in another tab): the header and the socket
  // come again as whoever the browser is now.
  onLobby('account_closed', () => document.dispatchEvent(new CustomEvent('ds:me')));
  startChallenges({ you: () => you });
  document.addEventListener('ds:me', openWhenNamed);
  openWhenNamed();
}
