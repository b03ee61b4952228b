// Times a bundle's pages in chromium, by hand (not a CTest: it wants a large bundle):
// index.html opened from file:// (to the load event), and the play view's moves, N
// clicks on the first listed move's cell: the time from the click to the painted
// board (round trip included; as playwright sees it, and in the page from the click
// event, body[data-click-ms]) and the page's own drawing time (body[data-draw-ms]).
//
// Usage: node tests/web/page_timing.mjs BUNDLE_DIR http://127.0.0.1:PORT FOLDER [N]
//   statespace analyze tiles:3x4 --table --out /tmp/t && statespace serve /tmp/t --port 8090 &
//   node tests/web/page_timing.mjs /tmp/t/tiles-3x4 http://127.0.0.1:8090 tiles-3x4 50
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const [bundle, base, folder, count] = process.argv.slice(2);
const n = Number(count || 50);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'page-timing-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1100, height: 900 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const page = await context.newPage();
  const index = path.join(bundle, 'index.html');
  const opens = [];
  for (let i = 0; i < 5; i++) {
    const t0 = Date.now();
    await page.goto(pathToFileURL(index).href, { waitUntil: 'load' });
    opens.push(Date.now() - t0);
  }
  console.log(`${index}: ${fs.statSync(index).size} bytes, opens in ${opens.join(', ')} ms (median ${median(opens)})`);
  await page.goto(base + '/play/' + folder);
  await page.waitForSelector('#board svg');
  const clicks = [];
  const draws = [];
  const inPage = [];  // from the click event to the painted board, in the page
  for (let i = 0; i < n; i++) {
    const before = await page.textContent('#position');
    const cell = await page.evaluate(() => current.moves[0].changed[0]);
    const t0 = await page.evaluate(() => performance.now());
    await page.locator(`#board [data-cell="${cell}"]`).last().click();
    await page.waitForFunction((p) => document.getElementById('position').textContent !== p &&
      document.body.dataset.drawMs !== undefined, before);
    clicks.push(await page.evaluate((t) => performance.now() - t, t0));
    draws.push(Number(await page.evaluate(() => document.body.dataset.drawMs)));
    inPage.push(Number(await page.evaluate(() => document.body.dataset.clickMs)));
  }
  console.log(`${folder}: ${n} clicked moves: click to painted board median ${median(clicks).toFixed(1)} ms ` +
    `(most ${Math.max(...clicks).toFixed(1)}; in the page, from the click event: median ${median(inPage).toFixed(1)}, ` +
    `most ${Math.max(...inPage).toFixed(1)}), drawing median ${median(draws).toFixed(1)} ms ` +
    `(most ${Math.max(...draws).toFixed(1)})`);
} finally {
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
