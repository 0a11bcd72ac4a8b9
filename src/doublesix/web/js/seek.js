// "Play now" (quick pairing, docs/protocol.md): the player picks a kind of game and waits in
// the pool; as soon as enough players seek the same kind the server makes a table with all
// of them seated, and every one of their browsers goes there. The card beside the kinds shows
// how many seek each one now (the pool, pushed by the lobby socket); while we seek, what we
// seek, how long we have waited and "Cancel". In a background tab the title says we seek.
import { api, ApiError, goSeated, post } from './api.js';
import { mutedNames } from './chat.js';
import { clear } from './common.js';
import { el, lit, t, tattr, tx } from './i18n.js';
import { onLobby } from './lobby_socket.js';

/** The kinds offered, as [preset, players]: the common games. */
const KINDS = [['draw', 2], ['draw', 4], ['block', 2], ['block', 4], ['kozel', 4]];
const CHOSEN = 'ds_seek_kind'; // the kind this browser sought last
const RATED = 'ds_seek_rated';
const AVOID_MAX = 200; // names a seek may avoid: the pool never seats us with a muted name

const state = {
  you: undefined, // {name, account} or null once the lobby socket said; undefined before
  seek: null, // our seek as the server last told it, with `received` (performance.now())
  pool: [],
  kind: null, // 'draw-2': the kind chosen in the card
  rated: false,
  busy: false, // a request on its way
  error: null, // [key, params] shown in the card
  found: false, // paired: on our way to the table
};
let ctx = null;
let clockTimer = null;
let titleShown = null; // the title we put on the tab, to take it off again

const kindId = (preset, players) => `${preset}-${players}`;

function kindLabel(preset, players) {
  return { $t: 'lobby.seek.kind', args: { game: { $t: `preset.${preset}` }, count: players } };
}

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch (e) {
    return null;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (e) {
    /* private mode: the choice lasts as long as the page */
  }
}

function you() {
  return state.you === undefined ? ctx.me() : state.you;
}

/** The kinds of KINDS that the server's presets play. */
function kinds() {
  const presets = ctx.presets() || {};
  return KINDS.filter(([p, n]) => presets[p] && (presets[p].players || []).includes(n));
}

/** How many seek `preset` for `players` now, in rated games or in unrated ones. */
function seeking(preset, players, rated) {
  return state.pool
    .filter((k) => k.preset === preset && k.players === players && Boolean(k.rated) === rated)
    .reduce((sum, k) => sum + (Number(k.seeking) || 0), 0);
}

function waited() {
  const s = state.seek;
  if (!s) return 0;
  return Math.max(0, (Number(s.waiting) || 0) + (performance.now() - s.received) / 1000);
}

/** Seconds as m:ss. */
function clock(seconds) {
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

// ---------------------------------------------------------------- drawing

function card() {
  return document.getElementById('seek');
}

function render() {
  const box = card();
  if (!box) return;
  clear(box);
  const head = document.createElement('div');
  head.className = 'seek-head';
  const title = el('h2', 'lobby.seek.title');
  title.id = 'seek-title';
  head.appendChild(title);
  box.appendChild(head);
  const status = document.createElement('div');
  status.className = 'seek-body';
  status.setAttribute('aria-live', 'polite');
  box.appendChild(status);
  if (state.found) {
    status.appendChild(el('p', 'lobby.seek.found', {}, 'seek-found'));
  } else if (state.seek) {
    renderSeeking(status);
  } else {
    renderIdle(status);
  }
  const error = document.createElement('p');
  error.id = 'seek-error';
  error.className = 'error seek-error';
  if (state.error) tx(error, state.error[0], state.error[1]);
  box.appendChild(error);
  box.dataset.state = state.found ? 'found' : state.seek ? 'seeking' : 'idle';
  showClock();
  showTitle();
}

function renderIdle(box) {
  box.appendChild(el('p', 'lobby.seek.intro', {}, 'seek-intro muted'));
  const form = document.createElement('form');
  form.id = 'seek-form';
  form.className = 'seek-form';
  const list = document.createElement('div');
  list.className = 'seek-kinds';
  list.setAttribute('role', 'radiogroup');
  tattr(list, 'aria-label', 'lobby.seek.kinds');
  const offered = kinds();
  if (!offered.some(([p, n]) => kindId(p, n) === state.kind)) state.kind = offered.length ? kindId(...offered[0]) : null;
  for (const [preset, players] of offered) {
    const id = kindId(preset, players);
    const label = document.createElement('label');
    label.className = 'seek-kind';
    label.dataset.kind = id;
    const radio = document.createElement('input');
    radio.type = 'radio';
    radio.name = 'seek-kind';
    radio.value = id;
    radio.checked = id === state.kind;
    label.classList.toggle('chosen', radio.checked);
    radio.addEventListener('change', () => {
      if (!radio.checked) return;
      state.kind = id;
      store(CHOSEN, id);
      for (const other of list.querySelectorAll('.seek-kind')) other.classList.toggle('chosen', other.dataset.kind === id);
    });
    label.appendChild(radio);
    const text = document.createElement('span');
    text.className = 'seek-kind-text';
    text.appendChild(el('span', `preset.${preset}`, {}, 'seek-game'));
    text.appendChild(el('span', 'lobby.seek.players', { count: players }, 'seek-players'));
    label.appendChild(text);
    const count = document.createElement('span');
    count.className = 'seek-count-slot';
    label.appendChild(count);
    list.appendChild(label);
  }
  form.appendChild(list);
  const actions = document.createElement('div');
  actions.className = 'seek-actions';
  const who = you();
  if (who && who.account) {
    const rated = document.createElement('label');
    rated.className = 'seek-rated';
    const check = document.createElement('input');
    check.type = 'checkbox';
    check.id = 'seek-rated';
    check.checked = state.rated;
    check.addEventListener('change', () => {
      state.rated = check.checked;
      store(RATED, state.rated ? '1' : '0');
      drawCounts();
    });
    rated.appendChild(check);
    rated.appendChild(el('span', 'lobby.seek.rated'));
    actions.appendChild(rated);
    actions.appendChild(el('small', 'lobby.seek.rated_help', {}, 'help seek-rated-help'));
  } else if (!who) {
    actions.appendChild(el('small', 'lobby.seek.name_first', {}, 'help seek-name-first'));
  }
  const find = el('button', 'lobby.seek.find', {}, 'primary');
  find.type = 'submit';
  find.id = 'seek-find';
  find.disabled = state.busy || !state.kind;
  actions.appendChild(find);
  form.appendChild(actions);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    findPlayers();
  });
  box.appendChild(form);
  drawCounts();
}

function renderSeeking(box) {
  const s = state.seek;
  const line = document.createElement('div');
  line.className = 'seek-waiting';
  line.appendChild(lit('span', '', 'seek-pulse'));
  const what = document.createElement('span');
  what.className = 'seek-what-line';
  what.appendChild(el('span', 'lobby.seek.seeking', { game: kindLabel(s.preset, s.players) }, 'seek-what'));
  if (s.rated) what.appendChild(el('span', 'lobby.table_rated', {}, 'badge rated'));
  line.appendChild(what);
  box.appendChild(line);
  if (s.players > 2) box.appendChild(el('p', 'lobby.seek.fill', {}, 'muted small-note seek-fill'));
  if (s.seated) { // seated in another tab: the pool pairs us once we are free, and says so
    const note = el('p', 'lobby.seek.seated', {}, 'small-note seek-seated');
    note.id = 'seek-seated';
    const link = el('a', 'lobby.seek.to_table');
    link.href = `/table/${encodeURIComponent(s.seated)}`;
    note.append(' ', link);
    box.appendChild(note);
  }
  const row = document.createElement('div');
  row.className = 'seek-actions';
  const time = lit('span', clock(waited()), 'seek-clock');
  time.id = 'seek-clock';
  time.setAttribute('role', 'timer');
  tattr(time, 'title', 'lobby.seek.clock');
  tattr(time, 'aria-label', 'lobby.seek.clock');
  row.appendChild(time);
  const cancel = el('button', 'lobby.seek.cancel');
  cancel.type = 'button';
  cancel.id = 'seek-cancel';
  cancel.disabled = state.busy;
  cancel.addEventListener('click', withdraw);
  row.appendChild(cancel);
  box.appendChild(row);
}

/** The counts beside the kinds, redrawn in place (the pool changes often). */
function drawCounts() {
  const box = card();
  if (!box) return;
  const rated = Boolean(you() && you().account && state.rated);
  for (const label of box.querySelectorAll('.seek-kind')) {
    const [preset, players] = KINDS.find(([p, n]) => kindId(p, n) === label.dataset.kind);
    const n = seeking(preset, players, rated);
    const slot = clear(label.querySelector('.seek-count-slot'));
    if (n > 0) slot.appendChild(el('span', 'lobby.seek.count', { count: n }, 'seek-count badge'));
    label.classList.toggle('has-seekers', n > 0);
  }
}

function showClock() {
  clearInterval(clockTimer);
  clockTimer = null;
  if (!state.seek || state.found) return;
  const tick = () => {
    const node = document.getElementById('seek-clock');
    if (node) node.textContent = clock(waited());
  };
  tick();
  clockTimer = setInterval(tick, 250);
}

/** The page's own title, as i18n.js sets it. */
function pageTitle() {
  return `${t(document.body.dataset.titleKey || 'title.lobby')} · doublesix`;
}

/** In a background tab, the title says we seek; in sight, or once we seek no more, the
 * page's own again (unless another part of the page put its own there meanwhile). */
function showTitle() {
  const wanted = document.hidden && state.seek && !state.found ? `${t('lobby.seek.tab_title')} · doublesix` : null;
  if (wanted) {
    if (document.title === pageTitle() || document.title === titleShown) {
      document.title = wanted;
      titleShown = wanted;
    }
  } else if (titleShown !== null) {
    if (document.title === titleShown) document.title = pageTitle();
    titleShown = null;
  }
}

// ---------------------------------------------------------------- the server

function seekChanged(seek, table) {
  state.seek = seek ? { ...seek, received: performance.now() } : null;
  if (table) {
    goToTable(table);
    return;
  }
  render();
}

let going = false;

/** Paired: we hold a seat at `tableId` (as after an accepted challenge); its token, then
 * the table. */
async function goToTable(tableId) {
  if (going) return; // the answer and the socket's frame both say where
  going = true;
  state.found = true;
  state.seek = null;
  state.error = null;
  render();
  await goSeated(tableId);
}

/** The refusals a player can meet here, in the reader's words (by their codes); any other
 * in the server's. */
const REFUSALS = { too_many_seeks: 'lobby.seek.err.too_many', rated: 'lobby.seek.err.rated' };

function refused(e) {
  const code = e instanceof ApiError && e.body ? e.body.code : null;
  if (code && REFUSALS[code]) return [REFUSALS[code], {}];
  return ['lobby.seek.error', { message: e instanceof ApiError ? e.message : String(e.message || e) }];
}

async function findPlayers() {
  if (state.busy || !state.kind) return;
  state.error = null;
  if (!(await ctx.needName())) {
    render();
    return;
  }
  const [preset, players] = KINDS.find(([p, n]) => kindId(p, n) === state.kind);
  const who = you();
  state.busy = true;
  render();
  try {
    const rated = Boolean(who && who.account && state.rated);
    const r = await post('/api/seeks', { preset, players, rated, avoid: mutedNames().slice(0, AVOID_MAX) });
    state.busy = false;
    seekChanged(r.seek, r.table);
  } catch (e) {
    state.busy = false;
    state.error = refused(e);
    render();
  }
}

async function withdraw() {
  if (state.busy) return;
  state.busy = true;
  state.error = null;
  render();
  try {
    const r = await api('DELETE', '/api/seeks');
    state.busy = false;
    seekChanged(r ? r.seek : null, null);
  } catch (e) {
    state.busy = false;
    if (e instanceof ApiError && e.status === 404) seekChanged(null, null); // it had ended
    else {
      state.error = refused(e);
      render();
    }
  }
}

/** `context`: presets() ({name: {players, defaults}}), me() (who we are, before the lobby
 * socket says), needName() (asks a visitor for a name first; true once we have one). */
export function startSeeks(context) {
  ctx = context;
  state.kind = stored(CHOSEN);
  state.rated = stored(RATED) === '1';
  onLobby('welcome', (f) => {
    state.you = f.you || null;
    state.pool = Array.isArray(f.pool) ? f.pool : [];
    if (!going) seekChanged(f.seek || null, null);
  });
  onLobby('pool', (f) => {
    state.pool = Array.isArray(f.pool) ? f.pool : [];
    drawCounts();
  });
  onLobby('seek', (f) => {
    if (!going) seekChanged(f.seek || null, f.table || null);
  });
  // Who we are changed (a name, a log-in, a log-out): "Rated" is for accounts only.
  document.addEventListener('ds:me', () => {
    state.you = undefined;
    render();
  });
  document.addEventListener('visibilitychange', showTitle);
  render();
}
