// The lobby's "Tournaments" card (docs/protocol.md, "Tournaments"): the upcoming and running
// tournaments — name, game, the time to their start or their end, entrants, leader —, each a
// link to its page, and the latest finished ones; read whole when the lobby socket opens, then
// kept live by its `tournament` frames (a summary each). An account creates one here: a form
// with the name, the game (every preset with its player counts), single rounds or whole
// games to a target, how long it lasts, when it starts, rated or not, and the turn timer.
import { ApiError, get, post } from './api.js';
import { clear, PRESETS, TARGETS } from './common.js';
import { el, lit, onLanguage, t, tattr, tx } from './i18n.js';
import { onLobby } from './lobby_socket.js';
import { clockText, countdownOf, gameLabel, secondsTo, skewOf, targetText } from './tournament_text.js';

const MINUTES = [5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240];
const STARTS = [0, 1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440];
const TIMERS = [15, 30, 60, 120];
const FINISHED_SHOWN = 3;
const SHOWN = 20; // of each of the upcoming and the running

let ctx = null;
const lists = { upcoming: [], running: [], finished: [] };
let skew = 0;
let formOpen = false;
const form = { kind: null, target: 'round', minutes: 30, starts: 5, rated: false, timer: 60, name: '' };

function card() {
  return document.getElementById('tournaments');
}

function account() {
  const who = ctx.me();
  return Boolean(who && who.account);
}

// ---------------------------------------------------------------- the lists

/** Every kind the server's presets play, as [preset, players], in the lobby's order. */
function kinds() {
  const presets = ctx.presets() || {};
  const names = PRESETS.filter((p) => presets[p]).concat(Object.keys(presets).filter((p) => !PRESETS.includes(p)));
  const out = [];
  for (const p of names) for (const n of presets[p].players || []) out.push([p, Number(n)]);
  return out;
}

async function readLists() {
  let data;
  try {
    data = await get('/api/tournaments');
  } catch (e) {
    return; // the next welcome reads them again
  }
  for (const kind of Object.keys(lists)) lists[kind] = (data && Array.isArray(data[kind]) && data[kind]) || [];
  const any = [...lists.upcoming, ...lists.running, ...lists.finished][0];
  if (any) skew = skewOf(any.now);
  drawList();
}

/** A `tournament` frame: its summary takes its place in the lists. */
function changed(summary) {
  if (!summary || !summary.id) return;
  skew = skewOf(summary.now);
  for (const kind of Object.keys(lists)) lists[kind] = lists[kind].filter((x) => x.id !== summary.id);
  const kind = summary.status === 'cancelled' ? 'finished' : summary.status;
  if (kind === 'finished') {
    lists.finished.unshift(summary); // the latest ended first (a cancelled one: when it was)
    lists.finished.sort((a, b) => (Number(b.ended_at) || 0) - (Number(a.ended_at) || 0));
  } else if (kind in lists) {
    lists[kind].push(summary);
    const at = kind === 'upcoming' ? 'starts_at' : 'ends_at'; // the soonest first
    lists[kind].sort((a, b) => a[at] - b[at]);
  }
  drawList();
}

function row(x) {
  const li = document.createElement('li');
  li.className = `tournament-row ${x.status}`;
  li.dataset.tournament = x.id;
  li.dataset.status = x.status;
  const main = document.createElement('div');
  main.className = 'tournament-row-main';
  const name = lit('a', x.name, 'tournament-row-name');
  name.href = `/tournament/${encodeURIComponent(x.id)}`;
  main.appendChild(name);
  const game = document.createElement('span');
  game.className = 'tournament-row-game muted';
  game.append(el('span', 'lobby.seek.kind', gameLabel(x).args), ' · ', targetText(x));
  if (x.rated) game.appendChild(el('span', 'lobby.table_rated', {}, 'badge rated'));
  main.appendChild(game);
  li.appendChild(main);
  const facts = document.createElement('div');
  facts.className = 'tournament-row-facts';
  const cd = countdownOf(x);
  if (cd) {
    const when = document.createElement('span');
    when.className = 'tournament-row-when';
    const clock = lit('span', '', 'tournament-row-clock');
    clock.dataset.at = String(cd.at);
    when.append(el('span', cd.key, {}, 'tournament-row-words'), ' ', clock);
    clock.dataset.key = cd.key;
    clock.dataset.soon = cd.soon;
    facts.appendChild(when);
  } else {
    facts.appendChild(el('span', `tournament.status.${x.status}`, {}, 'tournament-row-when'));
  }
  facts.appendChild(el('span', 'tournament.entrants', { count: Number(x.entrants) || 0 }, 'tournament-row-entrants'));
  if (x.leader) {
    const leader = document.createElement('span');
    leader.className = 'tournament-row-leader';
    leader.append(el('span', x.status === 'finished' ? 'tournament.won_by' : 'tournament.leader'), ' ', lit('strong', x.leader));
    facts.appendChild(leader);
  }
  li.appendChild(facts);
  return li;
}

function drawList() {
  const box = document.getElementById('tournament-lists');
  if (!box) return;
  clear(box);
  const live = [...lists.running.slice(0, SHOWN), ...lists.upcoming.slice(0, SHOWN)];
  if (!live.length) box.appendChild(el('p', 'lobby.tournaments.none', {}, 'muted tournaments-none'));
  else {
    const ul = document.createElement('ul');
    ul.className = 'tournament-list';
    ul.id = 'tournament-list';
    for (const x of live) ul.appendChild(row(x));
    box.appendChild(ul);
  }
  const done = lists.finished.slice(0, FINISHED_SHOWN);
  if (done.length) {
    box.appendChild(el('h3', 'lobby.tournaments.finished', {}, 'tournaments-sub'));
    const ul = document.createElement('ul');
    ul.className = 'tournament-list finished';
    for (const x of done) ul.appendChild(row(x));
    box.appendChild(ul);
  }
  tick();
}

function tick() {
  for (const clock of document.querySelectorAll('#tournaments .tournament-row-clock')) {
    const left = secondsTo(clock.dataset.at, skew);
    const words = clock.parentElement.querySelector('.tournament-row-words');
    clock.textContent = left > 0 ? clockText(left) : '';
    const key = left > 0 ? clock.dataset.key : clock.dataset.soon;
    if (words && words.dataset.i18n !== key) tx(words, key);
  }
}

// ---------------------------------------------------------------- the form

function kindId(preset, players) {
  return `${preset}-${players}`;
}

function chosenKind() {
  const all = kinds();
  const found = all.find(([p, n]) => kindId(p, n) === form.kind);
  if (found) return found;
  const first = all.find(([p, n]) => p === 'draw' && n === 2) || all[0];
  form.kind = first ? kindId(...first) : null;
  return first || null;
}

function presetTarget(preset, players) {
  const p = (ctx.presets() || {})[preset];
  const d = p && p.defaults && (p.defaults[players] || p.defaults[String(players)]);
  return d && typeof d.target === 'number' ? d.target : 100;
}

/** The targets a whole game of `preset` may be played to here: the suggested ones and the
 * preset's own, smallest first. */
function targets(preset, players) {
  return [...new Set([...TARGETS, presetTarget(preset, players)])].sort((a, b) => a - b);
}

function field(labelKey, control, name) {
  const wrap = document.createElement('div');
  wrap.className = 'field';
  wrap.dataset.field = name;
  const label = el('label', labelKey, {}, 'label');
  label.htmlFor = control.id;
  wrap.append(label, control);
  return wrap;
}

function select(id, options, current, onChange) {
  const s = document.createElement('select');
  s.id = id;
  s.name = id;
  for (const [value, key, params] of options) {
    const o = el('option', key, params || {});
    o.value = String(value);
    if (String(value) === String(current)) o.selected = true;
    s.appendChild(o);
  }
  s.addEventListener('change', () => onChange(s.value));
  return s;
}

function startsLabel(m) {
  if (m === 0) return ['tournament.form.at_once', {}];
  if (m % 60 === 0) return ['tournament.form.in_hours', { count: m / 60 }];
  return ['tournament.form.in_minutes', { count: m }];
}

function defaultName() {
  const kind = chosenKind();
  return kind ? t('tournament.default_name', { game: { $t: `preset.${kind[0]}` } }) : '';
}

function drawForm() {
  const box = document.getElementById('tournament-form-box');
  if (!box) return;
  clear(box);
  if (!formOpen || !account()) return;
  const kind = chosenKind();
  if (!kind) return;
  const f = document.createElement('form');
  f.id = 'tournament-form';
  f.className = 'tournament-form';
  f.noValidate = true;
  const grid = document.createElement('div');
  grid.className = 'grid';
  const name = document.createElement('input');
  name.id = 'tournament-name-input';
  name.maxLength = 40;
  name.value = form.name;
  name.autocomplete = 'off';
  tattr(name, 'placeholder', 'tournament.default_name', { game: { $t: `preset.${kind[0]}` } });
  name.addEventListener('input', () => {
    form.name = name.value;
  });
  grid.appendChild(field('tournament.form.name', name, 'name'));
  const games = kinds().map(([p, n]) => [kindId(p, n), 'lobby.seek.kind', { game: { $t: `preset.${p}` }, count: n }]);
  grid.appendChild(field('tournament.form.game', select('tournament-game', games, form.kind, (v) => {
    form.kind = v;
    drawForm();
  }), 'preset'));
  const choices = targets(...kind);
  if (form.target !== 'round' && !choices.includes(Number(form.target))) form.target = 'round';
  grid.appendChild(field('tournament.form.target', select('tournament-target', [
    ['round', 'tournament.form.rounds'],
    ...choices.map((target) => [target, 'tournament.form.games', { target }]),
  ], form.target, (v) => {
    form.target = v;
  }), 'options.target'));
  grid.appendChild(field('tournament.form.minutes', select('tournament-minutes', MINUTES.map((m) => [m, 'tournament.form.minutes_n', { count: m }]), form.minutes, (v) => {
    form.minutes = Number(v);
  }), 'minutes'));
  grid.appendChild(field('tournament.form.starts', select('tournament-starts', STARTS.map((m) => [m, ...startsLabel(m)]), form.starts, (v) => {
    form.starts = Number(v);
  }), 'starts_in'));
  grid.appendChild(field('create.timer', select('tournament-timer', TIMERS.map((s) => [s, `timer.${s}`]), form.timer, (v) => {
    form.timer = Number(v);
  }), 'timer'));
  const rated = document.createElement('input');
  rated.type = 'checkbox';
  rated.id = 'tournament-rated';
  rated.checked = form.rated;
  rated.addEventListener('change', () => {
    form.rated = rated.checked;
  });
  const ratedField = field('create.rated', rated, 'rated');
  ratedField.appendChild(el('small', 'tournament.form.rated_help', {}, 'help'));
  grid.appendChild(ratedField);
  f.appendChild(grid);
  f.appendChild(el('p', 'tournament.form.how', {}, 'muted small-note'));
  const error = document.createElement('p');
  error.id = 'tournament-form-error';
  error.className = 'error';
  error.setAttribute('role', 'alert');
  f.appendChild(error);
  const actions = document.createElement('div');
  actions.className = 'actions';
  const go = el('button', 'tournament.form.create', {}, 'primary');
  go.type = 'submit';
  go.id = 'tournament-create';
  const close = el('button', 'lobby.seek.cancel', {}, '');
  close.type = 'button';
  close.id = 'tournament-form-close';
  close.addEventListener('click', () => {
    formOpen = false;
    drawHead();
    drawForm();
  });
  actions.append(go, close);
  f.appendChild(actions);
  f.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    go.disabled = true;
    clear(error);
    delete error.dataset.i18n;
    for (const node of f.querySelectorAll('.field.invalid')) node.classList.remove('invalid');
    const [preset, players] = chosenKind();
    const body = {
      name: (form.name.trim() || defaultName()).slice(0, 40),
      preset,
      players,
      options: { target: form.target === 'round' ? 'round' : Number(form.target) },
      timer: form.timer,
      rated: form.rated,
      starts_in: form.starts,
      minutes: form.minutes,
    };
    try {
      const made = await post('/api/tournaments', body);
      location.href = `/tournament/${encodeURIComponent(made.id)}`;
    } catch (e) {
      go.disabled = false;
      const wrong = e instanceof ApiError ? e.field : null;
      const node = wrong && f.querySelector(`.field[data-field="${CSS.escape(wrong)}"], .field[data-field="${CSS.escape(wrong.split('.')[0])}"]`);
      if (node) node.classList.add('invalid');
      const code = e instanceof ApiError && e.body ? e.body.code : null;
      if (code === 'tournaments_open') tx(error, 'tournament.err.open');
      else if (code === 'too_many_tournaments' || (e instanceof ApiError && e.status === 429)) tx(error, 'tournament.err.today');
      else tx(error, 'tournament.err.other', { message: e instanceof ApiError ? e.message : String(e.message || e) });
    }
  });
  box.appendChild(f);
}

function drawHead() {
  const head = document.getElementById('tournaments-head');
  if (!head) return;
  clear(head);
  const title = el('h2', 'lobby.tournaments.title');
  title.id = 'tournaments-title';
  head.appendChild(title);
  if (account() && !formOpen) {
    const open = el('button', 'lobby.tournaments.create', {}, 'small');
    open.type = 'button';
    open.id = 'tournament-create-open';
    open.addEventListener('click', () => {
      formOpen = true;
      drawHead();
      drawForm();
      const first = document.getElementById('tournament-name-input');
      if (first) first.focus();
    });
    head.appendChild(open);
  }
  const note = document.getElementById('tournaments-note');
  if (note) tx(note, account() ? 'lobby.tournaments.intro' : 'lobby.tournaments.accounts');
}

function drawCard() {
  const box = card();
  if (!box) return;
  clear(box);
  const head = document.createElement('div');
  head.className = 'tournaments-head';
  head.id = 'tournaments-head';
  box.appendChild(head);
  const note = el('p', 'lobby.tournaments.intro', {}, 'muted tournaments-intro');
  note.id = 'tournaments-note';
  box.appendChild(note);
  const formBox = document.createElement('div');
  formBox.id = 'tournament-form-box';
  box.appendChild(formBox);
  const listBox = document.createElement('div');
  listBox.id = 'tournament-lists';
  box.appendChild(listBox);
  drawHead();
  drawForm();
  drawList();
}

/** `context`: presets() (the server's presets, {name: {players, defaults}}) and me() (who we
 * are: an account creates tournaments). */
export function startTournamentsCard(context) {
  ctx = context;
  drawCard();
  onLobby('welcome', readLists);
  onLobby('tournament', (f) => changed(f.summary));
  document.addEventListener('ds:me', () => {
    if (!account()) formOpen = false;
    drawHead();
    drawForm();
  });
  onLanguage(() => {
    drawHead();
    drawForm();
    drawList();
  });
  setInterval(tick, 500);
}
