// Reports to the site's operator (docs/protocol.md, "Reports to the operator"): any player
// with a name, guest or account, reports an account by its name — abusive chat, cheating or
// stalling, spam or something else (a private message: all but cheating), with a few words
// if they like. A player's page offers a
// quiet "Report" button that opens the dialog; refusals show in it, ours translated.
import { ApiError, post } from './api.js';
import { clear, toast } from './common.js';
import { el, tattr, tx } from './i18n.js';

const REASONS = ['abuse', 'cheating', 'spam', 'other'];
/** A private message cheats at no game (the server refuses `cheating` for one). */
const MESSAGE_REASONS = ['abuse', 'spam', 'other'];
const TEXT_LIMIT = 500;

/** Say why the server refused: in our words for an open report about `name` already, too
 * many today and a text it cannot take (its code `text`, or FastAPI's own checks), else in
 * the server's. */
function refusal(error, e, name) {
  if (!(e instanceof ApiError)) {
    tx(error, 'report.error', { message: String(e.message || e) });
    return;
  }
  const code = e.body.code;
  if (code === 'reported') tx(error, 'report.err.reported', { name });
  else if (code === 'too_many_reports' || e.status === 429) tx(error, 'report.err.too_many');
  else if (e.status === 422 && (!code || code === 'text')) tx(error, 'report.err.invalid', { count: TEXT_LIMIT });
  else tx(error, 'report.error', { message: e.message });
}

function radio(name, value) {
  const label = document.createElement('label');
  label.className = 'report-reason';
  const input = document.createElement('input');
  input.type = 'radio';
  input.name = name;
  input.value = value;
  input.id = `report-reason-${value}`;
  label.append(input, el('span', `report.reason.${value}`));
  return label;
}

/** The dialog that reports `name` (an account's name) to the site's operator; `table`: the
 * table it happened at, if any; `message`: the id of the private message from them reported
 * (the report carries its words). */
export function openReportDialog(name, table = null, message = null) {
  const old = document.getElementById('report-dialog');
  if (old) old.remove();
  const dialog = document.createElement('dialog');
  dialog.className = 'report-dialog card';
  dialog.id = 'report-dialog';
  dialog.setAttribute('aria-labelledby', 'report-title');
  const shut = () => { // Cancel or sent; Escape closes it the browser's way
    dialog.close();
    dialog.remove();
  };
  dialog.addEventListener('close', () => dialog.remove());
  const form = document.createElement('form');
  form.method = 'dialog';
  form.noValidate = true;
  const title = el('h2', 'report.title', { name });
  title.id = 'report-title';
  form.appendChild(title);

  const reasons = document.createElement('fieldset');
  reasons.className = 'report-reasons';
  reasons.id = 'report-reasons';
  reasons.appendChild(el('legend', 'report.reason'));
  for (const value of message === null ? REASONS : MESSAGE_REASONS) reasons.appendChild(radio('report-reason', value));
  form.appendChild(reasons);

  const field = document.createElement('label');
  field.className = 'field';
  field.appendChild(el('span', 'report.text', {}, 'label'));
  const text = document.createElement('textarea');
  text.id = 'report-text';
  text.rows = 4;
  text.maxLength = TEXT_LIMIT;
  text.setAttribute('aria-describedby', 'report-note');
  field.appendChild(text);
  const note = el('small', 'report.note', { count: TEXT_LIMIT }, 'help muted');
  note.id = 'report-note';
  field.appendChild(note);
  form.appendChild(field);

  const error = document.createElement('p');
  error.className = 'error';
  error.id = 'report-error';
  error.setAttribute('role', 'alert');
  form.appendChild(error);

  const buttons = document.createElement('div');
  buttons.className = 'buttons';
  const cancel = el('button', 'report.cancel', {}, 'small');
  cancel.type = 'button';
  cancel.id = 'report-cancel';
  cancel.addEventListener('click', shut);
  const send = el('button', 'report.send', {}, 'primary');
  send.type = 'submit';
  send.id = 'report-send';
  buttons.append(cancel, send);
  form.appendChild(buttons);

  const hush = () => { // no text, and none to fill again when the language changes
    clear(error);
    delete error.dataset.i18n;
    delete error.dataset.i18nArgs;
  };
  reasons.addEventListener('change', hush);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const chosen = form.querySelector('input[name="report-reason"]:checked');
    if (!chosen) {
      tx(error, 'report.err.reason');
      form.querySelector('input[name="report-reason"]').focus();
      return;
    }
    hush();
    send.disabled = true;
    const body = { name, reason: chosen.value, table };
    if (message !== null) body.message = message;
    const words = text.value.trim();
    if (words) body.text = words;
    try {
      await post('/api/reports', body);
      shut();
      toast('report.sent');
    } catch (e) {
      refusal(error, e, name);
    } finally {
      send.disabled = false;
    }
  });
  dialog.appendChild(form);
  document.body.appendChild(dialog);
  dialog.showModal();
  return dialog;
}

/** The quiet button of a player's page that reports `name` (an account's name as the site
 * spells it). */
export function reportButton(name) {
  const button = el('button', 'report.button', {}, 'link-button report-button');
  button.type = 'button';
  button.id = 'report';
  tattr(button, 'title', 'report.button_title', { name });
  button.addEventListener('click', () => openReportDialog(name));
  return button;
}
