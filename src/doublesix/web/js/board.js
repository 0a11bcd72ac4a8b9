// The line on the felt: lays it out (layout.js's snake, or manual.js for a hand-laid line)
// and draws it as SVG tiles, with the circles where a lifted tile may go.
import { firstIndex, layoutLine } from './layout.js';
import { layoutManual } from './manual.js';
import { drawFace, svgEl, tileName } from './tiles.js';

/** A choice for the lifted tile: an end ('left', 'right', null to open) and, by hand, a turn. */
function choiceOf(t) {
  return t !== null && typeof t === 'object' ? { end: t.end ?? null, turn: t.turn ?? null, double: Boolean(t.double) } : { end: t ?? null, turn: null, double: false };
}

// A quarter-turn arrow in a 24 × 24 box, anticlockwise (mirrored for clockwise).
const ARROW = 'M7 6a8 8 0 1 1-2.5 9.5M7 6v5H2';

/**
 * Draw `line` into `svg` (sized to its box, or to `opts.box` {width, height}).
 * `opts.events` gives the round's events (to find the first tile; or
 * `opts.first`, its index in `line`; a hand-laid line, `opts.manual`, takes its turns
 * and straightenings from them), `opts.fresh` maps tile names to an animation
 * {dx, dy, delay}. `opts.targets` lists the choices to mark with a circle — ends
 * ('left', 'right' or null for the opening tile) or {end, turn, double} on a hand-laid
 * line, where the tile's place is shown too — or is a function of the layout giving
 * them; `opts.onTarget(end, turn)` is called for the circle clicked. `opts.marks` lists
 * the open ends to mark quietly (where a tile could go next). On a hand-laid line,
 * `opts.bends` (a Map of tile name → turns, or a function of the layout giving one)
 * makes those tiles clickable (`opts.onBend(name)`), and `opts.bending` (a tile name)
 * shows its straightening arrows (`opts.onStraighten(name, turn)`).
 */
export function drawLine(svg, line, opts = {}) {
  const box = opts.box || svg.getBoundingClientRect();
  const width = Math.max(40, box.width);
  const height = Math.max(40, box.height);
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const lay = opts.manual
    ? layoutManual(line, opts.events || [], { width, height })
    : layoutLine(line, opts.first ?? firstIndex(opts.events || [], line.length), { width, height }, opts.maxUnit ? { maxUnit: opts.maxUnit } : {});
  const bends = (typeof opts.bends === 'function' ? opts.bends(lay) : opts.bends) || new Map();
  const g = svgEl('g', { class: 'line' }, svg);
  const placed = new Map();
  for (const tile of lay.tiles) {
    const [a, b] = line[tile.index];
    const name = tileName(a, b);
    placed.set(name, tile);
    const holder = svgEl('g', { class: 'line-tile', 'data-tile': name, 'data-index': tile.index }, g);
    drawFace(holder, tile.x, tile.y, tile.w, tile.h, tile.orient, tile.pips);
    const fresh = opts.fresh && opts.fresh.get(name);
    if (fresh) {
      holder.classList.add('fresh');
      holder.style.setProperty('--dx', `${fresh.dx}px`);
      holder.style.setProperty('--dy', `${fresh.dy}px`);
      holder.style.animationDelay = `${fresh.delay || 0}ms`;
    }
    if (opts.highlight && opts.highlight.has(name)) holder.classList.add('highlight');
    if (bends.has(name) && opts.onBend) {
      holder.classList.add('bendable');
      if (opts.bending === name) holder.classList.add('bending');
      holder.addEventListener('click', (ev) => {
        ev.stopPropagation();
        opts.onBend(name);
      });
    }
  }
  const targets = (typeof opts.targets === 'function' ? opts.targets(lay) : opts.targets || []).map(choiceOf);
  const r = lay.unit * 0.62;
  // The open ends, marked while the round is played, before any tile is lifted.
  for (const end of opts.marks || []) {
    const p = line.length ? lay.ends[end] : null;
    if (!p || targets.some((t) => t.end === end)) continue;
    svgEl('circle', { cx: p.x, cy: p.y, r: r * 0.8, class: `end-mark end-mark-${end}`, 'data-end': end }, svg);
  }
  for (const t of targets) {
    let p;
    const c = svgEl('g', { class: `target target-${t.end || 'open'}`, 'data-end': t.end || 'open', role: 'button', tabindex: '-1' }, svg);
    if (t.end === null || !line.length) p = { x: width / 2, y: height / 2 };
    else if (opts.manual) {
      // By hand: the tile's place, dashed, and the circle on its far half.
      const ghost = lay.ghost(t.end, t.turn, t.double);
      c.dataset.turn = t.turn || 'straight';
      svgEl('rect', { x: ghost.x + 2, y: ghost.y + 2, width: ghost.w - 4, height: ghost.h - 4, rx: lay.unit * 0.14, class: 'target-ghost' }, c);
      p = ghost.far;
    } else p = lay.ends[t.end];
    if (!p) {
      c.remove();
      continue;
    }
    svgEl('circle', { cx: p.x, cy: p.y, r: r * 1.6, class: 'target-hit' }, c);
    svgEl('circle', { cx: p.x, cy: p.y, r, class: 'target-ring' }, c);
    if (opts.chosen !== undefined && opts.chosen === t.end && !t.turn) c.classList.add('chosen');
    if (opts.onTarget) {
      c.addEventListener('click', (ev) => {
        ev.stopPropagation();
        opts.onTarget(t.end, t.turn);
      });
    }
  }
  const bent = opts.bending && placed.get(opts.bending);
  if (bent && opts.onStraighten) {
    // Two arrows beside the tile: rotate the tail beyond it a quarter left or right.
    for (const turn of bends.get(opts.bending) || []) {
      const cx = bent.x + bent.w / 2 + (turn === 'left' ? -1 : 1) * (Math.max(bent.w, bent.h) / 2 + r);
      const cy = bent.y + bent.h / 2;
      const b = svgEl('g', { class: `straighten straighten-${turn}`, 'data-turn': turn, role: 'button', tabindex: '-1' }, svg);
      svgEl('circle', { cx, cy, r: r * 1.1, class: 'straighten-disc' }, b);
      const scale = (r * 1.5) / 24;
      const mirror = turn === 'right' ? -1 : 1;
      svgEl('path', { d: ARROW, class: 'straighten-arrow', transform: `translate(${cx} ${cy}) scale(${mirror * scale} ${scale}) translate(-12 -12)` }, b);
      b.addEventListener('click', (ev) => {
        ev.stopPropagation();
        opts.onStraighten(opts.bending, turn);
      });
    }
  }
  return lay;
}
