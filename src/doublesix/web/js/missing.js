// The page of an address the site does not have (the server answers it with 404).
import { startPage } from './common.js';
import { tx } from './i18n.js';
import { startNotices } from './notices.js';

async function main() {
  await startPage('line.missing_title');
  startNotices();
  tx(document.getElementById('title'), 'line.missing_title');
  tx(document.getElementById('missing-text'), 'line.missing_text', { path: location.pathname });
  tx(document.getElementById('missing-home'), 'line.missing_home');
}

main();
