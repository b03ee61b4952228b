// Browser tests of the report pages and the play view, in Debian's chromium driven by
// playwright-core (no browser download): index.html opened from file:// (chart bars
// against distribution.csv, boards against farthest.csv) and `statespace serve`'s
// play view for one puzzle of each kind (the board against the position, clicked and
// keyed moves against successors computed here and `statespace solve`, a bad paste's
// one-line error), each page free of console errors and of requests to any other
// host. Screenshots of every view go to OUT_DIR (PNG).
//
// Usage: node web_test.mjs BUILD/statespace SOURCE_DIR OUT_DIR
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  console.log('web_test: skipped: no playwright-core (npm ci --prefix tests/web)');
  process.exit(77);
}
if (!fs.existsSync('/usr/bin/chromium')) {
  console.log('web_test: skipped: no /usr/bin/chromium (apt-get install chromium)');
  process.exit(77);
}
const [binary, source, shots] = process.argv.slice(2).map((p) => path.resolve(p));
if (!binary || !source || !shots) {
  console.error('usage: node web_test.mjs BUILD/statespace SOURCE_DIR OUT_DIR');
  process.exit(2);
}
fs.mkdirSync(shots, { recursive: true });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'web-test-'));
const out = path.join(work, 'out');

// Analysed with --table: the play view shows distances. tiles:2x3 without one.
const tabled = {
  'tiles-3x3': 'tiles:3x3',
  klotski: 'examples/puzzles/klotski.toml',
  'sokoban-yard': 'examples/puzzles/sokoban-yard.toml',
  theta0: 'examples/puzzles/theta0.toml',
  cube2: 'examples/puzzles/cube2.tws',
};
const puzzles = { ...tabled, 'tiles-2x3': 'tiles:2x3' };

let failures = 0;
let checks = 0;
function check(ok, what) {
  checks += 1;
  if (!ok) {
    failures += 1;
    console.error('FAIL: ' + what);
  }
}
function equal(a, b, what) {
  const sa = JSON.stringify(a);
  const sb = JSON.stringify(b);
  check(sa === sb, what + (sa === sb ? '' : `: ${sa.slice(0, 300)} != ${sb.slice(0, 300)}`));
}

const cellsOf = (position) => position.split(/\s+/).filter((w) => w && w !== '/');
const blank = (label) => label === '_' || label === '.' || label === '#';
const rowsOf = (position) => position.split('/').map((r) => r.trim().split(/\s+/));
const joinRows = (rows) => rows.map((r) => r.join(' ')).join(' / ');

// Successors computed here, apart from the models' code.
function tileMoves(position) {
  const rows = rowsOf(position);
  const out = new Set();
  rows.forEach((row, r) => row.forEach((v, c) => {
    if (v !== '_') return;
    for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const t = rows.map((x) => x.slice());
      if (!t[r + dr] || t[r + dr][c + dc] === undefined) continue;
      t[r][c] = t[r + dr][c + dc];
      t[r + dr][c + dc] = '_';
      out.add(joinRows(t));
    }
  }));
  return out;
}
function blockMoves(position) {
  const rows = rowsOf(position);
  const pieces = new Map();
  rows.forEach((row, r) => row.forEach((v, c) => {
    if (!'._#'.includes(v)) pieces.set(v, [...(pieces.get(v) || []), [r, c]]);
  }));
  const out = new Set();
  for (const [ch, at] of pieces) {
    for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const moved = at.map(([r, c]) => [r + dr, c + dc]);
      const fits = moved.every(([r, c]) => rows[r] && rows[r][c] !== undefined &&
        ('._'.includes(rows[r][c]) || at.some(([a, b]) => a === r && b === c)));
      if (!fits) continue;
      const t = rows.map((x) => x.slice());
      for (const [r, c] of at) t[r][c] = '_';
      for (const [r, c] of moved) t[r][c] = ch;
      // klotski.toml's `same` groups: their pieces lettered in reading order.
      for (const group of ['BCDE', 'GHIJ']) {
        const cells = t.flatMap((row, r) => row.map((v, c) => [v, r, c])).filter(([v]) => group.includes(v));
        const order = [...new Set(cells.map(([v]) => v))];
        const rename = new Map(order.map((v, i) => [v, group[i]]));
        for (const [v, r, c] of cells) t[r][c] = rename.get(v);
      }
      out.add(joinRows(t));
    }
  }
  return out;
}
function keeperMoves(position) {
  const rows = rowsOf(position);
  const out = new Set();
  rows.forEach((row, r) => row.forEach((v, c) => {
    if (v !== 'K') return;
    for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const t = rows.map((x) => x.slice());
      const a = rows[r + dr][c + dc];
      if (a === '.') {
        t[r][c] = '.';
        t[r + dr][c + dc] = 'K';
      } else if (a === 'B' && rows[r + 2 * dr][c + 2 * dc] === '.') {
        t[r][c] = '.';
        t[r + dr][c + dc] = 'K';
        t[r + 2 * dr][c + 2 * dc] = 'B';
      } else {
        continue;
      }
      out.add(joinRows(t));
    }
  }));
  return out;
}
const theta0 = [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0], [0, 6], [6, 3]];
function tokenMoves(position) {
  const now = cellsOf(position);
  const out = new Set();
  for (const [a, b] of theta0) {
    for (const [x, y] of [[a, b], [b, a]]) {
      if (now[x] === '_' && now[y] !== '_') {
        const t = now.slice();
        t[x] = t[y];
        t[y] = '_';
        out.add(t.join(' '));
      }
    }
  }
  return out;
}

// The moves of `statespace solve PUZZLE POSITION`'s shortest solution.
function solveLength(puzzle, position) {
  const text = execFileSync(binary, ['solve', puzzle, position], { cwd: source, encoding: 'utf8' });
  const m = text.match(/(\d+) moves?/);
  return m ? Number(m[1]) : -1;
}

// `statespace query PUZZLE POSITION --format json` over the test's bundles.
function query(puzzle, position) {
  const text = execFileSync(binary, ['query', puzzle, position, '--out', out, '--format', 'json'],
    { cwd: source, encoding: 'utf8' });
  return JSON.parse(text);
}
const queryDistance = (q) => (q.standing === 'distance' ? String(q.distance) : '');

// The board in the page: the label each piece covers, by cell.
async function pieceCells(page, scope) {
  return page.$$eval(scope + ' .piece [data-cell][data-label]', (els) => {
    const out = {};
    for (const e of els) out[e.dataset.cell] = e.dataset.label;
    return out;
  });
}
function boardMatches(pieces, position, what) {
  const cells = cellsOf(position);
  for (const [cell, label] of Object.entries(pieces)) {
    if (cells[Number(cell)] !== label) {
      check(false, `${what}: cell ${cell} drawn as ${label}, the position has ${cells[Number(cell)]}`);
      return;
    }
  }
  const occupied = cells.filter((c) => !blank(c)).length;
  check(Object.keys(pieces).length > 0, what + ': pieces drawn');
  return occupied;
}

function watch(page, allowed, name) {
  const problems = [];
  // The bad paste's answer is a 400 by design, which chromium logs as a failed load.
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().includes('status of 400')) problems.push('console: ' + m.text());
  });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('request', (r) => { if (!allowed(r.url())) problems.push('request to ' + r.url()); });
  return () => equal(problems, [], name + ': no console errors, no other hosts');
}

async function main() {
  execFileSync(binary, ['analyze', ...Object.values(tabled), '--table', '--out', out, '-q'],
    { cwd: source, stdio: 'inherit' });
  execFileSync(binary, ['analyze', 'tiles:2x3', '--out', out, '-q'], { cwd: source, stdio: 'inherit' });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'web-test-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1100, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    await reportPages(context);
    await playViews(context);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

async function reportPages(context) {
  const page = await context.newPage();
  const done = watch(page, (url) => url.startsWith('file://'), 'report pages');
  const index = pathToFileURL(path.join(out, 'index.html')).href;
  await page.goto(index);
  const listed = await page.$$eval('#bundles a', (as) => as.map((a) => a.getAttribute('href')));
  equal(listed.sort(), Object.keys(puzzles).map((f) => f + '/index.html').sort(), 'folder index lists every bundle');
  await page.screenshot({ path: path.join(shots, 'index-folder.png'), fullPage: true });
  for (const folder of Object.keys(puzzles)) {
    const started = Date.now();
    await page.goto(pathToFileURL(path.join(out, folder, 'index.html')).href);
    const opened = Date.now() - started;
    check(opened < 1000, `${folder}: index.html opens in ${opened} ms`);
    // The chart against distribution.csv.
    const csv = fs.readFileSync(path.join(out, folder, 'distribution.csv'), 'utf8').trim().split('\n').slice(1);
    const bars = await page.$$eval('svg.chart rect.bar[data-axis="depth"]',
      (els) => els.map((e) => [e.dataset.depth, e.dataset.count, Number(e.getAttribute('height')) > 0]));
    equal(bars.map((b) => b.slice(0, 2)), csv.map((l) => l.split(',').slice(0, 2)), folder + ': bars = distribution.csv');
    check(bars.every((b) => b[2]), folder + ': every bar is drawn');
    // Hover shows the numbers.
    const last = csv[csv.length - 1].split(',');
    // From outside the chart: a pointer left where the last page's bar was would not
    // enter this one.
    await page.mouse.move(0, 0);
    await page.hover(`svg.chart rect.bar[data-depth="${last[0]}"]`);
    const readout = await page.textContent('#readout-depth');
    check(readout.includes(Number(last[1]).toLocaleString('en-US') + ' positions'), `${folder}: hover shows ${readout}`);
    // The boards against farthest.csv.
    const farthest = fs.readFileSync(path.join(out, folder, 'farthest.csv'), 'utf8').trim().split('\n').slice(1)
      .map((l) => l.slice(l.indexOf(',') + 1).replace(/^"|"$/g, ''));
    const figures = await page.$$eval('#farthest figure', (fs_) => fs_.map((f) => f.dataset.csv));
    equal(figures, farthest.slice(0, figures.length), folder + ': boards = farthest.csv');
    check(figures.length === Math.min(farthest.length, 24), folder + ': every farthest position up to 24 drawn');
    for (let i = 0; i < figures.length; i++) {
      const position = await page.$eval(`#farthest figure[data-row="${i}"] svg`, (s) => s.dataset.position);
      boardMatches(await pieceCells(page, `#farthest figure[data-row="${i}"]`), position, `${folder} board ${i + 1}`);
    }
    const links = await page.$$eval('#files a', (as) => as.map((a) => a.getAttribute('href')));
    for (const f of ['distribution.csv', 'farthest.csv', 'summary.json']) check(links.includes(f), `${folder}: links ${f}`);
    for (const f of links) check(fs.existsSync(path.join(out, folder, f)), `${folder}: ${f} exists`);
    await page.screenshot({ path: path.join(shots, `index-${folder}.png`), fullPage: true });
  }
  done();
  await page.close();
}

function startServer() {
  return new Promise((resolve, reject) => {
    const server = spawn(binary, ['serve', out, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    server.stdout.on('data', (d) => {
      text += d;
      const m = text.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) resolve({ server, base: `http://127.0.0.1:${m[1]}` });
    });
    server.on('exit', (code) => reject(new Error('serve exited with ' + code)));
  });
}

async function playViews(context) {
  const { server, base } = await startServer();
  try {
    const cases = [
      { folder: 'tiles-3x3', position: '1 2 3 / 4 5 6 / 7 8 _', click: 5, moves: tileMoves, solve: 'tiles:3x3',
        bad: '1 2 3', random: 7 },
      { folder: 'klotski', position: 'B A A C / B A A C / D F F E / D G H E / I _ _ J', click: 13, moves: blockMoves,
        bad: 'B A A C', random: 6 },
      { folder: 'sokoban-yard', position: null, click: 'K', moves: keeperMoves, bad: '# # #', random: 5 },
      { folder: 'theta0', position: '1 2 3 4 5 6 _', click: 0, moves: tokenMoves, bad: '1 2 3 4 5 6 7 8', random: 6 },
      { folder: 'cube2', position: null, click: 1, moves: null, solve: 'examples/puzzles/cube2.tws',
        bad: 'CORNERS 1 2', random: 5 },
    ];
    for (const c of cases) {
      // No position given: the bundle's start.
      if (!c.position) c.position = JSON.parse(fs.readFileSync(path.join(out, c.folder, 'summary.json'))).start;
      if (typeof c.click === 'string') c.click = cellsOf(c.position).indexOf(c.click);
      c.puzzle = tabled[c.folder];
      await playView(context, base, c);
    }
    await withoutTable(context, base);
    // Without a position the view opens on the first farthest one.
    const page = await context.newPage();
    await page.goto(base + '/play/tiles-3x3');
    await page.waitForSelector('#board svg');
    const summary = JSON.parse(fs.readFileSync(path.join(out, 'tiles-3x3', 'summary.json')));
    equal(await page.textContent('#position'), summary.farthest[0], 'tiles-3x3: opens on the first farthest position');
    await page.close();
  } finally {
    server.kill('SIGINT');
  }
}

// Waits until the page has drawn another answer of the server.
async function nextLoad(page, before) {
  await page.waitForFunction((n) => Number(document.body.dataset.loads || 0) > n, before);
}
const loads = (page) => page.evaluate(() => Number(document.body.dataset.loads || 0));

// The distance the page shows, and every listed move's (position -> [distance, colour]).
async function shownDistances(page) {
  const here = await page.$eval('#distance', (e) => e.dataset.distance);
  const moves = await page.$$eval('#moves li', (lis) => lis.map((li) => [
    li.querySelector('button').dataset.position, li.dataset.distance, li.className.replace(' best', '')]));
  return { here, moves };
}

// The page's distances against statespace query's for the position shown.
function distancesMatch(shown, q, what) {
  equal(shown.here, queryDistance(q), what + ': the distance shown is statespace query\'s');
  const expected = q.moves.map((m) => [m.position, queryDistance(m), m.change === 'not reachable' ? 'unreached' : m.change]);
  equal([...shown.moves].sort(), [...expected].sort(), what + ': every move\'s distance and colour is query\'s');
  const order = shown.moves.map((m) => (m[1] === '' ? Infinity : Number(m[1])));
  check(order.every((d, i) => i === 0 || order[i - 1] <= d), what + ': moves listed best first');
}

async function playView(context, base, c) {
  const page = await context.newPage();
  const done = watch(page, (url) => url.startsWith(base + '/'), 'play ' + c.folder);
  const url = base + '/play/' + c.folder + '?position=' + encodeURIComponent(c.position);
  await page.goto(url);
  await page.waitForSelector('#board svg');
  const position = await page.textContent('#position');
  equal(position, c.position, c.folder + ': the page shows the position of its URL');
  equal(new URL(page.url()).searchParams.get('position'), position, c.folder + ': the position is in the URL');
  boardMatches(await pieceCells(page, '#board'), position, c.folder + ': board');
  equal(await page.$eval('#board svg', (s) => s.dataset.position), position, c.folder + ': board drawn for it');
  const listed = await page.$$eval('#moves button', (bs) => bs.map((b) => b.dataset.position));
  if (c.moves) equal([...listed].sort(), [...c.moves(position)].sort(), c.folder + ': legal moves');
  const first = await shownDistances(page);
  distancesMatch(first, query(c.puzzle, position), c.folder);

  // A click on a piece: the move it makes is listed, and the distance after it is
  // the one listed for that move, and query's.
  const cell = c.click;
  {
    const t0 = Date.now();
    await page.click(`#board .piece [data-cell="${cell}"]`);
    await page.waitForFunction((p) => document.getElementById('position').textContent !== p, position);
    await page.waitForFunction(() => document.body.dataset.drawMs !== undefined);
    const drawn = Date.now() - t0;
    const after = await page.textContent('#position');
    check(listed.includes(after), `${c.folder}: the click on cell ${cell} made a listed move (${after})`);
    if (c.moves) check(c.moves(position).has(after), `${c.folder}: the click made a legal move`);
    check(cellsOf(after)[cell] !== cellsOf(position)[cell], `${c.folder}: the clicked piece moved`);
    boardMatches(await pieceCells(page, '#board'), after, c.folder + ': board after the click');
    const now = await shownDistances(page);
    equal(now.here, first.moves.find((m) => m[0] === after)[1], c.folder + ': the click leads to the distance listed');
    distancesMatch(now, query(c.puzzle, after), c.folder + ' after a click');
    if (c.solve) equal(solveLength(c.solve, after), 1, c.folder + ': statespace solve says one move back');
    const drawMs = await page.evaluate(() => document.body.dataset.drawMs);
    console.log(`${c.folder}: a clicked move shown in ${drawn} ms with the round trip, drawn in ${drawMs} ms`);
    await page.keyboard.press('Backspace');
    await page.waitForFunction((p) => document.getElementById('position').textContent === p, position);
  }
  // Key 1 plays the first listed move: the best one.
  await page.keyboard.press('1');
  await page.waitForFunction((p) => document.getElementById('position').textContent !== p, position);
  const keyed = await page.textContent('#position');
  equal(keyed, listed[0], c.folder + ': key 1 plays the first listed move');
  if (c.moves) check(c.moves(position).has(keyed), c.folder + ': keyed move is legal');
  boardMatches(await pieceCells(page, '#board'), keyed, c.folder + ': board after the key');
  equal(new URL(page.url()).searchParams.get('position'), keyed, c.folder + ': the URL follows');

  // A random position at distance d: query agrees.
  let n = await loads(page);
  await page.fill('#random-d', String(c.random));
  await page.click('#random-go');
  await nextLoad(page, n);
  const random = await page.textContent('#position');
  equal(await page.$eval('#distance', (e) => e.dataset.distance), String(c.random), c.folder + ': random at d shows d');
  equal(queryDistance(query(c.puzzle, random)), String(c.random), `${c.folder}: query says ${random} is at ${c.random}`);
  distancesMatch(await shownDistances(page), query(c.puzzle, random), c.folder + ' at the random position');
  await page.screenshot({ path: path.join(shots, `play-${c.folder}.png`), fullPage: true });

  // The best move: one closer.
  n = await loads(page);
  await page.click('#best');
  await nextLoad(page, n);
  equal(await page.$eval('#distance', (e) => e.dataset.distance), String(c.random - 1), c.folder + ': best move is one closer');

  // Solve from here: the goal in exactly the distance's number of moves.
  await page.selectOption('#speed', '60');
  const from = await page.textContent('#position');
  const d = Number(await page.$eval('#distance', (e) => e.dataset.distance));
  await page.click('#solve');
  await page.waitForFunction(() => document.getElementById('solve-status').dataset.done === 'solved', null,
    { timeout: 30000 });
  equal(await page.$eval('#solve-status', (e) => e.dataset.moves), String(d), `${c.folder}: solved in ${d} moves`);
  const goal = await page.textContent('#position');
  equal(await page.$eval('#distance', (e) => e.dataset.distance), '0', c.folder + ': solve ends at distance 0');
  equal(queryDistance(query(c.puzzle, goal)), '0', `${c.folder}: query says ${goal} is a goal`);
  equal(new URL(page.url()).searchParams.get('position'), goal, c.folder + ': the URL follows the solve');
  if (c.solve) equal(solveLength(c.solve, from), d, c.folder + ': statespace solve agrees on the length');

  // A bad paste: one line of error, the position kept.
  await page.fill('#paste-text', c.bad);
  await page.click('#paste button');
  await page.waitForFunction(() => document.getElementById('error').textContent !== '');
  const error = await page.textContent('#error');
  check(error.length > 10 && !error.includes('\n'), `${c.folder}: bad paste shows one line: ${error}`);
  equal(await page.textContent('#position'), goal, c.folder + ': a bad paste keeps the position');
  await page.screenshot({ path: path.join(shots, `play-${c.folder}-bad-paste.png`) });
  // A good paste clears it.
  await page.fill('#paste-text', position);
  await page.click('#paste button');
  // The pasted position may be the one shown already (a start that is the goal):
  // wait for the answer, which clears the error, not for the position to change.
  await page
    .waitForFunction(
      (p) =>
        document.getElementById('position').textContent === p && document.getElementById('error').textContent === '',
      position,
      { timeout: 5000 },
    )
    .catch(() => {});
  equal(await page.textContent('#error'), '', c.folder + ': a good paste clears the error');
  done();
  await page.close();
}

// A bundle without a table still plays, and says where distances come from.
async function withoutTable(context, base) {
  const page = await context.newPage();
  const done = watch(page, (url) => url.startsWith(base + '/'), 'play tiles-2x3');
  const position = '1 2 3 / 4 5 _';
  await page.goto(base + '/play/tiles-2x3?position=' + encodeURIComponent(position));
  await page.waitForSelector('#board svg');
  check((await page.textContent('#distance')).includes('analyze PUZZLE --table'), 'tiles-2x3: says distances need --table');
  equal(await page.$$eval('#moves .dist', (e) => e.length), 0, 'tiles-2x3: no distances listed');
  for (const id of ['best', 'solve', 'random-go']) {
    check(await page.$eval('#' + id, (b) => b.disabled), `tiles-2x3: #${id} disabled`);
  }
  const listed = await page.$$eval('#moves button', (bs) => bs.map((b) => b.dataset.position));
  equal([...listed].sort(), [...tileMoves(position)].sort(), 'tiles-2x3: legal moves');
  await page.click('#board .piece [data-cell="2"]');
  await page.waitForFunction((p) => document.getElementById('position').textContent !== p, position);
  equal(await page.textContent('#position'), '1 2 _ / 4 5 3', 'tiles-2x3: the click moved tile 3');
  await page.screenshot({ path: path.join(shots, 'play-tiles-2x3-no-table.png'), fullPage: true });
  done();
  await page.close();
}

try {
  await main();
} catch (e) {
  failures += 1;
  console.error('FAIL: ' + (e.stack || e));
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
console.log(`web_test: ${checks} checks, ${failures} failed; screenshots in ${shots}`);
process.exit(failures ? 1 : 0);
