// What every page shares: the header with its links and the language switch.
import { me } from './api.js';
import { applyI18n, el, initI18n, languageSwitch, lit, onLanguage } from './i18n.js';
import { inboxLink } from './inbox_badge.js';

const BOT_ORDER = ['random', 'greedy', 'medium', 'pimc', 'expert'];

/** Bot levels from the weakest to the strongest (levels the client does not know go last). */
export function sortBots(levels) {
  const rank = (b) => (BOT_ORDER.includes(b) ? BOT_ORDER.indexOf(b) : BOT_ORDER.length);
  return [...levels].sort((a, b) => rank(a) - rank(b));
}

/** The targets of a whole game the forms offer (a challenge's, a tournament's); the server
 * takes any a table may have (1 to 10,000 points, or 'round'). */
export const TARGETS = [50, 100, 150];

export const PRESETS = ['draw', 'block', 'kozel', 'vog-talon', 'vog-block', 'vog-goat', 'international', 'international-2', 'classic'];

/** Load the language, build the header; `titleKey` names the page in the catalog. */
export async function startPage(titleKey) {
  await initI18n();
  document.body.dataset.titleKey = titleKey;
  const header = document.querySelector('header.top') || document.body.insertBefore(document.createElement('header'), document.body.firstChild);
  header.className = 'top';
  header.textContent = '';
  const brand = document.createElement('a');
  brand.href = '/';
  brand.className = 'brand';
  brand.appendChild(lit('span', '⚃⚅', 'brand-mark'));
  brand.appendChild(lit('span', 'doublesix', 'brand-name'));
  header.appendChild(brand);
  const nav = document.createElement('nav');
  const links = [
    ['/', 'nav.lobby'],
    [`/rules/${document.documentElement.lang}/${rulesPreset()}`, 'nav.rules'],
    ['/replay', 'nav.replay'],
    ['/leaderboard/draw', 'rating.nav'],
  ];
  for (const [href, key] of links) {
    const a = el('a', key);
    a.href = href;
    if (key === 'nav.rules') a.className = 'rules-link';
    nav.appendChild(a);
  }
  header.appendChild(nav);
  operatorLink(nav);
  inboxLink(nav);
  document.addEventListener('ds:me', () => {
    operatorLink(nav);
    inboxLink(nav);
  });
  const sw = document.createElement('div');
  header.appendChild(sw);
  languageSwitch(sw);
  onLanguage((code) => {
    const rules = header.querySelector('a.rules-link');
    if (rules) rules.href = `/rules/${code}/${rulesPreset()}`;
  });
  applyI18n(document);
  return header;
}

/** The operators' page in the header's links, for one of the site's operators only. */
async function operatorLink(nav) {
  const you = await me().catch(() => null);
  const shown = nav.querySelector('a.operator-link');
  if (you && you.operator && !shown) {
    const a = el('a', 'nav.operator', {}, 'operator-link');
    a.href = '/operator';
    nav.appendChild(a);
  } else if (!(you && you.operator) && shown) {
    shown.remove();
  }
}

let currentPreset = 'kozel';
export function setRulesPreset(p) {
  currentPreset = p;
  const a = document.querySelector('header.top a.rules-link');
  if (a) a.href = `/rules/${document.documentElement.lang}/${p}`;
}
function rulesPreset() {
  return currentPreset;
}

/** A short-lived message at the bottom of the screen. */
export function toast(key, params, kind = 'info') {
  let box = document.getElementById('toasts');
  if (!box) {
    box = document.createElement('div');
    box.id = 'toasts';
    box.setAttribute('role', 'status');
    document.body.appendChild(box);
  }
  const m = el('div', key, params, `toast ${kind}`);
  box.appendChild(m);
  setTimeout(() => m.classList.add('gone'), 3200);
  setTimeout(() => m.remove(), 3800);
  return m;
}

/** A button that reads the next page of a list: `load()` reads and draws it; while it reads
 * the button is disabled, and after a failure (told by `failed(e)`) it may be pressed again. */
export function moreButton(key, id, load, failed) {
  const button = el('button', key, {}, 'small');
  button.type = 'button';
  button.id = id;
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await load();
    } catch (e) {
      button.disabled = false;
      failed(e);
    }
  });
  return button;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}
