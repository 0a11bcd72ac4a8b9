// Accounts in the lobby's identity box: register, log in, log out, change the password,
// download the account's data (a plain link: the browser saves the file), close or erase
// the account (docs/protocol.md, "Accounts and sessions"). Errors are shown
// next to their field.
import { api, ApiError, post } from './api.js';
import { clear, toast } from './common.js';
import { el, tx } from './i18n.js';

const FORMS = {
  login: {
    title: 'account.login',
    path: '/api/session',
    submit: 'account.submit_login',
    fields: [['name', 'account.name', 'text', 'username'], ['password', 'account.password', 'password', 'current-password']],
  },
  register: {
    title: 'account.register',
    path: '/api/accounts',
    submit: 'account.submit_register',
    fields: [['name', 'account.name', 'text', 'username'], ['password', 'account.password', 'password', 'new-password']],
  },
  password: {
    title: 'account.change_password',
    path: '/api/account/password',
    submit: 'account.submit_password',
    fields: [['old', 'account.old_password', 'password', 'current-password'], ['new', 'account.new_password', 'password', 'new-password']],
  },
  close: {
    title: 'account.close_title',
    path: '/api/account/close',
    submit: 'account.submit_close',
    fields: [['password', 'account.password', 'password', 'current-password']],
  },
  erase: {
    title: 'account.erase_title',
    path: '/api/account/erase',
    submit: 'account.submit_erase',
    fields: [['password', 'account.password', 'password', 'current-password']],
  },
};

const HELP = { register: { name: 'account.name_help', password: 'account.password_help' }, password: { new: 'account.password_help' } };

/** The translated message of a refusal (its `code`, else its field), or null. */
export function refusalKey(e, form) {
  if (!(e instanceof ApiError)) return null;
  const code = e.body.code;
  if (code === 'wrong_password' && (e.field === 'old' || form === 'close' || form === 'erase')) return 'account.err.old_password';
  if (code === 'operator') return 'account.err.operator';
  if (form === 'guest' && code === 'name_taken') return 'account.err.guest_name_taken';
  if (form === 'guest' && code === 'name') return 'account.err.guest_name';
  if (['name', 'name_taken', 'weak_password', 'wrong_password', 'rate_limited', 'logged_in', 'no_account', 'closed'].includes(code)) {
    return `account.err.${code}`;
  }
  if (e.field === 'name') return 'account.err.name';
  if (['password', 'new'].includes(e.field)) return 'account.err.weak_password';
  return null;
}

function linkButton(key, id, onClick) {
  const b = el('button', key, {}, 'link-button');
  b.type = 'button';
  b.id = id;
  b.addEventListener('click', onClick);
  return b;
}

/**
 * The account's buttons after the name: Log in and Register for a guest or a first visitor,
 * Change password, Log out, Download my data, Close and Erase for an account. `open(mode)`
 * shows a form; `changed(who)` is called with the player after logging out.
 */
export function accountLinks(box, who, open, changed) {
  const links = document.createElement('span');
  links.className = 'account-links';
  if (who && who.account) {
    links.appendChild(linkButton('account.change_password', 'account-password', () => open('password')));
    links.appendChild(linkButton('account.logout', 'account-logout', async () => {
      try {
        const r = await api('DELETE', '/api/session');
        toast('account.logged_out');
        changed(r.player);
      } catch (e) {
        toast('err.server', { message: e.message }, 'error');
      }
    }));
    const data = el('a', 'account.download_data', {}, 'link-button');
    data.id = 'account-data';
    data.href = '/api/account/data';
    data.download = '';
    links.appendChild(data);
    links.appendChild(linkButton('account.close', 'account-close', () => open('close')));
    links.appendChild(linkButton('account.erase', 'account-erase', () => open('erase')));
  } else {
    links.appendChild(el('span', 'account.or', {}, 'label'));
    links.appendChild(linkButton('account.login', 'account-login', () => open('login')));
    links.appendChild(linkButton(who ? 'account.register_keep' : 'account.register', 'account-register', () => open('register')));
  }
  box.appendChild(links);
}

/** The second step of an erasure, in `form`: what it does, and the account's `name` typed
 * again (as the operators' ban asks); what says whether it is typed. */
function eraseStep(form, name) {
  form.appendChild(el('p', 'account.erase_note', {}, 'account-note'));
  const wrap = document.createElement('div');
  wrap.className = 'account-field';
  const label = el('label', 'account.erase_confirm', { name }, 'label');
  label.htmlFor = 'account-erase-confirm';
  const typed = document.createElement('input');
  typed.id = 'account-erase-confirm';
  typed.autocomplete = 'off';
  typed.maxLength = 24;
  wrap.append(label, typed);
  form.appendChild(wrap);
  return () => typed.value.trim().toLowerCase() === name.toLowerCase();
}

/** The form of `mode` in `box`; `done(player)` once it succeeded, `cancel()` to go back. */
export function accountForm(box, mode, who, done, cancel) {
  const spec = FORMS[mode];
  const form = document.createElement('form');
  form.id = `account-${mode}-form`;
  form.className = 'account-form';
  form.noValidate = true;
  form.appendChild(el('strong', spec.title, {}, 'account-title'));
  const inputs = {};
  const errors = {};
  for (const [name, label, type, autocomplete] of spec.fields) {
    const wrap = document.createElement('div');
    wrap.className = 'account-field';
    wrap.dataset.field = name;
    const id = `account-${mode}-${name}`;
    const l = el('label', label, {}, 'label');
    l.htmlFor = id;
    const input = document.createElement('input');
    input.id = id;
    input.name = name;
    input.type = type;
    input.autocomplete = autocomplete;
    input.maxLength = type === 'password' ? 256 : 24;
    const error = document.createElement('small');
    error.className = 'error field-error';
    error.id = `${id}-error`;
    error.setAttribute('aria-live', 'polite');
    wrap.append(l, input, error);
    const described = [error.id];
    if (HELP[mode] && HELP[mode][name]) {
      const help = el('small', HELP[mode][name], {}, 'account-help');
      help.id = `${id}-help`;
      described.push(help.id);
      wrap.appendChild(help);
    }
    input.setAttribute('aria-describedby', described.join(' '));
    form.appendChild(wrap);
    inputs[name] = input;
    errors[name] = error;
  }
  const general = document.createElement('p');
  general.className = 'error form-error';
  general.id = `account-${mode}-error`;
  if (mode === 'register' && who && !who.account) form.appendChild(el('p', 'account.keeps_games', { name: who.name }, 'account-note'));
  if (mode === 'close') form.appendChild(el('p', 'account.close_note', {}, 'account-note'));
  const ready = mode === 'erase' ? eraseStep(form, who.name) : null;
  const buttons = document.createElement('div');
  buttons.className = 'account-buttons';
  const ok = el('button', spec.submit, {}, mode === 'erase' ? 'danger' : 'primary');
  ok.type = 'submit';
  if (ready) {
    ok.disabled = true;
    form.addEventListener('input', () => { ok.disabled = !ready(); });
  }
  const back = el('button', 'account.cancel', {}, 'link-button');
  back.type = 'button';
  back.addEventListener('click', cancel);
  buttons.append(ok, back);
  form.append(general, buttons);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (ready && !ready()) return;
    for (const node of [general, ...Object.values(errors)]) clear(node);
    for (const input of Object.values(inputs)) input.removeAttribute('aria-invalid');
    const body = {};
    for (const [name, input] of Object.entries(inputs)) body[name] = name === 'name' ? input.value.trim() : input.value;
    ok.disabled = true;
    try {
      const r = await post(spec.path, body);
      if (mode === 'password') toast('account.password_changed');
      else if (mode === 'close') toast('account.closed');
      else if (mode === 'erase') toast(r.erasure === 'done' ? 'account.erased' : 'account.erase_pending', { count: r.games });
      else toast('account.welcome', { name: r.player.name });
      done(r.player);
    } catch (e) {
      const key = refusalKey(e, mode);
      const slot = e instanceof ApiError && errors[e.field] ? errors[e.field] : general;
      if (key) tx(slot, key);
      else tx(slot, 'err.server', { message: e.message });
      if (e instanceof ApiError && inputs[e.field]) {
        inputs[e.field].setAttribute('aria-invalid', 'true');
        inputs[e.field].focus();
      }
    } finally {
      ok.disabled = Boolean(ready && !ready());
    }
  });
  box.appendChild(form);
  inputs[spec.fields[0][0]].focus();
}
