// A seat's name at the table. An account's name is a button that opens a small menu: the
// player's page, in a new tab (the game goes on here), and a report to the site's operator
// that names this table. A guest's or a bot's name is plain text: they have no page.
import { me } from '../api.js';
import { el, lit, tattr } from '../i18n.js';
import { openReportDialog } from '../report.js';
import { state, tableId } from './state.js';

/** The name of `seat`, shown as `text`: a menu button for an account's seat (the view's
 * `accounts`, which the game's every view brings: seats fill up to its first). */
export function seatName(seat, text) {
  const v = state.view;
  const name = v && v.players && v.players[seat];
  if (!name || !(v.accounts && v.accounts[seat])) return lit('span', text, 'name');
  const button = lit('button', text, 'name seat-name');
  button.type = 'button';
  button.setAttribute('aria-haspopup', 'menu');
  button.setAttribute('aria-expanded', 'false');
  tattr(button, 'title', 'seat.menu_title', { name });
  button.addEventListener('click', (ev) => {
    ev.stopPropagation();
    if (document.getElementById('seat-menu')) closeMenu();
    else openMenu(button, name);
  });
  return button;
}

function closeMenu(refocus = null) {
  const menu = document.getElementById('seat-menu');
  if (!menu) return;
  menu.remove();
  document.removeEventListener('click', onOutside, true);
  for (const b of document.querySelectorAll('.seat-name[aria-expanded="true"]')) b.setAttribute('aria-expanded', 'false');
  if (refocus && refocus.isConnected) refocus.focus();
}

function onOutside(ev) {
  const menu = document.getElementById('seat-menu');
  if (menu && !menu.contains(ev.target) && !ev.target.closest('.seat-name')) closeMenu();
}

async function openMenu(button, name) {
  const you = await me().catch(() => null); // asked once a page (api.js)
  closeMenu();
  const menu = document.createElement('div');
  menu.className = 'seat-menu card';
  menu.id = 'seat-menu';
  menu.setAttribute('role', 'menu');
  const page = el('a', 'seat.player_page', {}, 'seat-menu-item');
  page.href = `/player/${encodeURIComponent(name)}`;
  page.target = '_blank';
  page.rel = 'noopener';
  page.setAttribute('role', 'menuitem');
  page.addEventListener('click', () => closeMenu());
  menu.appendChild(page);
  if (you && you.name !== name) { // a report needs a name to come from; nobody reports themself
    const report = el('button', 'seat.report', {}, 'seat-menu-item');
    report.type = 'button';
    report.setAttribute('role', 'menuitem');
    report.addEventListener('click', () => {
      closeMenu();
      openReportDialog(name, tableId);
    });
    menu.appendChild(report);
  }
  menu.addEventListener('keydown', (ev) => {
    const items = [...menu.querySelectorAll('.seat-menu-item')];
    const at = items.indexOf(document.activeElement);
    if (ev.key === 'Escape') {
      ev.stopPropagation();
      closeMenu(button);
    } else if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      ev.stopPropagation();
      items[(at + (ev.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length].focus();
    }
  });
  document.body.appendChild(menu);
  const r = button.getBoundingClientRect();
  const left = Math.min(r.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - menu.offsetWidth - 4);
  menu.style.left = `${Math.max(4, left)}px`;
  menu.style.top = `${r.bottom + window.scrollY + 4}px`;
  button.setAttribute('aria-expanded', 'true');
  document.addEventListener('click', onOutside, true);
  page.focus();
}
