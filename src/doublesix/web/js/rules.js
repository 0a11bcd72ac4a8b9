// The rules page: /rules/{lang}/{preset}, built from RULES.md and the seed texts.
// The texts are in web/rules/{de,fr,en}.json; which sections a preset shows is decided here.
import { get } from './api.js';
import { clear, PRESETS, setRulesPreset, startPage } from './common.js';
import { el, initI18n, LANGUAGES, lit, onLanguage, t, tx } from './i18n.js';

const ALL = PRESETS;
const BONEYARD = ['draw', 'vog-talon', 'classic'];
const NO_BONEYARD = ['block', 'kozel', 'vog-block', 'vog-goat', 'international', 'international-2'];
const NOT_KOZEL = ALL.filter((p) => p !== 'kozel');
const VOG = ['vog-talon', 'vog-block', 'vog-goat', 'international', 'international-2'];

/** Each section of rules/{lang}.json and the presets it belongs to, in reading order. */
const SECTIONS = [
  ['goal', NOT_KOZEL],
  ['kozel_goal', ['kozel']],
  ['set', ALL],
  ['values', ALL],
  ['deal_draw', ['draw']],
  ['deal_block', ['block']],
  ['deal_kozel', ['kozel']],
  ['deal_vog', VOG],
  ['deal_classic', ['classic']],
  ['kozel_redeal', ['kozel']],
  ['opener_highest_double', ['draw', 'block']],
  ['opener_kozel', ['kozel']],
  ['opener_lowest_double', ['vog-talon', 'vog-block', 'vog-goat']],
  ['opener_highest_tile', ['international', 'international-2']],
  ['opener_draw_for_lead', ['classic']],
  ['play', ALL],
  ['doubles', ALL],
  ['at_the_table', ALL],
  ['layout', ALL],
  ['stuck_draw', BONEYARD],
  ['draw_options', BONEYARD],
  ['stuck_block', NO_BONEYARD],
  ['end', NOT_KOZEL],
  ['pairs', ['vog-goat', 'international']],
  ['scoring_winner_takes', ['draw', 'block', 'classic']],
  ['scoring_winner_takes_all', ['vog-talon', 'vog-block', 'international', 'international-2']],
  ['scoring_goat', ['vog-goat']],
  ['target', NOT_KOZEL.filter((p) => p !== 'vog-goat')],
  ['target_goat', ['vog-goat']],
  ['kozel_domino', ['kozel']],
  ['kozel_fish', ['kozel']],
  ['kozel_eggs', ['kozel']],
  ['kozel_thirteen', ['kozel']],
  ['kozel_goat', ['kozel']],
  ['kozel_house', ['kozel']],
  ['after_round', ALL],
  ['tips', ALL],
];

/** Values RULES.md calls this project's choice (its last paragraph), per preset and setting. */
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
const preset = PRESETS.includes(parts[2]) ? parts[2] : 'kozel';

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

async function presetDefaults() {
  try {
    const data = await get('/api/presets');
    const list = Array.isArray(data.presets) ? data.presets : [];
    const found = list.find((p) => p.name === preset);
    if (found) return found;
  } catch (e) {
    /* the table below is then left out */
  }
  return null;
}

function settingsTable(info, marks) {
  const table = document.createElement('table');
  table.className = 'options';
  const row = (key, value, choiceKey) => {
    const tr = document.createElement('tr');
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
  const any = defaults[String(counts[counts.length - 1])];
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
  row('rules.opt.target', el('span', any.scoring === 'kozel' ? 'rules.target_kozel' : 'rules.target_value', { target: any.scoring === 'kozel' ? any.target + 1 : any.target }), 'target');
  row('rules.opt.pairs', el('span', any.pairs ? 'rules.pairs.yes' : 'rules.pairs.no'));
  return table;
}

async function render(info) {
  const lang = document.documentElement.lang;
  const texts = await get(`/static/rules/${lang}.json`);
  const main = clear(document.getElementById('rules'));
  main.appendChild(el('h1', 'rules.title', { preset: { $t: `preset.${preset}` } }));
  const tabs = document.createElement('nav');
  tabs.className = 'preset-tabs';
  tabs.setAttribute('aria-label', t('rules.presets'));
  for (const p of PRESETS) {
    const a = el('a', `preset.${p}`);
    a.href = `/rules/${lang}/${p}`;
    if (p === preset) a.setAttribute('aria-current', 'page');
    tabs.appendChild(a);
  }
  main.appendChild(tabs);
  const intro = texts.presets && texts.presets[preset];
  if (intro) {
    const p = document.createElement('p');
    p.className = 'intro';
    p.textContent = intro;
    p.dataset.rules = '';
    main.appendChild(p);
  }
  if (info) {
    const s = document.createElement('section');
    s.id = 'settings';
    s.appendChild(el('h2', 'rules.settings'));
    s.appendChild(settingsTable(info, CHOICES[preset] || []));
    if ((CHOICES[preset] || []).length) s.appendChild(el('p', 'rules.choice_note', {}, 'muted'));
    main.appendChild(s);
  }
  for (const [id, presets] of SECTIONS) {
    if (!presets.includes(preset)) continue;
    const section = texts.sections && texts.sections[id];
    if (!section) continue;
    const s = document.createElement('section');
    s.id = id;
    const h = document.createElement('h2');
    h.textContent = section.title;
    h.dataset.rules = '';
    s.appendChild(h);
    paragraphs(s, section.body || []);
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
  if (urlLang && document.documentElement.lang !== urlLang) await initI18n(urlLang);
  setRulesPreset(preset);
  const info = await presetDefaults();
  await render(info);
  onLanguage((code) => {
    history.replaceState(null, '', `/rules/${code}/${preset}`);
    render(info);
  });
}

main();
