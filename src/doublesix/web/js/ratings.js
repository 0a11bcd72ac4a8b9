// What the leaderboard and the player pages share: variant names, ratings as shown.
import { el, lit, tattr } from './i18n.js';

const ERASED = /^erased-[0-9a-f]{6}$/;

export const VARIANTS = ['draw', 'block', 'kozel', 'vog-talon', 'vog-block', 'vog-goat'];

/** The rating as people see it: "1712", or "1712?" while provisional. */
export function ratingText(r) {
  return r.provisional ? `${r.rating}?` : String(r.rating);
}

/** A table of `rows` under `heads`, each a catalog key, whether its column holds numbers, and
 * the key's parameters if any; each row is a list of cells (nodes). */
export function dataTable(heads, rows, cls) {
  const table = document.createElement('table');
  table.className = `rating-table ${cls || ''}`;
  const head = table.createTHead().insertRow();
  for (const [key, num, params] of heads) {
    const th = el('th', key, params);
    if (num) th.className = 'num';
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const cells of rows) {
    const tr = body.insertRow();
    cells.forEach((cell, i) => {
      const td = tr.insertCell();
      if (heads[i][1]) td.className = 'num';
      td.appendChild(cell);
    });
  }
  return table;
}

/** Whether `name` is an erased account's pseudonym: "erased-" and 6 hex digits
 * (docs/protocol.md, `POST /api/account/erase`; a name nobody may take), which has no page. */
export function erasedName(name) {
  return typeof name === 'string' && ERASED.test(name);
}

/** A link to a player's page, the name as it is; an erased account's pseudonym, which has no
 * page, is plain text that says so on hover. Every player's name the pages link goes here. */
export function playerLink(name) {
  if (erasedName(name)) {
    const span = lit('span', name, 'erased-name');
    tattr(span, 'title', 'player.erased_title');
    return span;
  }
  const a = lit('a', name);
  a.href = `/player/${encodeURIComponent(name)}`;
  return a;
}

/** The name of the page's own key in its path: /leaderboard/{key}, /player/{key}. */
export function pathKey() {
  return decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');
}
