// The lobby socket (/ws/lobby, docs/protocol.md "The lobby"): who is online, challenges and
// the lobby's chat, pushed by the server; it comes back by itself after a drop. A page without
// the lobby opens the personal one instead (`only: 'me'`, /ws/lobby?only=me: its player's
// challenges and private messages only; notices.js).
const handlers = new Map();
let socket = null;
let retry = 0;
let timer = null;
let mode = null; // the options of the page's socket ({} or {only: 'me'}); null: none opened

// The server closed the socket because the session it opened with ended: why.
const SESSION_ENDED = new Map([
  [4410, 'account_closed'], // our account was closed: a ban, or our own close in another tab
  [4411, 'signed_out'], // a log-out, a new password in another browser, a log-in over it
]);

/** Call fn(frame) for every frame of `type` ('welcome', 'online', 'challenge', 'chat',
 * 'error'; 'closed' when the socket drops, 'session_ended' ({why: 'account_closed' or
 * 'signed_out'}) when the server closed it because the session it opened with ended: the page
 * asks who the browser is now and says so with `ds:me`, which opens the next socket at once). */
export function onLobby(type, fn) {
  if (!handlers.has(type)) handlers.set(type, []);
  handlers.get(type).push(fn);
}

function emit(type, frame) {
  for (const fn of handlers.get(type) || []) {
    try {
      fn(frame);
    } catch (e) {
      console.error(e);
    }
  }
}

/** Close the open socket, if any, with no reconnection: its `onclose` and the timer dropped. */
function shut() {
  clearTimeout(timer);
  if (!socket) return;
  socket.onclose = null;
  socket.close();
  socket = null;
}

/** Open the page's lobby socket, closing the one open: the lobby's, or with `{only: 'me'}` the
 * personal one. The mode is kept: a drop opens the same again, and so does a change of who we
 * are for the lobby's (the personal one's page decides: notices.js). */
export function connectLobby(options = mode || {}) {
  mode = options;
  shut();
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const only = mode.only ? `?only=${encodeURIComponent(mode.only)}` : '';
  const ws = new WebSocket(`${scheme}://${location.host}/ws/lobby${only}`);
  socket = ws;
  ws.onmessage = (ev) => {
    let frame;
    try {
      frame = JSON.parse(ev.data);
    } catch (e) {
      return;
    }
    if (frame.type === 'welcome') retry = 0;
    emit(frame.type, frame);
  };
  ws.onclose = (ev) => {
    if (socket !== ws) return;
    socket = null;
    retry = Math.min(retry + 1, 6);
    // Set before the handlers run: the socket one of them opens at once (ds:me) cancels it.
    timer = setTimeout(() => connectLobby(), 500 * 2 ** retry);
    emit('closed', {});
    const why = SESSION_ENDED.get(ev.code);
    if (why) emit('session_ended', { why });
  };
}

/** Close the page's socket for good: nothing opens it again, not a change of who we are
 * either, until `connectLobby` (the personal socket of a reader without a name: notices.js). */
export function closeLobby() {
  mode = null;
  shut();
}

/** Send a frame; false if the socket is not open. */
export function sendLobby(frame) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(frame));
  return true;
}

// Whoever changes who we are (a name, a log-in, a log-out) says so with this event: the
// lobby's socket comes again with the new cookie (a visitor reads the lobby too). The
// personal one is its page's to open again or close (notices.js: a visitor's gets nothing).
document.addEventListener('ds:me', () => {
  if (mode && !mode.only) connectLobby();
});
