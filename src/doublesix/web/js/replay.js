// Upload a doublesix/1 record; the server replays it, the viewer shows it and
// the post-game review goes through it.
import { ApiError, post } from './api.js';
import { clear, setRulesPreset, startPage, toast } from './common.js';
import { el, onLanguage, tx } from './i18n.js';
import { startNotices } from './notices.js';
import { moveList, recordSummary, viewer } from './replayer.js';
import { reviewPanel } from './review.js';

let record = null;

function show() {
  const summary = clear(document.getElementById('summary'));
  const moves = clear(document.getElementById('moves'));
  const cards = ['viewer', 'review'].map((id) => document.getElementById(id));
  for (const card of [summary, moves, ...cards]) card.classList.toggle('hidden', !record);
  if (!record) return;
  summary.appendChild(recordSummary(record));
  moves.appendChild(el('h2', 'game.moves'));
  moves.appendChild(moveList(record));
}

async function load(file) {
  const out = document.getElementById('upload-result');
  clear(out);
  let data;
  try {
    data = JSON.parse(await file.text());
  } catch (e) {
    tx(out, 'replay.not_json');
    out.className = 'error';
    return;
  }
  try {
    record = await post('/api/records', data);
  } catch (e) {
    record = null;
    show();
    out.className = 'error';
    tx(out, e instanceof ApiError && e.status === 422 ? 'replay.rejected' : 'err.server', { message: e.message });
    return;
  }
  out.className = 'ok';
  tx(out, 'replay.accepted', { name: file.name });
  if (record.ruleset) setRulesPreset(record.ruleset.preset);
  show();
  const steer = viewer(document.getElementById('viewer'), record);
  const uploaded = record;
  reviewPanel(document.getElementById('review'), record, steer, (seat) =>
    post(`/api/records/review?seat=${seat}`, uploaded));
}

async function main() {
  await startPage('title.replay');
  startNotices();
  tx(document.getElementById('title'), 'replay.title');
  const up = document.getElementById('upload');
  up.appendChild(el('p', 'replay.intro'));
  const label = document.createElement('label');
  label.className = 'button primary file-label';
  label.appendChild(el('span', 'replay.choose'));
  const input = document.createElement('input');
  input.type = 'file';
  input.id = 'record-file';
  input.accept = 'application/json,.json';
  label.appendChild(input);
  up.appendChild(label);
  const out = document.createElement('p');
  out.id = 'upload-result';
  up.appendChild(out);
  input.addEventListener('change', () => input.files[0] && load(input.files[0]));
  up.addEventListener('dragover', (ev) => {
    ev.preventDefault();
    up.classList.add('drag');
  });
  up.addEventListener('dragleave', () => up.classList.remove('drag'));
  up.addEventListener('drop', (ev) => {
    ev.preventDefault();
    up.classList.remove('drag');
    if (ev.dataTransfer.files[0]) load(ev.dataTransfer.files[0]);
  });
  show();
  onLanguage(show);
}

main().catch((e) => toast('err.server', { message: String(e.message || e) }, 'error'));
