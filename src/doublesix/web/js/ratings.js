// What the leaderboard and the player pages share: variant names, ratings as shown.
import { el, lit } from './i18n.js';

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

/** A link to a player's page, the name as it is. */
export function playerLink(name) {
  const a = lit('a', name);
  a.href = `/player/${encodeURIComponent(name)}`;
  return a;
}

/** The name of the page's own key in its path: /leaderboard/{key}, /player/{key}. */
export function pathKey() {
  return decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');
}
