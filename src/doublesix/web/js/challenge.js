// Challenges (VOG's "Herausfordern"): the dialog that sends one, and the toasts of the
// challenges we sent or were sent, with their countdown. On acceptance both go to the table.
// A challenge from a name this browser muted (chat.js) is declined unseen.
import { ApiError, goSeated, post } from './api.js';
import { isMuted } from './chat.js';
import { clear, TARGETS } from './common.js';
import { el, lit, t, tx } from './i18n.js';
import { onLobby } from './lobby_socket.js';

const TARGETS_AND_ROUND = [...TARGETS.map(String), 'round'];
const TIMERS = [0, 15, 30, 60, 120];
const SCORINGS = ['winner_takes', 'winner_takes_all', 'goat', 'kozel'];
const OPENERS = ['highest_double', 'kozel', 'lowest_double', 'highest_tile', 'draw_for_lead'];
const shown = new Map(); // challenge id -> {node, challenge, received, timer}
const refused = new Set(); // ids of the muted challengers' challenges, declined unseen
let ctx = null;
let savedTitle = null;
let busy = () => false; // whether accepting would walk out on a game of ours (setChallengeBusy)

/** Show the challenges the lobby socket tells of: those open at its `welcome`, then each one
 * made, answered or ended; accepted, both go to the table. `context`: you() ({name, account}
 * or null), and for the dialog (the lobby's) presets() and online() (the players). Call it
 * once the page's own `welcome` handler, which learns who we are, listens. */
export function startChallenges(context) {
  ctx = context;
  onLobby('welcome', (f) => {
    for (const c of f.challenges) showChallenge(c);
  });
  onLobby('challenge', (f) => showChallenge(f.challenge));
  // Who we are changed (a log-in, a log-out, a session ended in another tab): the toasts shown
  // were the old player's; the next welcome shows the new one's.
  document.addEventListener('ds:me', dropEvery);
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && savedTitle !== null) {
      document.title = savedTitle;
      savedTitle = null;
    }
  });
}

/** `fn()`: whether the reader is busy (a page where they hold a seat in a game not over):
 * a challenge's Accept is then disabled, with why, until `fn()` says otherwise; Decline
 * works. */
export function setChallengeBusy(fn) {
  busy = fn;
}

function box() {
  let node = document.getElementById('challenges');
  if (!node) {
    node = document.createElement('div');
    node.id = 'challenges';
    node.className = 'challenges';
    node.setAttribute('role', 'alert');
    document.body.appendChild(node);
  }
  return node;
}

function control(labelKey, input) {
  const wrap = document.createElement('label');
  wrap.className = 'field';
  wrap.appendChild(el('span', labelKey, {}, 'label'));
  wrap.appendChild(input);
  return wrap;
}

function options(values, current, keyOf) {
  const s = document.createElement('select');
  for (const v of values) {
    const o = keyOf ? el('option', keyOf(v)) : lit('option', String(v));
    o.value = String(v);
    if (String(v) === String(current)) o.selected = true;
    s.appendChild(o);
  }
  return s;
}

/** The dialog that challenges `name` (and, for 3 or 4 players, others online and free). */
export function openChallengeDialog(name) {
  const presets = ctx.presets();
  const you = ctx.you();
  const form = { preset: presets.draw ? 'draw' : Object.keys(presets)[0], players: 2, target: '100', timer: 0, rated: false, hints: false, also: [], rules: null };
  // VOG's choices when challenging: the target, the tiles in hand, the scoring (and the opener).
  const defaults = () => presets[form.preset].defaults[form.players] || {};
  const dialog = document.createElement('dialog');
  dialog.className = 'challenge-dialog card';
  dialog.id = 'challenge-dialog';
  document.body.appendChild(dialog);
  const close = () => {
    dialog.close();
    dialog.remove();
  };
  const render = () => {
    clear(dialog);
    const f = document.createElement('form');
    f.method = 'dialog';
    f.appendChild(el('h2', 'lobby.challenge.title', { name }));
    const p = presets[form.preset];
    if (!p.players.includes(form.players)) form.players = p.players.includes(2) ? 2 : p.players[0];
    const preset = options(Object.keys(presets), form.preset, (v) => `preset.${v}`);
    preset.id = 'challenge-preset';
    preset.addEventListener('change', () => {
      form.preset = preset.value;
      form.rules = null;
      render();
    });
    f.appendChild(control('lobby.challenge.preset', preset));
    const players = options(p.players, form.players);
    players.id = 'challenge-players';
    players.addEventListener('change', () => {
      form.players = Number(players.value);
      form.also = form.also.slice(0, form.players - 2);
      form.rules = null;
      render();
    });
    f.appendChild(control('lobby.challenge.players', players));
    if (form.players > 2) {
      const others = ctx.online().filter((o) => o.status === 'free' && o.name !== name && (!you || o.name !== you.name));
      const set = document.createElement('fieldset');
      set.className = 'challenge-also';
      set.appendChild(el('legend', 'lobby.challenge.also'));
      for (const o of others) {
        const c = document.createElement('input');
        c.type = 'checkbox';
        c.value = o.name;
        c.checked = form.also.includes(o.name);
        c.disabled = !c.checked && form.also.length >= form.players - 2;
        c.addEventListener('change', () => {
          form.also = c.checked ? [...form.also, o.name] : form.also.filter((x) => x !== o.name);
          render();
        });
        const l = document.createElement('label');
        l.appendChild(c);
        l.appendChild(lit('span', o.name));
        set.appendChild(l);
      }
      set.appendChild(el('small', 'lobby.challenge.bots_fill', {}, 'help'));
      f.appendChild(set);
    }
    const target = options(TARGETS_AND_ROUND, form.target, (v) => `target.${v}`);
    target.id = 'challenge-target';
    target.addEventListener('change', () => {
      form.target = target.value;
    });
    f.appendChild(control('lobby.challenge.target', target));
    if (!form.rules) {
      const d = defaults();
      form.rules = { hand_size: d.hand_size, scoring: d.scoring, opener: d.opener };
    }
    const hand = document.createElement('input');
    hand.type = 'number';
    hand.id = 'challenge-hand-size';
    hand.min = '2';
    hand.max = '14';
    hand.value = String(form.rules.hand_size ?? 7);
    hand.addEventListener('change', () => {
      form.rules.hand_size = Number(hand.value);
    });
    f.appendChild(control('lobby.challenge.hand_size', hand));
    const scoring = options(SCORINGS, form.rules.scoring, (v) => `scoring.${v}`);
    scoring.id = 'challenge-scoring';
    scoring.addEventListener('change', () => {
      form.rules.scoring = scoring.value;
    });
    f.appendChild(control('lobby.challenge.scoring', scoring));
    const opener = options(OPENERS, form.rules.opener, (v) => `opener.${v}`);
    opener.id = 'challenge-opener';
    opener.addEventListener('change', () => {
      form.rules.opener = opener.value;
    });
    f.appendChild(control('lobby.challenge.opener', opener));
    const timer = options(TIMERS, form.timer, (v) => `timer.${v}`);
    timer.id = 'challenge-timer';
    timer.addEventListener('change', () => {
      form.timer = Number(timer.value);
    });
    f.appendChild(control('lobby.challenge.timer', timer));
    const rated = document.createElement('input');
    rated.type = 'checkbox';
    rated.id = 'challenge-rated';
    rated.checked = form.rated;
    rated.addEventListener('change', () => {
      form.rated = rated.checked;
    });
    const ratedField = control('lobby.challenge.rated', rated);
    ratedField.appendChild(el('small', 'lobby.challenge.rated_help', {}, 'help'));
    f.appendChild(ratedField);
    const hints = document.createElement('input');
    hints.type = 'checkbox';
    hints.id = 'challenge-hints';
    hints.checked = form.hints;
    hints.addEventListener('change', () => {
      form.hints = hints.checked;
    });
    f.appendChild(control('lobby.challenge.hints', hints));
    const error = document.createElement('p');
    error.className = 'error';
    error.id = 'challenge-error';
    f.appendChild(error);
    const buttons = document.createElement('div');
    buttons.className = 'buttons';
    const cancel = el('button', 'lobby.challenge.close', {}, 'small');
    cancel.type = 'button';
    cancel.addEventListener('click', close);
    const send = el('button', 'lobby.challenge.send', {}, 'primary');
    send.type = 'submit';
    send.id = 'challenge-send';
    buttons.append(cancel, send);
    f.appendChild(buttons);
    f.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const body = {
        to: [name, ...form.also],
        preset: form.preset,
        players: form.players,
        options: { ...form.rules, target: form.target === 'round' ? 'round' : Number(form.target) },
        timer: form.timer || null,
        hints: form.hints,
        rated: form.rated,
      };
      try {
        const made = await post('/api/challenges', body);
        close();
        showChallenge(made);
      } catch (e) {
        tx(error, 'lobby.challenge.error', { message: e instanceof ApiError ? e.message : String(e) });
      }
    });
    dialog.appendChild(f);
  };
  render();
  dialog.showModal();
}

function secondsLeft(entry) {
  const gone = (performance.now() - entry.received) / 1000;
  return Math.max(0, Math.ceil(entry.challenge.expires_in - gone));
}

function game(c) {
  return { $t: `preset.${c.preset}` };
}

let going = false;

async function goToTable(tableId) {
  if (going) return; // the answer and the socket's frame both say where
  going = true;
  await goSeated(tableId);
}

function drop(id) {
  const entry = shown.get(id);
  if (!entry) return;
  clearInterval(entry.timer);
  entry.node.remove();
  shown.delete(id);
}

/** Drop the toast of every challenge shown. */
function dropEvery() {
  for (const id of [...shown.keys()]) drop(id);
}

function note(key, params) {
  const n = el('div', key, params, 'challenge-toast note');
  box().appendChild(n);
  setTimeout(() => n.remove(), 5000);
}

/** Decline a muted challenger's challenge without a word, here or to them: they read
 * "declined", as for any other. */
async function refuse(c) {
  refused.add(c.id);
  try {
    await post(`/api/challenges/${encodeURIComponent(c.id)}/decline`, {});
  } catch (e) {
    /* it ended meanwhile (withdrawn, expired): nothing to decline */
  }
}

/** A challenge as the server sent it (made, answered, ended): show, update or drop its toast. */
export function showChallenge(c) {
  if (refused.has(c.id)) return;
  if (c.status === 'open' && !c.mine && !shown.has(c.id) && isMuted(c.from)) {
    refuse(c);
    return;
  }
  if (c.status !== 'open') {
    drop(c.id);
    if (c.status === 'accepted' && c.table) {
      note('lobby.challenge.starting');
      goToTable(c.table);
    } else if (c.status === 'declined') {
      const who = (c.to.find((x) => x.answer === 'decline') || {}).name || '';
      note('lobby.challenge.declined', { name: who });
    } else if (c.status === 'expired') {
      note('lobby.challenge.expired');
    } else if (c.status === 'cancelled') {
      note('lobby.challenge.cancelled');
    } else if (c.status === 'left') {
      const who = c.to.filter((x) => x.left).map((x) => x.name).join(', ');
      note('lobby.challenge.left', { name: who });
    }
    return;
  }
  let entry = shown.get(c.id);
  if (!entry) {
    const node = document.createElement('div');
    node.className = `challenge-toast ${c.mine ? 'outgoing' : 'incoming'}`;
    node.dataset.challenge = c.id;
    box().appendChild(node);
    entry = { node, challenge: c, received: performance.now(), timer: null };
    shown.set(c.id, entry);
    entry.timer = setInterval(() => tick(entry), 250);
    if (!c.mine && document.hidden) {
      if (savedTitle === null) savedTitle = document.title;
      document.title = t('lobby.challenge.tab_title', { name: c.from });
    }
  } else {
    entry.challenge = c;
    entry.received = performance.now();
  }
  renderToast(entry);
}

function tick(entry) {
  const left = secondsLeft(entry);
  const n = entry.node.querySelector('.countdown');
  if (n) tx(n, 'lobby.challenge.seconds', { count: left });
  if (left <= 0) drop(entry.challenge.id);
  const accept = entry.node.querySelector('button.accept');
  if (accept && accept.disabled !== busy()) renderToast(entry); // the game ended, or began
}

function renderToast(entry) {
  const c = entry.challenge;
  const node = clear(entry.node);
  const you = ctx.you();
  if (c.mine) {
    const waiting = c.to.filter((x) => x.answer === null).map((x) => x.name).join(', ');
    node.appendChild(el('p', 'lobby.challenge.waiting', { names: waiting, game: game(c) }));
  } else {
    node.appendChild(el('p', 'lobby.challenge.incoming', { name: c.from, game: game(c), count: c.players }));
  }
  if (c.rated) node.appendChild(el('span', 'lobby.challenge.rated_badge', {}, 'badge'));
  node.appendChild(el('span', 'lobby.challenge.seconds', { count: secondsLeft(entry) }, 'countdown'));
  const buttons = document.createElement('div');
  buttons.className = 'buttons';
  const mineAnswer = you && (c.to.find((x) => x.name === you.name) || {}).answer;
  if (c.mine) {
    const w = el('button', 'lobby.challenge.withdraw', {}, 'small');
    w.type = 'button';
    w.addEventListener('click', () => answer(c, 'cancel'));
    buttons.appendChild(w);
  } else if (!mineAnswer) {
    const a = el('button', 'lobby.challenge.accept', {}, 'primary small accept');
    a.type = 'button';
    a.disabled = busy();
    a.addEventListener('click', () => answer(c, 'accept'));
    const d = el('button', 'lobby.challenge.decline', {}, 'small decline');
    d.type = 'button';
    d.addEventListener('click', () => answer(c, 'decline'));
    buttons.append(a, d);
    if (a.disabled) node.appendChild(el('p', 'lobby.challenge.busy', {}, 'busy-note'));
  }
  node.appendChild(buttons);
}

async function answer(c, how) {
  try {
    const r = await post(`/api/challenges/${encodeURIComponent(c.id)}/${how}`, {});
    if (how === 'accept') {
      if (r.table) goToTable(r.table);
      else showChallenge(r.challenge);
    } else {
      showChallenge(r);
    }
  } catch (e) {
    drop(c.id);
    note('lobby.challenge.error', { message: e instanceof ApiError ? e.message : String(e) });
  }
}
