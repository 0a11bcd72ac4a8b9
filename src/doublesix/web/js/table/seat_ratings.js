// The players' ratings beside their names at the table (docs/protocol.md, "Ratings"): each
// account's rating in the variant the table's rules are rated in, read once the game is on
// (the seats are taken by then); a guest's or a bot's seat shows none.
import { get } from '../api.js';
import { lit, tattr } from '../i18n.js';
import { ratingText } from '../ratings.js';
import { repaint, state, tableId } from './state.js';

let asked = false;

/** Read the seats' ratings, once a page; the seats are drawn again with them. */
export async function loadRatings() {
  if (asked) return;
  asked = true;
  try {
    state.ratings = await get(`/api/tables/${encodeURIComponent(tableId)}/ratings`);
    repaint('seats');
  } catch (e) {
    /* no ratings on this server, or not now: the names alone */
  }
}

/** The rating of `seat` as a small badge, or null. */
export function ratingBadge(seat) {
  const found = state.ratings && state.ratings.seats[seat];
  if (!found) return null;
  const badge = lit('span', ratingText(found), 'badge seat-rating');
  tattr(badge, 'title', 'seat.rating', { variant: { $t: `rating.variant.${state.ratings.variant}` } });
  return badge;
}
