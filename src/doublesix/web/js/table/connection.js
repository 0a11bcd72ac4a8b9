// The table's socket (docs/protocol.md): hello, snapshot, resume, updates; reconnects by itself.
// It keeps the version and the missed events; what a frame means for the page is the caller's.
import { forgetSeat } from '../api.js';
import { state, tableId } from './state.js';

// The server closed the socket because the session of our cookie ended (a log-out, a new
// password, a log-in, maybe in another tab or browser); only a socket that watches is closed
// so: a seat's plays on, the seat being its token's.
const SIGNED_OUT = 4411;

let handlers = {};

/**
 * Open the socket. `on` has the page's answers: view(view, events) for a snapshot or an
 * update, hint(moves), error(frame), presence(away), unseat(seat) when the seat was left before the
 * start (the socket watches from then on), chat(frame), unchat(version) and rechat(frame) for the chat,
 * missing() when the table is unknown.
 */
export function connect(on = handlers) {
  handlers = on;
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/ws/table/${encodeURIComponent(tableId)}`);
  state.ws = ws;
  ws.addEventListener('open', () => {
    state.retry = 500;
    ws.send(JSON.stringify({ type: 'hello', token: state.token, since: state.version }));
  });
  ws.addEventListener('message', (m) => {
    if (state.ws !== ws) return; // replaced (reconnect)
    let msg;
    try {
      msg = JSON.parse(m.data);
    } catch (e) {
      return;
    }
    handle(msg);
  });
  ws.addEventListener('close', (ev) => {
    if (state.ws !== ws) return;
    state.pending = false;
    if (ev.code === 4404) {
      handlers.missing();
      return;
    }
    if (ev.code === SIGNED_OUT) {
      // We watched as a player who is gone: the page says who the browser is now (the header,
      // the chat's line), and the next socket watches as that one, at once.
      document.dispatchEvent(new CustomEvent('ds:me'));
      connect();
      return;
    }
    if (ev.code === 4401 || ev.code === 4410) {
      // The token is not (or no longer) valid here, or its account is closed (4410, after an
      // error frame that says so): watch instead.
      state.token = null;
      state.seat = null;
      if (ev.code === 4410) {
        forgetSeat(tableId);
        document.dispatchEvent(new CustomEvent('ds:me')); // its session ended with it
      }
    }
    setTimeout(() => connect(), state.retry);
    state.retry = Math.min(state.retry * 2, 8000);
  });
}

/**
 * A new socket at once, in place of the open one, after taking a seat: hello with its token,
 * and a snapshot as that seat (what the old socket had was a spectator's view).
 */
export function reconnect() {
  const old = state.ws;
  state.ws = null; // its last frames and its closing are no longer ours
  state.version = null;
  state.backlog = [];
  if (old) old.close();
  connect();
}

/** Send a frame; false when the socket is not open. */
export function send(msg) {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) {
    state.ws.send(JSON.stringify(msg));
    return true;
  }
  return false;
}

/**
 * A frame that skips a version (a message lost between the server's processes): come back
 * with the last version seen, and get exactly what was missed.
 */
function gap(msg) {
  if (state.version === null || state.version === undefined || msg.version <= state.version + 1) return false;
  if (state.ws) state.ws.close();
  return true;
}

function handle(msg) {
  switch (msg.type) {
    case 'snapshot':
      state.version = msg.version;
      state.backlog = [];
      handlers.view(msg.view, []);
      break;
    case 'resume':
      // Back after a lost connection: the missed updates follow; only the last has a view.
      state.version = msg.since;
      state.backlog = [];
      break;
    case 'update':
      if (gap(msg)) break;
      state.version = msg.version;
      if (!msg.view) {
        state.backlog.push(...(msg.events || []));
        break;
      }
      handlers.view(msg.view, [...state.backlog, ...(msg.events || [])]);
      state.backlog = [];
      break;
    case 'chat':
      if (gap(msg)) break;
      state.version = msg.version;
      if (handlers.chat && !msg.removed) handlers.chat(msg); // removed: a resume's placeholder
      break;
    case 'unchat':
      if (gap(msg)) break;
      state.version = msg.version;
      if (handlers.unchat) handlers.unchat(msg.chat);
      break;
    case 'rechat':
      if (gap(msg)) break;
      state.version = msg.version;
      if (handlers.rechat) handlers.rechat(msg);
      break;
    case 'presence':
      handlers.presence(msg.away || []);
      break;
    case 'unseat':
      state.seat = null;
      state.token = null; // the next hello watches
      handlers.unseat(msg.seat);
      break;
    case 'hint':
      handlers.hint(msg.moves || []);
      break;
    case 'error':
      state.pending = false;
      handlers.error(msg);
      break;
    default:
      break;
  }
}
