// The leaderboard of a variant: the accounts ranked by rating, the bots' fixed ratings apart.
import { ApiError, get } from './api.js';
import { clear, startPage, toast } from './common.js';
import { findPlayerCard } from './find_player.js';
import { el, lit } from './i18n.js';
import { startNotices } from './notices.js';
import { VARIANTS, dataTable, pathKey, playerLink, ratingText } from './ratings.js';

const variant = pathKey();

function tabs() {
  const nav = document.createElement('nav');
  nav.className = 'variant-tabs';
  for (const v of VARIANTS) {
    const a = el('a', `rating.variant.${v}`);
    a.href = `/leaderboard/${v}`;
    if (v === variant) a.setAttribute('aria-current', 'page');
    nav.appendChild(a);
  }
  return nav;
}

function render(main, board) {
  clear(main);
  main.appendChild(el('h1', 'rating.leaderboard_heading', { variant: { $t: `rating.variant.${variant}` } }));
  main.appendChild(tabs());
  main.appendChild(findPlayerCard());
  const card = document.createElement('section');
  card.className = 'card';
  card.id = 'standings';
  if (!board.players.length) {
    card.appendChild(el('p', 'rating.empty', {}, 'muted'));
  } else {
    const rows = board.players.map((p) => [
      lit('span', String(p.rank)),
      playerLink(p.name),
      lit('span', ratingText(p), p.provisional ? 'provisional' : ''),
      lit('span', String(p.games)),
      lit('span', `${p.wins} / ${p.losses} / ${p.draws}`),
    ]);
    card.appendChild(dataTable(
      [['rating.rank', true], ['rating.player'], ['rating.rating', true], ['rating.games', true], ['rating.record', true]],
      rows, 'standings'));
    card.appendChild(el('p', 'rating.provisional_note', { count: 10 }, 'muted small-note'));
  }
  main.appendChild(card);
  const bots = document.createElement('section');
  bots.className = 'card bot-ratings';
  bots.id = 'bot-ratings';
  bots.appendChild(el('h2', 'rating.bots'));
  const list = document.createElement('ul');
  for (const b of board.bots) {
    const li = el('li', 'rating.bot_rating', { bot: { $t: `bot.${b.bot}` }, rating: String(b.rating) });
    li.dataset.bot = b.bot;
    list.appendChild(li);
  }
  bots.appendChild(list);
  bots.appendChild(el('p', 'rating.bots_note', {}, 'muted small-note'));
  main.appendChild(bots);
}

async function main() {
  await startPage('rating.leaderboard_title');
  startNotices();
  const root = document.getElementById('leaderboard');
  let board;
  try {
    board = await get(`/api/leaderboard/${encodeURIComponent(variant)}`);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) throw e;
    clear(root);
    const card = el('section', null, null, 'card not-found');
    card.appendChild(el('p', 'rating.no_variant', { variant }));
    card.appendChild(tabs());
    root.appendChild(card);
    return;
  }
  render(root, board);
}

main().catch((e) => toast('err.server', { message: String(e.message || e) }, 'error'));
