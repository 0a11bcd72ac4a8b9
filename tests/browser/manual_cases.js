// Random hand-laid lines (R39) laid out by web/js/manual.js (evaluated by test_browser_layout.py):
// each tile turns where the table has room, and now and then a straightening where R39 and
// the room allow it, as the table offers them.
async ({boxes, seeds}) => {
  const { layoutManual } = await import('/static/js/manual.js');
  const { firstIndex } = await import('/static/js/layout.js');
  function rng(seed) { let s = seed; return () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; }; }
  const name = (a, b) => (a <= b ? `${a}-${b}` : `${b}-${a}`);
  const out = [];
  for (const box of boxes) for (const seed of seeds) {
    const r = rng(seed);
    const set = []; for (let a = 0; a < 7; a++) for (let b = a; b < 7; b++) set.push([a, b]);
    const t0 = set.splice(Math.floor(r() * set.length), 1)[0];
    let line = [[t0[0], t0[1]]];
    const events = [{seat: 0, play: name(...t0)}];
    const outward = {left: [name(...t0)], right: [name(...t0)]};
    const bend = new Map();  // the bend at each joint, by the outer tile's name
    let straightened = 0;
    const n = 8 + Math.floor(r() * 18);
    while (line.length < n) {
      const lay = layoutManual(line, events, box);
      // Now and then a straightening, as R39 and the room allow.
      if (r() < 0.25) {
        const arm = r() < 0.5 ? 'left' : 'right';
        const tiles = outward[arm];
        const k = 1 + Math.floor(r() * Math.max(1, tiles.length - 2));
        const at = tiles[k];
        const tail = tiles[k + 1];
        const turn = r() < 0.5 ? 'left' : 'right';
        const q = turn === 'left' ? 1 : -1;
        const double = (t) => t && t.split('-')[0] === t.split('-')[1];
        if (at && tail && !double(at) && !double(tail) && Math.abs((bend.get(tail) || 0) + q) <= 1 && lay.roomToStraighten(at, turn)) {
          events.push({seat: 0, straighten: {at, turn}});
          bend.set(tail, (bend.get(tail) || 0) + q);
          straightened += 1;
          continue;
        }
      }
      // The tiles that fit an end where the table has room for them one way or another.
      const L = line[0][0], R = line[line.length - 1][1]; const c = [];
      const waysFor = (t, end) => {
        const behind = outward[end][outward[end].length - 1];
        const mayTurn = t[0] !== t[1] && behind.split('-')[0] !== behind.split('-')[1];
        return (mayTurn ? [null, 'left', 'right'] : [null]).filter((w) => lay.room(end, w, t[0] === t[1]));
      };
      set.forEach((t, i) => {
        for (const [end, pip] of [['left', L], ['right', R]]) if ((t[0] === pip || t[1] === pip) && waysFor(t, end).length) c.push([i, end]);
      });
      if (!c.length) break;
      const [i, end] = c[Math.floor(r() * c.length)];
      const ways = waysFor(set[i], end);
      const t = set.splice(i, 1)[0];
      const tiles = outward[end];
      const turn = ways[Math.floor(r() * ways.length)];
      const e = {seat: 1, play: name(...t), end};
      if (turn) e.turn = turn;
      events.push(e);
      bend.set(name(...t), turn === 'left' ? 1 : turn === 'right' ? -1 : 0);
      tiles.push(name(...t));
      if (end === 'left') line = [[t[0] === L ? t[1] : t[0], L], ...line]; else line = [...line, [R, t[0] === R ? t[1] : t[0]]];
    }
    out.push({box, seed, line, events, straightened, first: firstIndex(events, line.length), layout: layoutManual(line, events, box)});
  }
  return out;
}
