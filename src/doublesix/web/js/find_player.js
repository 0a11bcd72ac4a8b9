// "Find a player": the accounts whose names begin with what is typed (GET /api/players), each
// a link to its page. On the leaderboard, where a player page finds no such player, and in the
// inbox's "New message", where a name found is one to write to.
import { get } from './api.js';
import { clear } from './common.js';
import { el, lit, tattr } from './i18n.js';
import { playerLink } from './ratings.js';

/** Typing pauses this long before the server is asked: one request a word, not a keystroke. */
const PAUSE_MS = 150;

/** The search's card; `start` fills the field and searches at once (a name not found).
 * `choose(name)`, if given, is what picking a name does instead of opening its page: a name
 * found is a button, and Enter chooses the one found, or the name typed (to say why not: what
 * `choose` says stands for the search's "No player's name begins with…", which is not shown). */
export function findPlayerCard(start = '', choose = null) {
  const card = document.createElement('section');
  card.className = 'card find-player';
  card.id = 'find-player';
  const form = document.createElement('form');
  form.className = 'find-form';
  form.setAttribute('role', 'search');
  const label = el('label', 'find.label', {}, 'label');
  label.htmlFor = 'find-name';
  const input = document.createElement('input');
  input.id = 'find-name';
  input.type = 'search';
  input.maxLength = 24;
  input.autocomplete = 'off';
  input.value = start;
  tattr(input, 'placeholder', 'find.placeholder');
  form.append(label, input);
  const results = document.createElement('ul');
  results.id = 'find-results';
  results.className = 'find-results';
  results.setAttribute('aria-live', 'polite');
  card.append(form, results);

  const chooser = (name) => {
    const b = lit('button', name, 'link-button');
    b.type = 'button';
    b.addEventListener('click', () => choose(name));
    return b;
  };
  let asked = 0;
  let pause = null;
  let chosen = null; // the name typed and chosen, until the field changes
  async function look() {
    const prefix = input.value.trim();
    const mine = ++asked;
    if (!prefix) {
      clear(results);
      return;
    }
    let found;
    try {
      found = await get(`/api/players?prefix=${encodeURIComponent(prefix)}`);
    } catch (e) {
      if (mine === asked) clear(results).appendChild(el('li', 'err.server', { message: e.message }, 'error'));
      return;
    }
    if (mine !== asked) return; // a later search's answer is the one to show
    clear(results);
    if (!found.players.length && prefix !== chosen) results.appendChild(el('li', 'find.none', { prefix }, 'muted find-none'));
    for (const p of found.players) {
      const li = document.createElement('li');
      const found = choose ? chooser(p.name) : playerLink(p.name);
      found.classList.add('found');
      li.appendChild(found);
      results.appendChild(li);
    }
  }
  input.addEventListener('input', () => {
    chosen = null;
    clearTimeout(pause);
    pause = setTimeout(look, PAUSE_MS);
  });
  form.addEventListener('submit', (ev) => {
    // Enter picks the one name found, or the one typed in full (`choose` takes any name typed)
    ev.preventDefault();
    const typed = input.value.trim();
    const lower = typed.toLowerCase(); // not the names an earlier search found
    const found = [...results.querySelectorAll('.found')].filter((n) => n.textContent.toLowerCase().startsWith(lower));
    const pick = found.length === 1 ? found[0] : found.find((n) => n.textContent.toLowerCase() === lower);
    if (choose && pick) choose(pick.textContent);
    else if (choose && typed) {
      chosen = typed;
      for (const none of results.querySelectorAll('.find-none')) none.remove();
      choose(typed);
    } else if (pick) location.href = pick.href;
    else look();
  });
  if (start) look();
  return card;
}
