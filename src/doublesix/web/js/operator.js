// The site's operators' page (/operator, docs/protocol.md "The operator's page"): the reports
// players sent, oldest first — who about whom, why, where, in their words — each closed with
// a note once dealt with, and a silence for the account reported: an hour, a day, a week or
// until lifted. A ban (the account closed) is deliberate: it asks why, and for the account's
// name typed again, before it is sent; the accounts closed so far are listed with "Reopen".
// Anyone else is told that the page is not theirs. Below the reports, what the operators
// did, the latest first.
import { ApiError, get, post } from './api.js';
import { clear, moreButton, startPage, toast } from './common.js';
import { currentLanguage, el, lit, onLanguage, tattr } from './i18n.js';
import { startNotices } from './notices.js';
import { playerLink } from './ratings.js';

const SILENCES = [[1, 'operator.for_hour'], [24, 'operator.for_day'], [168, 'operator.for_week'], [null, 'operator.until_lifted']];
const NOTE_LIMIT = 500;
const REASON_LIMIT = 200;
const state = { closed: false, reports: null, silenced: [], banned: [], log: [], logMore: false, logName: '', refused: false };

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' });
}

function failed(e) {
  toast('operator.error', { message: e instanceof ApiError ? e.message : String(e.message || e) }, 'error');
}

async function load() {
  try {
    const [reports, silenced, banned, log] = await Promise.all([
      get(`/api/operator/reports${state.closed ? '?closed=true' : ''}`),
      get('/api/operator/silenced'),
      get('/api/operator/closed'),
      get(logPath(null)),
    ]);
    state.reports = reports.reports;
    state.silenced = silenced.silenced;
    state.banned = banned.closed;
    state.log = log.log;
    state.logMore = log.more;
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) state.refused = true;
    else failed(e);
  }
  render();
}

/** Do what `button` asks: `request()` to the server, then `told(answer)` and the list read
 * again (every report about that account shows the change); a refusal is said in a toast,
 * and the button may be pressed again. */
async function act(button, request, told) {
  button.disabled = true;
  try {
    told(await request());
    await load();
  } catch (e) {
    failed(e);
    button.disabled = false;
  }
}

/** "Ben is silenced until …" and "Lift the silence", in `row`. */
function silencedNow(row, name, silence) {
  row.appendChild(silence.until === null
    ? el('span', 'operator.is_silenced_forever', { name }, 'silenced-now')
    : el('span', 'operator.is_silenced', { name, until: when(silence.until) }, 'silenced-now'));
  const lift = el('button', 'operator.lift', {}, 'small lift');
  lift.type = 'button';
  lift.addEventListener('click', () => act(lift,
    () => post('/api/operator/unsilence', { name }),
    (r) => toast('operator.lifted', { name: r.name })));
  row.appendChild(lift);
}

/** The second step of a ban, for the account `name`: why (kept in the operators' log) and
 * its name typed again; only then may it be sent. `cancel()` takes the step away. */
function banStep(name, cancel) {
  const form = document.createElement('form');
  form.className = 'ban-step';
  form.dataset.name = name;
  form.appendChild(el('p', 'operator.ban_what', { name }, 'ban-what'));
  const reason = document.createElement('input');
  reason.className = 'ban-reason';
  reason.maxLength = REASON_LIMIT;
  tattr(reason, 'placeholder', 'operator.ban_reason');
  tattr(reason, 'aria-label', 'operator.ban_reason');
  const typed = document.createElement('input');
  typed.className = 'ban-confirm';
  typed.maxLength = 64;
  typed.autocomplete = 'off';
  tattr(typed, 'placeholder', 'operator.ban_confirm', { name });
  tattr(typed, 'aria-label', 'operator.ban_confirm', { name });
  const close = el('button', 'operator.ban_submit', { name }, 'small danger ban-submit');
  close.type = 'submit';
  close.disabled = true;
  const back = el('button', 'operator.ban_cancel', {}, 'small ban-cancel');
  back.type = 'button';
  back.addEventListener('click', cancel);
  const ready = () => reason.value.trim() !== '' && typed.value.trim().toLowerCase() === name.toLowerCase();
  for (const input of [reason, typed]) input.addEventListener('input', () => { close.disabled = !ready(); });
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (!ready()) return;
    act(close,
      () => post('/api/operator/close', { name, reason: reason.value.trim() }),
      (r) => toast(r.already ? 'operator.ban_already' : 'operator.banned', { name: r.name }));
  });
  const row = document.createElement('div');
  row.className = 'operator-row';
  row.append(reason, typed, close, back);
  form.appendChild(row);
  return form;
}

/** Open the second step of a ban of `name` after `row`: `waiting(true)` while it is open,
 * `waiting(false)` once it is cancelled. */
function openBanStep(row, name, waiting) {
  waiting(true);
  const step = banStep(name, () => {
    step.remove();
    waiting(false);
  });
  row.after(step);
  step.querySelector('.ban-reason').focus();
}

/** The reported account's silence — how long it lasts and "Lift", or a length and
 * "Silence" — and "Close the account"; or that the account is closed. */
function silenceRow(report) {
  const row = document.createElement('div');
  row.className = 'operator-row';
  if (report.account_closed !== null) {
    row.appendChild(el('span', 'operator.is_closed', { name: report.name, when: when(report.account_closed) }, 'closed-now'));
    return row;
  }
  const ban = el('button', 'operator.ban', {}, 'small ban');
  ban.type = 'button';
  ban.addEventListener('click', () => openBanStep(row, report.name, (on) => { ban.disabled = on; }));
  if (report.silenced) {
    silencedNow(row, report.name, report.silenced);
    row.appendChild(ban);
    return row;
  }
  const choice = document.createElement('select');
  choice.className = 'silence-length';
  tattr(choice, 'aria-label', 'operator.silence_length');
  SILENCES.forEach(([hours, key]) => {
    const o = el('option', key);
    o.value = hours === null ? '' : String(hours);
    if (hours === 24) o.selected = true;
    choice.appendChild(o);
  });
  const silence = el('button', 'operator.silence', { name: report.name }, 'small silence');
  silence.type = 'button';
  silence.addEventListener('click', () => act(silence,
    () => post('/api/operator/silence', {
      name: report.name, hours: choice.value ? Number(choice.value) : null, reason: `report ${report.id}`,
    }),
    (r) => {
      if (r.until === null) toast('operator.is_silenced_forever', { name: r.name });
      else toast('operator.is_silenced', { name: r.name, until: when(r.until) });
    }));
  row.append(choice, silence, ban);
  return row;
}

function closeRow(report) {
  const row = document.createElement('form');
  row.className = 'operator-row';
  const note = document.createElement('input');
  note.className = 'note';
  note.maxLength = NOTE_LIMIT;
  tattr(note, 'placeholder', 'operator.note');
  tattr(note, 'aria-label', 'operator.note');
  const close = el('button', 'operator.close', {}, 'small primary close-report');
  close.type = 'submit';
  row.addEventListener('submit', (ev) => {
    ev.preventDefault();
    act(close,
      () => post(`/api/operator/reports/${report.id}/close`, { note: note.value.trim() || null }),
      () => toast('operator.closed_toast', { id: report.id }));
  });
  row.append(note, close);
  return row;
}

function reportItem(report) {
  const li = document.createElement('li');
  li.className = 'card report-item';
  li.dataset.report = String(report.id);
  const head = document.createElement('p');
  head.className = 'report-head';
  head.append(lit('span', `#${report.id}`, 'report-id'), ' ', lit('time', when(report.at), 'muted'));
  li.appendChild(head);
  const who = document.createElement('p');
  who.className = 'report-who';
  who.append(lit('span', report.reporter, 'reporter'), ' → ', playerLink(report.name), ' ');
  who.appendChild(el('span', `report.reason.${report.reason}`, {}, 'badge reason'));
  li.appendChild(who);
  if (report.table) {
    const at = el('a', 'operator.at_table', { table: report.table }, 'report-table');
    at.href = `/table/${encodeURIComponent(report.table)}`;
    at.target = '_blank';
    li.appendChild(at);
  }
  if (report.text) li.appendChild(lit('blockquote', report.text, 'report-text'));
  if (report.message !== null && report.message !== undefined) { // a private message reported
    li.appendChild(el('p', report.message ? 'operator.their_message' : 'operator.message_erased', {}, 'muted'));
    if (report.message) li.appendChild(lit('blockquote', report.message, 'report-message'));
  }
  if (report.closed_at !== null) {
    li.classList.add('closed');
    li.appendChild(el('p', 'operator.closed', { when: when(report.closed_at) }, 'muted'));
    if (report.note) li.appendChild(lit('p', report.note, 'report-note'));
  } else {
    li.append(silenceRow(report), closeRow(report));
  }
  return li;
}

/** A card of the page, `id`: its `title`, then a list (`tag` of class `listClass`, of
 * `line(item)` for each of `items`), or the `none` line when there is nothing to list. */
function listCard(id, className, title, none, [tag, listClass], items, line) {
  const card = document.createElement('section');
  card.className = `card ${className}`;
  card.id = id;
  card.appendChild(el('h2', title));
  if (!items.length) {
    const [key, params] = Array.isArray(none) ? none : [none, {}];
    card.appendChild(el('p', key, params, 'muted'));
    return card;
  }
  const list = document.createElement(tag);
  list.className = listClass;
  for (const item of items) list.appendChild(line(item));
  card.appendChild(list);
  return card;
}

/** Every account silenced now, the latest first: its page, how long, why, and "Lift". */
function silencedCard() {
  return listCard('silenced', 'silenced-card', 'operator.silenced_title', 'operator.silenced_none', ['ul', ''], state.silenced, (s) => {
    const li = document.createElement('li');
    li.className = 'operator-row';
    li.dataset.name = s.name;
    li.append(playerLink(s.name), ' ');
    silencedNow(li, s.name, s);
    if (s.reason) li.appendChild(lit('span', s.reason, 'muted silence-reason'));
    return li;
  });
}

/** A form of one name (`id`, labelled by the key `label`) and its button (the key
 * `button`): `submit(name, button, input)` gets the name typed, trimmed. */
function nameForm(className, id, label, button, submit) {
  const form = document.createElement('form');
  form.className = className;
  const input = document.createElement('input');
  input.id = id;
  input.maxLength = 64;
  tattr(input, 'placeholder', label);
  tattr(input, 'aria-label', label);
  const send = el('button', button, {}, 'small');
  send.type = 'submit';
  form.append(input, send);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    submit(input.value.trim(), send, input);
  });
  return form;
}

/** Close an account nobody reported: its name, then the same second step as a report's. */
function banByName() {
  const form = nameForm('operator-row ban-by-name', 'ban-name', 'operator.ban_name', 'operator.ban_next', (name, next, input) => {
    if (!name || next.disabled) return;
    openBanStep(form, name, (on) => {
      next.disabled = on;
      input.readOnly = on;
    });
  });
  return form;
}

/** The accounts the operators closed, the latest first: when, by whom, why, and "Reopen";
 * then a form to close one by name. */
function bannedCard() {
  const card = listCard('banned', 'banned-card', 'operator.banned_title', 'operator.banned_none', ['ul', ''], state.banned, (c) => {
    const li = document.createElement('li');
    li.className = 'operator-row';
    li.dataset.name = c.name;
    li.append(lit('span', c.name, 'banned-name'), ' ');
    li.appendChild(c.operator === null
      ? el('span', 'operator.banned_by_command', { when: when(c.at) }, 'muted banned-when')
      : el('span', 'operator.banned_by', { when: when(c.at), who: c.operator }, 'muted banned-when'));
    if (c.reason) li.appendChild(lit('span', c.reason, 'banned-reason'));
    const reopen = el('button', 'operator.reopen', {}, 'small reopen');
    reopen.type = 'button';
    reopen.addEventListener('click', () => act(reopen,
      () => post('/api/operator/reopen', { name: c.name }),
      (r) => toast(r.already ? 'operator.reopen_already' : 'operator.reopened', { name: r.name })));
    li.appendChild(reopen);
    return li;
  });
  card.appendChild(banByName());
  return card;
}

/** What an entry of the operators' log adds to its sentence: how long, which report and
 * note, why an account was closed, where a message was and its words. */
function logDetail(entry) {
  const d = entry.detail || {};
  const parts = [];
  if (entry.act === 'silence') {
    parts.push(d.until === null || d.until === undefined
      ? el('span', 'operator.log.forever')
      : el('span', 'operator.log.until', { until: when(d.until) }));
    if (d.reason) parts.push(lit('span', d.reason));
  } else if (entry.act === 'close_report') {
    parts.push(el('span', 'operator.log.report', { id: d.report }));
    if (d.note) parts.push(lit('span', d.note));
  } else if (entry.act === 'close') {
    if (d.reason) parts.push(lit('span', d.reason));
  } else if (entry.act === 'restore') {
    parts.push(el('span', 'operator.at_table', { table: d.table }));
  } else if (entry.act === 'unchat') {
    parts.push(d.table ? el('span', 'operator.at_table', { table: d.table }) : el('span', 'operator.log.in_lobby'));
    if (d.text) parts.push(lit('q', d.text, 'log-words'));
    else if (d.phrase) parts.push(el('q', `chat.phrase.${d.phrase}`, {}, 'log-words'));
  }
  return parts;
}

/** The log's entries after the entry `before` (null: the latest), by or about the names
 * that begin with the letters looked for, if any are. */
function logPath(before) {
  const query = new URLSearchParams();
  if (state.logName) query.set('name', state.logName);
  if (before !== null) query.set('before', String(before));
  return `/api/operator/log?${query}`;
}

/** Read the log again, by or about the names that begin with `name` ('': everything). */
async function findInLog(button, name) {
  button.disabled = true;
  try {
    const found = await get(`/api/operator/log?${new URLSearchParams(name ? { name } : {})}`);
    Object.assign(state, { logName: name, log: found.log, logMore: found.more });
    render();
  } catch (e) {
    failed(e);
    button.disabled = false;
  }
}

/** Look for a name in the log (its first letters will do), or see all of it again. */
function logSearch() {
  const form = nameForm('log-search', 'log-name', 'operator.log_find_label', 'operator.log_find', (name, find) => findInLog(find, name));
  form.querySelector('#log-name').value = state.logName;
  if (state.logName) {
    const all = el('button', 'operator.log_all', {}, 'small');
    all.type = 'button';
    all.id = 'log-all';
    all.addEventListener('click', () => findInLog(all, ''));
    form.append(' ', all);
  }
  return form;
}

/** "Older entries": the next page of the log, after the last entry shown. */
function olderButton() {
  return moreButton('operator.log_older', 'log-older', async () => {
    const next = await get(logPath(state.log[state.log.length - 1].id));
    Object.assign(state, { log: [...state.log, ...next.log], logMore: next.more });
    render();
  }, failed);
}

/** What the site's operators did, the latest first: who (or the command line), what, to
 * whom, when; those by or about one name, if looked for. */
function logCard() {
  const none = state.logName ? ['operator.log_none_by', { name: state.logName }] : 'operator.log_none';
  const card = listCard('operator-log', 'log-card', 'operator.log_title', none, ['ol', 'log-list'], state.log, (entry) => {
    const li = document.createElement('li');
    li.className = 'log-entry';
    li.dataset.act = entry.act;
    const who = entry.operator === null ? { $t: 'operator.command_line' } : entry.operator;
    li.append(lit('time', when(entry.at), 'muted'), ' ');
    li.appendChild(el('span', `operator.log.${entry.act}`, { who, name: entry.name || '?' }, 'log-what'));
    for (const part of logDetail(entry)) {
      part.classList.add('log-detail');
      li.append(' · ', part);
    }
    return li;
  });
  card.insertBefore(logSearch(), card.children[1]);
  if (state.logMore) card.appendChild(olderButton());
  return card;
}

function render() {
  const main = clear(document.getElementById('operator'));
  main.appendChild(el('h1', 'operator.heading'));
  if (state.refused) {
    main.appendChild(el('p', 'operator.not_yours', {}, 'card'));
    return;
  }
  const toggle = document.createElement('label');
  toggle.className = 'show-closed';
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.id = 'show-closed';
  box.checked = state.closed;
  box.addEventListener('change', () => {
    state.closed = box.checked;
    load();
  });
  toggle.append(box, ' ', el('span', 'operator.show_closed'));
  main.appendChild(silencedCard());
  main.appendChild(bannedCard());
  main.appendChild(toggle);
  if (state.reports === null) return;
  if (!state.reports.length) {
    main.appendChild(el('p', state.closed ? 'operator.none_at_all' : 'operator.none', {}, 'card muted'));
  } else {
    const list = document.createElement('ol');
    list.className = 'report-list';
    list.id = 'reports';
    for (const report of state.reports) list.appendChild(reportItem(report));
    main.appendChild(list);
  }
  main.appendChild(logCard());
}

async function main() {
  await startPage('title.operator');
  startNotices();
  onLanguage(render);
  await load();
}

main();
