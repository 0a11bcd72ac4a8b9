// Sound and attention: a tile laid on the line, "your turn", "round over" and the last ten
// seconds of our clock are heard (web/sounds/, made by tools/sounds.py), unless the mute
// switch is on (remembered per browser); while the tab is in the background its title
// says "● Your turn" (or that a round waits for our "Continue").
import { t, tattr } from '../i18n.js';
import { svgEl } from '../tiles.js';
import { $, mySeat, state } from './state.js';

const STORE = 'ds_mute';
const WARN_FROM = 10; // seconds left on our clock from which it warns
const players = {};
let muted = false;
let warned = null; // the second of our clock we last warned at

function player(name) {
  if (!players[name]) {
    players[name] = new Audio(`/static/sounds/${name}.wav`);
    players[name].preload = 'auto';
  }
  return players[name];
}

/** Play a sound ('click', 'turn', 'round', 'warn') unless muted; never fails. */
export function play(name) {
  if (muted) return;
  const audio = player(name);
  try {
    audio.currentTime = 0;
    const started = audio.play();
    if (started && started.catch) started.catch(() => {}); // not allowed before a first click
  } catch (e) {
    /* no audio here */
  }
}

/** A loudspeaker drawn in SVG (no emoji font needed): with sound waves, or struck out. */
function speaker(silent) {
  const svg = svgEl('svg', { viewBox: '0 0 24 24', width: 20, height: 20, class: 'speaker', 'aria-hidden': 'true' });
  svgEl('path', { d: 'M3 9h4l5-4v14l-5-4H3z', fill: 'currentColor' }, svg);
  const stroke = { fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linecap': 'round' };
  if (silent) {
    svgEl('path', { d: 'M16 9l6 6M22 9l-6 6', ...stroke }, svg);
  } else {
    svgEl('path', { d: 'M15.5 9a4 4 0 0 1 0 6', ...stroke }, svg);
    svgEl('path', { d: 'M18.5 6a8 8 0 0 1 0 12', ...stroke }, svg);
  }
  return svg;
}

function showMute() {
  const b = $('mute');
  b.textContent = '';
  b.appendChild(speaker(muted));
  b.setAttribute('aria-pressed', String(muted));
  tattr(b, 'aria-label', muted ? 'table.sound_on' : 'table.sound_off');
  tattr(b, 'title', muted ? 'table.sound_on' : 'table.sound_off');
}

/** The mute switch in the bar below the felt, as this browser last left it. */
export function muteSwitch() {
  try {
    muted = localStorage.getItem(STORE) === '1';
  } catch (e) {
    muted = false;
  }
  showMute();
  $('mute').addEventListener('click', () => {
    muted = !muted;
    try {
      localStorage.setItem(STORE, muted ? '1' : '0');
    } catch (e) {
      /* private mode: the choice lasts as long as the page */
    }
    showMute();
  });
  for (const name of ['click', 'turn', 'round', 'warn']) player(name);
  document.addEventListener('visibilitychange', updateTitle);
}

function ours(view) {
  return Boolean(view) && mySeat() !== null && view.status === 'playing' && view.turn === mySeat();
}

function waitsForUs(view) {
  const me = mySeat();
  return Boolean(view) && me !== null && view.status === 'round_over' && !(view.continue || []).includes(me) && !state.continued;
}

/** The tab's title: the page's name, or "● Your turn" while the tab is in the background. */
export function updateTitle() {
  const v = state.view;
  let text = t(document.body.dataset.titleKey || 'title.table');
  if (document.hidden && ours(v)) text = `● ${t('status.your_turn')}`;
  else if (document.hidden && waitsForUs(v)) text = `● ${t('status.round_over', { round: v.round })}`;
  document.title = `${text} · doublesix`;
}

/** What a new view means to the ear: a tile laid, our turn come, a round over. */
export function heard(prev, view, events) {
  if (prev) {
    const laid = events.some((e) => e.play !== undefined);
    const ended = prev.status === 'playing' && (view.status === 'round_over' || view.status === 'finished');
    if (laid) play('click');
    if (ended) setTimeout(() => play('round'), laid ? 180 : 0);
    else if (ours(view) && !(ours(prev) && prev.round === view.round)) setTimeout(() => play('turn'), laid ? 180 : 0);
  }
  updateTitle();
}

/** Our clock shows `left` seconds (null when it does not run): warn in its last seconds. */
export function clockAt(left) {
  if (left === null || left > WARN_FROM || left <= 0) {
    warned = null;
    return;
  }
  if (warned !== left) {
    warned = left;
    play('warn');
  }
}

export const LOW = WARN_FROM;
