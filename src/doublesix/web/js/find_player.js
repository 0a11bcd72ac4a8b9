// "Find a player": the accounts whose names begin with what is typed (GET /api/players), each
// a link to its page. On the leaderboard, and where a player page finds no such player.
import { get } from './api.js';
import { clear } from './common.js';
import { el, tattr } from './i18n.js';
import { playerLink } from './ratings.js';

/** Typing pauses this long before the server is asked: one request a word, not a keystroke. */
const PAUSE_MS = 150;

/** The search's card; `start` fills the field and searches at once (a name not found). */
export function findPlayerCard(start = '') {
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

  let asked = 0;
  let pause = null;
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
    if (!found.players.length) results.appendChild(el('li', 'find.none', { prefix }, 'muted'));
    for (const p of found.players) {
      const li = document.createElement('li');
      li.appendChild(playerLink(p.name));
      results.appendChild(li);
    }
  }
  input.addEventListener('input', () => {
    clearTimeout(pause);
    pause = setTimeout(look, PAUSE_MS);
  });
  form.addEventListener('submit', (ev) => {
    // Enter opens the page of the one name found, or of the name typed in full
    ev.preventDefault();
    const links = [...results.querySelectorAll('a')];
    const typed = input.value.trim().toLowerCase();
    const page = links.length === 1 ? links[0] : links.find((a) => a.textContent.toLowerCase() === typed);
    if (page) location.href = page.href;
    else look();
  });
  if (start) look();
  return card;
}
