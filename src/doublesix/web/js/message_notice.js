// A private message that reaches a page showing no thread (docs/protocol.md "Private
// messages"): the lobby's, and every other page's through its personal socket (notices.js).
// The header's badge follows, and a toast names who wrote and links the thread.
import { toast } from './common.js';
import { el } from './i18n.js';
import { showUnread } from './inbox_badge.js';

/** A toast that says who wrote, linked to the thread with them. */
function messageToast(name) {
  const shown = toast(null, {}, 'info message-toast');
  const link = el('a', 'inbox.toast', { name }, 'message-link');
  link.href = `/inbox/${encodeURIComponent(name)}`;
  shown.appendChild(link);
}

/** A `message` frame of the lobby socket: the badge and the toast, not for one we wrote,
 * from another tab (it has no `unread`). */
export function noticeMessage(frame) {
  if (frame.unread === undefined) return;
  showUnread(frame.unread);
  messageToast(frame.with);
}
