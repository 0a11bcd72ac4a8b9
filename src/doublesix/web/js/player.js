// A player's page: the rating in each variant, its history drawn as SVG, the recent games.
import { ApiError, get, me } from './api.js';
import { blockButton, blockedCard, isBlocked, loadBlocked, onBlockedChange } from './block.js';
import { clear, moreButton, startPage, toast } from './common.js';
import { botName } from './describe.js';
import { findPlayerCard } from './find_player.js';
import { followButton, followingCard, loadFollowing } from './follow.js';
import { startNotices } from './notices.js';
import { presenceLine } from './player_presence.js';
import { reportButton } from './report.js';
import { currentLanguage, el, lit, tattr } from './i18n.js';
import { VARIANTS, dataTable, pathKey, ratingText } from './ratings.js';

const name = pathKey();
const DOWNLOAD_MOST = 100; // games a download holds (server/exports.py)
const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  return node;
}

/** An SVG text of numbers or dates, the same in every language. */
function figure(tag, attrs, text) {
  const node = svg(tag, attrs);
  node.dataset.literal = '';
  node.textContent = text;
  return node;
}

function signed(d) {
  return d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0';
}

/** The rating after each rated game of one variant, as a line (the first point: before it),
 * the first and the last game's dates under it; each point tells its date and rating (and
 * the game's change) when pointed at. */
function chart(variant, points) {
  const values = [points[0].before, ...points.map((p) => p.rating)];
  const W = 600, H = 200, left = 48, right = 12, top = 12, bottom = 24;
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 40) { lo -= 20; hi += 20; }
  const x = (i) => left + (values.length === 1 ? 0 : (i * (W - left - right)) / (values.length - 1));
  const y = (v) => top + ((hi - v) * (H - top - bottom)) / (hi - lo);
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-chart', role: 'img' });
  root.dataset.variant = variant;
  tattr(root, 'aria-label', 'rating.chart_label', { variant: { $t: `rating.variant.${variant}` } });
  for (const v of [lo, (lo + hi) / 2, hi]) {
    root.appendChild(svg('line', { x1: left, x2: W - right, y1: y(v), y2: y(v), class: 'grid' }));
    root.appendChild(figure('text', { x: left - 6, y: y(v) + 4, class: 'axis' }, String(Math.round(v))));
  }
  const first = date(points[0].at), last = date(points[points.length - 1].at);
  root.appendChild(figure('text', { x: left, y: H - 6, class: 'axis when first' }, first));
  if (points.length > 1 && last !== first) {
    root.appendChild(figure('text', { x: W - right, y: H - 6, class: 'axis when last' }, last));
  }
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  root.appendChild(svg('polyline', { points: line, class: 'line' }));
  values.forEach((v, i) => {
    const dot = svg('circle', { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3.5, class: i ? 'point' : 'start' });
    const game = points[Math.max(0, i - 1)];
    dot.appendChild(figure('title', {}, i ? `${date(game.at)}: ${v} (${signed(v - game.before)})` : `${date(game.at)}: ${v}`));
    root.appendChild(dot);
  });
  return root;
}

function date(at) {
  return new Date(at * 1000).toLocaleDateString(currentLanguage());
}

function stat(key, value) {
  const box = document.createElement('div');
  box.className = 'stat';
  box.appendChild(lit('strong', String(value)));
  box.appendChild(el('span', key, {}, 'muted'));
  return box;
}

function players(list) {
  const span = document.createElement('span');
  span.className = 'names';
  for (const p of list) {
    if (p.bot) span.appendChild(el('span', 'bot.name', botName(p, p.seat)));
    else span.appendChild(lit('span', p.name || ''));
  }
  return span;
}

function change(game) {
  if (!game.rated || game.rating_change === null) return el('span', 'rating.unrated', {}, 'muted');
  const d = game.rating_change;
  return lit('span', signed(d), d > 0 ? 'up' : d < 0 ? 'down' : '');
}

/** "You and Boris": the viewer's games with the page's player, against and as partners. */
function togetherCard(together) {
  const card = document.createElement('section');
  card.className = 'card together';
  card.id = 'together';
  card.appendChild(el('h2', 'player.together.title', { name: together.name }));
  const line = (key, record) => el('p', key, {
    count: record.games, wins: record.wins, losses: record.losses, draws: record.draws,
  }, key.endsWith('against') ? 'against' : 'partners');
  const { against, partners } = together;
  if (!against.games && !partners.games) {
    card.appendChild(el('p', 'player.together.none', { name: together.name }, 'muted'));
  }
  if (against.games) card.appendChild(line('player.together.against', against));
  if (partners.games) card.appendChild(line('player.together.partners', partners));
  return card;
}

/** "Message": the inbox's thread with `name`, where one writes to them. */
function messageLink(name) {
  const link = el('a', 'player.message', {}, 'button small message-link');
  link.id = 'message';
  link.href = `/inbox/${encodeURIComponent(name)}`;
  tattr(link, 'title', 'player.message_title', { name });
  return link;
}

/** "Tournaments": the latest the player joined, each with its place and points. */
function tournamentsCard(list) {
  const card = document.createElement('section');
  card.className = 'card player-tournaments';
  card.id = 'player-tournaments';
  card.appendChild(el('h2', 'player.tournaments.title'));
  if (!list.length) {
    card.appendChild(el('p', 'player.tournaments.none', {}, 'muted'));
    return card;
  }
  const ul = document.createElement('ul');
  ul.className = 'tournament-list';
  for (const t of list) {
    const li = document.createElement('li');
    li.dataset.tournament = t.id;
    li.className = `tournament-item ${t.status}`;
    const link = lit('a', t.name, 'tournament-name');
    link.href = `/tournament/${encodeURIComponent(t.id)}`;
    li.append(link, ' · ', el('span', `preset.${t.preset}`, {}, 'tournament-game'), ' · ',
      el('span', `tournament.status.${t.status}`, {}, 'tournament-status'));
    if (t.rank !== null) {
      const key = t.status === 'running' ? 'player.tournaments.place_now' : 'player.tournaments.place';
      const place = el('span', key, {
        place: { $t: 'player.tournaments.nth', args: { count: t.rank } },
        entrants: t.entrants,
        points: { $t: 'tournament.points', args: { count: t.score } },
        games: { $t: 'player.tournaments.games', args: { count: t.games } },
      }, 'tournament-place');
      li.append(' · ', place);
    }
    ul.appendChild(li);
  }
  card.appendChild(ul);
  return card;
}

function render(root, page, you, online, together, tournaments) {
  clear(root);
  const head = document.createElement('div');
  head.className = 'player-head';
  head.appendChild(lit('h1', page.name, 'player-name'));
  if (you && you.account && you.name !== page.name) {
    const follow = followButton(page.name);
    const hide = () => follow.classList.toggle('hidden', isBlocked(page.name)); // the site unfollowed
    hide();
    onBlockedChange(hide);
    head.append(follow, blockButton(page.name), messageLink(page.name));
  }
  if (you && you.name !== page.name) head.append(reportButton(page.name)); // guests too
  root.appendChild(head);
  const since = new Date(page.since * 1000).toLocaleDateString(currentLanguage(), { year: 'numeric', month: 'long' });
  root.appendChild(el('p', 'player.since', { date: since }, 'muted player-since'));
  root.appendChild(presenceLine(page.name, you && you.name, online));
  const counts = document.createElement('section');
  counts.className = 'card stats';
  counts.id = 'counts';
  counts.appendChild(stat('rating.games', page.counts.games));
  counts.appendChild(stat('rating.wins', page.counts.wins));
  counts.appendChild(stat('rating.losses', page.counts.losses));
  counts.appendChild(stat('rating.draws', page.counts.draws));
  root.appendChild(counts);
  if (together) root.appendChild(togetherCard(together));

  const ratings = document.createElement('section');
  ratings.className = 'card';
  ratings.id = 'ratings';
  ratings.appendChild(el('h2', 'rating.ratings'));
  if (!page.ratings.length) ratings.appendChild(el('p', 'rating.no_ratings', {}, 'muted'));
  else {
    const link = (v) => {
      const a = el('a', `rating.variant.${v}`);
      a.href = `/leaderboard/${v}`;
      return a;
    };
    ratings.appendChild(dataTable(
      [['rating.variant.label'], ['rating.rating', true], ['rating.games', true], ['rating.record', true]],
      page.ratings.map((r) => [
        link(r.variant),
        lit('span', ratingText(r), r.provisional ? 'provisional' : ''),
        lit('span', String(r.games)),
        lit('span', `${r.wins} / ${r.losses} / ${r.draws}`),
      ])));
    ratings.appendChild(el('p', 'rating.provisional_note', { count: 10 }, 'muted small-note'));
  }
  root.appendChild(ratings);

  const drawn = VARIANTS.filter((v) => (page.history[v] || []).length);
  if (drawn.length) { // without a rated game, the ratings' card has said so once
    const history = document.createElement('section');
    history.className = 'card';
    history.id = 'history';
    history.appendChild(el('h2', 'rating.history'));
    for (const v of drawn) {
      const figure = document.createElement('figure');
      figure.className = 'rating-figure';
      figure.appendChild(el('figcaption', `rating.variant.${v}`));
      figure.appendChild(chart(v, page.history[v]));
      history.appendChild(figure);
    }
    root.appendChild(history);
  }

  if (tournaments) root.appendChild(tournamentsCard(tournaments));

  const games = document.createElement('section');
  games.className = 'card';
  games.id = 'games';
  root.appendChild(games);
  const shared = together ? together.against.games + together.partners.games : 0;
  drawGames(games, page.name, page.games, page.more_games, { offered: shared > 0, on: false });
}

/** A page of the player's games: the newest, or those after ``last``; with ``filter.on``,
 * only the games the viewer played with them. */
function gamesPage(player, last, filter) {
  const query = new URLSearchParams();
  if (last) {
    query.set('before_at', String(last.at));
    query.set('before_table', last.table);
  }
  if (filter.on) query.set('together', 'true');
  return get(`/api/players/${encodeURIComponent(player)}/games?${query}`);
}

/** "Only our games": the games card's switch between every game and the viewer's with them. */
function togetherSwitch(box, player, filter) {
  const label = document.createElement('label');
  label.className = 'games-filter';
  const check = document.createElement('input');
  check.type = 'checkbox';
  check.id = 'games-together';
  check.checked = filter.on;
  label.append(check, el('span', 'player.together.only'));
  check.addEventListener('change', async () => {
    const next = { ...filter, on: check.checked };
    check.disabled = true;
    try {
      const page = await gamesPage(player, null, next);
      drawGames(box, player, page.games, page.more, next);
    } catch (e) {
      check.disabled = false;
      check.checked = filter.on;
      toast('err.server', { message: String(e.message || e) }, 'error');
    }
  });
  return label;
}

/** The player's latest games as doublesix/1 records, one a line (docs/protocol.md). */
function downloadLink(player) {
  const link = el('a', 'player.download', { count: DOWNLOAD_MOST }, 'download-games');
  link.id = 'download-games';
  link.href = `/api/records?${new URLSearchParams({ player })}`;
  link.setAttribute('download', '');
  return link;
}

/** The games card: the games read so far, and "Older games" while there are more. */
function drawGames(box, player, games, more, filter) {
  clear(box);
  const head = document.createElement('div');
  head.className = 'games-head';
  head.appendChild(el('h2', 'rating.recent'));
  if (filter.offered) head.appendChild(togetherSwitch(box, player, filter));
  box.appendChild(head);
  if (!games.length) box.appendChild(el('p', 'rating.no_games', {}, 'muted'));
  else {
    box.appendChild(dataTable(
      [
        ['rating.when'], ['rating.game'], ['rating.players'],
        ['rating.result', false, { name: player }], // whose: a visitor reads another's page
        ['rating.change', true],
      ],
      games.map((g) => {
        const open = el('a', `preset.${g.preset}`);
        open.href = `/game/${encodeURIComponent(g.table)}`;
        return [lit('span', date(g.at)), open, players(g.players),
          el('span', `rating.outcome.${g.outcome}`, {}, `outcome ${g.outcome}`), change(g)];
      }), 'games-list'));
  }
  if (games.length) box.appendChild(downloadLink(player));
  if (!more) return;
  const older = moreButton('rating.older_games', 'older-games', async () => {
    const next = await gamesPage(player, games[games.length - 1], filter);
    drawGames(box, player, [...games, ...next.games], next.more, filter);
  }, (e) => toast('err.server', { message: String(e.message || e) }, 'error'));
  older.classList.add('older-games');
  box.appendChild(older);
}

async function main() {
  await startPage('rating.player_title');
  startNotices();
  const root = document.getElementById('player');
  let page;
  try {
    page = await get(`/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    if (!(e instanceof ApiError) || ![404, 410].includes(e.status)) throw e;
    clear(root);
    const card = el('section', null, null, 'card not-found');
    card.appendChild(el('p', e.status === 410 ? 'rating.closed_player' : 'rating.no_player', { name }));
    root.appendChild(card);
    root.appendChild(findPlayerCard(name));
    return;
  }
  const [you, online] = await Promise.all([
    me().catch(() => null),
    get('/api/online').then((r) => r.players, () => null),
  ]);
  const [together, tournaments] = await Promise.all([
    you && you.name !== page.name
      ? get(`/api/players/${encodeURIComponent(page.name)}/together`).catch(() => null)
      : null,
    get(`/api/players/${encodeURIComponent(page.name)}/tournaments`).then((r) => r.tournaments, () => null),
    loadFollowing(you),
    loadBlocked(you),
  ]);
  render(root, page, you, online, together, tournaments);
  if (you && you.account && you.name === page.name) {
    const games = document.getElementById('games');
    root.insertBefore(followingCard(online || []), games);
    root.insertBefore(blockedCard(), games);
  }
}

main().catch((e) => toast('err.server', { message: String(e.message || e) }, 'error'));
