// Whom this account follows (docs/protocol.md, "Following"): read once a page, changed by
// the button of a player's page. A guest follows nobody and gets no button.
import { ApiError, api, get } from './api.js';
import { toast } from './common.js';
import { el, tattr, tx } from './i18n.js';

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
