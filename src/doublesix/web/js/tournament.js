// A tournament's page, /tournament/{id} (docs/protocol.md, "Tournaments"; an arena, as
// lichess's): its name, game, rules and status with a live countdown (to the start, then to
// the end, on the server's clock), what the reader is in it (a guest is told to register;
// an account joins, withdraws and joins again; while joined: waiting for its next game, or
// playing one, or withdrawn), the standings, the latest games, and once it has finished the
// podium. The page keeps a lobby socket open: the reader counts as present, so the site pairs
// them; a `tournament` frame of this tournament reads it again (at most once in 300 ms), and
// `tournament_paired` takes the reader to their table, seated. Every name goes in as text.
import { api, ApiError, get, me } from './api.js';
import { startChallenges } from './challenge.js';
import { clear, startPage, toast } from './common.js';
import { botName } from './describe.js';
import { currentLanguage, el, lit, onLanguage, tattr, tx } from './i18n.js';
import { connectLobby, onLobby } from './lobby_socket.js';
import { pathKey, playerLink } from './ratings.js';
import { followTournamentPairing, goToTournamentTable } from './tournament_paired.js';
import { clockText, countdownOf, cupIcon, fireIcon, gameLabel, secondsTo, skewOf, targetText } from './tournament_text.js';

const id = pathKey();
const REFETCH_MS = 300; // frames come in bursts (a game made for each of its players)
const LATE_MS = 3000; // a countdown past its moment reads the tournament again this often

const page = {
  t: null, // the tournament as the server last said
  skew: 0, // the server's clock less ours, in seconds
  you: null, // {name, account} or null
  busy: false, // a join, withdraw or cancel on its way
  error: null, // [key, params] under the buttons
  paired: null, // the table we are taken to
  fetched: 0, // Date.now() of the last answer
};
let loads = 0;
let refetch = null;

const $ = (name) => document.getElementById(name);

// ---------------------------------------------------------------- the server

async function load() {
  refetch = null;
  const seq = ++loads;
  let answer;
  try {
    answer = await get(`/api/tournaments/${encodeURIComponent(id)}`);
  } catch (e) {
    if (seq !== loads) return;
    if (e instanceof ApiError && e.status === 404) {
      notFound();
      return;
    }
    page.fetched = Date.now(); // not again at once: the next frame, or the countdown, asks
    toast('err.server', { message: String(e.message || e) }, 'error');
    return;
  }
  if (seq !== loads) return; // an older answer overtaken by a newer one
  accept(answer);
}

/** Read the tournament again soon: once for a burst of frames. */
function loadSoon() {
  if (refetch === null) refetch = setTimeout(load, REFETCH_MS);
}

function accept(tournament) {
  const before = page.t && page.t.me;
  page.skew = skewOf(tournament.now);
  page.fetched = Date.now();
  page.t = tournament;
  const now = tournament.me;
  // A pairing whose frame we missed (the socket was coming back): the new game is ours.
  if (before && now && now.table && now.table !== before.table && !page.paired) paired(now.table);
  render();
}

function refusal(e) {
  const code = e instanceof ApiError && e.body ? e.body.code : null;
  const known = {
    no_account: 'tournament.err.account',
    account: 'tournament.err.account',
    tournament_over: 'tournament.err.over',
    tournament_full: 'tournament.err.full',
    started: 'tournament.err.started',
    not_yours: 'tournament.err.not_yours',
    closed: 'tournament.err.closed',
  };
  if (code && known[code]) return [known[code], {}];
  return ['tournament.err.other', { message: e instanceof ApiError ? e.message : String(e.message || e) }];
}

/** Send `method path`; its answer (the tournament) is drawn, a refusal said under the buttons. */
async function act(method, path) {
  if (page.busy) return;
  page.busy = true;
  page.error = null;
  render();
  try {
    const answer = await api(method, path, method === 'POST' ? {} : undefined);
    page.busy = false;
    if (answer && answer.id) accept(answer);
    else await load();
  } catch (e) {
    page.busy = false;
    page.error = refusal(e);
    render();
    loadSoon(); // what refused it (a start, an end) shows too
  }
}

const join = () => act('POST', `/api/tournaments/${encodeURIComponent(id)}/join`);
const withdraw = () => act('POST', `/api/tournaments/${encodeURIComponent(id)}/withdraw`);
const cancel = () => act('DELETE', `/api/tournaments/${encodeURIComponent(id)}`);

function paired(tableId) {
  page.paired = tableId;
  render();
  goToTournamentTable(tableId);
}

// ---------------------------------------------------------------- drawing

function notFound() {
  const root = clear($('tournament'));
  const card = el('section', null, null, 'card tournament-missing');
  card.id = 'tournament-missing';
  card.appendChild(el('h1', 'tournament.missing'));
  const lobby = el('a', 'tournament.to_lobby', {}, 'button');
  lobby.href = '/';
  card.appendChild(lobby);
  root.appendChild(card);
}

function render() {
  const tt = page.t;
  if (!tt) return;
  const root = clear($('tournament'));
  root.dataset.status = tt.status;
  root.append(headCard(tt), meCard(tt));
  const podiumShown = tt.status === 'finished' && tt.standings.length > 0;
  root.classList.toggle('has-podium', podiumShown);
  if (podiumShown) root.appendChild(podium(tt));
  root.append(standingsCard(tt), gamesCard(tt));
  showTitle();
  tick();
}

function showTitle() {
  if (page.t) document.title = `${page.t.name} · doublesix`;
}

function headCard(tt) {
  const card = document.createElement('section');
  card.className = 'card tournament-head';
  card.id = 'tournament-head';
  const kicker = document.createElement('p');
  kicker.className = 'kicker tournament-kicker';
  kicker.append(cupIcon(), ' ', el('span', 'tournament.kicker'));
  card.appendChild(kicker);
  const name = lit('h1', tt.name, 'tournament-name');
  name.id = 'tournament-name';
  card.appendChild(name);
  const facts = document.createElement('p');
  facts.className = 'tournament-facts';
  facts.id = 'tournament-facts';
  facts.appendChild(el('strong', 'lobby.seek.kind', gameLabel(tt).args, 'tournament-kind'));
  facts.appendChild(targetText(tt));
  facts.appendChild(el('span', tt.rated ? 'tournament.rated' : 'tournament.unrated', {}, `badge ${tt.rated ? 'rated' : 'unrated'}`));
  if (tt.timer) facts.appendChild(el('span', 'lobby.table_timer', { seconds: tt.timer }, 'badge'));
  const minutes = Math.round((Number(tt.ends_at) - Number(tt.starts_at)) / 60);
  if (minutes > 0) facts.appendChild(el('span', 'tournament.lasts', { count: minutes }, 'badge'));
  card.appendChild(facts);
  const status = document.createElement('div');
  status.className = 'tournament-status';
  status.id = 'tournament-status';
  status.dataset.status = tt.status;
  status.appendChild(el('span', `tournament.status.${tt.status}`, {}, `status-word status-${tt.status}`));
  const cd = countdownOf(tt);
  if (cd) {
    const line = document.createElement('span');
    line.className = 'countdown';
    const words = el('span', cd.key, {}, 'countdown-words');
    words.id = 'tournament-countdown-words';
    const clock = lit('span', '', 'tournament-clock');
    clock.id = 'tournament-clock';
    clock.setAttribute('role', 'timer');
    line.append(words, ' ', clock);
    status.appendChild(line);
  } else {
    const at = tt.status === 'cancelled' ? null : tt.ends_at;
    if (at) status.appendChild(el('span', 'tournament.ended_at', { when: when(at) }, 'muted'));
  }
  card.appendChild(status);
  const counts = document.createElement('p');
  counts.className = 'tournament-counts';
  counts.appendChild(el('span', 'tournament.entrants', { count: Number(tt.entrants) || 0 }, 'entrants'));
  if (tt.status === 'running' || tt.playing) {
    counts.append(' · ', el('span', 'tournament.playing_now', { count: Number(tt.playing) || 0 }, 'playing'));
  }
  if (tt.creator) {
    counts.append(' · ', el('span', 'tournament.created_by'), ' ', playerLink(tt.creator));
  }
  card.appendChild(counts);
  if (tt.status === 'upcoming' && page.you && page.you.account && tt.creator === page.you.name) {
    const b = el('button', 'tournament.cancel', {}, 'small danger-outline');
    b.type = 'button';
    b.id = 'tournament-cancel';
    b.disabled = page.busy;
    b.addEventListener('click', askCancel);
    card.appendChild(b);
  }
  return card;
}

function when(at) {
  return new Date(at * 1000).toLocaleString(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' });
}

/** What the reader is in the tournament, in one line that cannot be mistaken, and what they
 * may do about it. */
function meState(tt) {
  const mine = tt.me;
  if (page.paired) return 'paired';
  if (!(page.you && page.you.account)) return 'guest';
  const over = tt.status === 'finished' || tt.status === 'cancelled';
  if (over) return mine && mine.joined ? 'over-joined' : 'over';
  if (!(mine && mine.joined)) return 'out';
  if (!mine.active) return 'withdrawn';
  if (tt.status === 'upcoming') return 'joined';
  return mine.table ? 'playing' : 'waiting';
}

function button(key, id, onClick, cls = '') {
  const b = el('button', key, {}, cls);
  b.type = 'button';
  b.id = id;
  b.disabled = page.busy;
  b.addEventListener('click', onClick);
  return b;
}

function meCard(tt) {
  const state = meState(tt);
  const card = document.createElement('section');
  card.className = `card tournament-me me-${state}`;
  card.id = 'tournament-me';
  card.dataset.state = state;
  card.setAttribute('aria-live', 'polite');
  const line = document.createElement('p');
  line.className = 'me-line';
  line.id = 'tournament-me-line';
  const actions = document.createElement('div');
  actions.className = 'actions me-actions-row';
  const mine = tt.me;
  if (state === 'paired') {
    line.append(lit('span', '', 'seek-pulse'), el('span', 'tournament.me.paired'));
  } else if (state === 'guest') {
    line.appendChild(el('span', 'tournament.me.guest'));
    const a = el('a', 'tournament.register', {}, 'button primary');
    a.href = '/';
    a.id = 'tournament-register';
    actions.appendChild(a);
  } else if (state === 'out') {
    line.appendChild(el('span', tt.status === 'upcoming' ? 'tournament.me.out_upcoming' : 'tournament.me.out_running'));
    actions.appendChild(button('tournament.join', 'tournament-join', join, 'primary'));
  } else if (state === 'withdrawn') {
    line.appendChild(el('span', mine.withdrawn === 'absent' ? 'tournament.me.absent' : 'tournament.me.withdrawn'));
    actions.appendChild(button('tournament.rejoin', 'tournament-join', join, 'primary'));
  } else if (state === 'joined') {
    line.appendChild(el('span', 'tournament.me.joined'));
    actions.appendChild(button('tournament.withdraw', 'tournament-withdraw', withdraw));
  } else if (state === 'waiting') {
    line.append(lit('span', '', 'seek-pulse'), el('span', 'tournament.me.waiting'));
    card.appendChild(line);
    card.appendChild(el('p', 'tournament.me.waiting_note', {}, 'muted small-note'));
    actions.appendChild(button('tournament.withdraw', 'tournament-withdraw', withdraw));
  } else if (state === 'playing') {
    line.appendChild(el('span', 'tournament.me.playing'));
    const a = el('a', 'tournament.to_table', {}, 'button primary');
    a.id = 'tournament-to-table';
    a.href = `/table/${encodeURIComponent(mine.table)}`;
    a.addEventListener('click', (ev) => {
      ev.preventDefault();
      goToTournamentTable(mine.table);
    });
    actions.appendChild(a);
    actions.appendChild(button('tournament.withdraw', 'tournament-withdraw', withdraw));
  } else if (state === 'over-joined') {
    line.appendChild(el('span', tt.status === 'cancelled' ? 'tournament.me.cancelled' : 'tournament.me.over'));
  } else {
    line.appendChild(el('span', tt.status === 'cancelled' ? 'tournament.me.cancelled' : 'tournament.me.over'));
  }
  if (!card.contains(line)) card.prepend(line);
  if (mine && mine.joined && mine.rank) {
    const where = el('p', 'tournament.me.rank', { rank: mine.rank, count: Number(mine.score) || 0 }, 'me-rank');
    where.id = 'tournament-me-rank';
    card.appendChild(where);
  }
  if (state === 'waiting' || state === 'joined' || state === 'playing') {
    tattr(actions.querySelector('#tournament-withdraw'), 'title', 'tournament.withdraw_title');
  }
  if (actions.children.length) card.appendChild(actions);
  const error = document.createElement('p');
  error.className = 'error';
  error.id = 'tournament-error';
  error.setAttribute('role', 'alert');
  if (page.error) tx(error, page.error[0], page.error[1]);
  card.appendChild(error);
  return card;
}

function podium(tt) {
  const card = document.createElement('section');
  card.className = 'card tournament-podium';
  card.id = 'podium';
  card.appendChild(el('h2', 'tournament.winner', { name: tt.standings[0].name }));
  const list = document.createElement('ol');
  list.className = 'podium-steps';
  tt.standings.slice(0, 3).forEach((s, i) => {
    const li = document.createElement('li');
    li.className = `podium-step place-${i + 1}`;
    li.dataset.player = s.name;
    li.append(lit('span', String(i + 1), 'medal'), playerLink(s.name), el('span', 'tournament.points', { count: Number(s.score) || 0 }, 'podium-score'));
    list.appendChild(li);
  });
  card.appendChild(list);
  return card;
}

function standingsCard(tt) {
  const card = document.createElement('section');
  card.className = 'card tournament-standings';
  card.id = 'tournament-standings';
  card.appendChild(el('h2', 'tournament.standings'));
  if (!tt.standings.length) {
    card.appendChild(el('p', 'tournament.no_entrants', {}, 'muted'));
    return card;
  }
  const table = document.createElement('table');
  table.className = 'standings-table';
  table.id = 'standings';
  const head = table.createTHead().insertRow();
  const heads = [['tournament.col.rank', 'rank'], ['tournament.col.player', 'player'], ['tournament.col.score', 'num'], ['tournament.col.games', 'num'], [null, 'now']];
  for (const [key, cls] of heads) {
    const th = key ? el('th', key, {}, cls) : document.createElement('th');
    if (!key) th.className = cls;
    th.scope = 'col';
    head.appendChild(th);
  }
  const body = table.createTBody();
  const you = page.you && page.you.name;
  for (const s of tt.standings) {
    const tr = body.insertRow();
    tr.className = 'standing';
    tr.dataset.player = s.name;
    if (!s.active) tr.classList.add('withdrawn');
    if (s.name === you) tr.classList.add('mine');
    const rank = tr.insertCell();
    rank.className = 'rank';
    rank.appendChild(lit('span', String(s.rank)));
    const who = tr.insertCell();
    who.className = 'player';
    const link = playerLink(s.name);
    link.className = 'standing-name';
    who.appendChild(link);
    if (s.fire) {
      const fire = document.createElement('span');
      fire.className = 'on-fire';
      fire.setAttribute('role', 'img');
      fire.appendChild(fireIcon());
      tattr(fire, 'title', 'tournament.fire_title');
      tattr(fire, 'aria-label', 'tournament.fire_title');
      who.append(' ', fire);
    }
    if (!s.active) who.append(' ', el('span', 'tournament.withdrawn', {}, 'badge withdrawn-badge'));
    const score = tr.insertCell();
    score.className = 'num score';
    score.appendChild(lit('span', String(s.score)));
    const games = tr.insertCell();
    games.className = 'num games';
    games.appendChild(lit('span', String(s.games)));
    const now = tr.insertCell();
    now.className = 'now';
    if (s.table) {
      const watch = el('a', 'tournament.watch', {}, 'button small watch');
      watch.href = `/table/${encodeURIComponent(s.table)}`;
      now.appendChild(watch);
    }
  }
  card.appendChild(table);
  const more = (Number(tt.entrants) || 0) - tt.standings.length;
  if (more > 0) card.appendChild(el('p', 'tournament.more_entrants', { count: more }, 'muted small-note'));
  const scoring = document.createElement('p');
  scoring.className = 'muted small-note scoring-note';
  scoring.append(fireIcon(), ' ', el('span', 'tournament.scoring'));
  card.appendChild(scoring);
  return card;
}

/** A game's seat: a player's name links to their page; a bot's ("Bot 2 · medium", `level`
 * from the game's `bots`) is plain muted text. */
function seatName(name, level, seat) {
  if (level) return el('span', 'bot.name', botName({ name, bot: level }, seat), 'game-name bot muted');
  const a = playerLink(name || '');
  a.classList.add('game-name');
  return a;
}

function gamesCard(tt) {
  const card = document.createElement('section');
  card.className = 'card tournament-games';
  card.id = 'tournament-games-card';
  card.appendChild(el('h2', 'tournament.latest_games'));
  const games = tt.games || [];
  if (!games.length) {
    card.appendChild(el('p', tt.status === 'upcoming' ? 'tournament.no_games_yet' : 'tournament.no_games', {}, 'muted'));
    return card;
  }
  const list = document.createElement('ul');
  list.className = 'tournament-game-list';
  list.id = 'tournament-games';
  for (const g of games) {
    const li = document.createElement('li');
    li.className = `tournament-game ${g.finished ? 'finished' : 'playing'}`;
    li.dataset.table = g.table;
    const players = document.createElement('span');
    players.className = 'game-players';
    const points = g.points || [];
    const best = Math.max(0, ...points.map((p) => Number(p) || 0));
    (g.players || []).forEach((name, i) => {
      const who = document.createElement('span');
      who.className = 'game-player';
      if (g.finished && best > 0 && Number(points[i]) === best) who.classList.add('won');
      who.appendChild(seatName(name, (g.bots || [])[i], i));
      if (g.finished && points[i] !== undefined && points[i] !== null) {
        who.append(' ', lit('span', `+${points[i]}`, 'game-points'));
      }
      if (i) players.appendChild(lit('span', '·', 'versus'));
      players.appendChild(who);
    });
    li.appendChild(players);
    const link = el('a', g.finished ? 'tournament.record' : 'tournament.watch', {}, 'small-link');
    link.href = g.finished ? `/game/${encodeURIComponent(g.table)}` : `/table/${encodeURIComponent(g.table)}`;
    li.appendChild(link);
    list.appendChild(li);
  }
  card.appendChild(list);
  return card;
}

/** The countdown, every quarter second; past its moment, the tournament is read again (the
 * start or the end may not have been told yet). */
function tick() {
  const tt = page.t;
  if (!tt) return;
  const cd = countdownOf(tt);
  const clock = $('tournament-clock');
  if (!cd || !clock) return;
  const left = secondsTo(cd.at, page.skew);
  const words = $('tournament-countdown-words');
  if (left > 0) {
    clock.textContent = clockText(left);
    if (words && words.dataset.i18n !== cd.key) tx(words, cd.key);
  } else {
    clock.textContent = '';
    if (words && words.dataset.i18n !== cd.soon) tx(words, cd.soon);
    if (Date.now() - page.fetched > LATE_MS) {
      page.fetched = Date.now();
      loadSoon();
    }
  }
}

function askCancel() {
  const old = $('cancel-dialog');
  if (old) old.remove();
  const dialog = document.createElement('dialog');
  dialog.className = 'leave-dialog card';
  dialog.id = 'cancel-dialog';
  dialog.setAttribute('aria-labelledby', 'cancel-title');
  dialog.addEventListener('close', () => dialog.remove());
  const title = el('h2', 'tournament.cancel_title');
  title.id = 'cancel-title';
  dialog.appendChild(title);
  dialog.appendChild(el('p', 'tournament.cancel_text'));
  const buttons = document.createElement('div');
  buttons.className = 'buttons';
  const keep = el('button', 'tournament.cancel_keep', {}, 'small');
  keep.type = 'button';
  keep.id = 'cancel-keep';
  keep.addEventListener('click', () => dialog.close());
  const go = el('button', 'tournament.cancel_go', {}, 'danger');
  go.type = 'button';
  go.id = 'cancel-go';
  go.addEventListener('click', () => {
    dialog.close();
    cancel();
  });
  buttons.append(keep, go);
  dialog.appendChild(buttons);
  document.body.appendChild(dialog);
  dialog.showModal();
  keep.focus(); // keeping it is the choice that loses nothing
}

async function main() {
  await startPage('tournament.title');
  page.you = await me().catch(() => null);
  document.addEventListener('ds:me', async () => {
    page.you = await me().catch(() => null);
    render();
  });
  onLanguage(() => {
    render();
    showTitle();
  });
  followTournamentPairing((f) => {
    page.paired = f.table;
    render();
  });
  onLobby('tournament', (f) => {
    if (f && f.id === id) loadSoon();
  });
  onLobby('welcome', (f) => {
    if (f && f.you !== undefined) {
      const was = page.you && page.you.name;
      page.you = f.you || null;
      if ((page.you && page.you.name) !== was) render();
    }
    if (page.t) loadSoon(); // back after a drop: what changed meanwhile
  });
  onLobby('session_ended', async () => {
    document.dispatchEvent(new CustomEvent('ds:me'));
  });
  startChallenges({ you: () => page.you });
  await load();
  setInterval(tick, 250);
  connectLobby();
}

main().catch((e) => {
  console.error(e);
  toast('err.server', { message: String(e.message || e) }, 'error');
});
