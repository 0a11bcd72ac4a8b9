// Whom this account follows (docs/protocol.md, "Following"): read once a page, changed by
// the button of a player's page. A guest follows nobody and gets no button.
import { ApiError, api, get } from './api.js';
import { toast } from './common.js';
import { el, lit, tattr, tx } from './i18n.js';
import { playerLink } from './ratings.js';

let names = new Set();

/** Read the list for `you` ({name, account} or null); the names it holds. */
export async function loadFollowing(you) {
  names = new Set();
  if (!you || !you.account) return names;
  try {
    names = new Set((await get('/api/account/following')).following.map((f) => f.name));
  } catch (e) {
    /* not read: the lobby lists everyone alike */
  }
  return names;
}

export function isFollowed(name) {
  return names.has(name);
}

/** The account's own page: whom it follows, each a link to their page, those online first
 * (`online`: the lobby's list of who is online). */
export function followingCard(online) {
  const card = document.createElement('section');
  card.className = 'card';
  card.id = 'following';
  card.appendChild(el('h2', 'player.following_title'));
  if (!names.size) {
    card.appendChild(el('p', 'player.following_none', {}, 'muted'));
    return card;
  }
  const here = new Map(online.filter((p) => p.account).map((p) => [p.name, p.status]));
  const sorted = [...names].sort((a, b) => Number(here.has(b)) - Number(here.has(a)) || a.localeCompare(b));
  const list = document.createElement('ul');
  list.className = 'following-list';
  for (const name of sorted) {
    const li = document.createElement('li');
    const status = here.has(name) ? (here.get(name) === 'free' ? 'free' : 'seated') : 'offline';
    li.dataset.status = status;
    li.appendChild(lit('span', '●', `presence-dot ${status}`)).setAttribute('aria-hidden', 'true');
    li.appendChild(playerLink(name));
    li.appendChild(el('span', `player.presence.${status}`, {}, 'muted'));
    list.appendChild(li);
  }
  card.appendChild(list);
  return card;
}

function draw(button, name) {
  const on = names.has(name);
  button.setAttribute('aria-pressed', String(on));
  tx(button, on ? 'player.following' : 'player.follow');
  tattr(button, 'title', on ? 'player.unfollow' : 'player.follow_title', { name });
}

/** A button that follows `name` (an account's name as the site spells it), or stops. */
export function followButton(name) {
  const button = el('button', 'player.follow', {}, 'small follow-button');
  button.type = 'button';
  button.id = 'follow';
  draw(button, name);
  button.addEventListener('click', async () => {
    const path = `/api/account/following/${encodeURIComponent(name)}`;
    button.disabled = true;
    try {
      const r = await api(names.has(name) ? 'DELETE' : 'PUT', path);
      names = new Set(r.following.map((f) => f.name));
    } catch (e) {
      toast('err.generic', { message: e instanceof ApiError ? e.message : String(e) }, 'error');
    } finally {
      button.disabled = false;
      draw(button, name);
    }
  });
  return button;
}
