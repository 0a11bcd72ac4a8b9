// The post-game review on a finished game's page and of an uploaded record:
// one player's moves beside the expert's, from that player's view only
// (GET /api/games/{id}/review, POST /api/records/review).
// A row jumps the replay viewer to the position before that move.
import { clear } from './common.js';
import { playerName, roster } from './describe.js';
import { el, formatNumber, lit, tx } from './i18n.js';
import { tileSVG } from './tiles.js';

/** Expected points lost from which a move counts as a blunder rather than an inaccuracy. */
const BLUNDER = 5;

function moveCell(move) {
  const td = document.createElement('td');
  const box = document.createElement('span');
  box.className = 'review-move';
  box.appendChild(tileSVG(move.tile, { orient: 'h', size: 14 }));
  box.appendChild(lit('span', move.tile, 'tile-name'));
  if (move.end) box.appendChild(el('span', `review.end_${move.end}`, {}, 'muted'));
  td.appendChild(box);
  return td;
}

/** Expected points (the hint's unit) to one decimal. */
// `|| 0`: a loss that rounds to nothing is 0, not −0.
function tenths(x) {
  return Math.round((x ?? 0) * 10) / 10 || 0;
}

function percent(x) {
  return lit('td', `${formatNumber(Math.round(100 * x) || 0)}%`, 'num');
}

function row(item, viewer) {
  const tr = document.createElement('tr');
  tr.dataset.round = String(item.round);
  tr.dataset.event = String(item.event);
  if (item.loss >= BLUNDER) tr.className = 'blunder';
  else if (item.loss > 0) tr.className = 'differs';
  tr.appendChild(el('td', 'review.where', { round: item.round, move: item.event + 1 }));
  tr.appendChild(moveCell(item.played));
  if (item.choices < 2) {
    const forced = el('td', 'review.forced', {}, 'muted');
    forced.colSpan = 4;
    tr.appendChild(forced);
  } else if (item.loss > 0) {
    tr.appendChild(moveCell(item.best));
    const points = document.createElement('td');
    points.className = 'num';
    points.appendChild(el('span', 'review.points_vs', { mine: tenths(item.points), best: tenths(item.best_points) }));
    tr.appendChild(points);
    tr.appendChild(lit('td', formatNumber(tenths(item.loss)), 'num loss'));
    const win = document.createElement('td');
    win.className = 'num';
    win.appendChild(el('span', 'review.win_vs', {
      mine: Math.round(100 * item.win_chance),
      best: Math.round(100 * item.best_win_chance),
    }));
    tr.appendChild(win);
  } else {
    tr.appendChild(el('td', 'review.agrees', {}, 'agrees'));
    tr.appendChild(lit('td', formatNumber(tenths(item.points)), 'num'));
    tr.appendChild(lit('td', '0', 'num loss'));
    tr.appendChild(percent(item.win_chance));
  }
  tr.tabIndex = 0;
  const jump = () => {
    viewer.goTo(item.round - 1, item.event);
    document.getElementById('viewer').scrollIntoView({ behavior: 'smooth', block: 'start' });
  };
  tr.addEventListener('click', jump);
  tr.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') jump();
  });
  return tr;
}

function table(found, viewer) {
  const t = document.createElement('table');
  t.className = 'review-table';
  const head = document.createElement('tr');
  for (const key of ['review.col_where', 'review.col_played', 'review.col_best']) head.appendChild(el('th', key));
  for (const key of ['review.col_points', 'review.col_loss', 'review.col_win']) head.appendChild(el('th', key, {}, 'num'));
  const thead = document.createElement('thead');
  thead.appendChild(head);
  t.appendChild(thead);
  const body = document.createElement('tbody');
  for (const item of found.moves) body.appendChild(row(item, viewer));
  t.appendChild(body);
  return t;
}

/**
 * Fill `container` with the review controls for `record`; rows steer `viewer`.
 * `fetchReview(seat)` asks the server for one seat's review.
 */
export function reviewPanel(container, record, viewer, fetchReview) {
  const players = roster(record.players, record.bots);
  const n = (record.ruleset && record.ruleset.players) || players.length;
  clear(container);
  container.appendChild(el('h2', 'review.title'));
  container.appendChild(el('p', 'review.intro', {}, 'muted'));
  const controls = document.createElement('p');
  controls.className = 'actions review-controls';
  const label = el('label', 'review.seat');
  const select = document.createElement('select');
  select.id = 'review-seat';
  for (let s = 0; s < n; s++) {
    const o = lit('option', playerName(players, s));
    o.value = String(s);
    select.appendChild(o);
  }
  label.appendChild(select);
  controls.appendChild(label);
  const start = el('button', 'review.start', {}, 'button primary');
  start.type = 'button';
  start.id = 'review-start';
  controls.appendChild(start);
  container.appendChild(controls);
  const status = document.createElement('p');
  status.id = 'review-status';
  status.setAttribute('role', 'status');
  container.appendChild(status);
  const results = document.createElement('div');
  results.id = 'review-results';
  container.appendChild(results);

  start.addEventListener('click', async () => {
    const seat = Number(select.value);
    start.disabled = true;
    clear(results);
    tx(status, 'review.working');
    try {
      const found = await fetchReview(seat);
      tx(status, 'review.summary', {
        name: playerName(players, seat),
        count: found.moves.filter((m) => m.choices > 1).length,
        differ: found.differ,
        loss: tenths(found.total_loss),
      });
      results.appendChild(table(found, viewer));
    } catch (e) {
      tx(status, 'review.failed', { message: String(e.message || e) });
    } finally {
      start.disabled = false;
    }
  });
}
