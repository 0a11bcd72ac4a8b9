// Languages: every visible text comes from web/i18n/{de,fr,en,ru}.json.
//
// An element filled by `tx` keeps its key (data-i18n) and parameters
// (data-i18n-args), so switching the language re-fills it in place. A
// parameter written {"$t": key} is itself translated; numbers and names
// stay as they are. Texts that are not words (names, numbers, tiles) sit
// in elements marked data-literal.

export const LANGUAGES = ['de', 'fr', 'en', 'ru'];
export const LANGUAGE_NAMES = { de: 'Deutsch', fr: 'Français', en: 'English', ru: 'Русский' };
const STORE = 'ds_lang';

let lang = 'en';
let catalog = {};
let fallback = {};
const listeners = [];
const cache = {};

async function load(code) {
  if (!cache[code]) {
    cache[code] = fetch(`/static/i18n/${code}.json`).then((r) => (r.ok ? r.json() : {}));
  }
  return cache[code];
}

/** The language from the URL (?lang=), the saved choice, or the browser's languages. */
export function preferredLanguage() {
  const fromUrl = new URLSearchParams(location.search).get('lang');
  if (fromUrl && LANGUAGES.includes(fromUrl)) return fromUrl;
  try {
    const saved = localStorage.getItem(STORE);
    if (saved && LANGUAGES.includes(saved)) return saved;
  } catch (e) {
    /* private mode */
  }
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const code = String(l).toLowerCase().slice(0, 2);
    if (LANGUAGES.includes(code)) return code;
  }
  return 'en';
}

export function currentLanguage() {
  return lang;
}

export async function initI18n(code = preferredLanguage()) {
  lang = LANGUAGES.includes(code) ? code : 'en';
  [catalog, fallback] = await Promise.all([load(lang), load('en')]);
  document.documentElement.lang = lang;
  return lang;
}

export async function setLanguage(code) {
  if (!LANGUAGES.includes(code) || code === lang) return;
  try {
    localStorage.setItem(STORE, code);
  } catch (e) {
    /* private mode */
  }
  await initI18n(code);
  applyI18n(document);
  for (const fn of listeners) fn(lang);
}

export function onLanguage(fn) {
  listeners.push(fn);
}

export function has(key) {
  return key in catalog || key in fallback;
}

function resolve(params) {
  const out = {};
  for (const [k, v] of Object.entries(params || {})) {
    if (v && typeof v === 'object' && '$t' in v) out[k] = t(v.$t, v.args);
    else if (typeof v === 'number') out[k] = formatNumber(v);
    else out[k] = v;
  }
  return out;
}

export function formatNumber(n) {
  if (!Number.isFinite(n)) return String(n);
  return new Intl.NumberFormat(lang).format(n);
}

/**
 * The text of `key` in the current language, with {name} parameters filled in. A key with no
 * text, or a parameter with no value, shows as written and is reported on the console
 * ("i18n: ..."), where the browser tests look for it.
 */
export function t(key, params = {}) {
  let msg = key in catalog ? catalog[key] : fallback[key];
  if (msg === undefined) {
    console.error(`i18n: no text for ${key}`);
    return key;
  }
  if (msg && typeof msg === 'object') {
    const n = Number(params.count ?? 0);
    const form = new Intl.PluralRules(lang, msg.ordinal ? { type: 'ordinal' } : {}).select(n); // ordinal: 2nd
    msg = msg[form] ?? msg.other;
  }
  const values = resolve(params);
  return String(msg).replace(/\{(\w+)\}/g, (m, name) => {
    if (name in values) return String(values[name]);
    console.error(`i18n: ${key} has no value for ${m}`);
    return m;
  });
}

/** Fill `el` with the text of `key` and remember both for a language switch. */
export function tx(el, key, params) {
  el.dataset.i18n = key;
  if (params && Object.keys(params).length) el.dataset.i18nArgs = JSON.stringify(params);
  else delete el.dataset.i18nArgs;
  el.textContent = t(key, params);
  return el;
}

/** A new element `tag` with the text of `key`. */
export function el(tag, key, params, cls) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (key) tx(e, key, params);
  return e;
}

/** A new element holding a literal (a name, a number, a tile): the same in every language. */
export function lit(tag, text, cls) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.dataset.literal = '';
  e.textContent = text;
  return e;
}

/** Set an attribute (title, placeholder, aria-label) from the catalog. */
export function tattr(node, attr, key, params) {
  const keys = JSON.parse(node.dataset.i18nAttr || '{}');
  keys[attr] = [key, params || null];
  node.dataset.i18nAttr = JSON.stringify(keys);
  node.setAttribute(attr, t(key, params || {}));
}

export function applyI18n(root = document) {
  for (const node of root.querySelectorAll('[data-i18n]')) {
    const args = node.dataset.i18nArgs ? JSON.parse(node.dataset.i18nArgs) : {};
    node.textContent = t(node.dataset.i18n, args);
  }
  for (const node of root.querySelectorAll('[data-i18n-attr]')) {
    const keys = JSON.parse(node.dataset.i18nAttr);
    for (const [attr, [key, params]] of Object.entries(keys)) node.setAttribute(attr, t(key, params || {}));
  }
  if (root === document && document.body && document.body.dataset.titleKey) {
    document.title = `${t(document.body.dataset.titleKey)} · doublesix`;
  }
}

/** The language switch: a button a language, the chosen one pressed. */
export function languageSwitch(container) {
  container.textContent = '';
  container.classList.add('lang-switch');
  for (const code of LANGUAGES) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'lang';
    b.dataset.lang = code;
    b.dataset.literal = '';
    b.textContent = code.toUpperCase();
    b.title = LANGUAGE_NAMES[code];
    b.setAttribute('aria-pressed', String(code === lang));
    b.addEventListener('click', async () => {
      await setLanguage(code);
      for (const other of container.querySelectorAll('button.lang')) {
        other.setAttribute('aria-pressed', String(other.dataset.lang === lang));
      }
    });
    container.appendChild(b);
  }
}
