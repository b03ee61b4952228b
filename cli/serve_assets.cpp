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
#board{display:inline-block;padding:8px;border:1px solid #ddd;border-radius:6px;outline:none}
#board:focus{border-color:#0072B2}#board [data-cell]{cursor:pointer}
#moves{padding-left:1.6em}#moves li{margin:3px 0}#moves button{font:inherit;padding:2px 10px;cursor:pointer}
#moves .to{color:#666;font-size:.85em;margin-left:8px}
#error{color:#b00020;min-height:1.3em;margin:6px 0}#paste input{font:inherit;width:min(640px,90%)}
</style></head>
<body>
<p><a href="/">All puzzles</a> · <a id="report" href="/">Report</a></p>
<h1 id="title">statespace</h1>
<div id="board" tabindex="0" aria-label="the board: click a piece to move it"></div>
<p id="distance" class="muted"></p>
<p>Position: <code id="position"></code></p>
<form id="paste"><input id="paste-text" placeholder="paste a position in the notation" aria-label="a position">
<button type="submit">Go</button></form>
<div id="error" role="alert"></div>
<h2>Legal moves (<span id="count">0</span>)</h2>
<ol id="moves"></ol>
<p class="muted">Click a piece (or an empty cell) to move; keys 1 to 9 play the listed moves, Backspace goes back.</p>
<script>
const folder = decodeURIComponent(location.pathname.slice('/play/'.length));
let current = null;
const $ = (id) => document.getElementById(id);
const showError = (message) => { $('error').textContent = message; };

async function load(position, how) {
  const url = '/api/play/' + encodeURIComponent(folder) +
    (position === null ? '' : '?position=' + encodeURIComponent(position));
  let body;
  try {
    const res = await fetch(url);
    body = await res.json();
    if (!res.ok) { showError(body.error); return false; }
  } catch (e) {
    showError('the server did not answer (' + e.message + ')');
    return false;
  }
  showError('');
  current = body;
  render();
  const query = '?position=' + encodeURIComponent(body.position);
  if (how === 'push') history.pushState(null, '', query);
  else if (how === 'replace') history.replaceState(null, '', query);
  return true;
}

function render() {
  document.title = current.puzzle + ': statespace play';
  $('title').textContent = current.puzzle;
  $('report').href = '/reports/' + encodeURIComponent(folder) + '/index.html';
  $('board').innerHTML = current.svg;
  $('position').textContent = current.position;
  const hasDistance = current.moves.some((m) => 'distance' in m);
  $('distance').textContent = hasDistance ? '' : 'Distances need --table (statespace analyze PUZZLE --table).';
  $('count').textContent = String(current.moves.length);
  const list = $('moves');
  list.textContent = '';
  current.moves.forEach((m, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = m.name + ('distance' in m ? ' (' + m.distance + ')' : '');
    b.dataset.position = m.position;
    b.addEventListener('click', () => play(i));
    const to = document.createElement('span');
    to.className = 'to';
    to.textContent = m.position;
    li.append(b, to);
    list.appendChild(li);
  });
}

function play(i) {
  if (!current || i < 0 || i >= current.moves.length) return;
  load(current.moves[i].position, 'push');
}


$('board').addEventListener('click', (event) => {
  const el = event.target.closest('[data-cell]');
  if (!el || !current) return;
  const cell = Number(el.dataset.cell);
  // The first listed move that changes the cell: the clicked piece moves, or on an
  // empty cell a piece moves into it.
  const index = current.moves.findIndex((m) => m.changed.includes(cell));
  if (index < 0) { showError('no move changes that cell'); return; }
  play(index);
});

document.addEventListener('keydown', (event) => {
  if (event.target.closest && event.target.closest('input')) return;
  if (event.key >= '1' && event.key <= '9') play(Number(event.key) - 1);
  else if (event.key === 'Backspace') history.back();
});

$('paste').addEventListener('submit', (event) => {
  event.preventDefault();
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
