// A doublesix/1 record, event by event: the timeline (pure) and the viewer (DOM).
import { drawLine } from './board.js';
import { clear } from './common.js';
import { eventText, gameEndText, openingText, playerName, redealText, roster, roundExplanation, scorePad } from './describe.js';
import { el, lit, onLanguage, tattr, tx } from './i18n.js';
import { parseTile, tileName, tileSVG } from './tiles.js';

function take(hand, tile) {
  const name = tileName(...parseTile(tile));
  const i = hand.findIndex((x) => tileName(...parseTile(x)) === name);
  if (i >= 0) hand.splice(i, 1);
}

/**
 * Every state of a game: for each round, the state after the deal and after
 * each event ({line, hands, boneyard, events, event, scores}).
 */
export function timeline(record) {
  const players = (record.ruleset && record.ruleset.players) || (record.players || []).length;
  const sides = record.ruleset && record.ruleset.pairs ? 2 : players;
  let scores = new Array(sides).fill(0);
  const rounds = [];
  (record.rounds || []).forEach((round, r) => {
    const hands = (round.deal && round.deal.hands ? round.deal.hands : []).map((h) => [...h]);
    let boneyard = (round.deal && round.deal.boneyard ? round.deal.boneyard.length : 0);
    let line = [];
    const events = [];
    const states = [{ round: r, index: 0, line: [], hands: hands.map((h) => [...h]), boneyard, events: [], event: null, scores: [...scores] }];
    for (const e of round.events || []) {
      if (e.play !== undefined) {
        const t = parseTile(e.play);
        if (!line.length) line = [[t[0], t[1]]];
        else if (e.end === 'left') {
          const l = line[0][0];
          line = [[t[0] === l ? t[1] : t[0], l], ...line];
        } else {
          const rr = line[line.length - 1][1];
          line = [...line, [rr, t[0] === rr ? t[1] : t[0]]];
        }
        if (hands[e.seat]) take(hands[e.seat], e.play);
      } else if (e.draw !== undefined) {
        if (hands[e.seat] && e.draw) hands[e.seat].push(e.draw);
        boneyard = Math.max(0, boneyard - 1);
      }
      events.push(e);
      states.push({
        round: r, index: events.length, line: line.map((x) => [...x]), hands: hands.map((h) => [...h]),
        boneyard, events: [...events], event: e, scores: [...scores],
      });
    }
    if (round.result && round.result.scores_after) scores = [...round.result.scores_after];
    const last = states[states.length - 1];
    if (round.result) {
      last.result = round.result;
      last.scores = [...scores];
    }
    rounds.push({ states, result: round.result || null, redeals: round.redeals || [] });
  });
  return rounds;
}

/** The readable move list: one line per event, as on the game page. */
export function moveList(record) {
  const box = document.createElement('div');
  box.className = 'move-list';
  const rs = record.ruleset || {};
  const players = roster(record.players, record.bots);
  const tl = timeline(record);
  (record.rounds || []).forEach((round, r) => {
    const section = document.createElement('section');
    section.className = 'move-round';
    section.dataset.round = String(r + 1);
    section.appendChild(el('h3', 'round.number', { round: r + 1 }));
    if (r === 0) {
      for (const d of record.lead_draws || []) section.appendChild(el('p', 'ev.lead_draw', { name: playerName(players, d.seat), tile: d.tile }, 'muted'));
    }
    for (const redeal of round.redeals || []) {
      const [key, params] = redealText(redeal, players);
      section.appendChild(el('p', key, params, 'muted'));
    }
    if (round.opening) {
      const [key, params] = openingText(round.opening, players);
      section.appendChild(el('p', key, params, 'muted opening'));
    }
    const deal = document.createElement('ul');
    deal.className = 'deal';
    (round.deal && round.deal.hands ? round.deal.hands : []).forEach((h, s) => {
      const li = document.createElement('li');
      li.appendChild(lit('span', playerName(players, s), 'who'));
      li.appendChild(lit('span', h.join(' '), 'tiles'));
      deal.appendChild(li);
    });
    section.appendChild(el('p', 'game.deal', {}, 'label'));
    section.appendChild(deal);
    const ol = document.createElement('ol');
    ol.className = 'events';
    let first = true;
    for (const e of round.events || []) {
      const [key, params] = eventText(e, players, rs, { first: first && e.play !== undefined });
      if (e.play !== undefined) first = false;
      ol.appendChild(el('li', key, params));
    }
    section.appendChild(ol);
    if (round.result) {
      const last = tl[r].states[tl[r].states.length - 1];
      section.appendChild(roundExplanation(rs, players, round.result, last.hands));
    }
    box.appendChild(section);
  });
  return box;
}

/** The viewer: the felt with every hand face up, and controls to step through the events. */
export function viewer(container, record) {
  const rs = record.ruleset || {};
  const players = roster(record.players, record.bots);
  const tl = timeline(record);
  const flat = [];
  tl.forEach((round, r) => round.states.forEach((s, i) => flat.push([r, i])));
  let pos = 0;

  clear(container);
  container.classList.add('replay-viewer');
  container.tabIndex = 0;
  const controls = document.createElement('div');
  controls.className = 'replay-controls';
  const button = (id, glyph, key) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.id = id;
    b.appendChild(lit('span', glyph, 'glyph'));
    b.appendChild(el('span', key, {}, 'label-text'));
    controls.appendChild(b);
    return b;
  };
  const toStart = button('replay-start', '«', 'replay.start');
  const back = button('replay-back', '◀', 'replay.back');
  const fwd = button('replay-forward', '▶', 'replay.forward');
  const toEnd = button('replay-end', '»', 'replay.end');
  const roundSel = document.createElement('select');
  roundSel.id = 'replay-round';
  tattr(roundSel, 'aria-label', 'replay.round');
  tl.forEach((_, r) => {
    const o = el('option', 'round.number', { round: r + 1 });
    o.value = String(r);
    roundSel.appendChild(o);
  });
  controls.appendChild(roundSel);
  const where = document.createElement('span');
  where.className = 'replay-where';
  where.id = 'replay-where';
  controls.appendChild(where);
  container.appendChild(controls);

  const felt = document.createElement('div');
  felt.className = 'felt replay-felt';
  felt.dataset.players = String(rs.players || players.length);
  const slots = {};
  for (const p of ['top', 'left', 'right', 'bottom']) {
    const d = document.createElement('div');
    d.className = `seat-slot pos-${p}`;
    felt.appendChild(d);
    slots[p] = d;
  }
  const wrap = document.createElement('div');
  wrap.className = 'board-wrap';
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'board');
  wrap.appendChild(svg);
  felt.appendChild(wrap);
  const bone = document.createElement('div');
  bone.className = 'boneyard';
  felt.appendChild(bone);
  container.appendChild(felt);
  const said = document.createElement('p');
  said.className = 'replay-event';
  said.id = 'replay-event';
  container.appendChild(said);
  const below = document.createElement('div');
  below.className = 'replay-below';
  container.appendChild(below);

  const n = rs.players || players.length;
  const position = (seat) => {
    if (seat === 0) return 'bottom';
    if (n === 2) return 'top';
    if (n === 3) return seat === 1 ? 'left' : 'right';
    return ['bottom', 'left', 'top', 'right'][seat];
  };

  function show() {
    const [r, i] = flat[pos];
    const st = tl[r].states[i];
    for (const slot of Object.values(slots)) clear(slot);
    // The seat to move in this position (the review's rows show the position before its move).
    const next = tl[r].states[i + 1] ? tl[r].states[i + 1].event : null;
    for (let s = 0; s < n; s++) {
      const panel = document.createElement('div');
      panel.className = `seat pos-${position(s)}`;
      panel.dataset.seat = String(s);
      if (next && next.seat === s) panel.classList.add('turn');
      const head = document.createElement('div');
      head.className = 'seat-head';
      head.appendChild(lit('span', playerName(players, s), 'name'));
      panel.appendChild(head);
      const tiles = document.createElement('div');
      tiles.className = 'seat-tiles';
      for (const tile of st.hands[s] || []) tiles.appendChild(tileSVG(tile, { orient: 'v', size: 15, cls: 'shown' }));
      panel.appendChild(tiles);
      slots[position(s)].appendChild(panel);
    }
    clear(bone);
    bone.classList.toggle('hidden', !rs.boneyard);
    if (rs.boneyard) bone.appendChild(el('span', 'table.boneyard', { count: st.boneyard }, 'boneyard-count'));
    const fresh = new Map();
    if (st.event && st.event.play !== undefined) fresh.set(tileName(...parseTile(st.event.play)), { dx: 0, dy: 0, delay: 0 });
    drawLine(svg, st.line, { events: st.events, manual: rs.line === 'manual', highlight: new Set(fresh.keys()) });
    if (st.event) {
      const firstPlay = st.events.findIndex((e) => e.play !== undefined) === st.events.length - 1 && st.event.play !== undefined;
      const [key, params] = eventText(st.event, players, rs, { first: firstPlay });
      tx(said, key, params);
    } else tx(said, 'replay.dealt', { round: r + 1 });
    tx(where, 'replay.where', { round: r + 1, event: i, events: tl[r].states.length - 1 });
    roundSel.value = String(r);
    clear(below);
    const results = (record.rounds || []).slice(0, r).map((x) => x.result).filter(Boolean);
    if (st.result) {
      below.appendChild(roundExplanation(rs, players, st.result, st.hands));
      results.push(st.result);
    }
    const lastResult = results[results.length - 1];
    below.appendChild(scorePad(rs, players, results, lastResult ? lastResult.scores_after : st.scores));
    if (pos === flat.length - 1 && record.result && record.result.finished) below.appendChild(gameEndText(rs, players, record.result));
    toStart.disabled = back.disabled = pos === 0;
    toEnd.disabled = fwd.disabled = pos === flat.length - 1;
  }
  const go = (p) => {
    pos = Math.max(0, Math.min(flat.length - 1, p));
    show();
  };
  toStart.addEventListener('click', () => go(0));
  back.addEventListener('click', () => go(pos - 1));
  fwd.addEventListener('click', () => go(pos + 1));
  toEnd.addEventListener('click', () => go(flat.length - 1));
  roundSel.addEventListener('change', () => go(flat.findIndex(([r]) => r === Number(roundSel.value))));
  container.addEventListener('keydown', (ev) => {
    if (ev.target && ev.target.tagName === 'SELECT') return;
    if (ev.key === 'ArrowRight') go(pos + 1);
    else if (ev.key === 'ArrowLeft') go(pos - 1);
    else if (ev.key === 'Home') go(0);
    else if (ev.key === 'End') go(flat.length - 1);
    else return;
    ev.preventDefault();
  });
  new ResizeObserver(() => show()).observe(wrap);
  onLanguage(() => show());
  if (flat.length) show();
  /** Show round `r` (from 0) at state `i`: 0 is the deal, i the state after event i - 1. */
  const goTo = (r, i) => {
    const at = flat.findIndex(([a, b]) => a === r && b === i);
    if (at >= 0) go(at);
  };
  return { go, goTo, get position() { return pos; }, get length() { return flat.length; } };
}

/** Everything a finished game's page shows about a record. */
export function recordSummary(record) {
  const box = document.createElement('div');
  box.className = 'record-summary';
  const rs = record.ruleset || {};
  const players = roster(record.players, record.bots);
  const key = rs.target === 'round' ? 'game.summary_round' : 'game.summary'; // R40: a game of one round
  box.appendChild(el('p', key, { preset: { $t: `preset.${rs.preset}` }, players: players.length, target: rs.target }, 'muted'));
  if (record.result && record.result.finished) box.appendChild(gameEndText(rs, players, record.result));
  else box.appendChild(el('p', 'game.unfinished', {}, 'muted'));
  const results = (record.rounds || []).map((r) => r.result).filter(Boolean);
  box.appendChild(scorePad(rs, players, results, (record.result && record.result.scores) || (results.length ? results[results.length - 1].scores_after : [])));
  return box;
}
