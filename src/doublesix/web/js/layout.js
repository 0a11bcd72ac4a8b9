// The line on the table as a snake (docs/rules.md, R38) — a pure module: no DOM, no I/O.
//
// The line is laid out from its first tile outwards. The right arm (tiles
// played at the right end) runs east from the first tile, turns down at the
// table's edge and goes back west one row lower, turns down again, and so
// on; the left arm mirrors it upwards. The two arms live in opposite halves
// of the table, and each arm walks its rows away from the tiles it has
// already laid, so an open end always faces free felt: it is never enclosed.
//
// Geometry is in "units": a tile is 2 × 1 units, a double lies crosswise
// (1 along the line, 2 across) and never turns the line; the tile after a
// double goes straight on. A turn is a perpendicular joint: the turning
// tile's first half sits right behind the end it joins. Two turns in a row
// make a U-turn to the next row, two units further on.
//
// The arms are found by a small depth-first search (straight on while
// there is room, turn at the edge, back up when a double or a crossing
// leaves no way on), for the largest tile size that fits the box. The line
// is laid out again from scratch after every move, so the drawing never
// depends on earlier layouts.

export const DIR = { E: [1, 0], W: [-1, 0], S: [0, 1], N: [0, -1] };
const OPPOSITE = { E: 'W', W: 'E', S: 'N', N: 'S' };
export const HORIZONTAL = { E: true, W: true, S: false, N: false };
const EPS = 1e-6;
const MARGIN = 0.3; // units kept free along the table's edge
const NODE_BUDGET = 6000;

/** The index in `line` of the round's first tile: one per tile played at the left end. */
export function firstIndex(events, lineLength) {
  let left = 0;
  let plays = 0;
  for (const e of events || []) {
    if (e && e.play !== undefined) {
      plays += 1;
      if (plays > 1 && e.end === 'left') left += 1;
    }
  }
  if (!plays) return Math.floor(Math.max(0, lineLength - 1) / 2);
  return Math.min(left, Math.max(0, lineLength - 1));
}

export function rectOf(cx, cy, along, across, dir) {
  const horizontal = HORIZONTAL[dir];
  const w = horizontal ? along : across;
  const h = horizontal ? across : along;
  return { x0: cx - w / 2, y0: cy - h / 2, x1: cx + w / 2, y1: cy + h / 2 };
}

export function overlaps(a, b) {
  return a.x0 < b.x1 - EPS && b.x0 < a.x1 - EPS && a.y0 < b.y1 - EPS && b.y0 < a.y1 - EPS;
}

/** One placement of a tile at an end heading `dir` from point `p` (turning to `turnTo`). */
export function place(p, dir, double, turnTo) {
  const d = DIR[dir];
  if (turnTo) {
    // Perpendicular joint: the first half sits right behind the end, then the tile runs on.
    const t = DIR[turnTo];
    const ex = p[0] + d[0] * 0.5;
    const ey = p[1] + d[1] * 0.5;
    const cx = ex + t[0] * 0.5;
    const cy = ey + t[1] * 0.5;
    return {
      rect: rectOf(cx, cy, 2, 1, turnTo),
      travel: turnTo,
      end: [ex + t[0] * 1.5, ey + t[1] * 1.5],
      dir: turnTo,
    };
  }
  const len = double ? 1 : 2;
  const cx = p[0] + d[0] * len / 2;
  const cy = p[1] + d[1] * len / 2;
  return {
    rect: rectOf(cx, cy, len, double ? 2 : 1, dir),
    travel: dir,
    end: [p[0] + d[0] * len, p[1] + d[1] * len],
    dir,
  };
}

/** Lay one arm: `tiles` are [entry pip, exit pip] in order, outwards from the first tile. */
function layArm(tiles, start, fixed, bounds, vertical) {
  // state per depth: {p, dir, lastHoriz, afterDouble}
  const placed = [];
  let nodes = 0;
  const inBounds = (r) =>
    r.x0 >= bounds.x0 - EPS && r.x1 <= bounds.x1 + EPS && r.y0 >= bounds.y0 - EPS && r.y1 <= bounds.y1 + EPS;
  const free = (r) => {
    if (!inBounds(r)) return false;
    for (const f of fixed) if (overlaps(r, f)) return false;
    for (const q of placed) if (overlaps(r, q.rect)) return false;
    return true;
  };
  const options = (state, double) => {
    const turn = HORIZONTAL[state.dir] ? vertical : OPPOSITE[state.lastHoriz];
    if (double || state.afterDouble) return [null];
    return HORIZONTAL[state.dir] ? [null, turn] : [turn, null];
  };
  // An end is open when a plain tile can still be laid there.
  const endOpen = (state) => {
    for (const turn of options(state, false)) {
      if (free(place(state.p, state.dir, false, turn).rect)) return true;
    }
    return false;
  };
  const next = (state, pl, double) => ({
    p: pl.end,
    dir: pl.dir,
    lastHoriz: HORIZONTAL[pl.dir] ? pl.dir : state.lastHoriz,
    afterDouble: double,
  });
  const dfs = (k, state) => {
    if (++nodes > NODE_BUDGET) return null;
    if (k === tiles.length) return endOpen(state) ? state : null;
    const [a, b] = tiles[k];
    const double = a === b;
    for (const turn of options(state, double)) {
      const pl = place(state.p, state.dir, double, turn);
      if (!free(pl.rect)) continue;
      placed.push({ rect: pl.rect, travel: pl.travel, entry: a, exit: b, double, turn: !!turn });
      const end = dfs(k + 1, next(state, pl, double));
      if (end) return end;
      placed.pop();
      if (nodes > NODE_BUDGET) return null;
    }
    return null;
  };
  const end = dfs(0, start);
  return end ? { placed, end } : null;
}

function tryLayout(line, first, wu, hu, cyFraction) {
  const bounds = { x0: MARGIN, y0: MARGIN, x1: wu - MARGIN, y1: hu - MARGIN };
  const cx = wu / 2;
  const cy = hu * cyFraction;
  const [fa, fb] = line[first];
  const firstDouble = fa === fb;
  const firstRect = firstDouble ? rectOf(cx, cy, 1, 2, 'E') : rectOf(cx, cy, 2, 1, 'E');
  if (firstRect.x0 < bounds.x0 || firstRect.x1 > bounds.x1 || firstRect.y0 < bounds.y0 || firstRect.y1 > bounds.y1) {
    return null;
  }
  const half = firstDouble ? 0.5 : 1;
  const rightTiles = line.slice(first + 1).map(([l, r]) => [l, r]);
  const leftTiles = line.slice(0, first).reverse().map(([l, r]) => [r, l]);
  // Lay the longer arm first: it needs the room more.
  const arms = [
    { side: 'right', tiles: rightTiles, start: { p: [cx + half, cy], dir: 'E', lastHoriz: 'E', afterDouble: firstDouble }, vertical: 'S' },
    { side: 'left', tiles: leftTiles, start: { p: [cx - half, cy], dir: 'W', lastHoriz: 'W', afterDouble: firstDouble }, vertical: 'N' },
  ];
  if (leftTiles.length > rightTiles.length) arms.reverse();
  const fixed = [firstRect];
  const result = { first: { rect: firstRect, travel: 'E', entry: fa, exit: fb, double: firstDouble, turn: false } };
  for (const arm of arms) {
    const laid = layArm(arm.tiles, arm.start, fixed, bounds, arm.vertical);
    if (!laid) return null;
    for (const p of laid.placed) fixed.push(p.rect);
    result[arm.side] = laid;
  }
  return result;
}

export function pipsOf(p) {
  // [west, east] for a horizontal tile, [top, bottom] for a vertical one.
  if (p.double) return [p.entry, p.exit];
  switch (p.travel) {
    case 'E':
    case 'S':
      return [p.entry, p.exit];
    default:
      return [p.exit, p.entry];
  }
}

export function orientOf(p) {
  const along = HORIZONTAL[p.travel] ? 'h' : 'v';
  if (!p.double) return along;
  return along === 'h' ? 'v' : 'h';
}

/**
 * Lay out `line` (a list of [left pip, right pip], left end first) in a box.
 *
 * `first` is the index of the round's first tile (see `firstIndex`).
 * `box` is {width, height} in pixels; `opts.maxUnit` caps the size of half a
 * tile in pixels. Returns {unit, tiles, ends}: each tile has its index in
 * `line`, its rectangle {x, y, w, h} in pixels, `orient` ('h' or 'v'),
 * `pips` ([west, east] or [top, bottom]) and `double`; `ends.left` and
 * `ends.right` are {x, y, dir} where a tile played there would go (its
 * first half's centre), or null for an empty line.
 */
export function layoutLine(line, first, box, opts = {}) {
  const width = Math.max(1, box.width);
  const height = Math.max(1, box.height);
  const maxUnit = opts.maxUnit || Math.max(6, Math.min(width / 13, height / 6.5, 46));
  if (!line || line.length === 0) {
    return { unit: maxUnit, tiles: [], ends: { left: null, right: null }, center: { x: width / 2, y: height / 2 } };
  }
  if (first < 0 || first >= line.length) first = Math.floor((line.length - 1) / 2);
  const minUnit = Math.min(maxUnit, Math.max(2, Math.min(width, height) / 60));
  const fractions = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8];
  let unit = maxUnit;
  let found = null;
  for (; unit >= minUnit - EPS; unit *= 0.93) {
    const wu = width / unit;
    const hu = height / unit;
    for (const f of fractions) {
      found = tryLayout(line, first, wu, hu, f);
      if (found) break;
    }
    if (found) break;
  }
  if (!found) {
    // Should not happen for a double-six line; fall back to a plain row so nothing is lost.
    unit = Math.min(width / (line.length * 2 + 2), height / 4);
    const tiles = line.map(([a, b], i) => ({
      index: i, x: unit * (1 + 2 * i), y: height / 2 - unit / 2, w: unit * 2, h: unit,
      orient: 'h', pips: [a, b], double: a === b, turn: false,
    }));
    return {
      unit, tiles, fallback: true,
      ends: {
        left: { x: unit * 0.5, y: height / 2, dir: 'W' },
        right: { x: unit * (line.length * 2 + 1.5), y: height / 2, dir: 'E' },
      },
      center: { x: width / 2, y: height / 2 },
    };
  }
  const toPx = (p, index) => ({
    index,
    x: p.rect.x0 * unit,
    y: p.rect.y0 * unit,
    w: (p.rect.x1 - p.rect.x0) * unit,
    h: (p.rect.y1 - p.rect.y0) * unit,
    orient: orientOf(p),
    pips: pipsOf(p),
    double: p.double,
    turn: p.turn,
  });
  const tiles = [toPx(found.first, first)];
  found.right.placed.forEach((p, k) => tiles.push(toPx(p, first + 1 + k)));
  found.left.placed.forEach((p, k) => tiles.push(toPx(p, first - 1 - k)));
  tiles.sort((a, b) => a.index - b.index);
  const endPoint = (laid) => {
    const d = DIR[laid.end.dir];
    return { x: (laid.end.p[0] + d[0] * 0.5) * unit, y: (laid.end.p[1] + d[1] * 0.5) * unit, dir: laid.end.dir };
  };
  return {
    unit,
    tiles,
    ends: { left: endPoint(found.left), right: endPoint(found.right) },
    center: { x: width / 2, y: height / 2 },
  };
}
