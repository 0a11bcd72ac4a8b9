// The table's socket (docs/protocol.md): hello, snapshot, resume, updates; reconnects by itself.
// It keeps the version and the missed events; what a frame means for the page is the caller's.
import { forgetSeat, get, keepSeat, me, post } from '../api.js';
import { state, tableId } from './state.js';

// The server closed the socket because the session of our cookie ended (a log-out, a new
// password, a log-in, maybe in another tab or browser); only a socket that watches is closed
// so: a seat's plays on, the seat being its token's (until a new password replaces the token:
// `unseat`, then this close if the password ended our session).
const SIGNED_OUT = 4411;

let handlers = {};
let rekeyed = null; // the seat whose new token an update just told of: its `unseat` follows
let badToken = null; // the refusal of our token, told once we know we cannot take the seat back

/**
 * Open the socket. `on` has the page's answers: view(view, events) for a snapshot or an
 * update, hint(moves), error(frame), presence(away), unseat(seat, why) when the socket watches
 * from then on: the seat was left before the start (`why` 'left'), or took a new token that this
 * page may not take (`why` 'rekeyed': its account's password changed, and our session ended with
 * it), chat(frame), unchat(version) and rechat(frame) for the chat, missing() when the table is
 * unknown.
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
    const seat = state.seat;
    if (ev.code === 4401 || ev.code === 4410) {
      // The token is not (or no longer) valid here, or its account is closed (4410, after an
      // error frame that says so): watch instead.
      state.token = null;
      state.seat = null;
      if (ev.code === 4410) {
        forgetSeat(tableId);
        document.dispatchEvent(new CustomEvent('ds:me')); // its session ended with it
      } else if (seat !== null) {
        // A token replaced by a new password (kept by this browser from before): the seat is
        // still our account's, its new token ours for the asking. Its refusal is told only
        // when we may not.
        const refused = badToken;
        badToken = null;
        takeBack(seat).then((back) => {
          if (!back && refused) handlers.error(refused);
          connect();
        });
        return;
      }
    }
    if (badToken) handlers.error(badToken);
    badToken = null;
    setTimeout(() => connect(), state.retry);
    state.retry = Math.min(state.retry * 2, 8000);
  });
}

/**
 * Take back our account's seat here with its token of now: the usual join answers an account
 * seated already with its seat, and the page keeps its token. The seat `seat` (null: the one the
 * table lists as our account's, if any: a browser that never had its token), at the table as
 * `read` (the page's first read of it), or as read now. True once the seat is ours again; false
 * when the table lists no such seat of ours (left, or we are no account) or the join is refused
 * (the session of our cookie ended with a new password: a thief's page, or one the operator's
 * reset signed out).
 */
export async function takeBack(seat, read = null) {
  const path = `/api/tables/${encodeURIComponent(tableId)}`;
  try {
    const who = await me();
    const table = who && who.account ? read || (await get(path)) : null;
    if (!table || !['open', 'playing'].includes(table.status)) return false;
    const ours = (s) => s && s.kind === 'human' && s.account && s.name === who.name;
    const at = seat === null ? table.seats.findIndex(ours) : seat;
    if (!ours(table.seats[at])) return false;
    const r = await post(`${path}/join`, { seat: at });
    state.seat = r.seat;
    state.token = r.token;
    keepSeat(tableId, r.seat, r.token);
    return true;
  } catch (e) {
    return false; // refused, or not answered: we watch
  }
}

/**
 * The socket holds `seat` no more: it was left before the start, or it took a new token (the
 * update before said so: its account's password changed). A page whose session is still the
 * account's takes the new token and says hello with it; any other is told why, and watches on a
 * new socket (a spectator's snapshot in place of the seat's hand) as whoever the browser is now:
 * the password may have ended our session, whose close (4411) the old socket would have told.
 */
async function unseated(seat) {
  const replaced = rekeyed === seat;
  rekeyed = null;
  if (!replaced) {
    handlers.unseat(seat, 'left');
  } else if (await takeBack(seat)) {
    reconnect();
  } else {
    handlers.unseat(seat, 'rekeyed');
    document.dispatchEvent(new CustomEvent('ds:me'));
    reconnect();
  }
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
      if ((msg.events || []).some((e) => e.rekey && e.seat === state.seat)) rekeyed = state.seat;
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
      unseated(msg.seat);
      break;
    case 'hint':
      handlers.hint(msg.moves || []);
      break;
    case 'error':
      state.pending = false;
      if (msg.code === 'bad_token') badToken = msg; // its close (4401) follows: told there
      else handlers.error(msg);
      break;
    default:
      break;
  }
}
