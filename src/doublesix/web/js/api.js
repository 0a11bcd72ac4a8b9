// The server's HTTP API (docs/protocol.md) and the tokens of the seats we hold.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
    this.field = this.body.field;
  }
}

export async function api(method, path, body) {
  const init = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  let data = null;
  const text = await r.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch (e) {
      data = { error: text };
    }
  }
  if (!r.ok) {
    // FastAPI's own errors say {"detail": ...}; ours say {"error", "field"}.
    if (data && !data.error && data.detail) {
      data = { error: typeof data.detail === 'string' ? data.detail : JSON.stringify(data.detail) };
    }
    throw new ApiError(r.status, data);
  }
  return data;
}

export const get = (path) => api('GET', path);
export const post = (path, body) => api('POST', path, body ?? {});

let mine = null; // this page's answer to /api/me, while it holds

/** The player this browser is ({name, account}, and `operator` for one of the site's
 * operators: a guest or an account), or null. Asked once a page, and again once the page
 * says that who we are changed ("ds:me": a name taken, a log-in, a log-out). */
export function me() {
  if (mine === null) {
    mine = get('/api/me').then((r) => (r && r.player) || null);
    mine.catch(() => {
      mine = null; // not answered: asked again next time
    });
  }
  return mine;
}

// Registered as this module is first read, before any other part of the page listens.
document.addEventListener('ds:me', () => {
  mine = null;
});

function storeKey(tableId) {
  return `ds_token_${tableId}`;
}

/** {seat, token} of our seat at a table, or null. */
export function seatAt(tableId) {
  try {
    const raw = localStorage.getItem(storeKey(tableId));
    return raw ? JSON.parse(raw) : null;
  } catch (e) {
    return null;
  }
}

export function keepSeat(tableId, seat, token) {
  try {
    localStorage.setItem(storeKey(tableId), JSON.stringify({ seat, token }));
  } catch (e) {
    /* private mode: the seat lasts as long as the page */
  }
}

/** Forget our seat at `tableId`: it is not ours any more (left before the start). */
export function forgetSeat(tableId) {
  try {
    localStorage.removeItem(storeKey(tableId));
  } catch (e) {
    /* private mode: nothing was kept */
  }
}

/** Our seat at `tableId`, held for us (an accepted challenge, a paired seek): take its token
 * and go to the table (as a spectator if the seat could not be taken). */
export async function goSeated(tableId) {
  try {
    const r = await post(`/api/tables/${encodeURIComponent(tableId)}/join`, {});
    keepSeat(tableId, r.seat, r.token);
  } catch (e) {
    /* the table page lets us watch */
  }
  location.href = `/table/${encodeURIComponent(tableId)}`;
}
