// What the tournament page, the lobby's Tournaments card and the table share about a
// tournament (docs/protocol.md, "Tournaments"): its game in words, its clock, and the time
// left to a moment the server named, read on the server's clock.
import { el } from './i18n.js';
import { svgEl } from './tiles.js';

/** The game as the lobby's cards name it: "Draw, 2 players" ({$t} parameters). */
export function gameLabel(t) {
  return { $t: 'lobby.seek.kind', args: { game: { $t: `preset.${t.preset}` }, count: Number(t.players) || 0 } };
}

/** The target of `t`'s games: 'round' (single rounds, the default) or the number of a whole
 * game's target. */
export function targetOf(t) {
  const target = t.options && t.options.target;
  return typeof target === 'number' ? target : 'round';
}

/** The target in words: "single rounds" or "whole games to 100". */
export function targetText(t) {
  const target = targetOf(t);
  if (target === 'round') return el('span', 'tournament.rounds', {}, 'tournament-target');
  return el('span', 'tournament.games_to', { target }, 'tournament-target');
}

/** Seconds as m:ss, or h:mm:ss from an hour on. */
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The server's clock less this browser's, in seconds, from an answer's `now` read at
 * `received` (Date.now()): countdowns read the server's time, whatever this clock says. */
export function skewOf(now, received = Date.now()) {
  return typeof now === 'number' ? now - received / 1000 : 0;
}

/** Seconds from the server's now (this clock plus `skew`) to the epoch second `at`. */
export function secondsTo(at, skew) {
  return Number(at) - (Date.now() / 1000 + skew);
}

/** The moment a tournament's countdown runs to and its words: the start while upcoming, the
 * end while running; null once it is over. */
export function countdownOf(t) {
  if (t.status === 'upcoming') return { at: t.starts_at, key: 'tournament.starts_in', soon: 'tournament.starting' };
  if (t.status === 'running') return { at: t.ends_at, key: 'tournament.ends_in', soon: 'tournament.ending' };
  return null;
}

/** A trophy, drawn (the site draws its pictures: no emoji, whose font a system may lack). */
export function cupIcon(cls = 'cup') {
  const svg = svgEl('svg', { viewBox: '0 0 24 24', class: `icon ${cls}`, 'aria-hidden': 'true', focusable: 'false' });
  svgEl('path', { d: 'M7 3h10v5a5 5 0 0 1-10 0z', fill: 'currentColor' }, svg);
  svgEl('path', { d: 'M7 5H4.5v1.2A3.3 3.3 0 0 0 7.6 9.5M17 5h2.5v1.2a3.3 3.3 0 0 1-3.1 3.3', fill: 'none', stroke: 'currentColor', 'stroke-width': '1.6' }, svg);
  svgEl('rect', { x: 11, y: 12.5, width: 2, height: 4, fill: 'currentColor' }, svg);
  svgEl('rect', { x: 7.5, y: 16.5, width: 9, height: 3.5, rx: 0.8, fill: 'currentColor' }, svg);
  return svg;
}

/** A flame: a player "on fire" (two wins in a row: the next win scores double). */
export function fireIcon(cls = 'fire') {
  const svg = svgEl('svg', { viewBox: '0 0 24 24', class: `icon ${cls}`, 'aria-hidden': 'true', focusable: 'false' });
  svgEl('path', { d: 'M12 1.5c.6 3.6 5.8 6 5.8 11.4a5.8 5.8 0 0 1-11.6 0c0-2.6 1.2-4.4 2.7-5.8.1 1.9.8 3.1 2 3.7C10.3 7.7 10.6 4.4 12 1.5z', fill: '#e8590c' }, svg);
  svgEl('path', { d: 'M12.3 11c.4 2 2.9 3 2.9 5.6a3.2 3.2 0 0 1-6.4 0c0-1.5.7-2.4 1.5-3.1.2 1 .6 1.5 1.2 1.8-.2-1.5.1-3 .8-4.3z', fill: '#f2c14e' }, svg);
  return svg;
}
