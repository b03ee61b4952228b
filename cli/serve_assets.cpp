#include "cli/serve_assets.hpp"

namespace statespace::cli::serve_assets {

namespace {

#define STATESPACE_STYLE                                                                                         \
  "<style>"                                                                                                      \
  "body{font-family:system-ui,'DejaVu Sans',Helvetica,Arial,sans-serif;margin:24px auto;max-width:980px;"        \
  "padding:0 16px;color:#202020;background:#fff}h1{font-size:1.6em;margin:4px 0}"                                \
  "h2{font-size:1.15em;margin:22px 0 8px}a{color:#0060a0}.muted{color:#666}code{background:#f4f4f4;padding:1px " \
  "4px;word-break:break-all}"                                                                                    \
  "table{border-collapse:collapse}th,td{padding:4px 10px;border-bottom:1px solid #e4e4e4;text-align:right}"      \
  "th:first-child,td:first-child{text-align:left}"                                                               \
  "</style>"

}  // namespace

const std::string_view kHome = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>statespace</title>)" STATESPACE_STYLE R"(</head>
<body>
<h1>statespace</h1>
<p class="muted">The report bundles of this folder: open a report, or play a puzzle.</p>
<table id="bundles"><thead><tr><th>puzzle</th><th>positions</th><th>eccentricity</th><th>farthest</th><th></th><th></th></tr></thead><tbody></tbody></table>
<p id="error" class="muted"></p>
<script>
(async () => {
  const res = await fetch('/api/bundles');
  const body = await res.json();
  const rows = document.querySelector('#bundles tbody');
  if (!body.bundles.length) document.getElementById('error').textContent = 'No bundles here: run statespace analyze PUZZLE --out DIR first.';
  for (const b of body.bundles) {
    const tr = document.createElement('tr');
    const cell = (text) => { const td = document.createElement('td'); td.textContent = text; tr.appendChild(td); return td; };
    cell(b.puzzle + (b.directed ? ' (directed)' : ''));
    cell(Number(b.states).toLocaleString('en-US'));
    cell(String(b.eccentricity));
    cell(Number(b.farthest_count).toLocaleString('en-US'));
    const link = (href, text) => { const td = cell(''); if (href) { const a = document.createElement('a'); a.href = href; a.textContent = text; td.appendChild(a); } };
    link(b.report, 'report');
    link(b.play, 'play');
    rows.appendChild(tr);
  }
})();
</script>
</body></html>
)";

const std::string_view kPlay = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>statespace: play</title>)" STATESPACE_STYLE R"(<style>
body{max-width:1120px}
.play{display:flex;flex-wrap:wrap;gap:28px;align-items:flex-start}
.left{flex:0 1 auto;min-width:280px}.right{flex:1 1 360px;min-width:300px}
#status{display:flex;align-items:baseline;gap:12px;min-height:2.2em;margin:6px 0 10px}
#distance{font-size:1.45em;font-weight:600}#distance.none{font-size:1em;font-weight:normal;color:#666}
#distance.goal{color:#3d7a0f}#distance.dead{color:#202020}
#board{display:inline-block;padding:10px;border:1px solid #ddd;border-radius:8px;outline:none;background:#fafafa}
#board:focus{border-color:#0072B2}#board [data-cell]{cursor:pointer}
#board .hint{stroke:#0072B2;stroke-width:5px}#board .last{stroke:#E69F00;stroke-width:4px}
#error{color:#b00020;min-height:1.3em;margin:6px 0}#paste{display:flex;gap:6px}#paste input{font:inherit;flex:1;min-width:0}
button{font:inherit;cursor:pointer;border:1px solid #bbb;border-radius:5px;background:#f6f6f6;padding:4px 12px}
button:hover:not(:disabled){background:#ececec}button:disabled{cursor:default;color:#999}
button.primary{background:#3d7a0f;border-color:#336a0b;color:#fff}button.primary:hover:not(:disabled){background:#336a0b}
button.primary:disabled{background:#b9cfa9;border-color:#b9cfa9;color:#fff}
#tools{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:4px 0 8px}
#tools select,#random input{font:inherit;padding:3px}#random{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:8px 0}
#random input{width:5em}#solve-status{min-height:1.3em;margin:4px 0}
#moves{list-style:none;padding:0;margin:0;border:1px solid #e2e2e2;border-radius:8px;overflow:hidden}
#moves li{display:flex;align-items:center;gap:10px;padding:0;border-bottom:1px solid #eee;border-left:6px solid #ccc}
#moves li:last-child{border-bottom:none}
#moves li button{flex:0 0 auto;border:none;background:none;border-radius:0;padding:7px 10px;text-align:left;min-width:8.5em}
#moves li:hover{background:#f3f7fb}#moves .key{color:#999;font-size:.8em;margin-right:6px}
#moves .to{flex:1 1 auto;color:#777;font-size:.85em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}
#moves .dist{flex:0 0 auto;margin-right:10px;min-width:3.2em;text-align:center;border-radius:4px;padding:2px 6px;
font-weight:600;font-size:.9em;color:#fff;background:#aaa}
#moves li.closer{border-left-color:#629924}#moves li.closer .dist{background:#629924}
#moves li.same{border-left-color:#9a9a9a}#moves li.same .dist{background:#9a9a9a}
#moves li.farther{border-left-color:#cc3333}#moves li.farther .dist{background:#cc3333}
#moves li.dead{border-left-color:#202020}#moves li.dead .dist{background:#202020}
#moves li.unreached .dist{background:#fff;color:#888;border:1px dashed #aaa}
#moves li.best button{font-weight:600}
.legend[hidden]{display:none}.legend{display:flex;flex-wrap:wrap;gap:14px;font-size:.85em;color:#555;margin:8px 0}
.legend span::before{content:"";display:inline-block;width:12px;height:12px;border-radius:3px;margin-right:5px;vertical-align:-1px;background:var(--c)}
</style></head>
<body>
<p><a href="/">All puzzles</a> · <a id="report" href="/">Report</a></p>
<h1 id="title">statespace</h1>
<div class="play">
<section class="left">
<div id="status"><span id="distance" class="none"></span></div>
<div id="board" tabindex="0" aria-label="the board: click a piece to move it"></div>
<p>Position: <code id="position"></code></p>
<form id="paste"><input id="paste-text" placeholder="paste a position in the notation" aria-label="a position">
<button type="submit">Go</button></form>
<div id="error" role="alert"></div>
</section>
<section class="right">
<div id="tools">
<button type="button" id="best" class="primary" disabled>Best move</button>
<button type="button" id="solve" disabled>Solve from here</button>
<label class="muted">speed <select id="speed"><option value="700">slow</option><option value="300" selected>normal</option><option value="60">fast</option></select></label>
</div>
<form id="random"><button type="submit" id="random-go" disabled>Random position</button> at distance
<input id="random-d" type="number" min="0" value="0" aria-label="the distance" disabled> <span id="random-range" class="muted"></span></form>
<div id="solve-status" class="muted" aria-live="polite"></div>
<h2>Legal moves (<span id="count">0</span>)</h2>
<ol id="moves"></ol>
<div class="legend" id="legend" hidden><span style="--c:#629924">closer</span><span style="--c:#9a9a9a">the same</span>
<span style="--c:#cc3333">farther</span><span style="--c:#202020">dead</span></div>
</section>
</div>
<p class="muted">Click a piece (or an empty cell) to move it; keys 1 to 9 play the listed moves, B the best one,
Backspace goes back. Distances are moves to the goal, from the bundle's distance table.</p>
<script>
const folder = decodeURIComponent(location.pathname.slice('/play/'.length));
const api = (route, query) => '/api/' + route + '/' + encodeURIComponent(folder) + (query ? '?' + query : '');
let current = null;
let shown = [];        // the moves in the order listed: best first when there are distances
let solving = null;    // the running solve: {stop: true} ends it
let clickedAt = null;  // when the board was last clicked (performance.now())
const $ = (id) => document.getElementById(id);
const showError = (message) => { $('error').textContent = message; };
const plural = (n, one, many) => n + ' ' + (n === 1 ? one : many);

async function fetchJson(url) {
  try {
    const res = await fetch(url);
    const body = await res.json();
    if (!res.ok) { showError(body.error); return null; }
    return body;
  } catch (e) {
    showError('the server did not answer (' + e.message + ')');
    return null;
  }
}

async function load(position, how, changed) {
  delete document.body.dataset.drawMs;
  const body = await fetchJson(api('play', position === null ? '' : 'position=' + encodeURIComponent(position)));
  if (!body) return false;
  const t0 = performance.now();
  showError('');
  current = body;
  render(changed || []);
  const query = '?position=' + encodeURIComponent(body.position);
  if (how === 'push') history.pushState(null, '', query);
  else if (how === 'replace') history.replaceState(null, '', query);
  // The time to draw, until the frame is painted (a task after the next animation
  // frame): what a move costs in the page, the server's answer aside.
  requestAnimationFrame(() => setTimeout(() => {
    const now = performance.now();
    document.body.dataset.drawMs = (now - t0).toFixed(1);
    if (clickedAt !== null) document.body.dataset.clickMs = (now - clickedAt).toFixed(1);
    clickedAt = null;
  }, 0));
  document.body.dataset.loads = String(Number(document.body.dataset.loads || 0) + 1);
  return true;
}

const rank = (m) => m.standing === 'distance' ? m.distance : m.standing === 'dead' ? 1e9 : 2e9;

function render(changed) {
  document.title = current.puzzle + ': statespace play';
  $('title').textContent = current.puzzle;
  $('report').href = '/reports/' + encodeURIComponent(folder) + '/index.html';
  $('board').innerHTML = current.svg;
  for (const c of changed) $('board').querySelectorAll('[data-cell="' + c + '"]').forEach((e) => e.classList.add('last'));
  $('position').textContent = current.position;
  const tabled = 'standing' in current;
  const d = $('distance');
  d.className = tabled ? current.standing === 'distance' ? (current.distance === 0 ? 'goal' : '') : 'dead' : 'none';
  d.dataset.distance = tabled && current.standing === 'distance' ? String(current.distance) : '';
  if (!tabled) d.textContent = current.distances;
  else if (current.standing === 'dead') d.textContent = 'Dead: no goal can be reached from here';
  else if (current.standing !== 'distance') d.textContent = 'Not in the distance table';
  else d.textContent = current.distance === 0 ? 'The goal' : plural(current.distance, 'move', 'moves') + ' to the goal';
  $('legend').hidden = !tabled;
  $('best').disabled = !('best' in current);
  $('solve').disabled = !(tabled && current.standing === 'distance' && current.distance > 0) && !solving;
  $('random-go').disabled = $('random-d').disabled = !tabled;
  if (tabled) {
    const top = current.table.layers.length - 1;
    $('random-d').max = String(top);
    // Until edited, the distance offered is the position's own.
    if (!$('random-d').dataset.edited && current.standing === 'distance') $('random-d').value = String(current.distance);
    $('random-range').textContent = '(0 to ' + top + ')';
  }
  $('count').textContent = String(current.moves.length);
  shown = current.moves.slice();
  if (tabled) shown.sort((a, b) => rank(a) - rank(b) || a.index - b.index);
  const list = $('moves');
  list.textContent = '';
  shown.forEach((m, i) => {
    const li = document.createElement('li');
    if (tabled) li.className = (m.change === 'not reachable' ? 'unreached' : m.change) + (m.index === current.best ? ' best' : '');
    const b = document.createElement('button');
    b.type = 'button';
    if (i < 9) { const k = document.createElement('span'); k.className = 'key'; k.textContent = String(i + 1); b.append(k); }
    b.append(m.name);
    b.dataset.position = m.position;
    b.addEventListener('click', () => play(m));
    li.append(b);
    if (tabled) {
      const dist = document.createElement('span');
      dist.className = 'dist';
      dist.textContent = m.standing === 'distance' ? String(m.distance) : m.standing === 'dead' ? 'dead' : '–';
      dist.title = m.standing === 'distance' ? plural(m.distance, 'move', 'moves') + ' to the goal after it (' + m.change + ')' : m.standing;
      li.dataset.distance = m.standing === 'distance' ? String(m.distance) : '';
      li.append(dist);
    }
    const to = document.createElement('span');
    to.className = 'to';
    to.textContent = m.position;
    li.append(to);
    const hint = (on) => m.changed.forEach((c) => $('board').querySelectorAll('[data-cell="' + c + '"]').forEach((e) => e.classList.toggle('hint', on)));
    li.addEventListener('mouseenter', () => hint(true));
    li.addEventListener('mouseleave', () => hint(false));
    list.appendChild(li);
  });
}

function stopSolving() {
  if (solving) solving.stop = true;
}

function play(m) {
  if (!current || !m) return;
  stopSolving();
  load(m.position, 'push', m.changed);
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function solve() {
  if (solving) { stopSolving(); return; }
  const line = await fetchJson(api('line', 'position=' + encodeURIComponent(current.position)));
  if (!line) return;
  const run = { stop: false };
  solving = run;
  $('solve').textContent = 'Stop';
  $('solve').disabled = false;
  const status = $('solve-status');
  status.dataset.done = '';
  let made = 0;
  for (const step of line.line) {
    if (run.stop) break;
    await pause(Number($('speed').value));
    if (run.stop) break;
    const before = current.cells;
    const after = step.position.split(/\s+/).filter((w) => w && w !== '/');
    const changed = before.map((c, i) => (c !== after[i] ? i : -1)).filter((i) => i >= 0);
    if (!(await load(step.position, made === 0 ? 'push' : 'replace', changed))) break;
    made += 1;
    status.textContent = 'Solving: move ' + made + ' of ' + line.distance + ' (' + step.move + ')';
  }
  solving = null;
  $('solve').textContent = 'Solve from here';
  status.dataset.moves = String(made);
  status.dataset.done = run.stop ? 'stopped' : 'solved';
  status.textContent = run.stop ? 'Stopped after ' + plural(made, 'move', 'moves') + '.'
    : 'Solved: the goal in ' + plural(made, 'move', 'moves') + ', as the table says.';
  render([]);
}

$('random-d').addEventListener('input', () => { $('random-d').dataset.edited = '1'; });
$('best').addEventListener('click', () => play(current && current.moves[current.best]));
$('solve').addEventListener('click', solve);

$('random').addEventListener('submit', async (event) => {
  event.preventDefault();
  stopSolving();
  const d = $('random-d').value;
  const body = await fetchJson(api('random', 'distance=' + encodeURIComponent(d)));
  if (body) load(body.position, 'push');
});

$('board').addEventListener('click', (event) => {
  const el = event.target.closest('[data-cell]');
  if (!el || !current) return;
  clickedAt = performance.now();
  const cell = Number(el.dataset.cell);
  // The first listed move that changes the cell (the best one, with distances): the
  // clicked piece moves, or on an empty cell a piece moves into it.
  const m = shown.find((x) => x.changed.includes(cell));
  if (!m) { showError('no move changes that cell'); return; }
  play(m);
});

document.addEventListener('keydown', (event) => {
  if (event.target.closest && event.target.closest('input, select')) return;
  if (event.key >= '1' && event.key <= '9') play(shown[Number(event.key) - 1]);
  else if (event.key === 'b' || event.key === 'B') play(current && current.moves[current.best]);
  else if (event.key === 'Backspace') { stopSolving(); history.back(); }
});

$('paste').addEventListener('submit', (event) => {
  event.preventDefault();
  stopSolving();
  load($('paste-text').value, 'push');
});

window.addEventListener('popstate', () => {
  const p = new URLSearchParams(location.search).get('position');
  load(p, null);
});

load(new URLSearchParams(location.search).get('position'), 'replace');
</script>
</body></html>
)";

}  // namespace statespace::cli::serve_assets
