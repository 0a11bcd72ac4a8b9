// The account's lists of other accounts (docs/protocol.md, "Following and blocking"): whom
// it follows (follow.js), whom it blocks (block.js). A guest keeps none.
import { ApiError, api, get } from './api.js';
import { toast } from './common.js';
import { el } from './i18n.js';

/** One of the account's lists of other accounts, by name: `kind` is its name in the API's
 * paths and answers ('following', 'blocked'). A guest keeps none. */
export class AccountList {
  constructor(kind) {
    this.kind = kind;
    this.names = new Set();
    this.listeners = new Set();
    this.reading = 0;
  }

  /** Read the list for `you` ({name, account} or null); the names it holds (none when it
   * could not be read). */
  async load(you) {
    const turn = ++this.reading;
    let names = new Set();
    if (you && you.account) {
      try {
        names = this.take(await get(`/api/account/${this.kind}`));
      } catch (e) {
        /* not read: as if empty */
      }
    }
    if (turn === this.reading) this.replace(names); // the last reading wins
    return this.names;
  }

  has(name) {
    return this.names.has(name);
  }

  /** Put `name` on the list (`on`) or take it off; the name as its owner spells it. Throws
   * the server's refusal (ApiError). */
  async set(name, on) {
    const r = await api(on ? 'PUT' : 'DELETE', `/api/account/${this.kind}/${encodeURIComponent(name)}`);
    this.reading++; // a reading under way is older than this answer
    this.replace(this.take(r));
    return r.name;
  }

  /** The server took `name` off the list itself (blocking someone unfollows them). */
  drop(name) {
    if (this.names.has(name)) this.replace(new Set([...this.names].filter((n) => n !== name)));
  }

  /** Call `listener()` whenever the names change. */
  onChange(listener) {
    this.listeners.add(listener);
  }

  take(answer) {
    return new Set(answer[this.kind].map((entry) => entry.name));
  }

  replace(names) {
    const same = names.size === this.names.size && [...names].every((n) => this.names.has(n));
    this.names = names;
    if (!same) for (const listener of this.listeners) listener();
  }
}

/** A button that puts `name` on `list`, or takes it off: `draw(button, on)` writes it as the
 * list is, `done(on, spelled)` follows a change the server made. */
export function listButton(list, name, draw, done = null) {
  const button = document.createElement('button');
  button.type = 'button';
  const redraw = () => draw(button, list.has(name));
  redraw();
  list.onChange(redraw);
  button.addEventListener('click', async () => {
    const on = !list.has(name);
    button.disabled = true;
    try {
      const spelled = await list.set(name, on);
      if (done) done(on, spelled);
    } catch (e) {
      toast('err.generic', { message: e instanceof ApiError ? e.message : String(e) }, 'error');
    } finally {
      button.disabled = false;
      redraw();
    }
  });
  return button;
}

/** A card of the account's own page, `id`, under the title `titleKey`. */
export function listCard(id, titleKey) {
  const card = document.createElement('section');
  card.className = 'card';
  card.id = id;
  card.appendChild(el('h2', titleKey));
  return card;
}
