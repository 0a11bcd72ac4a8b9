// The players online now, each with a "Challenge" button (pushed by the lobby socket); those
// the reader follows first, starred.
import { isBlocked, onBlockedChange } from './block.js';
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

const FILTER_FROM = 10; // players online from which the list has a box to filter names

let parts = null; // the panel's fixed parts, made once: the list's rows change under them
let last = null; // the latest call's arguments, for a redraw by the filter or the variant
let variantsShown = '';

/** The panel's parts, made once in `box`, so that the filter keeps its text and focus and
 * the list its scroll while the rows change. */
function panel(box) {
  if (parts && parts.box === box && box.contains(parts.list)) return parts;
  clear(box);
  const title = el('h2', 'lobby.online.title');
  const count = lit('span', '', 'online-count badge');
  count.id = 'online-count';
  const head = document.createElement('div');
  head.className = 'online-head';
  head.append(title, count);
  const variant = document.createElement('div');
  const note = document.createElement('div');
  const filter = document.createElement('input');
  filter.type = 'search';
  filter.id = 'online-filter';
  filter.className = 'online-filter';
  filter.autocomplete = 'off';
  tattr(filter, 'placeholder', 'lobby.online.filter');
  tattr(filter, 'aria-label', 'lobby.online.filter');
  filter.addEventListener('input', () => rows());
  const list = document.createElement('ul');
  list.className = 'online-list';
  box.append(head, variant, note, filter, list);
  variantsShown = '';
  parts = { box, count, variant, note, filter, list };
  return parts;
}

function row(p, variant) {
  const { you, onChallenge, followed } = last;
  const starred = p.account && followed(p.name);
  const li = document.createElement('li');
  li.className = 'online-row';
  li.dataset.player = p.name;
  if (starred) {
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
  li.appendChild(el('span', p.status === 'free' ? 'lobby.online.free' : 'lobby.online.seated', {}, `status ${p.status}`));
  const mine = you && p.name === you.name;
  if (mine) {
    li.appendChild(el('span', 'lobby.online.you', {}, 'muted'));
  } else if (p.status !== 'free' && p.table) {
    const a = el('a', 'lobby.online.watch', {}, 'button small');
    a.href = `/table/${encodeURIComponent(p.table)}`;
    li.appendChild(a);
  }
  if (!mine && !isBlocked(p.name)) {
    const b = el('button', 'lobby.online.challenge', {}, 'small challenge-button');
    b.type = 'button';
    b.disabled = !you || p.status !== 'free';
    if (!you) tattr(b, 'title', 'lobby.online.name_first');
    b.addEventListener('click', () => onChallenge(p.name));
    li.appendChild(b);
  }
  return li;
}

/** The rows, those we follow first, as the filter lets them through; the list keeps its scroll. */
function rows() {
  const { players, followed } = last;
  const { list, filter, variant: variantBox } = parts;
  const select = variantBox.querySelector('select');
  const variant = select ? select.value : null;
  const wanted = filter.value.trim().toLowerCase();
  const starred = (p) => p.account && followed(p.name);
  const passing = players.filter((p) => !wanted || p.name.toLowerCase().includes(wanted));
  const top = list.scrollTop;
  clear(list);
  for (const p of [...passing.filter(starred), ...passing.filter((p) => !starred(p))]) list.appendChild(row(p, variant));
  if (wanted && !passing.length) list.appendChild(el('li', 'lobby.online.no_match', {}, 'muted'));
  list.scrollTop = top;
}

/** Draw the list in `box`; `you`: who we are ({name, account}) or null; `onChallenge(name)`;
 * `followed(name)`: whether we follow them. */
// The account's blocked names come after the list is drawn (block.js): no challenge for them.
onBlockedChange(() => {
  if (parts && last) rows();
});

export function renderOnline(box, players, you, onChallenge, followed) {
  last = { players, you, onChallenge, followed };
  const { count, variant: variantBox, note, filter } = panel(box);
  count.textContent = String(players.length);
  const rated = players.find((p) => p.ratings);
  const variants = rated ? Object.keys(rated.ratings) : [];
  if (variants.join() !== variantsShown) {
    variantsShown = variants.join();
    clear(variantBox);
    if (variants.length) variantBox.appendChild(variantChoice(variants, shownVariant(variants), rows));
  }
  clear(note);
  if (!you) note.appendChild(el('p', 'lobby.online.name_first', {}, 'muted'));
  if (!players.some((p) => !you || p.name !== you.name)) note.appendChild(el('p', 'lobby.online.none', {}, 'muted'));
  filter.classList.toggle('hidden', players.length < FILTER_FROM && !filter.value);
  rows();
}
