// Tiles as SVG: faces with pips drawn as dots, and backs.

export const SVG_NS = 'http://www.w3.org/2000/svg';

// Pip centres in a unit square (0..1), per number of pips.
const PIPS = {
  0: [],
  1: [[0.5, 0.5]],
  2: [[0.27, 0.27], [0.73, 0.73]],
  3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
  6: [[0.27, 0.22], [0.73, 0.22], [0.27, 0.5], [0.73, 0.5], [0.27, 0.78], [0.73, 0.78]],
};

export function svgEl(name, attrs = {}, parent = null) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (parent) parent.appendChild(el);
  return el;
}

/** "2-5" → [2, 5]; accepts "5-2" and "5|2" (R1). */
export function parseTile(text) {
  const m = /^\s*([0-6])\s*[-|]\s*([0-6])\s*$/.exec(String(text));
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return a <= b ? [a, b] : [b, a];
}

export function tileName(a, b) {
  return a <= b ? `${a}-${b}` : `${b}-${a}`;
}

function drawPips(g, n, x, y, size, cls, swap) {
  // A six shows its two rows of three along the tile's long side.
  for (const [qx, qy] of PIPS[n] || []) {
    const [px, py] = swap ? [qy, qx] : [qx, qy];
    svgEl('circle', { cx: x + px * size, cy: y + py * size, r: size * 0.085, class: cls }, g);
  }
}

/**
 * Draw a tile face into `g`: a rectangle at (x, y) of w × h; `orient` 'h'
 * puts pips[0] west and pips[1] east, 'v' puts pips[0] on top.
 */
export function drawFace(g, x, y, w, h, orient, pips, extraClass = '') {
  const gap = Math.min(w, h) * 0.035;
  const gx = x + gap;
  const gy = y + gap;
  const gw = w - 2 * gap;
  const gh = h - 2 * gap;
  const r = Math.min(gw, gh) * 0.14;
  const tile = svgEl('g', { class: `tile face ${extraClass}`.trim() }, g);
  svgEl('rect', { x: gx + gw * 0.02, y: gy + gh * 0.05, width: gw, height: gh, rx: r, class: 'tile-shadow' }, tile);
  svgEl('rect', { x: gx, y: gy, width: gw, height: gh, rx: r, class: 'tile-body' }, tile);
  if (orient === 'h') {
    const s = gh;
    svgEl('line', { x1: gx + gw / 2, y1: gy + s * 0.14, x2: gx + gw / 2, y2: gy + s * 0.86, class: 'tile-bar' }, tile);
    svgEl('circle', { cx: gx + gw / 2, cy: gy + gh / 2, r: s * 0.05, class: 'tile-rivet' }, tile);
    drawPips(tile, pips[0], gx + (gw / 2 - s) / 2, gy, s, 'pip', true);
    drawPips(tile, pips[1], gx + gw / 2 + (gw / 2 - s) / 2, gy, s, 'pip', true);
  } else {
    const s = gw;
    svgEl('line', { x1: gx + s * 0.14, y1: gy + gh / 2, x2: gx + s * 0.86, y2: gy + gh / 2, class: 'tile-bar' }, tile);
    svgEl('circle', { cx: gx + gw / 2, cy: gy + gh / 2, r: s * 0.05, class: 'tile-rivet' }, tile);
    drawPips(tile, pips[0], gx, gy + (gh / 2 - s) / 2, s, 'pip');
    drawPips(tile, pips[1], gx, gy + gh / 2 + (gh / 2 - s) / 2, s, 'pip');
  }
  return tile;
}

export function drawBack(g, x, y, w, h, extraClass = '') {
  const gap = Math.min(w, h) * 0.04;
  const tile = svgEl('g', { class: `tile back ${extraClass}`.trim() }, g);
  const r = Math.min(w, h) * 0.14;
  svgEl('rect', { x: x + gap, y: y + gap, width: w - 2 * gap, height: h - 2 * gap, rx: r, class: 'back-body' }, tile);
  const inset = Math.min(w, h) * 0.18;
  svgEl('rect', {
    x: x + inset, y: y + inset, width: w - 2 * inset, height: h - 2 * inset, rx: r * 0.6, class: 'back-inlay',
  }, tile);
  return tile;
}

/** A standalone SVG of one tile (for hands, lists and the replay viewer). */
export function tileSVG(text, { orient = 'v', size = 28, back = false, cls = '' } = {}) {
  const t = parseTile(text) || [0, 0];
  const w = orient === 'h' ? size * 2 : size;
  const h = orient === 'h' ? size : size * 2;
  const svg = svgEl('svg', { viewBox: `0 0 ${w} ${h}`, width: w, height: h, class: `tile-svg ${cls}`.trim() });
  svg.setAttribute('aria-hidden', 'true');
  if (back) drawBack(svg, 0, 0, w, h);
  else drawFace(svg, 0, 0, w, h, orient, t);
  return svg;
}
