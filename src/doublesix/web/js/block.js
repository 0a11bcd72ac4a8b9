// Whom this account blocks (docs/protocol.md, "Following and blocking"): the server never
// seats them together by Play now and refuses challenges between them; here, their messages
// are hidden (chat.js, beside the browser's own mute list). Read once a page (again when the
// lobby logs in or out, or another tab of this browser blocks or unblocks someone), changed
// by the button of a player's page and the "You block" card of the account's own page. A
// guest blocks nobody and gets no button.
import { me } from './api.js';
import { toast } from './common.js';
import { el, tattr, tx } from './i18n.js';
import { AccountList, listButton, listCard } from './account_lists.js';
import { unfollowed } from './follow.js';
import { playerLink } from './ratings.js';

const blocked = new AccountList('blocked');
const tabs = typeof BroadcastChannel === 'function' ? new BroadcastChannel('ds_blocked') : null;
let read = false; // whether this page reads the list: only such a page reads it again

/** Read the list for `you` ({name, account} or null); the names it holds. */
export function loadBlocked(you) {
  read = true;
  return blocked.load(you);
}

/** Read the list for whoever this browser is now (a page that does not know it yet). */
export function readBlocked() {
  read = true;
  return me().then((you) => blocked.load(you), () => blocked.load(null));
}

export function isBlocked(name) {
  return blocked.has(name);
}

/** Call `listener()` whenever the blocked names change. */
export function onBlockedChange(listener) {
  blocked.onChange(listener);
}

if (tabs) {
  tabs.addEventListener('message', () => {
    if (read) readBlocked();
  });
}

/** A name blocked or unblocked here: say what it does, and tell the other tabs. */
function changed(on, name) {
  if (on) unfollowed(name); // the server unfollowed them
  toast(on ? 'player.blocked_toast' : 'player.unblocked_toast', { name });
  if (tabs) tabs.postMessage('changed');
}

function toggle(name) {
  const button = listButton(blocked, name, (b, on) => {
    b.dataset.blocked = String(on);
    tx(b, on ? 'player.unblock' : 'player.block');
    tattr(b, 'title', on ? 'player.unblock_title' : 'player.block_title', { name });
  }, changed);
  button.className = 'small block-button';
  return button;
}

/** The button of a player's page that blocks `name` (an account's name as the site spells
 * it), or unblocks it. */
export function blockButton(name) {
  const button = toggle(name);
  button.id = 'block';
  return button;
}

/** The account's own page: whom it blocks, each with "Unblock" (which turns to "Block" till
 * the page is read again); shown only when it blocks someone. */
export function blockedCard() {
  const card = listCard('blocked', 'player.blocked_title');
  const names = [...blocked.names].sort((a, b) => a.localeCompare(b));
  card.classList.toggle('hidden', !names.length);
  card.appendChild(el('p', 'player.blocked_help', {}, 'muted'));
  const list = document.createElement('ul');
  list.className = 'following-list blocked-list';
  for (const name of names) {
    const li = document.createElement('li');
    li.dataset.player = name;
    li.appendChild(playerLink(name));
    li.appendChild(toggle(name));
    list.appendChild(li);
  }
  card.appendChild(list);
  return card;
}
