// The header's link to the inbox, with the count of unread private messages (docs/protocol.md,
// "Private messages"), for an account only. Read as a page opens and when who we are changes;
// every page keeps it live from its lobby socket's `message` frames (`showUnread`): the lobby's
// and the inbox's own, the personal one of the others (notices.js).
import { get, me } from './api.js';
import { el, lit, tattr } from './i18n.js';

function badge() {
  return document.querySelector('header.top a.inbox-link .unread-badge');
}

/** Show `count` unread messages on the header's link (hidden at 0). */
export function showUnread(count) {
  const shown = badge();
  if (!shown) return;
  shown.textContent = String(count);
  shown.classList.toggle('hidden', !count);
  tattr(shown.parentElement, 'title', 'inbox.unread_title', { count });
}

/** Put the inbox's link in `nav` for an account (take it out for anyone else). */
export async function inboxLink(nav) {
  const you = await me().catch(() => null);
  const shown = nav.querySelector('a.inbox-link');
  if (!(you && you.account)) {
    if (shown) shown.remove();
    return;
  }
  if (!shown) {
    const a = el('a', null, {}, 'inbox-link');
    a.href = '/inbox';
    a.id = 'inbox-link';
    a.append(el('span', 'nav.inbox'), ' ', lit('span', '', 'unread-badge hidden'));
    nav.appendChild(a);
  }
  try {
    showUnread((await get('/api/account/unread')).unread);
  } catch (e) {
    /* logged out meanwhile: the next ds:me takes the link away */
  }
}
