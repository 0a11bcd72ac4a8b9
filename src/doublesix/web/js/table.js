// The table: the line, the hands, whose turn, the score pad; playing by click and keyboard.
import { ApiError, get, keepSeat, me, post, seatAt } from './api.js';
import { drawLine } from './board.js';
import { clear, setRulesPreset, sortBots, startPage, toast } from './common.js';
import {
  drawGroupText, eventText, gameEndText, groupDraws, playerName,
  redealText, roundExplanation, scorePad, sideOf,
} from './describe.js';
import { el, has, lit, onLanguage, tattr, tx } from './i18n.js';
import { parseTile, tileName, tileSVG } from './tiles.js';

const tableId = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');

const state = {
  table: null,
  seat: null, // our seat number, or null when watching
  token: null,
  version: null,
  view: null,
  ws: null,
  selected: null, // tile name lifted from the hand
  focus: 0, // keyboard position in the hand
  pending: false, // a play was sent and its update has not come back
  continued: false,
  hint: null,
  quick: true,
  retry: 500,
  bots: [],
  lastRound: null,
  drawn: new Set(), // tiles we drew in the latest update
  backlog: [], // events of missed updates that came back after a reconnect (no view of their own)
};

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- start

async function main() {
  await startPage('title.table');
  try {
    state.quick = localStorage.getItem('ds_quick') !== '0';
  } catch (e) {
    state.quick = true;
  }
  $('quick').checked = state.quick;
  $('quick').addEventListener('change', () => {
    state.quick = $('quick').checked;
    try {
      localStorage.setItem('ds_quick', state.quick ? '1' : '0');
    } catch (e) {
      /* ignore */
    }
  });
  tx($('quick-label'), 'table.quick');
  tx($('pad-toggle'), 'table.scores');
  tx($('hint'), 'table.hint');
  tattr($('board'), 'aria-label', 'table.board');
  $('pad-toggle').addEventListener('click', () => $('side').classList.toggle('open'));
  $('hint').addEventListener('click', askHint);
  document.addEventListener('keydown', onKey);
  document.addEventListener('contextmenu', (ev) => {
    if (state.selected) {
      ev.preventDefault();
      cancel();
    }
  });
  new ResizeObserver(() => state.view && renderBoard()).observe(document.querySelector('.board-wrap'));
  setInterval(tickTimers, 250);
  onLanguage(() => state.view && render());

  const held = seatAt(tableId);
  if (held) {
    state.seat = held.seat;
    state.token = held.token;
  }
  try {
    state.table = await get(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (e) {
    showMissing();
    return;
  }
  setRulesPreset(state.table.preset);
  try {
    state.bots = sortBots(await get('/api/bots'));
  } catch (e) {
    state.bots = ['random', 'greedy'];
  }
  const invite = new URLSearchParams(location.search).get('invite');
  if (!state.token && invite && state.table.status === 'open') await joinWith({ invite });
  if (state.table.status === 'open') waitForPlayers();
  else connect();
}

function showMissing() {
  const w = $('waiting');
  w.classList.remove('hidden');
  clear(w).appendChild(el('h2', 'table.missing'));
  const a = el('a', 'nav.lobby');
  a.href = '/';
  w.appendChild(a);
}

async function ensureGuest(container) {
  const who = await me();
  if (who) return who;
  return new Promise((resolve) => {
    const form = document.createElement('form');
    form.className = 'guest-form';
    form.appendChild(el('label', 'lobby.name_label', {}, 'label'));
    const input = document.createElement('input');
    input.name = 'name';
    input.maxLength = 24;
    input.required = true;
    tattr(input, 'placeholder', 'lobby.name_placeholder');
    form.appendChild(input);
    const b = el('button', 'table.sit_down');
    b.type = 'submit';
    form.appendChild(b);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      try {
        const guest = await post('/api/guest', { name: input.value.trim() });
        form.remove();
        resolve(guest);
      } catch (e) {
        toast('err.server', { message: e.message }, 'error');
      }
    });
    container.appendChild(form);
    input.focus();
  });
}

async function joinWith(body) {
  const w = $('waiting');
  w.classList.remove('hidden');
  await ensureGuest(w);
  try {
    const r = await post(`/api/tables/${encodeURIComponent(tableId)}/join`, body);
    state.seat = r.seat;
    state.token = r.token;
    keepSeat(tableId, r.seat, r.token);
    state.table = await get(`/api/tables/${encodeURIComponent(tableId)}`);
    return true;
  } catch (e) {
    toast('err.server', { message: e.message }, 'error');
    return false;
  }
}

// ---------------------------------------------------------------- waiting room

let waitTimer = null;

function waitForPlayers() {
  renderWaiting();
  clearInterval(waitTimer);
  waitTimer = setInterval(async () => {
    try {
      const table = await get(`/api/tables/${encodeURIComponent(tableId)}`);
      const changed = JSON.stringify(table) !== JSON.stringify(state.table);
      state.table = table;
      if (table.status !== 'open') {
        clearInterval(waitTimer);
        $('waiting').classList.add('hidden');
        connect();
      } else if (changed) renderWaiting();
    } catch (e) {
      /* try again */
    }
  }, 1200);
}

function inviteUrl() {
  return `${location.origin}/table/${encodeURIComponent(tableId)}?invite=${encodeURIComponent(state.table.invite || '')}`;
}

function renderWaiting() {
  const w = clear($('waiting'));
  w.classList.remove('hidden');
  const table = state.table;
  const card = document.createElement('div');
  card.className = 'card waiting-card';
  card.appendChild(el('h2', 'table.waiting'));
  card.appendChild(el('p', 'table.preset_line', { preset: { $t: `preset.${table.preset}` }, players: table.seats.length }, 'muted'));
  const list = document.createElement('ol');
  list.className = 'seat-list';
  const creator = state.seat === 0;
  table.seats.forEach((s, i) => {
    const li = document.createElement('li');
    li.dataset.seat = String(i);
    if (s.kind === 'open') {
      li.appendChild(el('span', 'seat.open', {}, 'open'));
      if (creator) {
        const sel = document.createElement('select');
        sel.className = 'bot-level';
        for (const b of state.bots) {
          const o = el('option', `bot.${b}`);
          o.value = b;
          o.selected = b === 'greedy';
          sel.appendChild(o);
        }
        li.appendChild(sel);
        const add = el('button', 'table.seat_bot', {}, 'small seat-bot');
        add.type = 'button';
        add.addEventListener('click', async () => {
          try {
            state.table = await post(`/api/tables/${encodeURIComponent(tableId)}/seats/${i}/bot`, { bot: sel.value });
            renderWaiting();
          } catch (e) {
            toast('err.server', { message: e.message }, 'error');
          }
        });
        li.appendChild(add);
      } else if (state.seat === null) {
        const take = el('button', 'table.take_seat', {}, 'small take-seat');
        take.type = 'button';
        take.addEventListener('click', async () => {
          if (await joinWith({ seat: i })) renderWaiting();
        });
        li.appendChild(take);
      }
    } else {
      li.appendChild(lit('span', playerName(table.seats.map((x) => x.name), i), 'name'));
      if (s.kind === 'bot') li.appendChild(el('span', `bot.${s.bot}`, {}, 'badge'));
      if (i === state.seat) li.appendChild(el('span', 'seat.you', {}, 'badge you'));
    }
    list.appendChild(li);
  });
  card.appendChild(list);
  card.appendChild(el('p', 'table.invite', {}, 'label'));
  const row = document.createElement('div');
  row.className = 'invite-row';
  const input = document.createElement('input');
  input.readOnly = true;
  input.value = inviteUrl();
  input.id = 'invite-link';
  input.dataset.literal = '';
  row.appendChild(input);
  const copy = el('button', 'table.copy', {}, 'small');
  copy.type = 'button';
  copy.id = 'copy-invite';
  copy.addEventListener('click', async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
    } catch (e) {
      document.execCommand('copy');
    }
    toast('table.copied');
  });
  row.appendChild(copy);
  card.appendChild(row);
  card.appendChild(el('p', 'table.starts_itself', {}, 'muted'));
  w.appendChild(card);
}

// ---------------------------------------------------------------- socket

function connect() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/ws/table/${encodeURIComponent(tableId)}`);
  state.ws = ws;
  ws.addEventListener('open', () => {
    state.retry = 500;
    ws.send(JSON.stringify({ type: 'hello', token: state.token, since: state.version }));
  });
  ws.addEventListener('message', (m) => {
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
      showMissing();
      return;
    }
    if (ev.code === 4401) {
      // The token is not (or no longer) valid here: watch instead.
      state.token = null;
      state.seat = null;
    }
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, 8000);
  });
}

function send(msg) {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) {
    state.ws.send(JSON.stringify(msg));
    return true;
  }
  return false;
}

function handle(msg) {
  switch (msg.type) {
    case 'snapshot':
      state.version = msg.version;
      state.backlog = [];
      accept(msg.view, []);
      break;
    case 'resume':
      // Back after a lost connection: the missed updates follow; only the last has a view.
      state.version = msg.since;
      state.backlog = [];
      break;
    case 'update':
      state.version = msg.version;
      if (!msg.view) {
        state.backlog.push(...(msg.events || []));
        break;
      }
      accept(msg.view, [...state.backlog, ...(msg.events || [])]);
      state.backlog = [];
      break;
    case 'presence':
      if (state.view) {
        state.view.away = msg.away || [];
        tickTimers();
      }
      break;
    case 'hint':
      state.hint = (msg.moves || [])[0] || null;
      renderHint();
      renderHand();
      break;
    case 'error':
      state.pending = false;
      if (msg.code === 'stale') break;
      toast(has(`err.${msg.code}`) ? `err.${msg.code}` : 'err.generic', { message: msg.message || msg.code || '', rule: msg.rule || '' }, 'error');
      renderHand();
      break;
    default:
      break;
  }
}

function accept(view, events) {
  const prev = state.view;
  state.view = view;
  state.pending = false;
  if (view.seat !== undefined && view.seat !== null) state.seat = view.seat;
  const newRound = !prev || prev.round !== view.round;
  if (newRound || view.status !== 'round_over') state.continued = false;
  if (view.ruleset && view.ruleset.preset) setRulesPreset(view.ruleset.preset);
  // Keep a lifted tile only while it is still ours to play.
  if (state.selected && !movesFor(state.selected).length) state.selected = null;
  state.hint = null;
  const fresh = newRound ? new Map() : freshTiles(prev, view, events);
  state.drawn = new Set();
  for (const e of events) if (e.draw && e.seat === state.seat) state.drawn.add(e.draw);
  render(fresh);
  announce(events);
}

// ---------------------------------------------------------------- geometry of seats

function seatCount() {
  const v = state.view;
  return (v && v.ruleset && v.ruleset.players) || (v && v.players && v.players.length) || 0;
}

function mySeat() {
  return state.seat === null || state.seat === undefined ? null : state.seat;
}

/** Where a seat sits on screen: bottom (us), then clockwise left, top, right. */
function positionOf(seat) {
  const n = seatCount();
  const base = mySeat() ?? 0;
  const rel = (seat - base + n) % n;
  if (rel === 0) return 'bottom';
  if (n === 2) return 'top';
  if (n === 3) return rel === 1 ? 'left' : 'right';
  return ['bottom', 'left', 'top', 'right'][rel];
}

function directionOf(seat) {
  const box = $('board').getBoundingClientRect();
  const pos = positionOf(seat);
  const far = { bottom: [0, 0.6], top: [0, -0.6], left: [-0.6, 0], right: [0.6, 0] }[pos];
  return { dx: far[0] * box.width, dy: far[1] * box.height };
}

function freshTiles(prev, view, events) {
  const fresh = new Map();
  if (!prev) return fresh;
  const before = new Set((prev.line || []).map(([a, b]) => tileName(a, b)));
  let k = 0;
  for (const e of events) {
    if (e.play === undefined) continue;
    const name = tileName(...parseTile(e.play));
    if (before.has(name)) continue;
    const d = directionOf(e.seat);
    fresh.set(name, { dx: d.dx, dy: d.dy, delay: e.seat === mySeat() ? 0 : 180 * k++ });
  }
  return fresh;
}

// ---------------------------------------------------------------- rendering

function render(fresh = new Map()) {
  const v = state.view;
  if (!v) return;
  document.body.dataset.status = v.status;
  document.body.dataset.players = String(seatCount());
  $('waiting').classList.add('hidden');
  renderSeats();
  renderBoard(fresh);
  renderBoneyard();
  renderStatus();
  renderMe();
  renderHand();
  renderPad();
  renderLog();
  renderHint();
  renderOverlay();
  tickTimers();
}

function isTurn(seat) {
  const v = state.view;
  return v.status === 'playing' && v.turn === seat;
}

function revealed(seat) {
  const v = state.view;
  return v.revealed && v.revealed[seat] ? v.revealed[seat] : null;
}

function renderSeats() {
  for (const slot of document.querySelectorAll('.seat-slot')) clear(slot);
  const n = seatCount();
  for (let s = 0; s < n; s++) {
    const pos = positionOf(s);
    if (pos === 'bottom') continue; // us, or seat 0 for a spectator: the bar below the felt
    const slot = document.querySelector(`.seat-slot.pos-${pos}`);
    slot.appendChild(seatPanel(s, pos));
  }
}

function seatPanel(s, pos) {
  const v = state.view;
  const panel = document.createElement('div');
  panel.className = `seat pos-${pos}`;
  panel.dataset.seat = String(s);
  if (isTurn(s)) panel.classList.add('turn');
  if (v.ruleset.pairs) panel.classList.add(`side-${sideOf(v.ruleset, s)}`);
  if (v.ruleset.pairs && mySeat() !== null && sideOf(v.ruleset, s) === sideOf(v.ruleset, mySeat())) panel.classList.add('partner');
  const head = document.createElement('div');
  head.className = 'seat-head';
  head.appendChild(lit('span', playerName(v.players, s), 'name'));
  if (v.ruleset.pairs && mySeat() !== null && s !== mySeat() && sideOf(v.ruleset, s) === sideOf(v.ruleset, mySeat())) {
    head.appendChild(el('span', 'seat.partner', {}, 'badge'));
  }
  const timer = document.createElement('span');
  timer.className = 'timer';
  timer.dataset.seat = String(s);
  head.appendChild(timer);
  panel.appendChild(head);
  const away = document.createElement('div');
  away.className = 'away';
  away.dataset.seat = String(s);
  panel.appendChild(away);
  const tiles = document.createElement('div');
  tiles.className = 'seat-tiles';
  const shown = revealed(s);
  if (shown) {
    for (const tile of shown) tiles.appendChild(tileSVG(tile, { orient: 'v', size: 15, cls: 'shown' }));
  } else {
    const count = (v.hand_counts || [])[s] || 0;
    for (let i = 0; i < count; i++) tiles.appendChild(tileSVG('0-0', { orient: 'v', size: 11, back: true }));
  }
  panel.appendChild(tiles);
  const count = (v.hand_counts || [])[s] || 0;
  panel.appendChild(el('div', 'seat.count', { count }, 'seat-count'));
  const bubble = document.createElement('div');
  bubble.className = 'bubble';
  panel.appendChild(bubble);
  return panel;
}

function legalTargets() {
  if (!state.selected) return [];
  return movesFor(state.selected).map((m) => m.end ?? null);
}

function renderBoard(fresh) {
  const v = state.view;
  const highlight = new Set();
  if (state.hint && !state.selected) highlight.add(state.hint.tile);
  drawLine($('board'), v.line || [], {
    events: v.events || [],
    fresh,
    targets: legalTargets(),
    chosen: state.keyEnd,
    onTarget: (end) => playSelected(end),
    highlight,
  });
}

function renderBoneyard() {
  const v = state.view;
  const box = clear($('boneyard'));
  if (!v.ruleset.boneyard) {
    box.classList.add('hidden');
    return;
  }
  box.classList.remove('hidden');
  const stack = document.createElement('div');
  stack.className = 'stack';
  for (let i = 0; i < Math.min(3, v.boneyard || 0); i++) stack.appendChild(tileSVG('0-0', { orient: 'h', size: 12, back: true }));
  box.appendChild(stack);
  box.appendChild(el('span', 'table.boneyard', { count: v.boneyard || 0 }, 'boneyard-count'));
}

function renderStatus() {
  const v = state.view;
  const line = $('status');
  if (v.status === 'finished') tx(line, 'status.finished');
  else if (v.status === 'round_over') tx(line, 'status.round_over', { round: v.round });
  else if (v.status === 'waiting') tx(line, 'table.waiting');
  else if (v.turn === mySeat()) tx(line, 'status.your_turn');
  else tx(line, 'status.turn_of', { name: playerName(v.players, v.turn) });
  line.classList.toggle('mine', v.status === 'playing' && v.turn === mySeat());
}

function renderMe() {
  const v = state.view;
  const name = $('my-name');
  clear(name);
  const meBox = $('me');
  meBox.classList.toggle('turn', isTurn(mySeat()));
  document.querySelector('.me .quick').classList.toggle('hidden', mySeat() === null);
  if (mySeat() === null) {
    name.appendChild(lit('span', playerName(v.players, 0), 'name'));
    name.appendChild(el('span', 'table.watching', {}, 'badge watching'));
    return;
  }
  name.appendChild(lit('span', playerName(v.players, mySeat()), 'name'));
  name.appendChild(el('span', 'round.number', { round: v.round }, 'badge round-badge'));
  // On a phone the score pad is a drawer: the totals stay in sight here.
  const mine = sideOf(v.ruleset, mySeat());
  const totals = (v.scores || []).map((x, i) => (i === mine ? `[${x}]` : String(x))).join(' : ');
  const mini = lit('span', totals, 'mini-score');
  tattr(mini, 'title', 'table.scores');
  name.appendChild(mini);
  const timer = $('my-timer');
  timer.dataset.seat = String(mySeat());
}

function movesFor(tile) {
  const v = state.view;
  if (!v || v.status !== 'playing' || v.turn !== mySeat() || state.pending) return [];
  return (v.legal || []).filter((m) => tileName(...parseTile(m.tile)) === tile);
}

function sortedHand() {
  const hand = [...(state.view.hand || [])];
  return hand.sort((x, y) => {
    const a = parseTile(x);
    const b = parseTile(y);
    return a[0] - b[0] || a[1] - b[1];
  });
}

function renderHand() {
  const v = state.view;
  const hand = clear($('hand'));
  if (!v) return;
  hand.classList.toggle('my-turn', v.status === 'playing' && v.turn === mySeat() && !state.pending);
  if (mySeat() === null) {
    const count = (v.hand_counts || [])[0] || 0;
    for (let i = 0; i < count; i++) hand.appendChild(tileSVG('0-0', { orient: 'v', size: 22, back: true }));
    return;
  }
  const tiles = sortedHand();
  if (state.focus >= tiles.length) state.focus = Math.max(0, tiles.length - 1);
  const myTurn = v.status === 'playing' && v.turn === mySeat();
  tiles.forEach((tile, i) => {
    const name = tileName(...parseTile(tile));
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'hand-tile';
    b.dataset.tile = name;
    b.tabIndex = i === state.focus ? 0 : -1;
    const playable = movesFor(name).length > 0;
    if (myTurn && playable) b.classList.add('playable');
    if (myTurn && !playable) b.classList.add('dim');
    if (state.selected === name) b.classList.add('selected');
    if (state.drawn.has(name)) b.classList.add('drawn');
    if (state.hint && tileName(...parseTile(state.hint.tile)) === name) b.classList.add('hinted');
    b.setAttribute('aria-label', name);
    b.setAttribute('aria-pressed', String(state.selected === name));
    b.appendChild(tileSVG(name, { orient: 'v', size: 30 }));
    b.addEventListener('click', (ev) => {
      ev.preventDefault();
      state.focus = i;
      clickTile(name);
    });
    b.addEventListener('focus', () => {
      state.focus = i;
    });
    hand.appendChild(b);
  });
  if (!tiles.length) hand.appendChild(el('span', 'table.empty_hand', {}, 'muted'));
}

function renderPad() {
  const v = state.view;
  const pad = clear($('pad'));
  const current = v.round_result && v.status !== 'playing' ? v.round_result : null;
  pad.appendChild(scorePad(v.ruleset, v.players, v.results || [], v.scores || [], { current, eggs: v.eggs || 0 }));
  const rules = el('a', 'table.rules_link', { preset: { $t: `preset.${v.ruleset.preset}` } }, 'rules-inline');
  rules.href = `/rules/${document.documentElement.lang}/${v.ruleset.preset}`;
  rules.target = '_blank';
  pad.appendChild(rules);
}

function renderLog() {
  const v = state.view;
  const log = clear($('log'));
  tx($('log-title'), 'round.number', { round: v.round });
  if (v.round === 1) {
    for (const d of v.lead_draws || []) log.appendChild(el('li', 'ev.lead_draw', { name: playerName(v.players, d.seat), tile: d.tile }, 'ev lead'));
  }
  for (const reason of v.redeals || []) {
    const [key, params] = redealText(reason, v.players);
    log.appendChild(el('li', key, params, 'ev redeal'));
  }
  let first = true;
  for (const g of groupDraws(v.events || [])) {
    const [key, params] = g.event.draw !== undefined ? drawGroupText(g, v.players) : eventText(g.event, v.players, v.ruleset, { first: first && g.event.play !== undefined });
    if (g.event.play !== undefined) first = false;
    log.appendChild(el('li', key, params, `ev ev-seat-${g.event.seat}`));
  }
  log.scrollTop = log.scrollHeight;
}

function renderHint() {
  const v = state.view;
  const b = $('hint');
  const show = v && v.hints && v.status === 'playing' && v.turn === mySeat() && mySeat() !== null;
  b.classList.toggle('hidden', !show);
  const note = $('my-note');
  if (state.hint) {
    const h = state.hint;
    const key = h.end ? `hint.move_${h.end}` : 'hint.move_open';
    const params = { tile: h.tile, win: Math.round((h.win ?? 0) * 100), points: Number(h.points ?? 0).toFixed(1) };
    tx(note, key, params);
  } else if (note.dataset.i18n && note.dataset.i18n.startsWith('hint.')) {
    clear(note);
    delete note.dataset.i18n;
  }
}

function renderOverlay() {
  const v = state.view;
  const box = clear($('overlay'));
  if (v.status !== 'round_over' && v.status !== 'finished') {
    box.classList.add('hidden');
    return;
  }
  box.classList.remove('hidden');
  const card = document.createElement('div');
  card.className = `card result-card ${v.status}`;
  card.id = v.status === 'finished' ? 'game-end' : 'round-end';
  const finished = v.status === 'finished' || (v.game_result && v.game_result.finished);
  if (finished) {
    card.appendChild(el('p', 'end.title', {}, 'kicker'));
    card.appendChild(gameEndText(v.ruleset, v.players, v.game_result));
  } else {
    card.appendChild(el('h2', 'round.over', { round: v.round }));
  }
  if (v.round_result) card.appendChild(roundExplanation(v.ruleset, v.players, v.round_result, v.revealed));
  const scores = document.createElement('div');
  scores.className = 'result-scores';
  scores.appendChild(scorePad(v.ruleset, v.players, v.results || [], v.scores || [], { current: v.round_result, eggs: v.eggs || 0 }));
  card.appendChild(scores);
  const actions = document.createElement('div');
  actions.className = 'actions';
  if (finished) {
    const rec = el('a', 'end.record', {}, 'button primary');
    rec.href = `/game/${encodeURIComponent(tableId)}`;
    rec.id = 'to-record';
    actions.appendChild(rec);
    const lobby = el('a', 'nav.lobby', {}, 'button');
    lobby.href = '/';
    actions.appendChild(lobby);
  } else if (mySeat() !== null) {
    const ready = (v.continue || []).includes(mySeat()) || state.continued;
    const b = el('button', ready ? 'round.waiting_others' : 'round.continue', {}, 'primary');
    b.type = 'button';
    b.id = 'continue';
    b.disabled = ready;
    b.addEventListener('click', () => {
      if (send({ type: 'continue' })) {
        state.continued = true;
        renderOverlay();
      }
    });
    actions.appendChild(b);
    const waiting = [];
    for (let s = 0; s < seatCount(); s++) if (!(v.continue || []).includes(s) && s !== mySeat()) waiting.push(playerName(v.players, s));
    if (ready && waiting.length) actions.appendChild(el('span', 'round.waiting_for', { names: waiting.join(', ') }, 'muted'));
    if (v.timer) {
      // A timer table's clock for Continue: then the server presses it for whoever has not.
      const clock = document.createElement('span');
      clock.className = 'muted continue-clock';
      const timer = document.createElement('span');
      timer.className = 'timer';
      timer.id = 'continue-timer';
      timer.dataset.seat = 'continue';
      clock.append(el('span', 'round.auto_continue'), ' ', timer);
      actions.appendChild(clock);
    }
  }
  card.appendChild(actions);
  box.appendChild(card);
}

/** "disconnected — 0:42" under a seat whose player has no connection; then "a bot plays". */
function tickAway() {
  const v = state.view;
  for (const node of document.querySelectorAll('.away[data-seat]')) {
    const seat = Number(node.dataset.seat);
    // A page reload or a slow first connection is no absence: shown after 3 seconds.
    const now = Date.now() / 1000;
    const away = v && v.status !== 'finished' ? (v.away || []).find((a) => a.seat === seat && (a.bot || now - a.since >= 3)) : null;
    node.classList.toggle('shown', Boolean(away));
    if (!away) {
      if (node.dataset.i18n) {
        clear(node);
        delete node.dataset.i18n;
      }
      continue;
    }
    if (away.bot) {
      if (node.dataset.i18n !== 'seat.away_bot') tx(node, 'seat.away_bot');
      continue;
    }
    const left = Math.max(0, Math.ceil(away.until - now));
    const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
    if (node.dataset.i18nArgs !== JSON.stringify({ time })) tx(node, 'seat.away', { time });
  }
}

function tickTimers() {
  tickAway();
  const v = state.view;
  for (const node of document.querySelectorAll('.timer')) {
    const forContinue = node.dataset.seat === 'continue';
    const runs = forContinue
      ? v && v.timer && v.timer.seat === null && v.status === 'round_over'
      : v && v.timer && v.timer.seat === Number(node.dataset.seat) && v.status === 'playing';
    if (!runs) {
      node.textContent = '';
      node.classList.remove('running', 'low');
      continue;
    }
    const left = Math.max(0, Math.ceil(v.timer.deadline - Date.now() / 1000));
    node.dataset.literal = '';
    node.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
    node.classList.add('running');
    node.classList.toggle('low', left <= 5);
  }
}

// ---------------------------------------------------------------- what happened

function bubble(seat, key, params) {
  if (seat === mySeat()) {
    tx($('my-note'), key, params);
    return;
  }
  const b = document.querySelector(`.seat[data-seat="${seat}"] .bubble`);
  if (!b) return;
  tx(b, key, params);
  b.classList.remove('show');
  void b.offsetWidth;
  b.classList.add('show');
}

function announce(events) {
  const v = state.view;
  if (!events.length) return;
  for (const g of groupDraws(events)) {
    const e = g.event;
    if (e.timeout && e.continue !== undefined) {
      toast('ev.continue_timeout', { name: playerName(v.players, e.seat) }, 'event');
    } else if (e.timeout || (e.away && e.continue === undefined)) {
      const key = e.timeout ? 'ev.timeout' : 'ev.away';
      const params = { name: playerName(v.players, e.seat) };
      bubble(e.seat, key, params);
      toast(key, params, 'event');
    } else if (e.pass !== undefined) {
      const [key, params] = eventText(e, v.players, v.ruleset);
      bubble(e.seat, key, params);
    } else if (e.draw !== undefined) {
      const [key, params] = drawGroupText(g, v.players);
      bubble(e.seat, key, params);
    }
  }
}

// ---------------------------------------------------------------- playing

function cancel() {
  state.selected = null;
  state.keyEnd = undefined;
  renderHand();
  renderBoard();
  focusHand();
}

function clickTile(name) {
  const moves = movesFor(name);
  if (state.selected === name) {
    cancel();
    return;
  }
  if (!moves.length) {
    const b = document.querySelector(`.hand-tile[data-tile="${name}"]`);
    if (b && state.view.status === 'playing' && state.view.turn === mySeat()) {
      b.classList.remove('shake');
      void b.offsetWidth;
      b.classList.add('shake');
      tx($('my-note'), 'table.no_fit', { tile: name });
    }
    return;
  }
  if (moves.length === 1 && state.quick) {
    sendPlay(name, moves[0].end ?? null);
    return;
  }
  state.selected = name;
  state.keyEnd = moves.length === 1 ? moves[0].end ?? null : undefined;
  renderHand();
  renderBoard();
  focusHand();
}

function playSelected(end) {
  if (!state.selected) return;
  const move = movesFor(state.selected).find((m) => (m.end ?? null) === (end ?? null));
  if (!move) return;
  sendPlay(state.selected, move.end ?? null);
}

function sendPlay(tile, end) {
  const move = movesFor(tile).find((m) => (m.end ?? null) === end);
  if (!move) return;
  if (!send({ type: 'play', tile: move.tile, end: move.end ?? null, version: state.version })) {
    toast('err.offline', {}, 'error');
    return;
  }
  state.pending = true;
  state.selected = null;
  state.keyEnd = undefined;
  renderHand();
  renderBoard();
}

function askHint() {
  if (send({ type: 'hint' })) tx($('my-note'), 'hint.thinking');
}

function focusHand() {
  const b = document.querySelectorAll('#hand .hand-tile')[state.focus];
  const active = document.activeElement;
  if (b && active !== b && (!active || active === document.body || active.closest('#hand'))) b.focus({ preventScroll: true });
}

function onKey(ev) {
  const v = state.view;
  if (!v || mySeat() === null) return;
  const tag = (document.activeElement && document.activeElement.tagName) || '';
  if (['INPUT', 'SELECT', 'TEXTAREA'].includes(tag)) return;
  const tiles = document.querySelectorAll('#hand .hand-tile');
  if (ev.key === 'Escape') {
    if (state.selected) cancel();
    return;
  }
  if (state.selected) {
    const moves = movesFor(state.selected);
    const want = ev.key === 'ArrowLeft' ? 'left' : ev.key === 'ArrowRight' ? 'right' : null;
    if (want) {
      ev.preventDefault();
      if (moves.some((m) => m.end === want)) playSelected(want);
      else {
        state.keyEnd = moves.length ? moves[0].end ?? null : undefined;
        renderBoard();
      }
      return;
    }
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      if (state.keyEnd !== undefined) playSelected(state.keyEnd);
      return;
    }
    return;
  }
  if (!tiles.length) return;
  if (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') {
    ev.preventDefault();
    state.focus = (state.focus + (ev.key === 'ArrowLeft' ? -1 : 1) + tiles.length) % tiles.length;
    tiles.forEach((b, i) => {
      b.tabIndex = i === state.focus ? 0 : -1;
    });
    tiles[state.focus].focus();
    return;
  }
  if (ev.key === 'Enter' || ev.key === ' ') {
    const active = document.activeElement;
    const onTile = active && active.classList.contains('hand-tile');
    if (onTile || !active || active === document.body) {
      ev.preventDefault();
      const name = onTile ? active.dataset.tile : tiles[state.focus].dataset.tile;
      const moves = movesFor(name);
      if (moves.length === 1 && !state.quick) {
        state.selected = name;
        state.keyEnd = moves[0].end ?? null;
        renderHand();
        renderBoard();
        focusHand();
      } else clickTile(name);
    }
  }
}

main().catch((e) => {
  console.error(e);
  toast('err.server', { message: e instanceof ApiError ? e.message : String(e) }, 'error');
});
