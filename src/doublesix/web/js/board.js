// The line on the felt: lays it out (layout.js) and draws it as SVG tiles.
import { firstIndex, layoutLine } from './layout.js';
import { drawFace, svgEl, tileName } from './tiles.js';

/**
 * Draw `line` into `svg` (sized to its box, or to `opts.box` {width, height}).
 * `opts.events` gives the round's events (to find the first tile; or
 * `opts.first`, its index in `line`), `opts.fresh` maps tile names to an
 * animation {dx, dy, delay}, `opts.targets` lists the ends to mark with a
 * circle ('left', 'right' or null for the opening tile), `opts.onTarget`
 * is called with the end a circle stands for; `opts.marks` lists the open ends to
 * mark quietly (where a tile could go next).
 */
export function drawLine(svg, line, opts = {}) {
  const box = opts.box || svg.getBoundingClientRect();
  const width = Math.max(40, box.width);
  const height = Math.max(40, box.height);
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const first = opts.first ?? firstIndex(opts.events || [], line.length);
  const lay = layoutLine(line, first, { width, height }, opts.maxUnit ? { maxUnit: opts.maxUnit } : {});
  const g = svgEl('g', { class: 'line' }, svg);
  for (const tile of lay.tiles) {
    const [a, b] = line[tile.index];
    const name = tileName(a, b);
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
  }
  const targets = opts.targets || [];
  const r = lay.unit * 0.62;
  // The open ends, marked while the round is played, before any tile is lifted.
  for (const end of opts.marks || []) {
    const p = line.length ? lay.ends[end] : null;
    if (!p || targets.includes(end)) continue;
    svgEl('circle', { cx: p.x, cy: p.y, r: r * 0.8, class: `end-mark end-mark-${end}`, 'data-end': end }, svg);
  }
  for (const end of targets) {
    let p;
    if (end === null || end === undefined || !line.length) p = { x: width / 2, y: height / 2 };
    else p = lay.ends[end];
    if (!p) continue;
    const c = svgEl('g', { class: `target target-${end || 'open'}`, 'data-end': end || 'open', role: 'button', tabindex: '-1' }, svg);
    svgEl('circle', { cx: p.x, cy: p.y, r: r * 1.6, class: 'target-hit' }, c);
    svgEl('circle', { cx: p.x, cy: p.y, r, class: 'target-ring' }, c);
    if (opts.chosen !== undefined && opts.chosen === end) c.classList.add('chosen');
    if (opts.onTarget) {
      c.addEventListener('click', (ev) => {
        ev.stopPropagation();
        opts.onTarget(end);
      });
    }
  }
  return lay;
}
