// What reaches a player on a page without the lobby (a table, a player's page, the
// leaderboard...): the personal lobby socket (/ws/lobby?only=me, docs/protocol.md "The lobby")
// brings their challenges, shown as in the lobby (challenge.js: accepted, they go to the
// table), and their private messages: the header's unread badge follows, and a toast links
// the thread (message_notice.js). Open while the reader has a name (a guest's or an
// account's): a visitor's would get nothing, so a log-out closes it and a name opens it
// again. A log-out, a new password or a log-in in another tab ends the session it opened
// with: the server closes it (4411), and the page asks at once who the reader is now. The
// lobby, the inbox and a tournament's page keep the whole lobby socket instead.
import { me } from './api.js';
import { startChallenges } from './challenge.js';
import { showUnread } from './inbox_badge.js';
import { closeLobby, connectLobby, onLobby } from './lobby_socket.js';
import { noticeMessage } from './message_notice.js';

let you = null; // who the socket's welcome said we are ({name, account}, or null)
let asked = 0; // the latest question of who we are: an older answer comes too late

/** Open the personal socket (again, with the browser's cookie now) if we have a name, else
 * close it until we have one. */
async function followName() {
  const question = ++asked;
  const named = await me().catch(() => null);
  if (question !== asked) return;
  if (named) connectLobby({ only: 'me' });
  else closeLobby();
}

/** Start the page's notices: call once, after `startPage`. */
export function startNotices() {
  onLobby('welcome', (f) => {
    you = f.you || null;
    if (!you) closeLobby(); // logged out elsewhere, and come again after a drop
    if (f.unread !== undefined) showUnread(f.unread);
  });
  onLobby('message', noticeMessage);
  // Closed as the session it opened with ended (our account closed, a log-out, a new password
  // or a log-in elsewhere): the header and the socket come again at once as whoever the browser
  // is now, and the challenges shown, the old player's, go (challenge.js).
  onLobby('session_ended', () => document.dispatchEvent(new CustomEvent('ds:me')));
  startChallenges({ you: () => you });
  document.addEventListener('ds:me', followName);
  followName();
}
