// The rules page: /rules/{lang}/{preset}. The texts are in web/rules/{de,fr,en}.json; which
// sections a preset shows follows from its settings (GET /api/presets), so that a page
// always says what the table plays: the goal and the target from its scoring, the opener
// from its opener, drawing or knocking from its boneyard.
import { get } from './api.js';
import { drawLine } from './board.js';
import { clear, setRulesPreset, startPage } from './common.js';
import { el, initI18n, LANGUAGES, lit, onLanguage, t, tx } from './i18n.js';
import { startNotices } from './notices.js';
import { SVG_NS, tileSVG } from './tiles.js';

const VOG = ['vog-talon', 'vog-block', 'vog-goat', 'international', 'international-2'];
const winnerScores = (r) => r.scoring === 'winner_takes' || r.scoring === 'winner_takes_all';
const all = () => true;

/**
 * Each section of rules/{lang}.json in reading order: when a preset shows it (from its
 * settings `r` and its name `p`), the rules of docs/rules.md it states, and its picture.
 */
const SECTIONS = [
  ['goal', (r) => winnerScores(r), ['R22', 'R23', 'R30']],
  ['goal_goat', (r) => r.scoring === 'goat', ['R22', 'R23', 'R28', 'R30']],
  ['kozel_goal', (r) => r.scoring === 'kozel', ['R33', 'R37']],
  ['set', all, ['R1']],
  ['values', all, ['R2', 'R3']],
  ['deal_draw', (r, p) => p === 'draw', ['R12']],
  ['deal_block', (r, p) => p === 'block', ['R12']],
  ['deal_kozel', (r, p) => p === 'kozel', ['R12', 'R6']],
  ['deal_vog', (r, p) => VOG.includes(p), ['R14']],
  ['deal_classic', (r, p) => p === 'classic', ['R12']],
  ['deal_classic_block', (r, p) => p === 'classic-block', ['R41']],
  ['kozel_redeal', (r) => r.redeal, ['R13']],
  ['opener_highest_double', (r) => r.opener === 'highest_double', ['R16', 'R17']],
  ['opener_kozel', (r) => r.opener === 'kozel', ['R18']],
  ['opener_lowest_double', (r) => r.opener === 'lowest_double', ['R19']],
  ['opener_highest_tile', (r) => r.opener === 'highest_tile', ['R20']],
  ['opener_draw_for_lead', (r) => r.opener === 'draw_for_lead', ['R21']],
  ['play', all, ['R5', 'R6', 'R7', 'R8']],
  ['doubles', all, ['R4', 'R5'], 'crosswise'],
  ['at_the_table', all, []],
  ['layout', (r) => r.line !== 'manual', ['R38']],
  ['layout_manual', (r) => r.line === 'manual', ['R39']],
  ['stuck_draw', (r) => r.boneyard, ['R9']],
  ['draw_options', (r) => r.boneyard, ['R11']],
  ['stuck_block', (r) => !r.boneyard, ['R10']],
  ['end', (r) => r.scoring !== 'kozel', ['R22', 'R23']],
  ['pairs', (r) => r.pairs && r.scoring !== 'kozel', ['R24']],
  ['scoring_winner_takes', (r) => r.scoring === 'winner_takes', ['R26']],
  ['scoring_winner_takes_all', (r) => r.scoring === 'winner_takes_all', ['R27']],
  ['scoring_goat', (r) => r.scoring === 'goat', ['R28']],
  ['goat_doubles', (r) => r.scoring === 'goat', ['R28a'], 'lone'],
  ['target', (r) => winnerScores(r), ['R30']],
  ['target_goat', (r) => r.scoring === 'goat', ['R30']],
  ['kozel_domino', (r) => r.scoring === 'kozel', ['R33'], 'lone'],
  ['kozel_fish', (r) => r.scoring === 'kozel', ['R34'], 'fish'],
  ['kozel_eggs', (r) => r.scoring === 'kozel', ['R35']],
  ['kozel_thirteen', (r) => r.scoring === 'kozel', ['R36']],
  ['kozel_goat', (r) => r.scoring === 'kozel', ['R37']],
  ['kozel_house', (r) => r.scoring === 'kozel', ['R37a']],
  ['after_round', all, ['R25']],
  ['tips', all, []],
];

const GOALS = ['goal', 'goal_goat', 'kozel_goal'];

/** Values docs/rules.md calls this project's choice (its last paragraph), per preset and setting. */
const CHOICES = {
  'vog-talon': ['hand', 'scoring', 'target'],
  'vog-block': ['hand', 'scoring', 'target'],
  'vog-goat': ['hand', 'target'],
  international: ['hand', 'scoring', 'target'],
  'international-2': ['hand', 'scoring', 'target'],
  classic: ['hand'],
};

const parts = location.pathname.split('/').filter(Boolean);
const urlLang = LANGUAGES.includes(parts[1]) ? parts[1] : null;

function paragraphs(target, body) {
  let list = null;
  for (const text of body) {
    if (text.startsWith('• ')) {
      if (!list) {
        list = document.createElement('ul');
        target.appendChild(list);
      }
      const li = document.createElement('li');
      li.textContent = text.slice(2);
      li.dataset.rules = '';
      list.appendChild(li);
    } else {
      list = null;
      const p = document.createElement('p');
      p.textContent = text;
      p.dataset.rules = '';
      target.appendChild(p);
    }
  }
}

async function presetList() {
  try {
    const data = await get('/api/presets');
    return Array.isArray(data.presets) ? data.presets : [];
  } catch (e) {
    return [];
  }
}

/** The settings a preset plays with (those of its largest table). */
function rulesetOf(info) {
  return info.defaults[String(info.players[info.players.length - 1])];
}

/** How the game is decided, in a sentence of the catalog (R30, R37, R40). */
function gameLine(r) {
  if (r.target === 'round') return ['rules.goal_round', {}];
  if (r.scoring === 'kozel') return ['rules.goal_loses_kozel', { target: r.target + 1 }];
  if (r.scoring === 'goat') return ['rules.goal_loses_goat', { target: r.target }];
  return ['rules.goal_wins', { target: r.target }];
}

function targetCell(r) {
  if (r.target === 'round') return el('span', 'rules.target_round');
  if (r.scoring === 'kozel') return el('span', 'rules.target_kozel', { target: r.target + 1 });
  if (r.scoring === 'goat') return el('span', 'rules.target_goat', { target: r.target });
  return el('span', 'rules.target_value', { target: r.target });
}

function settingsTable(info, marks) {
  const table = document.createElement('table');
  table.className = 'options';
  const row = (key, value, choiceKey) => {
    const tr = document.createElement('tr');
    tr.dataset.option = key.split('.').pop();
    tr.appendChild(el('th', key));
    const td = document.createElement('td');
    td.appendChild(value);
    if (choiceKey && marks.includes(choiceKey)) {
      const m = lit('span', ' ✱', 'choice-mark');
      m.title = t('rules.choice');
      td.appendChild(m);
    }
    tr.appendChild(td);
    table.appendChild(tr);
  };
  const defaults = info.defaults;
  const counts = info.players;
  const any = rulesetOf(info);
  row('rules.opt.players', lit('span', counts.join(', ')));
  const hands = document.createElement('span');
  counts.forEach((n, i) => {
    if (i) hands.appendChild(lit('span', ' · '));
    hands.appendChild(el('span', 'rules.hand_for', { players: n, hand: defaults[String(n)].hand_size }));
  });
  row('rules.opt.hand', hands, 'hand');
  const rest = any.boneyard ? 'rules.rest.boneyard' : any.players * any.hand_size >= 28 ? 'rules.rest.none' : 'rules.rest.out';
  const restNode = document.createElement('span');
  if (!any.boneyard && counts.some((n) => n * defaults[String(n)].hand_size < 28) && counts.some((n) => n * defaults[String(n)].hand_size >= 28)) {
    restNode.appendChild(el('span', 'rules.rest.out'));
  } else restNode.appendChild(el('span', rest));
  row('rules.opt.rest', restNode);
  row('rules.opt.opener', el('span', `opener.${any.opener}`));
  row('rules.opt.scoring', el('span', `scoring.${any.scoring}`), 'scoring');
  row('rules.opt.target', targetCell(any), 'target');
  row('rules.opt.pairs', el('span', any.pairs ? 'rules.pairs.yes' : 'rules.pairs.no'));
  return table;
}

/** Pictures where a rule is easier seen than read: tiles drawn like the table's. */
const FIGURES = {
  // 2-5, then 5-5 crosswise, then 5-3: the double keeps the 5 open (R4, R5).
  crosswise: () => lineFigure([[2, 5], [5, 5], [5, 3]], 0, 360, 120, 34),
  // Both ends show 3 and every tile with a 3 is laid: blocked, a fish (R34).
  fish: () => lineFigure([[3, 0], [0, 1], [1, 3], [3, 3], [3, 2], [2, 4], [4, 3], [3, 5], [5, 6], [6, 3]], 4, 700, 130, 28),
  // A losing hand of just 6-6 or just 0-0 after a domino (R28a, R33).
  lone: () => {
    const box = document.createElement('div');
    box.className = 'figure-tiles';
    for (const tile of ['6-6', '0-0']) box.appendChild(tileSVG(tile, { orient: 'v', size: 34 }));
    return box;
  },
};

/** `line` laid out as on the table, in a box of `width` × `height` with halves of at most `unit` px. */
function lineFigure(line, first, width, height, unit) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'figure-line');
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('aria-hidden', 'true');
  drawLine(svg, line, { box: { width, height }, first, maxUnit: unit });
  return svg;
}

function figure(name, texts) {
  const caption = texts.figures && texts.figures[name];
  if (!caption) return null;
  const f = document.createElement('figure');
  f.className = `rule-figure figure-${name}`;
  f.appendChild(FIGURES[name]());
  const c = document.createElement('figcaption');
  c.textContent = caption;
  c.dataset.rules = '';
  f.appendChild(c);
  return f;
}

function tabs(presets, preset, lang) {
  const nav = document.createElement('nav');
  nav.className = 'preset-tabs';
  nav.setAttribute('aria-label', t('rules.presets'));
  for (const p of presets) {
    const a = el('a', `preset.${p}`);
    a.href = `/rules/${lang}/${p}`;
    if (p === preset) a.setAttribute('aria-current', 'page');
    nav.appendChild(a);
  }
  return nav;
}

async function render(presets, info) {
  const preset = info.name;
  const r = rulesetOf(info);
  const lang = document.documentElement.lang;
  const texts = await get(`/static/rules/${lang}.json`);
  const main = clear(document.getElementById('rules'));
  main.dataset.preset = preset;
  main.dataset.lang = lang;
  main.dataset.scoring = r.scoring;
  main.appendChild(el('h1', 'rules.title', { preset: { $t: `preset.${preset}` } }));
  main.appendChild(tabs(presets.map((p) => p.name), preset, lang));
  const intro = texts.presets && texts.presets[preset];
  if (intro) {
    const p = document.createElement('p');
    p.className = 'intro';
    p.textContent = intro;
    p.dataset.rules = '';
    main.appendChild(p);
  }
  const settings = document.createElement('section');
  settings.id = 'settings';
  settings.appendChild(el('h2', 'rules.settings'));
  settings.appendChild(settingsTable(info, CHOICES[preset] || []));
  if ((CHOICES[preset] || []).length) settings.appendChild(el('p', 'rules.choice_note', {}, 'muted'));
  main.appendChild(settings);
  for (const [id, shows, cited, picture] of SECTIONS) {
    if (!shows(r, preset)) continue;
    const section = texts.sections && texts.sections[id];
    if (!section) continue;
    const s = document.createElement('section');
    s.id = GOALS.includes(id) ? 'goal' : id;
    s.dataset.section = id;
    const h = document.createElement('h2');
    const title = document.createElement('span');
    title.textContent = section.title;
    title.dataset.rules = '';
    h.appendChild(title);
    if (cited.length) h.appendChild(lit('span', cited.join(' '), 'rule-ids'));
    s.appendChild(h);
    paragraphs(s, section.body || []);
    if (GOALS.includes(id)) {
      const [key, params] = gameLine(r);
      s.appendChild(el('p', key, params, 'goal-game'));
    }
    const f = picture ? figure(picture, texts) : null;
    if (f) s.appendChild(f);
    main.appendChild(s);
  }
  if (texts.sources) {
    const s = document.createElement('section');
    s.className = 'sources';
    s.appendChild(el('h2', 'rules.sources'));
    paragraphs(s, texts.sources);
    main.appendChild(s);
  }
}

async function main() {
  if (urlLang) {
    try {
      localStorage.setItem('ds_lang', urlLang);
    } catch (e) {
      /* private mode */
    }
  }
  await startPage('title.rules');
  startNotices();
  if (urlLang && document.documentElement.lang !== urlLang) await initI18n(urlLang);
  const presets = await presetList();
  const info = presets.find((p) => p.name === parts[2]) || presets.find((p) => p.name === 'kozel') || presets[0];
  if (!info) {
    tx(clear(document.getElementById('rules')), 'err.generic', { message: '/api/presets' });
    return;
  }
  setRulesPreset(info.name);
  await render(presets, info);
  onLanguage((code) => {
    history.replaceState(null, '', `/rules/${code}/${info.name}`);
    render(presets, info);
  });
}

main();
