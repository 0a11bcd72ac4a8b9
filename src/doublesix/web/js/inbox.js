// The inbox (docs/protocol.md, "Private messages"): /inbox lists the account's conversations,
// the latest first, under "New message" (a player found opens the thread with them, or says
// why one cannot write to them); /inbox/{name} is the thread with one account, its latest
// messages (older ones on demand), a box to answer and "Report" on each message received.
// Every text a player wrote goes in as text (textContent), never as HTML. The page keeps a
// lobby socket: a message arriving updates the header's badge, the list, or the thread open
// (which reads it at once); a challenge shows its toast, as in the lobby.
import { ApiError, get, me, post } from './api.js';
import { startChallenges } from './challenge.js';
import { clear, moreButton, startPage, toast } from './common.js';
import { findPlayerCard } from './find_player.js';
import { currentLanguage, el, lit, tattr, tx } from './i18n.js';
import { showUnread } from './inbox_badge.js';
import { connectLobby, onLobby } from './lobby_socket.js';
import { playerLink } from './ratings.js';
import { openReportDialog } from './report.js';
import { followTournamentPairing } from './tournament_paired.js';

const TEXT_LIMIT = 1000; // server/messages.py
const withName = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');

function when(at) {
  return new Date(at * 1000).toLocaleString(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' });
}

// --- the list of conversations --------------------------------------------------------------

function conversationItem(c) {
  const li = document.createElement('li');
  li.className = `conversation${c.unread ? ' has-unread' : ''}`;
  li.dataset.with = c.with;
  const head = document.createElement('p');
  head.className = 'conversation-head';
  const open = lit('a', c.with, 'conversation-open');
  open.href = `/inbox/${encodeURIComponent(c.with)}`;
  const page = el('a', 'inbox.profile', {}, 'small-link');
  page.href = `/player/${encodeURIComponent(c.with)}`;
  head.append(open, ' ', page);
  if (c.closed) head.appendChild(el('span', 'inbox.closed', {}, 'badge closed'));
  if (c.unread) head.appendChild(el('span', 'inbox.unread', { count: c.unread }, 'badge unread'));
  head.appendChild(lit('time', when(c.at), 'muted'));
  li.appendChild(head);
  const last = document.createElement('p');
  last.className = 'conversation-last';
  if (c.last.mine) last.append(el('span', 'inbox.you', {}, 'muted'), ' ');
  last.appendChild(lit('span', c.last.text, 'preview'));
  li.appendChild(last);
  return li;
}

/** Empty `error`, for good: no change of language fills it again. */
function hush(error) {
  clear(error);
  delete error.dataset.i18n;
}

/** Why one cannot write to `name`, in `error`; else the thread with them opens (and reads
 * their messages then: asking reads none). */
async function openThread(name, error) {
  hush(error);
  try {
    const them = await get(`/api/messages/${encodeURIComponent(name)}/with`);
    if (them.closed) tx(error, 'inbox.closed_account', { name: them.name });
    else if (them.blocked) tx(error, 'inbox.err.blocked', { name: them.name });
    else location.href = `/inbox/${encodeURIComponent(them.name)}`;
  } catch (e) {
    refusal(error, e, name);
  }
}

/** "New message": "Find a player", each name found one to write to. */
function newMessage() {
  const error = document.createElement('p');
  error.className = 'error';
  error.id = 'new-message-error';
  error.setAttribute('role', 'alert');
  const part = findPlayerCard('', (name) => openThread(name, error));
  part.id = 'new-message';
  part.classList.replace('card', 'new-message'); // a part of the inbox's card
  part.prepend(el('h2', 'inbox.new'));
  part.appendChild(error);
  part.querySelector('input').addEventListener('input', () => hush(error));
  return part;
}

/** The list under `compose` ("New message", kept as typed when a message redraws the list). */
async function drawList(root, compose) {
  const answer = await get('/api/messages');
  showUnread(answer.unread);
  const typing = compose.contains(document.activeElement) ? document.activeElement : null;
  clear(root);
  const card = document.createElement('section');
  card.className = 'card conversations';
  card.appendChild(el('h1', 'inbox.title'));
  card.appendChild(compose);
  const list = document.createElement('ul');
  list.id = 'conversations';
  list.className = 'conversation-list';
  card.appendChild(list);
  root.appendChild(card);
  if (typing) typing.focus();
  const add = (page) => {
    for (const c of page.conversations) list.appendChild(conversationItem(c));
    if (!list.children.length) card.appendChild(el('p', 'inbox.none', {}, 'muted'));
    if (!page.more) return;
    const button = moreButton('inbox.older_conversations', 'older-conversations', async () => {
      const last = page.conversations[page.conversations.length - 1].last.id;
      button.remove();
      add(await get(`/api/messages?before=${last}`));
    }, (e) => toast('err.server', { message: String(e.message || e) }, 'error'));
    card.appendChild(button);
  };
  add(answer);
}

// --- one thread -------------------------------------------------------------------------------

function messageItem(m, you) {
  const li = document.createElement('li');
  const mine = m.from === you.name;
  li.className = `message ${mine ? 'mine' : 'theirs'}`;
  li.dataset.id = String(m.id);
  const head = document.createElement('p');
  head.className = 'message-head';
  head.append(lit('span', m.from, 'from'), ' ', lit('time', when(m.at), 'muted'));
  if (!mine) {
    const report = el('button', 'inbox.report', {}, 'link-button message-report');
    report.type = 'button';
    tattr(report, 'title', 'inbox.report_title');
    report.addEventListener('click', () => openReportDialog(m.from, null, m.id));
    head.append(' ', report);
  }
  li.appendChild(head);
  li.appendChild(lit('p', m.text, 'message-text'));
  return li;
}

/** Why a message was not sent (or a thread not opened), in the reader's words where the
 * refusal has some. */
function refusal(error, e, name) {
  if (!(e instanceof ApiError)) return tx(error, 'inbox.err.other', { message: String(e.message || e) });
  const code = e.body.code;
  if (code === 'not_found') return tx(error, 'rating.no_player', { name });
  if (code === 'self') return tx(error, 'inbox.err.self');
  if (code === 'blocked') return tx(error, 'inbox.err.blocked', { name });
  if (code === 'closed') return tx(error, 'inbox.closed_account', { name });
  if (code === 'silenced') return tx(error, 'chat.silenced');
  if (code === 'rate_limited') return tx(error, 'inbox.err.rate');
  if (code === 'too_many_conversations') return tx(error, 'inbox.err.too_many');
  if (e.status === 422 && e.field === 'text') return tx(error, 'inbox.err.text', { count: TEXT_LIMIT });
  return tx(error, 'inbox.err.other', { message: e.message });
}

function answerForm(name, added) {
  const form = document.createElement('form');
  form.id = 'message-form';
  form.className = 'message-form';
  form.noValidate = true;
  const text = document.createElement('textarea');
  text.id = 'message-text';
  text.rows = 3;
  text.maxLength = TEXT_LIMIT;
  tattr(text, 'aria-label', 'inbox.text_label');
  tattr(text, 'placeholder', 'inbox.text_label');
  const error = document.createElement('p');
  error.className = 'error';
  error.id = 'message-error';
  error.setAttribute('role', 'alert');
  const send = el('button', 'inbox.send', {}, 'primary');
  send.type = 'submit';
  send.id = 'message-send';
  form.append(text, error, send);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    hush(error);
    send.disabled = true;
    try {
      added(await post('/api/messages', { to: name, text: text.value }));
      text.value = '';
    } catch (e) {
      refusal(error, e, name);
    } finally {
      send.disabled = false;
    }
  });
  return form;
}

async function drawThread(root, you, live) {
  const answer = await get(`/api/messages/${encodeURIComponent(withName)}`);
  showUnread(answer.unread);
  const name = answer.with.name;
  clear(root);
  const card = document.createElement('section');
  card.className = 'card thread-card';
  const back = el('a', 'inbox.back', {}, 'small-link');
  back.href = '/inbox';
  card.appendChild(back);
  const title = el('h1', 'inbox.with', {}, 'thread-title');
  title.append(' ', playerLink(name));
  card.appendChild(title);
  const list = document.createElement('ol');
  list.id = 'thread';
  list.className = 'thread';
  const shown = new Set();
  const add = (m) => {
    if (shown.has(m.id)) return;
    shown.add(m.id);
    list.appendChild(messageItem(m, you));
    empty.classList.add('hidden');
    list.lastElementChild.scrollIntoView({ block: 'nearest' });
  };
  const empty = el('p', 'inbox.empty_thread', {}, 'muted');
  const older = (page) => {
    if (!page.more) return;
    const button = moreButton('inbox.older', 'older-messages', async () => {
      const next = await get(`/api/messages/${encodeURIComponent(name)}?before=${page.messages[0].id}`);
      button.remove();
      const first = list.firstChild;
      for (const m of next.messages) {
        if (!shown.has(m.id)) {
          shown.add(m.id);
          list.insertBefore(messageItem(m, you), first);
        }
      }
      older(next);
    }, (e) => toast('err.server', { message: String(e.message || e) }, 'error'));
    card.insertBefore(button, list);
  };
  card.appendChild(list);
  card.appendChild(empty);
  older(answer);
  for (const m of answer.messages) add(m);
  if (!answer.messages.length) empty.classList.remove('hidden');
  if (answer.with.closed) card.appendChild(el('p', 'inbox.closed_account', { name }, 'muted closed-note'));
  else if (answer.with.blocked) card.appendChild(el('p', 'inbox.err.blocked', { name }, 'muted closed-note'));
  else card.appendChild(answerForm(name, add));
  root.appendChild(card);
  live.thread = { name, add };
}

async function main() {
  await startPage('inbox.title');
  const root = document.getElementById('inbox');
  const you = await me().catch(() => null);
  if (!(you && you.account)) {
    const card = el('section', null, null, 'card');
    card.appendChild(el('h1', 'inbox.title'));
    const p = el('p', 'inbox.log_in', {}, 'muted');
    card.appendChild(p);
    const lobby = el('a', 'nav.lobby');
    lobby.href = '/';
    card.appendChild(lobby);
    root.appendChild(card);
    return;
  }
  const live = { thread: null };
  const compose = withName ? null : newMessage();
  startChallenges({ you: () => you });
  followTournamentPairing(); // a tournament's new game: to the table
  // The session ended (a log-out, a new password or a log-in elsewhere, the account closed):
  // the threads shown are the old account's, so the page starts again as whoever reads it now.
  onLobby('session_ended', () => window.location.reload());
  onLobby('message', async (f) => {
    if (live.thread && f.with === live.thread.name) {
      live.thread.add(f.message);
      if (f.unread !== undefined) { // theirs, read now that it is shown
        const read = await get(`/api/messages/${encodeURIComponent(f.with)}?before=${f.message.id + 1}`);
        showUnread(read.unread);
      }
    } else {
      if (f.unread !== undefined) showUnread(f.unread);
      if (!withName) await drawList(root, compose);
    }
  });
  try {
    if (withName) await drawThread(root, you, live);
    else await drawList(root, compose);
  } catch (e) { // a name that is no account's, or one's own
    if (!(e instanceof ApiError) || ![404, 422].includes(e.status)) throw e;
    const card = el('section', null, null, 'card not-found');
    card.appendChild(el('p', 'rating.no_player', { name: withName }));
    root.appendChild(card);
    return;
  }
  connectLobby();
}

main().catch((e) => toast('err.server', { message: String(e.message || e) }, 'error'));
