// The players online now, each with a "Challenge" button (pushed by the lobby socket); those
// the reader follows first, starred.
import { clear } from './common.js';
import { el, lit, tattr } from './i18n.js';
import { playerLink } from './ratings.js';

const VARIANT = 'ds_online_variant';

/** The variant whose ratings the list shows: the one chosen last in this browser, if offered. */
function shownVariant(variants) {
  let saved = null;
  try {
    saved = localStorage.getItem(VARIANT);
  } catch {
    // storage refused (private mode): the first variant
  }
  return variants.includes(saved) ? saved : variants[0];
}

/** A choice of the variant whose ratings the list shows (the accounts' ratings name them). */
function variantChoice(variants, chosen, redraw) {
  const label = el('label', 'lobby.online.variant', {}, 'online-variant');
  const select = document.createElement('select');
  select.id = 'online-variant';
  for (const v of variants) {
    const o = el('option', `rating.variant.${v}`);
    o.value = v;
    o.selected = v === chosen;
    select.appendChild(o);
  }
  select.addEventListener('change', () => {
    try {
      localStorage.setItem(VARIANT, select.value);
    } catch {
      // not kept: the choice holds for this page
    }
    redraw();
  });
  label.appendChild(select);
  return label;
}

/** Draw the list in `box`; `you`: who we are ({name, account}) or null; `onChallenge(name)`;
 * `followed(name)`: whether we follow them. */
export function renderOnline(box, players, you, onChallenge, followed) {
  clear(box);
  box.appendChild(el('h2', 'lobby.online.title'));
  const rated = players.find((p) => p.ratings);
  const variants = rated ? Object.keys(rated.ratings) : [];
  const variant = variants.length ? shownVariant(variants) : null;
  if (variant) box.appendChild(variantChoice(variants, variant, () => renderOnline(box, players, you, onChallenge, followed)));
  const others = players.filter((p) => !you || p.name !== you.name);
  if (!you) box.appendChild(el('p', 'lobby.online.name_first', {}, 'muted'));
  if (!others.length) box.appendChild(el('p', 'lobby.online.none', {}, 'muted'));
  const ul = document.createElement('ul');
  ul.className = 'online-list';
  const starred = (p) => p.account && followed(p.name);
  for (const p of [...players.filter(starred), ...players.filter((p) => !starred(p))]) {
    const li = document.createElement('li');
    li.className = 'online-row';
    li.dataset.player = p.name;
    if (starred(p)) {
      const star = lit('span', '★', 'followed');
      tattr(star, 'title', 'lobby.online.followed', { name: p.name });
      li.appendChild(star);
    }
    const name = li.appendChild(document.createElement('strong'));
    name.className = 'online-name';
    name.appendChild(p.account ? playerLink(p.name) : lit('span', p.name)); // an account's page
    li.appendChild(el('span', p.account ? 'lobby.online.account' : 'lobby.online.guest', {}, 'badge'));
    const shown = variant && p.ratings && p.ratings[variant];
    if (shown) {
      const r = lit('span', `${shown.rating}${shown.provisional ? '?' : ''}`, `rating${shown.provisional ? ' provisional' : ''}`);
      if (shown.provisional) tattr(r, 'title', 'lobby.online.provisional');
      li.appendChild(r);
    }
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
