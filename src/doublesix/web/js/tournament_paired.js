// A tournament's pairing (docs/protocol.md, "Tournaments"): the lobby socket's
// `tournament_paired` frame tells a player of the tournament that the site seated them at a
// new table; every page with a lobby socket (the lobby, the inbox, the tournament page) takes
// the seat's token and goes there, as Play now's paired seek does (api.js `goSeated`).
import { goSeated } from './api.js';
import { onLobby } from './lobby_socket.js';

let going = null; // the table we are on our way to

/** Go to the tournament table `tableId`, seated (once, whoever asks first). */
export async function goToTournamentTable(tableId) {
  if (!tableId || going) return;
  going = tableId;
  await goSeated(tableId);
}

/** Follow `tournament_paired` frames: `before(frame)` is told first (the page says where it
 * goes), then the browser goes to the table. */
export function followTournamentPairing(before) {
  onLobby('tournament_paired', (f) => {
    if (!f || !f.table || going) return;
    if (before) {
      try {
        before(f);
      } catch (e) {
        console.error(e);
      }
    }
    goToTournamentTable(f.table);
  });
}
