// Whether a player's page's account is on the site now: free (with a way to challenge them
// from the lobby), at a table (with a way to watch it) or not online. Read from the lobby's
// list of who is online (GET /api/online), which the page reads when it opens, and again
// every 30 s while it is in view.
import { get } from './api.js';
import { isBlocked } from './block.js';
import { clear } from './common.js';
import { el, lit } from './i18n.js';

const EVERY = 30000; // ms between two readings while the page is in view

function link(key, href, className) {
  const a = el('a', key, {}, className);
  a.href = href;
  return a;
}

function draw(box, name, online, you) {
  clear(box);
  const here = online.find((p) => p.account && p.name === name);
  const status = !here ? 'offline' : here.status === 'free' ? 'free' : 'seated';
  box.dataset.status = status;
  box.appendChild(lit('span', '●', `presence-dot ${status}`)).setAttribute('aria-hidden', 'true');
  box.appendChild(el('span', `player.presence.${status}`, {}, 'presence-text'));
  if (you === name) box.appendChild(el('span', 'lobby.online.you', {}, 'muted'));
  else if (status === 'free' && !isBlocked(name)) {
    box.appendChild(link('lobby.online.challenge', `/?challenge=${encodeURIComponent(name)}`, 'button small primary challenge-link'));
  }
  if (status === 'seated' && here.table) {
    box.appendChild(link('lobby.online.watch', `/table/${encodeURIComponent(here.table)}`, 'button small'));
  }
}

/** A line that says where `name` (an account's name as the site spells it) is now;
 * `you`: the reader's name, or null; `online`: who is online as the page read it on
 * opening (null: unread), read again from then on. */
export function presenceLine(name, you, online) {
  const box = document.createElement('p');
  box.id = 'presence';
  box.className = 'presence';
  const read = async () => {
    try {
      draw(box, name, (await get('/api/online')).players, you);
    } catch (e) {
      clear(box); // unknown is said by saying nothing
    }
  };
  if (online) draw(box, name, online, you);
  else read();
  setInterval(() => {
    if (!document.hidden) read();
  }, EVERY);
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) read();
  });
  return box;
}
