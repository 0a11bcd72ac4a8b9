// The lobby: a name, the tables, and a new table with every option.
import { accountForm, accountLinks, refusalKey } from './account.js';
import { ApiError, get, keepSeat, me, post, seatAt } from './api.js';
import { clear, PRESETS, setRulesPreset, sortBots, startPage, toast } from './common.js';
import { playerName } from './describe.js';
import { el, lit, onLanguage, tattr, tx } from './i18n.js';
import { startLobbyLive } from './lobby_live.js';
import { onLobby } from './lobby_socket.js';
import { startSeeks } from './seek.js';
import { drawFace, svgEl } from './tiles.js';
import { followTournamentPairing } from './tournament_paired.js';
import { startTournamentsCard } from './tournaments_card.js';

const OPENERS = ['highest_double', 'kozel', 'lowest_double', 'highest_tile', 'draw_for_lead'];
const SCORINGS = ['winner_takes', 'winner_takes_all', 'goat', 'kozel'];
const DRAW_RULES = ['draw_until_playable', 'draw_one'];
const FISH = ['all_hands', 'own_hands'];
const TIMERS = [0, 15, 30, 60, 120];

const state = {
  me: null,
  account: null, // the account form shown in the identity box: 'login', 'register', 'password'
  identity: 0, // how many times `me` was set: an answer to who we are asked before comes too late
  presets: {},
  bots: ['random', 'greedy'],
  form: null, // the options being edited
  hintsTouched: false,
};

// Presets as RULES.md's table gives them, in case the server is older than the client.
function fallbackPresets() {
  const rows = {
    draw: [[2, 3, 4], { 2: 7, 3: 5, 4: 5 }, true, 'highest_double', 'winner_takes', false],
    block: [[2, 3, 4], { 2: 7, 3: 6, 4: 7 }, false, 'highest_double', 'winner_takes', false],
    kozel: [[4], { 4: 7 }, false, 'kozel', 'kozel', true],
    'vog-talon': [[2, 3, 4], { 2: 7, 3: 5, 4: 5 }, true, 'lowest_double', 'winner_takes_all', false],
    'vog-block': [[2, 3, 4], { 2: 7, 3: 6, 4: 7 }, false, 'lowest_double', 'winner_takes_all', false],
    'vog-goat': [[4], { 4: 7 }, false, 'lowest_double', 'goat', true],
    international: [[4], { 4: 7 }, false, 'highest_tile', 'winner_takes_all', true],
    'international-2': [[2], { 2: 7 }, false, 'highest_tile', 'winner_takes_all', false],
    classic: [[2, 3, 4], { 2: 7, 3: 5, 4: 5 }, true, 'draw_for_lead', 'winner_takes', false],
  };
  const out = {};
  for (const [name, [players, hands, boneyard, opener, scoring, pairs]] of Object.entries(rows)) {
    const defaults = {};
    for (const n of players) {
      defaults[n] = {
        preset: name, players: n, hand_size: hands[n], boneyard, opener, scoring, target: 100, pairs,
        draw_rule: 'draw_until_playable', keep_in_boneyard: 0, redeal: name === 'kozel',
        fish_charge: 'all_hands', lone_zero_zero: 25, lone_six_six: 50,
      };
    }
    out[name] = { players, defaults };
  }
  return out;
}

function normalisePresets(data) {
  // {name: {players, defaults}} (docs/protocol.md); also accept a list of them.
  const out = {};
  const list = data && Array.isArray(data.presets) ? data.presets : data;
  const items = Array.isArray(list) ? list.map((p) => [p.name || p.preset, p]) : Object.entries(list || {});
  for (const [name, p] of items) {
    if (!name || !p) continue;
    const defaults = {};
    for (const [n, r] of Object.entries(p.defaults || {})) defaults[Number(n)] = r;
    const players = (p.players || Object.keys(defaults)).map(Number);
    if (players.length && Object.keys(defaults).length) out[name] = { players, defaults };
  }
  return Object.keys(out).length ? out : null;
}

async function main() {
  await startPage('title.lobby');
  tx(document.getElementById('welcome'), 'lobby.welcome');
  tx(document.getElementById('tagline'), 'lobby.tagline');
  heroArt();
  fetch('/static/i18n/ru.json')
    .then((r) => r.json())
    .then((ru) => {
      document.getElementById('welcome-ru').textContent = ru.welcome || '';
    })
    .catch(() => {});
  const [who, presets, bots] = await Promise.all([
    me().catch(() => null),
    get('/api/presets').catch(() => null),
    get('/api/bots').catch(() => null),
  ]);
  state.me = who;
  state.presets = normalisePresets(presets) || fallbackPresets();
  if (Array.isArray(bots) && bots.length) state.bots = sortBots(bots);
  renderIdentity();
  startForm(state.presets.kozel ? 'kozel' : Object.keys(state.presets)[0]);
  // The lists come whole at each welcome (a socket back after a drop has missed changes), then
  // a table at a time as it changes: nothing polls them.
  onLobby('welcome', refreshTables);
  onLobby('table', (f) => tableChanged(f.table));
  onLobby('session_ended', sessionEnded);
  startLobbyLive({ presets: () => state.presets });
  // "Play now": after the challenges, whose tab title it leaves alone.
  startSeeks({ presets: () => state.presets, me: () => state.me, needName });
  // Tournaments: the card, and a pairing takes us to our table from the lobby too.
  startTournamentsCard({ presets: () => state.presets, me: () => state.me });
  followTournamentPairing();
  await refreshTables();
  onLanguage(() => {
    renderForm();
    drawTables();
  });
}

// ---------------------------------------------------------------- identity

function showAccount(mode) {
  state.account = mode;
  renderIdentity();
}

function identityChanged(who) {
  state.identity += 1;
  state.me = who;
  state.account = null;
  renderIdentity();
  renderForm(); // "rated" is offered to an account only
  document.dispatchEvent(new CustomEvent('ds:me')); // the lobby socket comes again as us
}

/** The session our socket opened with ended (lobby_socket.js): our account was closed (a ban,
 * or in another tab), or we were logged out (in another tab, a new password in another
 * browser, a log-in): this page is whoever the browser is now. A closed account is told,
 * unless the close or erase form of this page says goodbye. An answer that comes after this
 * page's own log-in is too late: the log-in's stands. */
async function sessionEnded({ why }) {
  if (why === 'account_closed' && !['close', 'erase'].includes(state.account)) toast('account.err.closed', {}, 'error');
  const asked = state.identity;
  let who = null;
  try {
    who = (await get('/api/me')).player;
  } catch (e) {
    /* unanswered: nobody, until the next page asks again */
  }
  if (asked === state.identity) identityChanged(who);
}

function renderIdentity(editing = false) {
  const box = clear(document.getElementById('identity'));
  if (state.account) {
    accountForm(box, state.account, state.me, identityChanged, () => showAccount(null));
    return;
  }
  if (state.me && !editing) {
    box.appendChild(el('span', state.me.account ? 'account.logged_in_as' : 'lobby.playing_as', {}, 'label'));
    box.appendChild(lit('strong', state.me.name, 'my-name'));
    if (!state.me.account) {
      const change = el('button', 'lobby.change_name', {}, 'link-button');
      change.type = 'button';
      change.addEventListener('click', () => renderIdentity(true));
      box.appendChild(change);
    }
    accountLinks(box, state.me, showAccount, identityChanged);
    return;
  }
  const form = document.createElement('form');
  form.id = 'guest-form';
  form.className = 'guest-form';
  const label = el('label', 'lobby.name_label', {}, 'label');
  label.htmlFor = 'guest-name';
  form.appendChild(label);
  const input = document.createElement('input');
  input.id = 'guest-name';
  input.name = 'name';
  input.maxLength = 24;
  input.required = true;
  input.autocomplete = 'nickname';
  if (state.me) input.value = state.me.name;
  tattr(input, 'placeholder', 'lobby.name_placeholder');
  form.appendChild(input);
  const b = el('button', 'lobby.name_ok', {}, 'primary');
  b.type = 'submit';
  form.appendChild(b);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    await saveName(input.value);
  });
  box.appendChild(form);
  accountLinks(box, state.me, showAccount, identityChanged);
}

async function saveName(name) {
  const clean = String(name || '').trim();
  if (!clean) return null;
  try {
    state.me = (await post('/api/guest', { name: clean })).player;
    renderIdentity();
    document.dispatchEvent(new CustomEvent('ds:me')); // the lobby socket comes again as us
    return state.me;
  } catch (e) {
    const key = refusalKey(e, 'guest');
    if (key) toast(key, {}, 'error');
    else toast('err.server', { message: e.message }, 'error');
    return null;
  }
}

async function needName() {
  if (state.me) return true;
  const input = document.getElementById('guest-name');
  if (input && input.value.trim()) return Boolean(await saveName(input.value));
  toast('lobby.name_first', {}, 'error');
  if (input) input.focus();
  return false;
}

// ---------------------------------------------------------------- the new table

function startForm(preset, players) {
  const p = state.presets[preset];
  const n = players && p.players.includes(players) ? players : p.players.includes(4) ? 4 : p.players[p.players.length - 1];
  const defaults = { ...p.defaults[n] };
  const seats = [{ kind: 'human' }];
  for (let i = 1; i < n; i++) {
    const old = state.form && state.form.seats[i];
    seats.push(old ? { ...old } : { kind: 'bot', bot: state.bots.includes('greedy') ? 'greedy' : state.bots[0] });
  }
  state.form = {
    preset,
    options: defaults,
    targetChoice: [50, 100, 150, 'round'].includes(defaults.target) ? String(defaults.target) : 'custom',
    seats,
    timer: state.form ? state.form.timer : 0,
    hints: state.form && state.hintsTouched ? state.form.hints : false,
    rated: Boolean(state.form && state.form.rated),
  };
  if (!state.hintsTouched) state.form.hints = seats.every((s, n) => n === 0 || s.kind === 'bot');
  setRulesPreset(preset);
  renderForm();
}

function field(labelKey, control, { id, help } = {}) {
  const wrap = document.createElement('div');
  wrap.className = 'field';
  if (id) wrap.dataset.field = id;
  const label = el('label', labelKey, {}, 'label');
  if (control.id) label.htmlFor = control.id;
  wrap.appendChild(label);
  wrap.appendChild(control);
  if (help) wrap.appendChild(el('small', help, {}, 'help'));
  return wrap;
}

function select(id, values, current, keyPrefix, onChange) {
  const s = document.createElement('select');
  s.id = id;
  s.name = id;
  for (const v of values) {
    const o = keyPrefix ? el('option', `${keyPrefix}${v}`) : lit('option', String(v));
    o.value = String(v);
    if (String(v) === String(current)) o.selected = true;
    s.appendChild(o);
  }
  s.addEventListener('change', () => onChange(s.value));
  return s;
}

function checkbox(id, checked, onChange) {
  const c = document.createElement('input');
  c.type = 'checkbox';
  c.id = id;
  c.checked = Boolean(checked);
  c.addEventListener('change', () => onChange(c.checked));
  return c;
}

function number(id, value, min, max, onChange) {
  const i = document.createElement('input');
  i.type = 'number';
  i.id = id;
  i.name = id;
  i.min = String(min);
  if (max) i.max = String(max);
  i.value = String(value);
  i.addEventListener('change', () => onChange(Number(i.value)));
  return i;
}

function renderForm() {
  const f = state.form;
  const o = f.options;
  const box = clear(document.getElementById('create'));
  box.appendChild(el('h2', 'create.title'));
  const quick = el('button', 'create.quick_kozel', {}, 'quick-start');
  quick.type = 'button';
  quick.id = 'quick-kozel';
  quick.addEventListener('click', async () => {
    startForm('kozel');
    await createTable();
  });
  box.appendChild(quick);
  const form = document.createElement('form');
  form.id = 'create-form';
  form.className = 'create-form';
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    createTable();
  });
  const grid = document.createElement('div');
  grid.className = 'grid';
  // Preset and players.
  const presetNames = PRESETS.filter((p) => state.presets[p]).concat(Object.keys(state.presets).filter((p) => !PRESETS.includes(p)));
  grid.appendChild(field('create.preset', select('preset', presetNames, f.preset, 'preset.', (v) => startForm(v, o.players)), { id: 'preset' }));
  const desc = el('p', `preset_desc.${f.preset}`, {}, 'preset-desc');
  const p = state.presets[f.preset];
  grid.appendChild(field('create.players', select('players', p.players, o.players, null, (v) => startForm(f.preset, Number(v))), { id: 'players' }));
  // Target.
  const target = document.createElement('div');
  target.className = 'target-choice';
  // R40: a game of one round ("round"), or rounds to a target.
  const tsel = select('target', ['50', '100', '150', 'round', 'custom'], f.targetChoice, 'target.', (v) => {
    f.targetChoice = v;
    if (v === 'round') o.target = 'round';
    else if (v !== 'custom') o.target = Number(v);
    else if (typeof o.target !== 'number') o.target = 100;
    renderForm();
  });
  target.appendChild(tsel);
  if (f.targetChoice === 'custom') {
    target.appendChild(number('target-custom', o.target, 1, 10000, (v) => {
      o.target = v;
    }));
  }
  grid.appendChild(field(o.scoring === 'kozel' ? 'create.target_kozel' : 'create.target', target, { id: 'target' }));
  grid.appendChild(field('create.hand_size', number('hand_size', o.hand_size, 2, 14, (v) => {
    o.hand_size = v;
  }), { id: 'hand_size' }));
  grid.appendChild(field('create.scoring', select('scoring', SCORINGS, o.scoring, 'scoring.', (v) => {
    o.scoring = v;
    renderForm();
  }), { id: 'scoring' }));
  grid.appendChild(field('create.opener', select('opener', OPENERS, o.opener, 'opener.', (v) => {
    o.opener = v;
  }), { id: 'opener' }));
  if (o.boneyard) {
    grid.appendChild(field('create.draw_rule', select('draw_rule', DRAW_RULES, o.draw_rule, 'draw_rule.', (v) => {
      o.draw_rule = v;
    }), { id: 'draw_rule' }));
    grid.appendChild(field('create.keep', number('keep_in_boneyard', o.keep_in_boneyard || 0, 0, 20, (v) => {
      o.keep_in_boneyard = v;
    }), { id: 'keep_in_boneyard' }));
  }
  grid.appendChild(field('create.timer', select('timer', TIMERS, f.timer || 0, 'timer.', (v) => {
    f.timer = Number(v);
  }), { id: 'timer' }));
  const hints = checkbox('hints', f.hints, (on) => {
    f.hints = on;
    state.hintsTouched = true;
  });
  grid.appendChild(field('create.hints', hints, { id: 'hints', help: 'create.hints_help' }));
  if (state.me && state.me.account) {
    const rated = checkbox('rated', f.rated, (on) => {
      f.rated = on;
    });
    grid.appendChild(field('create.rated', rated, { id: 'rated', help: 'create.rated_help' }));
  }
  form.appendChild(desc);
  form.appendChild(grid);
  // Kozel's house rules.
  if (o.scoring === 'kozel') {
    const house = document.createElement('fieldset');
    house.className = 'house-rules';
    house.appendChild(el('legend', 'create.house_rules'));
    const g2 = document.createElement('div');
    g2.className = 'grid';
    g2.appendChild(field('create.fish_charge', select('fish_charge', FISH, o.fish_charge, 'fish.', (v) => {
      o.fish_charge = v;
    }), { id: 'fish_charge' }));
    g2.appendChild(field('create.lone00', select('lone_zero_zero', [25, 10, 0], o.lone_zero_zero, null, (v) => {
      o.lone_zero_zero = Number(v);
    }), { id: 'lone_zero_zero' }));
    g2.appendChild(field('create.lone66', select('lone_six_six', [50, 12], o.lone_six_six, null, (v) => {
      o.lone_six_six = Number(v);
    }), { id: 'lone_six_six' }));
    const redeal = checkbox('redeal', o.redeal, (on) => {
      o.redeal = on;
    });
    g2.appendChild(field('create.redeal', redeal, { id: 'redeal' }));
    house.appendChild(g2);
    form.appendChild(house);
  }
  // Seats.
  const seats = document.createElement('fieldset');
  seats.className = 'seats';
  seats.appendChild(el('legend', 'create.seats'));
  f.seats.forEach((s, i) => {
    const row = document.createElement('div');
    row.className = 'seat-row';
    row.dataset.seat = String(i);
    row.appendChild(el('span', o.pairs ? (i % 2 === 0 ? 'create.seat_pair_a' : 'create.seat_pair_b') : 'create.seat_n', { n: i + 1 }, 'seat-label'));
    if (i === 0) {
      row.appendChild(el('span', 'create.seat_you', {}, 'you'));
    } else {
      const values = ['invite', 'open', ...state.bots.map((b) => `bot:${b}`)];
      const current = s.kind === 'bot' ? `bot:${s.bot}` : s.kind;
      const sel = document.createElement('select');
      sel.id = `seat-${i}`;
      sel.className = 'seat-kind';
      for (const v of values) {
        const opt = v.startsWith('bot:') ? el('option', 'create.seat_bot', { level: { $t: `bot.${v.slice(4)}` } }) : el('option', `create.seat_${v}`);
        opt.value = v;
        if (v === current) opt.selected = true;
        sel.appendChild(opt);
      }
      sel.addEventListener('change', () => {
        f.seats[i] = sel.value.startsWith('bot:') ? { kind: 'bot', bot: sel.value.slice(4) } : { kind: sel.value };
        if (!state.hintsTouched) {
          f.hints = f.seats.every((x, n) => n === 0 || x.kind === 'bot');
          hints.checked = f.hints;
        }
      });
      row.appendChild(sel);
    }
    seats.appendChild(row);
  });
  const fill = el('button', 'create.fill_bots', {}, 'small');
  fill.type = 'button';
  fill.id = 'fill-bots';
  fill.addEventListener('click', () => {
    f.seats = f.seats.map((s, i) => (i === 0 ? s : { kind: 'bot', bot: state.bots.includes('greedy') ? 'greedy' : state.bots[0] }));
    if (!state.hintsTouched) f.hints = true;
    renderForm();
  });
  seats.appendChild(fill);
  form.appendChild(seats);
  const errors = document.createElement('p');
  errors.id = 'create-error';
  errors.className = 'error';
  form.appendChild(errors);
  const go = el('button', 'create.submit', {}, 'primary big');
  go.type = 'submit';
  go.id = 'create-table';
  form.appendChild(go);
  box.appendChild(form);
}

async function createTable() {
  if (!(await needName())) return;
  const f = state.form;
  const options = { ...f.options };
  delete options.preset;
  const body = {
    preset: f.preset,
    options,
    seats: f.seats.map((s) => (s.kind === 'bot' ? { kind: 'bot', bot: s.bot } : { kind: s.kind })),
    timer: f.timer ? f.timer : null,
    hints: Boolean(f.hints),
    rated: Boolean(state.me && state.me.account && f.rated),
  };
  const errors = document.getElementById('create-error');
  clear(errors);
  for (const node of document.querySelectorAll('.field.invalid')) node.classList.remove('invalid');
  try {
    const r = await post('/api/tables', body);
    keepSeat(r.id, r.seat ?? 0, r.token);
    location.href = `/table/${encodeURIComponent(r.id)}`;
  } catch (e) {
    const fieldName = e instanceof ApiError ? e.field : null;
    const node = fieldName && document.querySelector(`.field[data-field="${fieldName}"]`);
    if (node) node.classList.add('invalid');
    tx(errors, 'err.create', { message: e.message });
  }
}

// ---------------------------------------------------------------- the tables

function names(table) {
  const all = table.seats.map((s) => ({ name: s.name || '', bot: s.kind === 'bot' ? s.bot : null }));
  return table.seats
    .map((s, i) => (s.kind === 'open' || s.kind === 'invite' ? null : playerName(all, i)))
    .filter((x) => x !== null)
    .join(', ');
}

function heroArt() {
  const svg = document.getElementById('hero-art');
  if (!svg) return;
  const tiles = [[80, 14, -15, [6, 6]], [138, 52, 10, [5, 6]], [28, 60, 22, [1, 1]]];
  for (const [x, y, angle, pips] of tiles) {
    const g = svgEl('g', { transform: `translate(${x} ${y}) rotate(${angle})` }, svg);
    drawFace(g, 0, 0, 84, 42, 'h', pips);
  }
}

function tableRow(table, kind) {
  const li = document.createElement('li');
  li.className = 'table-row';
  li.dataset.table = table.id;
  const info = document.createElement('span');
  info.className = 'info';
  info.appendChild(el('strong', `preset.${table.preset}`));
  const target = table.ruleset && table.ruleset.target;
  if (target === 'round') info.appendChild(el('span', 'lobby.one_round', {}, 'muted'));
  else if (target) info.appendChild(el('span', 'lobby.to_target', { target }, 'muted'));
  // What a table is like before one joins: its clock, hints and whether it is rated.
  if (table.timer) info.appendChild(el('span', 'lobby.table_timer', { seconds: table.timer }, 'badge'));
  if (table.hints) info.appendChild(el('span', 'lobby.table_hints', {}, 'badge'));
  if (table.rated) info.appendChild(el('span', 'lobby.table_rated', {}, 'badge rated'));
  li.appendChild(info);
  li.appendChild(lit('span', names(table), 'names'));
  const open = table.seats.filter((s) => s.kind === 'open').length;
  if (kind === 'open') li.appendChild(el('span', 'lobby.free_seats', { count: open }, 'badge'));
  const mine = seatAt(table.id);
  const a = document.createElement('a');
  a.className = 'button small';
  if (kind === 'finished') {
    a.href = `/game/${encodeURIComponent(table.id)}`;
    tx(a, 'lobby.record');
  } else {
    a.href = `/table/${encodeURIComponent(table.id)}`;
    tx(a, mine ? 'lobby.back_to' : kind === 'open' ? 'lobby.join' : 'lobby.watch');
  }
  li.appendChild(a);
  return li;
}

/** How many tables of each list the page keeps (as many as `GET /api/tables` gives) and shows. */
const KEPT = { open: 200, playing: 200, finished: 50 };
const SHOWN = { open: 30, playing: 30, finished: 10 };
const tables = { open: [], playing: [], finished: [] };

async function refreshTables() {
  let data;
  try {
    data = await get('/api/tables');
  } catch (e) {
    return;
  }
  for (const kind of Object.keys(tables)) tables[kind] = (data && data[kind]) || [];
  drawTables();
}

/** A table's entry changed (`table` frame): it moves to the top of its status's list. */
function tableChanged(table) {
  for (const kind of Object.keys(tables)) tables[kind] = tables[kind].filter((t) => t.id !== table.id);
  if (table.status in tables) tables[table.status] = [table, ...tables[table.status]].slice(0, KEPT[table.status]);
  drawTables();
}

function drawTables() {
  const box = clear(document.getElementById('tables'));
  for (const kind of ['open', 'playing', 'finished']) {
    const list = tables[kind];
    const section = document.createElement('div');
    section.className = `table-list ${kind}`;
    section.appendChild(el('h2', `lobby.${kind}`));
    if (!list.length) section.appendChild(el('p', `lobby.none_${kind}`, {}, 'muted'));
    const ul = document.createElement('ul');
    for (const table of list.slice(0, SHOWN[kind])) ul.appendChild(tableRow(table, kind));
    section.appendChild(ul);
    box.appendChild(section);
  }
}

main().catch((e) => {
  console.error(e);
  toast('err.server', { message: String(e.message || e) }, 'error');
});
