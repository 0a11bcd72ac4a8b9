// Random lines of play laid out by web/js/layout.js (evaluated by test_browser_layout.py).
async ({boxes, seeds}) => {
  const { layoutLine, firstIndex } = await import('/static/js/layout.js');
  function rng(seed) { let s = seed; return () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; }; }
  function randomLine(r, n) {
    const set = []; for (let a = 0; a < 7; a++) for (let b = a; b < 7; b++) set.push([a, b]);
    const t0 = set.splice(Math.floor(r() * set.length), 1)[0];
    const line = [[t0[0], t0[1]]]; const events = [{seat: 0, play: `${t0[0]}-${t0[1]}`}];
    while (line.length < n) {
      const L = line[0][0], R = line[line.length - 1][1]; const c = [];
      set.forEach((t, i) => { if (t[0] === L || t[1] === L) c.push([i, 'left']); if (t[0] === R || t[1] === R) c.push([i, 'right']); });
      if (!c.length) break;
      const [i, end] = c[Math.floor(r() * c.length)]; const t = set.splice(i, 1)[0];
      if (end === 'left') line.unshift([t[0] === L ? t[1] : t[0], L]); else line.push([R, t[0] === R ? t[1] : t[0]]);
      events.push({seat: 1, play: `${t[0]}-${t[1]}`, end});
    }
    return {line, events};
  }
  const out = [];
  for (const box of boxes) for (const seed of seeds) {
    const r = rng(seed);
    const {line, events} = randomLine(r, 10 + Math.floor(r() * 19));
    const first = firstIndex(events, line.length);
    out.push({box, seed, line, first, layout: layoutLine(line, first, box)});
  }
  return out;
}
