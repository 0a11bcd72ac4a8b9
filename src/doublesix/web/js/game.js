// A finished game's page: the result, the JSON download, the replay viewer, the
// post-game review, the table's chat and the move list.
import { get, me } from './api.js';
import { chatLine, isMuted, onMutedChange, removedLine, renderMuted, setMuted } from './chat.js';
import { clear, setRulesPreset, startPage, toast } from './common.js';
import { playerName, roster } from './describe.js';
import { el, lit, onLanguage, tx } from './i18n.js';
import { startNotices } from './notices.js';
import { playerLink } from './ratings.js';
import { moveList, recordSummary, viewer } from './replayer.js';
import { reviewPanel } from './review.js';

const gameId = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');

async function main() {
  await startPage('title.game');
  startNotices();
  document.getElementById('upload').remove();
  tx(document.getElementById('title'), 'game.title');
  let record;
  try {
    record = await get(`/api/games/${encodeURIComponent(gameId)}/record`);
  } catch (e) {
    tx(document.getElementById('summary'), 'game.missing');
    return;
  }
  if (record.ruleset) setRulesPreset(record.ruleset.preset);
  const seats = await tableSeats();
  const summary = document.getElementById('summary');
  const render = () => {
    clear(summary);
    const box = recordSummary(record);
    if (seats) box.firstChild.after(playersLine(record, seats)); // under the game's kind
    summary.appendChild(box);
    const links = document.createElement('p');
    links.className = 'actions';
    const json = el('a', 'game.download', {}, 'button primary');
    json.id = 'download-json';
    json.href = `/api/games/${encodeURIComponent(gameId)}/record`;
    json.download = `doublesix-${gameId}.json`;
    links.appendChild(json);
    const text = el('a', 'game.text', {}, 'button');
    text.href = `/api/games/${encodeURIComponent(gameId)}/text`;
    text.target = '_blank';
    links.appendChild(text);
    summary.appendChild(links);
    const moves = clear(document.getElementById('moves'));
    moves.appendChild(el('h2', 'game.moves'));
    moves.appendChild(moveList(record));
  };
  render();
  onLanguage(render);
  showChat();
  const v = document.getElementById('viewer');
  v.before(el('h2', 'replay.title', {}, 'section-title'));
  const steer = viewer(v, record);
  reviewPanel(document.getElementById('review'), record, steer, (seat) =>
    get(`/api/games/${encodeURIComponent(gameId)}/review?seat=${seat}`));
}

/** The table's seats ({name, kind, bot, account}), or null when they cannot be read: the
 * record names the players, the table says which of them have a page. */
async function tableSeats() {
  try {
    return (await get(`/api/tables/${encodeURIComponent(gameId)}`)).seats;
  } catch (e) {
    return null;
  }
}

/** "Players: Anna, Ben, Bot 2 · greedy", an account's name a link to its page. */
function playersLine(record, seats) {
  const line = document.createElement('p');
  line.className = 'game-players';
  line.id = 'game-players';
  line.appendChild(el('span', 'game.players', {}, 'label'));
  const players = roster(record.players, record.bots);
  players.forEach((p, seat) => {
    line.append(seat === 0 ? ' ' : ', ');
    const name = playerName(players, seat);
    line.appendChild(seats[seat] && seats[seat].account ? playerLink(p.name) : lit('span', name));
  });
  return line;
}

/** What was said at the table, both channels (a spectator's message is marked), as text. One
 * of the site's operators has a "✕" on each line, which removes the message from the table's
 * chat: the line then says so, with a "Restore" that shows it again (the operator's page
 * reads the removed messages' places too: `restorable`); others' pages leave it out. */
async function showChat() {
  const operator = await me().then((who) => Boolean(who && who.operator), () => false);
  const query = operator ? '?removed=true' : '';
  const read = () => get(`/api/games/${encodeURIComponent(gameId)}/chat${query}`).then((r) => r.chat);
  let chat;
  try {
    chat = await read();
  } catch (e) {
    return; // the record says what there is to say; a chat that cannot be read is left out
  }
  if (!chat.length) return;
  const removed = new Map(); // version -> the message an operator removed from this page
  const box = document.getElementById('chat');
  const mute = (name) => setMuted(name, true);
  const path = (msg) => `/api/operator/tables/${encodeURIComponent(gameId)}/chat/${msg.version}`;
  const restored = async () => {
    removed.clear();
    chat = await read().catch(() => chat);
    draw();
  };
  const line = (msg) => {
    const gone = removed.get(msg.version);
    if (msg.removed || gone) {
      const restorable = operator && (msg.restorable || gone);
      return removedLine(gone || msg, restorable ? { restorePath: `${path(msg)}/restore`, onRestored: restored } : {});
    }
    if (!operator) return chatLine(msg, { onMute: mute });
    const onRemoved = () => {
      removed.set(msg.version, msg);
      draw();
    };
    return chatLine(msg, { onMute: mute, removePath: path(msg), onRemoved });
  };
  const draw = () => {
    clear(box);
    box.classList.remove('hidden');
    box.appendChild(el('h2', 'chat.game_title'));
    const list = document.createElement('ol');
    list.className = 'chat-list';
    list.id = 'game-chat';
    for (const msg of chat.filter((m) => !isMuted(m.from))) list.appendChild(line(msg));
    box.appendChild(list);
    const muted = document.createElement('p');
    muted.className = 'chat-muted';
    muted.id = 'chat-muted';
    box.appendChild(muted);
    renderMuted(muted);
  };
  onMutedChange(draw);
  draw();
}

main().catch((e) => toast('err.server', { message: String(e.message || e) }, 'error'));
