// Words for what happens at a table: events, how a round was scored, who won.
// Shared by the table, the game page and the replay viewer.
import { el, has, lit, t, tattr } from './i18n.js';
import { tileSVG } from './tiles.js';

export function sideOf(ruleset, seat) {
  return ruleset && ruleset.pairs ? seat % 2 : seat;
}

export function sideCount(ruleset) {
  return ruleset && ruleset.pairs ? 2 : (ruleset && ruleset.players) || 0;
}

export function seatsOf(ruleset, side) {
  const out = [];
  for (let s = 0; s < ruleset.players; s++) if (sideOf(ruleset, s) === side) out.push(s);
  return out;
}

/**
 * The seats' names with their bot levels: [{name, bot}] from the names and the levels
 * (a level per seat, null for a human; a table's `seats[].bot`, a record's `bots`).
 */
export function roster(names, levels) {
  return (names || []).map((name, s) => ({ name, bot: (levels && levels[s]) || null }));
}

/** The parameters of `bot.name` ("Bot 2 · expert") for the bot `p` ({name, bot}) at `seat`. */
export function botName(p, seat) {
  return { name: p.name || `Bot ${seat}`, level: has(`bot.${p.bot}`) ? { $t: `bot.${p.bot}` } : p.bot };
}

/** A seat's name as shown: a bot as "Bot 2 · expert" (its name and level), anyone else as named. */
export function playerName(players, seat) {
  const p = players && players[seat];
  if (p === null || p === undefined || p === '') return t('seat.open');
  if (typeof p === 'string') return p;
  if (p.bot) return t('bot.name', botName(p, seat));
  return p.name || t('seat.open');
}

/** "Anna & Carla" for a pair, "Anna" otherwise (a literal: names are the same in every language). */
export function sideName(ruleset, players, side) {
  return seatsOf(ruleset, side).map((s) => playerName(players, s)).join(' & ');
}

/** The number of the round's first tile in `line` order and the text key of an event. */
export function eventText(event, players, ruleset, { first = false } = {}) {
  const name = playerName(players, event.seat);
  if (event.play !== undefined) {
    if (first || !event.end) return ['ev.open', { name, tile: event.play }];
    return [event.end === 'left' ? 'ev.play_left' : 'ev.play_right', { name, tile: event.play }];
  }
  if (event.draw !== undefined) {
    if (event.draw) return ['ev.draw_tile', { name, tile: event.draw }];
    return ['ev.draw', { name, count: event.count || 1 }];
  }
  if (event.pass !== undefined) return [ruleset && ruleset.boneyard ? 'ev.pass' : 'ev.knock', { name }];
  if (event.straighten !== undefined) return ['ev.straighten', { name, at: event.straighten.at }];
  if (event.redeal !== undefined) return redealText(event.redeal, players);
  return ['ev.unknown', {}];
}

/**
 * Kozel's redeal (R13) from the engine's values {seat, kind: doubles|number, count,
 * number}; an older record gives only a sentence, which is shown as it is.
 */
export function redealText(reason, players) {
  if (reason && typeof reason === 'object' && reason.kind) {
    const name = playerName(players, reason.seat);
    if (reason.kind === 'doubles') return ['ev.redeal_doubles', { name, count: reason.count }];
    return ['ev.redeal_suit', { name, count: reason.count, pip: reason.number }];
  }
  return ['ev.redeal', { reason: String((reason && reason.reason) || reason || '') }];
}

/** Who opens the round and why (R16–R21), from the engine's {seat, reason, rule, tile, forced}. */
export function openingText(opening, players) {
  const name = playerName(players, opening.seat);
  // The tile that decided is named once everyone may see it (the view hides it until then).
  const keys = [opening.tile ? `opening.${opening.reason}_tile` : null, `opening.${opening.reason}`, 'opening.other'];
  const key = keys.find((k) => k && has(k));
  return [key, { name, tile: opening.tile || '', rule: opening.rule || '' }];
}

/**
 * Group a run of draws by one seat into one line ("Anna draws 3 tiles").
 * Own draws keep their tiles. Returns [{event, count, tiles}] in order.
 */
export function groupDraws(events) {
  const out = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (e.draw !== undefined && last && last.event.draw !== undefined && last.event.seat === e.seat) {
      last.count += 1;
      if (e.draw) last.tiles.push(e.draw);
      continue;
    }
    out.push({ event: e, count: 1, tiles: e.draw ? [e.draw] : [] });
  }
  return out;
}

export function drawGroupText(group, players) {
  const name = playerName(players, group.event.seat);
  if (group.tiles.length) return ['ev.draws_tiles', { name, count: group.count, tiles: group.tiles.join(', ') }];
  return ['ev.draw', { name, count: group.count }];
}

function line(list, key, params, cls) {
  const li = el('li', key, params, cls);
  list.appendChild(li);
  return li;
}

/**
 * How a round was scored: the engine's breakdown (see below). A record written before the
 * engine stated it (no `breakdown`) shows how the round ended and the hands left, plain.
 */
export function roundExplanation(ruleset, players, result, hands) {
  if (result.breakdown) return breakdownExplanation(players, result, hands);
  const box = document.createElement('div');
  box.className = 'round-explain';
  const winner = result.winner_seat;
  box.appendChild(el('p', HEADS[result.kind] || 'res.blocked', {
    name: winner === null || winner === undefined ? '' : playerName(players, winner),
    side: '', losers: '', value: '', eggs: result.eggs_carried || 0,
  }, 'explain-head'));
  const table = document.createElement('div');
  table.className = 'hands-shown';
  (hands || []).forEach((h, s) => {
    const row = document.createElement('div');
    row.className = 'hand-row';
    row.appendChild(lit('span', playerName(players, s), 'who'));
    const tiles = document.createElement('span');
    tiles.className = 'mini-tiles';
    for (const tile of h || []) tiles.appendChild(tileSVG(tile, { orient: 'v', size: 21 }));
    row.appendChild(tiles);
    row.appendChild(lit('span', String((result.hand_values || [])[s] ?? ''), 'value'));
    table.appendChild(row);
  });
  box.appendChild(table);
  return box;
}

const HEADS = { domino: 'res.domino', blocked: 'res.blocked', tied: 'res.tied', fish: 'res.fish', eggs: 'res.eggs' };

/**
 * How a round was scored, from the engine's breakdown (docs/record.md, `result.breakdown`):
 * for each side, each hand face up (`hands`: the tiles each seat has left) with what it counted (a lone 0-0 or 6-6 says so on its
 * own row), then one row for each value its points are made of — the hands it rests on,
 * the eggs added, what the 13-rule left unwritten — and the points written down.
 */
function breakdownExplanation(players, result, hands) {
  const box = document.createElement('div');
  box.className = 'round-explain breakdown';
  const winner = result.winner_seat;
  const won = winner === null || winner === undefined ? null : result.breakdown.find((b) => b.hands.some((h) => h.seat === winner));
  const others = result.breakdown.filter((b) => b !== won);
  const names = (b) => b.hands.map((h) => playerName(players, h.seat)).join(' & ');
  box.appendChild(el('p', HEADS[result.kind] || 'res.blocked', {
    name: won ? playerName(players, winner) : '',
    side: won ? names(won) : '',
    losers: others.map(names).join(', '),
    value: Math.max(0, ...result.breakdown.map((b) => b.total)),
    eggs: result.eggs_carried || 0,
  }, 'explain-head'));
  for (const b of result.breakdown) {
    const part = document.createElement('section');
    part.className = `side-part side-${b.side}`;
    part.dataset.side = String(b.side);
    const head = document.createElement('h4');
    head.appendChild(lit('span', names(b), 'who'));
    head.appendChild(lit('span', String(b.points), 'side-points'));
    part.appendChild(head);
    const table = document.createElement('div');
    table.className = 'hands-shown';
    for (const h of b.hands) {
      const row = document.createElement('div');
      row.className = 'hand-row';
      row.dataset.seat = String(h.seat);
      row.appendChild(lit('span', playerName(players, h.seat), 'who'));
      const tiles = document.createElement('span');
      tiles.className = 'mini-tiles';
      for (const tile of (hands && hands[h.seat]) || []) tiles.appendChild(tileSVG(tile, { orient: 'v', size: 21 }));
      row.appendChild(tiles);
      row.appendChild(lit('span', String(h.counted), 'value'));
      // A lone 0-0 or 6-6 counts what its option says, not its pips (R28a, R33).
      if (h.lone) row.appendChild(el('span', `how.${h.lone}`, { tile: h.lone === 'lone_zero_zero' ? '0-0' : '6-6', points: h.counted }, 'tag lone'));
      else row.appendChild(lit('span', '', 'tag'));
      table.appendChild(row);
    }
    part.appendChild(table);
    const list = document.createElement('ul');
    list.className = 'explain';
    if (b.hands.length > 1 && b.basis !== 'nothing') line(list, 'how.together', { points: b.total }, 'row-total');
    line(list, `how.base_${b.basis}`, { points: b.base, rule: b.rule }, 'row-base');
    if (b.eggs) line(list, 'how.eggs_added', { eggs: b.eggs }, 'row-eggs');
    if (b.dropped) line(list, 'how.dropped', { points: b.dropped }, 'row-dropped');
    if (b.eggs || b.dropped || b.basis !== 'nothing') line(list, 'how.written', { points: b.points }, 'row-points');
    part.appendChild(list);
    box.appendChild(part);
  }
  const rest = document.createElement('ul');
  rest.className = 'explain';
  if (result.kind === 'eggs') line(rest, 'how.eggs', { eggs: result.eggs_carried || 0 });
  else if (result.kind === 'tied') line(rest, 'how.tied', {});
  else if (result.eggs_carried) line(rest, 'how.eggs_carried', { eggs: result.eggs_carried });
  if (rest.childNodes.length) box.appendChild(rest);
  return box;
}

/** The game's end: the winners, and in Kozel the goat and a dry win. */
export function gameEndText(ruleset, players, gameResult) {
  const box = document.createElement('div');
  box.className = 'game-end-text';
  const winners = (gameResult.winners || []).map((s) => sideName(ruleset, players, s)).join(', ');
  const losers = (gameResult.losers || []).map((s) => sideName(ruleset, players, s)).join(', ');
  const plural = ruleset.pairs || (gameResult.winners || []).length > 1;
  box.appendChild(el('h2', plural ? 'end.winners_pl' : 'end.winner', { names: winners }, 'winners'));
  if (ruleset.scoring === 'kozel' && losers) box.appendChild(el('p', 'end.goat', { names: losers }, 'goat'));
  else if (ruleset.scoring === 'goat' && losers) box.appendChild(el('p', 'end.goat_losers', { names: losers }, 'goat'));
  if (gameResult.dry_win) box.appendChild(el('p', 'end.dry', { names: winners }, 'dry'));
  return box;
}

/** The score pad: one column per side, one row per round, the totals. */
export function scorePad(ruleset, players, results, scores, { current = null, eggs = 0 } = {}) {
  const wrap = document.createElement('div');
  const sides = sideCount(ruleset);
  wrap.className = `score-pad sides-${sides}`;
  const penalties = ruleset.scoring === 'kozel' || ruleset.scoring === 'goat';
  const target = ruleset.scoring === 'kozel' ? ruleset.target + 1 : ruleset.target;
  if (ruleset.target === 'round') wrap.appendChild(el('p', 'pad.one_round', {}, 'pad-target')); // R40
  else wrap.appendChild(el('p', penalties ? 'pad.target_penalty' : 'pad.target', { target }, 'pad-target'));
  const table = document.createElement('table');
  const head = document.createElement('tr');
  head.appendChild(el('th', 'pad.round'));
  for (let s = 0; s < sides; s++) {
    // A pair's two names on lines of their own; three or four sides' names upright, whole.
    const th = document.createElement('th');
    th.className = `pad-side side-${s}`;
    const seats = seatsOf(ruleset, s);
    seats.forEach((seat, i) => {
      const name = playerName(players, seat);
      const span = th.appendChild(lit('span', i < seats.length - 1 ? `${name} &` : name, 'pad-name'));
      span.title = name; // upright and too long: cut short with "…"
    });
    head.appendChild(th);
  }
  const thead = document.createElement('thead');
  thead.appendChild(head);
  table.appendChild(thead);
  const body = document.createElement('tbody');
  const all = [...(results || [])];
  if (current) all.push(current);
  all.forEach((r, i) => {
    const tr = document.createElement('tr');
    if (current && i === all.length - 1) tr.className = 'current';
    tr.appendChild(lit('td', String(i + 1), 'n'));
    for (let s = 0; s < sides; s++) {
      const pts = (r.points || [])[s] || 0;
      const dropped = (r.dropped || [])[s] || 0;
      const td = document.createElement('td');
      if (pts) td.appendChild(lit('span', `+${pts}`, 'pts'));
      else if (dropped) td.appendChild(lit('span', `(${dropped})`, 'dropped'));
      else td.appendChild(lit('span', '·', 'zero'));
      tr.appendChild(td);
    }
    tattr(tr, 'title', `kind.${r.kind}`);
    body.appendChild(tr);
  });
  table.appendChild(body);
  const foot = document.createElement('tfoot');
  const tr = document.createElement('tr');
  tr.appendChild(el('th', 'pad.total'));
  for (let s = 0; s < sides; s++) tr.appendChild(lit('td', String((scores || [])[s] || 0), 'total'));
  foot.appendChild(tr);
  table.appendChild(foot);
  wrap.appendChild(table);
  if (eggs) wrap.appendChild(el('p', 'pad.eggs', { eggs }, 'pad-eggs'));
  return wrap;
}
