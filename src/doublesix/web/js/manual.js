// The hand-laid line (R39) — a pure module: no DOM, no I/O.
//
// With `line: manual` the players choose the line's way: each tile after the
// first goes straight on, turns left or turns right from the end it extends
// (seen in the direction that end runs), and a player may straighten the line
// in his turn, rotating the tail beyond a tile a quarter turn. The record and
// the view keep both in the events (a play's `turn`, a `straighten` event), so
// the drawing follows from them alone: at each joint of an arm the line bends
// by the tile's own turn plus every straightening at the tile before it, and a
// tile's heading is its arm's first heading with every bend before it.
//
// Geometry is layout.js's: units where a tile is 2 × 1, a double crosswise,
// a turn a perpendicular joint. The table is a box of about TABLE_AREA square
// units shaped like the felt, the first tile at its centre. Room on it is the
// client's to judge (the engine decides only what is legal): `room` says
// whether a tile laid at an end, straight or turning, stays on the table and
// clear of the others; `roomToStraighten` the same for a rotated tail.
import { DIR, firstIndex, orientOf, overlaps, pipsOf, place, rectOf } from './layout.js';

const EPS = 1e-6;
const TABLE_AREA = 448; // square units: 28 × 16 on a felt of that shape
const MAX_UNIT = 46;
const LEFT_OF = { E: 'N', N: 'W', W: 'S', S: 'E' };
const RIGHT_OF = { E: 'S', S: 'W', W: 'N', N: 'E' };
const QUARTER = { left: 1, right: -1 };

function turned(dir, quarters) {
  let d = dir;
  for (let i = 0; i < Math.abs(quarters); i++) d = quarters > 0 ? LEFT_OF[d] : RIGHT_OF[d];
  return d;
}

const nameOf = (a, b) => (a <= b ? `${a}-${b}` : `${b}-${a}`);

/**
 * The two arms of `line` (as laid from the first tile outwards) with the bend at each
 * joint: [{side, tiles: [{index, entry, exit, double, bend}]}] for 'right' and 'left'.
 */
export function armsOf(line, events) {
  const first = firstIndex(events, line.length);
  const turns = new Map();
  const straightened = new Map();
  for (const e of events || []) {
    if (e.play !== undefined && e.turn) turns.set(nameOf(...e.play.split('-').map(Number)), QUARTER[e.turn] || 0);
    if (e.straighten && e.straighten.at) {
      const at = nameOf(...e.straighten.at.split('-').map(Number));
      straightened.set(at, (straightened.get(at) || 0) + (QUARTER[e.straighten.turn] || 0));
    }
  }
  const arm = (side, indices) => {
    const tiles = [];
    let before = nameOf(...line[first]);
    for (const index of indices) {
      const [l, r] = line[index];
      const [entry, exit] = side === 'right' ? [l, r] : [r, l];
      const name = nameOf(l, r);
      const bend = (turns.get(name) || 0) + (straightened.get(before) || 0);
      tiles.push({ index, entry, exit, double: l === r, bend });
      before = name;
    }
    return { side, tiles };
  };
  const right = [];
  for (let i = first + 1; i < line.length; i++) right.push(i);
  const left = [];
  for (let i = first - 1; i >= 0; i--) left.push(i);
  return { first, arms: [arm('right', right), arm('left', left)] };
}

/** Lay one arm from its start ({p, dir}); each tile turns by its bend. */
function layArm(arm, start) {
  const placed = [];
  let p = start.p;
  let dir = start.dir;
  for (const t of arm.tiles) {
    const bend = t.double ? 0 : Math.max(-1, Math.min(1, t.bend));
    const pl = place(p, dir, t.double, bend ? turned(dir, bend) : null);
    placed.push({ rect: pl.rect, travel: pl.travel, entry: t.entry, exit: t.exit, double: t.double, turn: Boolean(bend), index: t.index });
    p = pl.end;
    dir = pl.dir;
  }
  return { placed, end: { p, dir } };
}

/** The table in units for a box of `width` × `height` pixels: {unit, w, h}. */
export function tableOf(width, height) {
  const aspect = Math.max(0.2, width / Math.max(1, height));
  const w = Math.sqrt(TABLE_AREA * aspect);
  const h = TABLE_AREA / w;
  return { unit: Math.min(MAX_UNIT, width / w), w, h };
}

function inside(r, table) {
  return r.x0 >= -EPS && r.y0 >= -EPS && r.x1 <= table.w + EPS && r.y1 <= table.h + EPS;
}

function clear(r, rects) {
  for (const q of rects) if (overlaps(r, q)) return false;
  return true;
}

/**
 * Lay out a hand-laid `line` (a list of [left pip, right pip], left end first) from the
 * round's `events` in a box {width, height} of pixels. Returns what layoutLine returns
 * ({unit, tiles, ends, center}) and, for the table's choices, `room(end, turn, double)`
 * and `roomToStraighten(at, turn)` (each true when the result stays on the table and
 * clear of the other tiles) and `ghost(end, turn, double)`, where such a tile would lie.
 */
export function layoutManual(line, events, box) {
  const width = Math.max(1, box.width);
  const height = Math.max(1, box.height);
  const table = tableOf(width, height);
  const cx = table.w / 2;
  const cy = table.h / 2;
  const empty = { unit: table.unit, tiles: [], ends: { left: null, right: null }, center: { x: width / 2, y: height / 2 } };
  if (!line || !line.length) return { ...empty, room: () => true, roomToStraighten: () => false, ghost: () => null };
  const { first, arms } = armsOf(line, events);
  const [fa, fb] = line[first];
  const firstDouble = fa === fb;
  const firstRect = firstDouble ? rectOf(cx, cy, 1, 2, 'E') : rectOf(cx, cy, 2, 1, 'E');
  const half = firstDouble ? 0.5 : 1;
  const starts = { right: { p: [cx + half, cy], dir: 'E' }, left: { p: [cx - half, cy], dir: 'W' } };
  const laid = {};
  for (const arm of arms) laid[arm.side] = layArm(arm, starts[arm.side]);
  const firstPlaced = { rect: firstRect, travel: 'E', entry: fa, exit: fb, double: firstDouble, turn: false, index: first };
  const all = [firstPlaced, ...laid.right.placed, ...laid.left.placed];
  const rects = all.map((p) => p.rect);

  // Scale: the table's unit, smaller only when the line has left the table (never by choice).
  let x0 = 0;
  let y0 = 0;
  let x1 = table.w;
  let y1 = table.h;
  for (const r of rects) {
    x0 = Math.min(x0, r.x0);
    y0 = Math.min(y0, r.y0);
    x1 = Math.max(x1, r.x1);
    y1 = Math.max(y1, r.y1);
  }
  const unit = Math.min(table.unit, width / (x1 - x0), height / (y1 - y0));
  const ox = (width - (x1 - x0) * unit) / 2 - x0 * unit;
  const oy = (height - (y1 - y0) * unit) / 2 - y0 * unit;
  const px = (r) => ({ x: ox + r.x0 * unit, y: oy + r.y0 * unit, w: (r.x1 - r.x0) * unit, h: (r.y1 - r.y0) * unit });
  const tiles = all
    .map((p) => ({ index: p.index, ...px(p.rect), orient: orientOf(p), pips: pipsOf(p), double: p.double, turn: p.turn }))
    .sort((a, b) => a.index - b.index);
  const endPoint = (end) => {
    const d = DIR[end.dir];
    return { x: ox + (end.p[0] + d[0] * 0.5) * unit, y: oy + (end.p[1] + d[1] * 0.5) * unit, dir: end.dir };
  };

  const candidate = (end, turn, double) => {
    const e = laid[end].end;
    const q = turn ? QUARTER[turn] : 0;
    return place(e.p, e.dir, double, q ? turned(e.dir, q) : null);
  };
  const room = (end, turn = null, double = false) => {
    const r = candidate(end, turn, double).rect;
    return inside(r, table) && clear(r, rects);
  };
  /** Where the tile would lie (pixels), and the centre of its far half (where to click). */
  const ghost = (end, turn = null, double = false) => {
    const pl = candidate(end, turn, double);
    const d = DIR[pl.dir];
    const far = { x: ox + (pl.end[0] - d[0] * 0.5) * unit, y: oy + (pl.end[1] - d[1] * 0.5) * unit };
    return { ...px(pl.rect), far };
  };
  const roomToStraighten = (at, turn) => {
    const name = String(at);
    for (const arm of arms) {
      const k = arm.tiles.findIndex((t) => nameOf(...line[t.index]) === name);
      if (k < 0 || k + 1 >= arm.tiles.length) continue;
      const bent = { ...arm, tiles: arm.tiles.map((t, i) => (i === k + 1 ? { ...t, bend: t.bend + QUARTER[turn] } : t)) };
      const again = layArm(bent, starts[arm.side]);
      // The tail keeps its shape: it must only stay on the table and clear of the rest.
      const other = laid[arm.side === 'right' ? 'left' : 'right'].placed;
      const rest = [firstRect, ...other.map((p) => p.rect), ...again.placed.slice(0, k + 1).map((p) => p.rect)];
      return again.placed.slice(k + 1).every((p) => inside(p.rect, table) && clear(p.rect, rest));
    }
    return false;
  };
  return {
    unit,
    tiles,
    ends: { left: endPoint(laid.left.end), right: endPoint(laid.right.end) },
    center: { x: ox + cx * unit, y: oy + cy * unit },
    room,
    ghost,
    roomToStraighten,
  };
}
