// The players online now, each with a "Challenge" button (pushed by the lobby socket).
import { clear } from './common.js';
import { el, lit, tattr } from './i18n.js';

/** Draw the list in `box`; `you`: who we are ({name, account}) or null; `onChallenge(name)`. */
export function renderOnline(box, players, you, onChallenge) {
  clear(box);
  box.appendChild(el('h2', 'lobby.online.title'));
  const others = players.filter((p) => !you || p.name !== you.name);
  if (!you) box.appendChild(el('p', 'lobby.online.name_first', {}, 'muted'));
  if (!others.length) box.appendChild(el('p', 'lobby.online.none', {}, 'muted'));
  const ul = document.createElement('ul');
  ul.className = 'online-list';
  for (const p of players) {
    const li = document.createElement('li');
    li.className = 'online-row';
    li.dataset.player = p.name;
    li.appendChild(lit('strong', p.name, 'online-name'));
    li.appendChild(el('span', p.account ? 'lobby.online.account' : 'lobby.online.guest', {}, 'badge'));
    if (p.rating !== undefined && p.rating !== null) li.appendChild(lit('span', String(p.rating), 'rating'));
    const status = el('span', p.status === 'free' ? 'lobby.online.free' : 'lobby.online.seated', {}, `status ${p.status}`);
    li.appendChild(status);
    const mine = you && p.name === you.name;
    if (mine) {
      li.appendChild(el('span', 'lobby.online.you', {}, 'muted'));
    } else if (p.status !== 'free' && p.table) {
      const a = el('a', 'lobby.online.watch', {}, 'button small');
      a.href = `/table/${encodeURIComponent(p.table)}`;
      li.appendChild(a);
    }
    if (!mine) {
      const b = el('button', 'lobby.online.challenge', {}, 'small challenge-button');
      b.type = 'button';
      b.disabled = !you || p.status !== 'free';
      if (!you) tattr(b, 'title', 'lobby.online.name_first');
      b.addEventListener('click', () => onChallenge(p.name));
      li.appendChild(b);
    }
    ul.appendChild(li);
  }
  box.appendChild(ul);
}
