// Whom this account follows (docs/protocol.md, "Following and blocking"): read once a page,
// changed by the button of a player's page. A guest follows nobody and gets no button.
import { AccountList, listButton, listCard } from './account_lists.js';
import { el, lit, tattr, tx } from './i18n.js';
import { playerLink } from './ratings.js';

const following = new AccountList('following');

/** Read the list for `you` ({name, account} or null); the names it holds. */
export function loadFollowing(you) {
  return following.load(you);
}

export function isFollowed(name) {
  return following.has(name);
}

/** The server no longer has `name` followed (it was blocked). */
export function unfollowed(name) {
  following.drop(name);
}

/** The account's own page: whom it follows, each a link to their page, those online first
 * (`online`: the lobby's list of who is online). */
export function followingCard(online) {
  const card = listCard('following', 'player.following_title');
  if (!following.names.size) {
    card.appendChild(el('p', 'player.following_none', {}, 'muted'));
    return card;
  }
  const here = new Map(online.filter((p) => p.account).map((p) => [p.name, p.status]));
  const sorted = [...following.names].sort((a, b) => Number(here.has(b)) - Number(here.has(a)) || a.localeCompare(b));
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

/** A button that follows `name` (an account's name as the site spells it), or stops. */
export function followButton(name) {
  const button = listButton(following, name, (b, on) => {
    b.setAttribute('aria-pressed', String(on));
    tx(b, on ? 'player.following' : 'player.follow');
    tattr(b, 'title', on ? 'player.unfollow' : 'player.follow_title', { name });
  });
  button.className = 'small follow-button';
  button.id = 'follow';
  return button;
}
