// The elements of the selectors that are off screen, covered, or cut short with "…"
// (evaluated by browser_helpers.hidden_parts).
(selectors) => {
  // Each element's centre and inner corners must be on screen and show the element itself.
  const out = [];
  for (const sel of selectors) {
    const found = document.querySelectorAll(sel);
    if (!found.length) out.push(`${sel}: none`);
    for (const el of found) {
      const r = el.getBoundingClientRect();
      const inset = Math.min(3, r.width / 3, r.height / 3);
      const points = [[r.x + r.width / 2, r.y + r.height / 2], [r.left + inset, r.top + inset],
        [r.right - inset, r.top + inset], [r.left + inset, r.bottom - inset], [r.right - inset, r.bottom - inset]];
      for (const [x, y] of points) {
        const top = x >= 0 && y >= 0 && x < innerWidth && y < innerHeight ? document.elementFromPoint(x, y) : null;
        if (!top || !(el === top || el.contains(top) || top.contains(el) && top !== document.body)) {
          out.push(`${sel} at ${Math.round(x)},${Math.round(y)}: ${top ? top.outerHTML.slice(0, 80) : 'off screen'}`);
          break;
        }
      }
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).textOverflow === 'ellipsis') {
        out.push(`${sel}: cut short (${el.textContent})`);
      }
    }
  }
  return out;
}
