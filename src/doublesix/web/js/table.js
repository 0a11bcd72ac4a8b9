// The table page: wires its parts together (js/table/): the socket and the state, the felt,
// our hand and its controls, the side with the score pad and the chat, and the round-end and
// game-end cards (with the rematch); and the player's challenges and messages (notices.js).
import { ApiError, get, seatAt } from './api.js';
import { setChallengeBusy } from './challenge.js';
import { setRulesPreset, sortBots, startPage, toast } from './common.js';
import { has, onLanguage, tattr, tx } from './i18n.js';
import { startNotices } from './notices.js';
import { heard, muteSwitch, updateTitle } from './table/attention.js';
import { renderCard } from './table/cards.js';
import { chatFromView, chatPanel, chatRefused, heardChat, renderChat, restoredChat, unheardChat } from './table/chat.js';
import { tickTimers } from './table/clock.js';
import { connect, takeBack } from './table/connection.js';
import { askHint, bendAt, cancel, onKey, playSelected, straighten } from './table/controls.js';
import { freshTiles, renderBoard, renderBoneyard, renderSeats, renderStatus } from './table/felt.js';
import { renderHand, renderHint, renderMe } from './table/hand.js';
import { leaveButton, leaveRefused, leftIn, renderLeave } from './table/leave.js';
import { announce, clearNotes } from './table/notes.js';
import { followRematch } from './table/rematch.js';
import { loadRatings } from './table/seat_ratings.js';
import { renderLog, renderPad } from './table/side.js';
import { $, movesFor, painter, seatCount, seatedInPlay, state, tableId } from './table/state.js';
import { seenTournamentView, showTournament } from './table/tournament.js';
import { joinWith, rejoin, showMissing, showUnreachable, standRefused, tableChanged, unseated, waitForPlayers } from './table/waiting.js';

const board = (fresh) => renderBoard(fresh, { play: playSelected, bend: bendAt, straighten });

painter('hand', renderHand);
painter('board', () => board());
painter('card', renderCard);
painter('seats', () => {
  renderSeats();
  renderMe();
});

function render(fresh = new Map()) {
  const v = state.view;
  if (!v) return;
  document.body.dataset.status = v.status;
  document.body.dataset.players = String(seatCount());
  $('waiting').classList.add('hidden');
  renderSeats();
  board(fresh);
  renderBoneyard();
  renderStatus();
  renderMe();
  renderLeave();
  renderHand();
  renderPad();
  renderLog();
  renderHint();
  renderCard();
  tickTimers();
}

/** A snapshot or an update: the new view and the events that led to it. */
function accept(view, events) {
  if (view.status === 'waiting') {
    state.closed = view.closed || null;
    chatFromView(view);
    tableChanged(); // a seat taken, or the table closed: the waiting room draws the table
    return;
  }
  const prev = state.view;
  state.view = view;
  seenTournamentView(view);
  loadRatings(); // the game is on: every seat is taken
  state.pending = false;
  if (view.seat !== undefined && view.seat !== null) state.seat = view.seat;
  const newRound = !prev || prev.round !== view.round;
  if (newRound || view.status !== 'round_over') state.continued = false;
  if (view.ruleset && view.ruleset.preset) setRulesPreset(view.ruleset.preset);
  // Keep a lifted tile only while it is still ours to play.
  if (state.selected && !movesFor(state.selected).length) state.selected = null;
  state.hint = null;
  state.bending = null;
  const fresh = newRound ? new Map() : freshTiles(prev, events);
  state.drawn = new Set();
  for (const e of events) if (e.draw && e.seat === state.seat) state.drawn.add(e.draw);
  if (newRound || view.status !== 'playing') clearNotes();
  render(fresh);
  chatFromView(view);
  followRematch(events);
  announce(events);
  heard(prev, view, events);
  leftIn(events);
}

const socket = {
  view: accept,
  presence(away) {
    if (!state.view) return;
    state.view.away = away;
    tickTimers();
  },
  hint(moves) {
    state.hint = moves[0] || null;
    renderHint();
    renderHand();
  },
  chat: heardChat,
  unchat: unheardChat,
  rechat: restoredChat,
  error(msg) {
    if (msg.code === 'stale') return;
    leaveRefused();
    standRefused();
    if (msg.code === 'chat') {
      chatRefused(msg);
      return;
    }
    const key = has(`err.${msg.code}`) ? `err.${msg.code}` : 'err.generic';
    toast(key, { message: msg.message || msg.code || '', rule: msg.rule || '' }, 'error');
    renderHand();
  },
  unseat: unseated,
  missing: showMissing,
};

function quickSwitch() {
  try {
    state.quick = localStorage.getItem('ds_quick') !== '0';
  } catch (e) {
    state.quick = true;
  }
  $('quick').checked = state.quick;
  $('quick').addEventListener('change', () => {
    state.quick = $('quick').checked;
    try {
      localStorage.setItem('ds_quick', state.quick ? '1' : '0');
    } catch (e) {
      /* private mode: the choice lasts as long as the page */
    }
  });
}

/** On a phone the side (score pad and log) is a drawer: "Scores" opens it, "Back" or the felt closes it. */
function scoresDrawer() {
  tx($('pad-close'), 'table.close_scores');
  const show = (open) => {
    $('side').classList.toggle('open', open);
    $('pad-toggle').setAttribute('aria-expanded', String(open));
  };
  $('pad-toggle').addEventListener('click', () => {
    const side = $('side');
    const showing = side.classList.contains('open') && !side.classList.contains('chat-mode');
    side.classList.remove('chat-mode'); // the drawer shows the scores, not the chat
    show(!showing);
  });
  $('pad-close').addEventListener('click', () => show(false));
  $('felt').addEventListener('click', () => show(false));
}

async function main() {
  await startPage('title.table');
  setChallengeBusy(seatedInPlay); // accepting would walk out on our game: not until it is over
  startNotices();
  quickSwitch();
  tx($('quick-label'), 'table.quick');
  tx($('pad-toggle'), 'table.scores');
  tx($('hint'), 'table.hint');
  tattr($('board'), 'aria-label', 'table.board');
  scoresDrawer();
  leaveButton();
  $('hint').addEventListener('click', askHint);
  document.addEventListener('keydown', onKey);
  document.addEventListener('contextmenu', (ev) => {
    if (state.selected || state.bending) {
      ev.preventDefault();
      cancel();
    }
  });
  new ResizeObserver(() => state.view && board()).observe(document.querySelector('.board-wrap'));
  setInterval(tickTimers, 250);
  muteSwitch();
  onLanguage(() => {
    if (state.view) render();
    renderChat();
    updateTitle();
  });

  const held = seatAt(tableId);
  if (held) {
    state.seat = held.seat;
    state.token = held.token;
  }
  try {
    state.table = await get(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) showMissing();
    else showUnreachable(e);
    return;
  }
  setRulesPreset(state.table.preset);
  showTournament();
  try {
    state.bots = sortBots(await get('/api/bots'));
  } catch (e) {
    state.bots = ['random', 'greedy'];
  }
  const invite = new URLSearchParams(location.search).get('invite');
  if (!state.token && invite) {
    if (state.table.status === 'open') await joinWith({ invite });
    else await rejoin({ invite });
  } else if (!state.token) {
    await takeBack(null, state.table); // our account's seat, taken on another browser (or before a new password)
  }
  chatPanel();
  if (state.table.status === 'open') waitForPlayers(); // its chat goes through the socket
  connect(socket);
}

main().catch((e) => {
  console.error(e);
  toast('err.server', { message: e instanceof ApiError ? e.message : String(e) }, 'error');
});
