#include "reports/html.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "reports/escape.hpp"
#include "reports/puzzle_report.hpp"
#include "reports/svg.hpp"
#include "reports/tables.hpp"

namespace statespace::reports {

namespace {

constexpr const char* kStyle = R"(<style>
body{font-family:system-ui,"DejaVu Sans",Helvetica,Arial,sans-serif;margin:24px auto;max-width:980px;padding:0 16px;color:#202020;background:#fff}
h1{font-size:1.6em;margin:0 0 4px}h2{font-size:1.2em;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
table.facts td{padding:2px 14px 2px 0;vertical-align:top}table.facts td:first-child{color:#555}
table.list{border-collapse:collapse}table.list th,table.list td{padding:4px 10px;border-bottom:1px solid #e4e4e4;text-align:right}
table.list th:first-child,table.list td:first-child{text-align:left}
.boards{display:flex;flex-wrap:wrap;gap:14px}.boards figure{margin:0;text-align:center}
.boards figcaption{font-size:12px;color:#555;max-width:260px;word-break:break-all}
.bar{fill:#0072B2}.bar:hover,.bar.on{fill:#D55E00}#readout{min-height:1.3em;font-variant-numeric:tabular-nums}
pre.notation{background:#f4f4f4;padding:6px 8px;margin:0;white-space:pre-wrap}code{background:#f4f4f4;padding:1px 4px}
.muted{color:#666}
</style>
)";

// Hover (or focus) on a bar writes its numbers under the chart.
constexpr const char* kChartScript = R"(<script>
for (const chart of document.querySelectorAll('svg.chart')) {
  const out = document.getElementById(chart.dataset.readout);
  const show = (bar) => {
    for (const b of chart.querySelectorAll('.bar.on')) b.classList.remove('on');
    bar.classList.add('on');
    out.textContent = bar.dataset.axis + ' ' + bar.dataset.depth + ': ' +
      Number(bar.dataset.count).toLocaleString('en-US') + ' positions (' +
      Number(bar.dataset.cumulative).toLocaleString('en-US') + ' up to here)';
  };
  for (const bar of chart.querySelectorAll('.bar')) {
    bar.addEventListener('mouseenter', () => show(bar));
    bar.addEventListener('focus', () => show(bar));
  }
}
</script>
)";

std::string head(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<link rel=\"icon\" href=\"data:,\">\n"
         "<title>" +
         xml_escape(title) + "</title>\n" + kStyle + "</head>\n<body>\n";
}

// 1, 10, 100, 1k, 10k, ... for the log axis.
std::string power_label(int exponent) {
  static const char* suffix[] = {"", "k", "M", "G", "T", "P"};
  const int group = std::min(exponent / 3, 5);
  return std::to_string(int(std::pow(10, exponent - 3 * group) + 0.5)) + suffix[group];
}

std::string fact_row(const std::string& name, const std::string& value) {
  return "<tr><td>" + xml_escape(name) + "</td><td>" + xml_escape(value) + "</td></tr>\n";
}

// Boards with their captions; the ones past the drawn ones as notation lines.
std::string boards_section(const std::vector<Drawing>* drawn, const std::vector<std::string>& positions,
                           const std::vector<std::string>& csv_positions, const std::string& id) {
  std::string out = "<div class=\"boards\" id=\"" + id + "\">\n";
  const std::size_t shown = drawn ? std::min(drawn->size(), positions.size()) : 0;
  for (std::size_t i = 0; i < shown; ++i) {
    const std::string& csv = i < csv_positions.size() ? csv_positions[i] : positions[i];
    out += "<figure data-row=\"" + std::to_string(i) + "\" data-csv=\"" + xml_escape(csv) + "\">" +
           drawing_svg((*drawn)[i]) + "<figcaption>" + std::to_string(i + 1) + ". " + xml_escape(positions[i]) +
           "</figcaption></figure>\n";
  }
  out += "</div>\n";
  if (shown < positions.size()) {
    const std::size_t listed = std::min(positions.size(), shown + kMaxPageNotations);
    out += "<pre class=\"notation more\">";
    for (std::size_t i = shown; i < listed; ++i) out += std::to_string(i + 1) + ". " + xml_escape(positions[i]) + "\n";
    out += "</pre>\n";
    if (listed < positions.size()) {
      out += "<p class=\"muted\">" + with_commas(positions.size() - listed) + " more in the CSV file.</p>\n";
    }
  }
  return out;
}

}  // namespace

void set_play_source(BundleBoards& b, const std::string& argument, const std::string& moves, const std::string& metric,
                     const std::string& symmetry) {
  nlohmann::ordered_json j;
  for (const char* ext : {".toml", ".tws"}) {
    if (!argument.ends_with(ext)) continue;
    std::ifstream in(argument, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) return;
    b.model_file = std::string("puzzle") + ext;
    b.model_text = text.str();
    j["file"] = b.model_file;
  }
  if (b.model_file.empty()) j["puzzle"] = argument;
  if (!moves.empty()) j["moves"] = moves;
  if (!metric.empty()) j["metric"] = metric;
  if (!symmetry.empty() && symmetry != "none") j["symmetry"] = symmetry;
  b.play_json = j.dump(2) + "\n";
}

std::string distribution_chart_svg(const std::vector<std::uint64_t>& counts, const std::string& axis) {
  constexpr double kWidth = 760, kHeight = 300, kLeft = 70, kRight = 744, kTop = 12, kBottom = 256;
  std::uint64_t most = 1, least = 0;
  for (const auto n : counts) {
    most = std::max(most, n);
    if (n && (!least || n < least)) least = n;
  }
  const bool log_scale = least && double(most) / double(least) >= 100;
  const int decades = std::max(1, int(std::ceil(std::log10(double(most)) - 1e-9)));
  const double top = log_scale ? decades : double(most);
  const auto py = [&](std::uint64_t n) {
    const double v = log_scale ? (n ? std::log10(double(n)) + 0.15 : 0) : double(n);  // a single one still shows
    return kBottom - (kBottom - kTop) * std::min(v, top + 0.15) / (top + (log_scale ? 0.15 : 0));
  };
  const double slot = (kRight - kLeft) / double(std::max<std::size_t>(counts.size(), 1));
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" + svg_number(kWidth) +
                    "\" height=\"" + svg_number(kHeight) + "\" viewBox=\"0 0 " + svg_number(kWidth) + " " +
                    svg_number(kHeight) + "\" data-log=\"" + (log_scale ? "1" : "0") + "\" data-readout=\"readout-" +
                    axis + "\" font-size=\"12\">";
  // Grid lines: each decade, or a nice linear step.
  std::vector<std::pair<double, std::string>> ticks;
  if (log_scale) {
    for (int e = 0; e <= decades; ++e) ticks.emplace_back(py(std::uint64_t(std::pow(10, e) + 0.5)), power_label(e));
  } else {
    // 1, 2 or 5 times a power of ten: at most six steps.
    double step = 1;
    for (double p = 1; step == 1 && double(most) / p > 6; p *= 10) {
      for (const double m : {1.0, 2.0, 5.0}) {
        if (double(most) / (m * p) <= 6) {
          step = m * p;
          break;
        }
      }
    }
    for (double v = 0; v <= double(most) + 1e-9; v += step)
      ticks.emplace_back(py(std::uint64_t(v)), with_commas(std::uint64_t(v)));
  }
  for (const auto& [y, label] : ticks) {
    out += "<line x1=\"" + svg_number(kLeft) + "\" y1=\"" + svg_number(y) + "\" x2=\"" + svg_number(kRight) +
           "\" y2=\"" + svg_number(y) + "\" stroke=\"#e4e4e4\"/><text x=\"" + svg_number(kLeft - 6) + "\" y=\"" +
           svg_number(y + 4) + "\" text-anchor=\"end\">" + label + "</text>";
  }
  std::uint64_t cumulative = 0;
  const std::size_t label_every = std::max<std::size_t>(1, std::size_t(std::ceil(24.0 / slot)));
  for (std::size_t d = 0; d < counts.size(); ++d) {
    cumulative += counts[d];
    const double x = kLeft + slot * double(d), y = py(counts[d]);
    out += "<rect class=\"bar\" tabindex=\"0\" x=\"" + svg_number(x + slot * 0.1) + "\" y=\"" + svg_number(y) +
           "\" width=\"" + svg_number(slot * 0.8) + "\" height=\"" + svg_number(kBottom - y) + "\" data-axis=\"" +
           axis + "\" data-depth=\"" + std::to_string(d) + "\" data-count=\"" + std::to_string(counts[d]) +
           "\" data-cumulative=\"" + std::to_string(cumulative) + "\"><title>" + axis + " " + std::to_string(d) + ": " +
           with_commas(counts[d]) + " positions</title></rect>";
    if (d % label_every == 0) {
      out += "<text x=\"" + svg_number(x + slot / 2) + "\" y=\"" + svg_number(kBottom + 16) +
             "\" text-anchor=\"middle\">" + std::to_string(d) + "</text>";
    }
  }
  out += "<line x1=\"" + svg_number(kLeft) + "\" y1=\"" + svg_number(kBottom) + "\" x2=\"" + svg_number(kRight) +
         "\" y2=\"" + svg_number(kBottom) + "\" stroke=\"#000\"/>";
  out += "<text x=\"" + svg_number((kLeft + kRight) / 2) + "\" y=\"" + svg_number(kHeight - 6) +
         "\" text-anchor=\"middle\">" + axis + (log_scale ? " (positions on a log scale)" : "") + "</text>";
  return out + "</svg>\n";
}

std::string bundle_index_html(const AnalysisResult& r, const BundleBoards* boards,
                              const std::vector<std::string>& files) {
  std::string out = head(r.puzzle + ": statespace report");
  out += "<h1>" + xml_escape(r.puzzle) + "</h1>\n<p class=\"muted\">Every position reachable from <code>" +
         xml_escape(r.start) + "</code>, by breadth-first search.</p>\n";
  out += "<table class=\"facts\" id=\"facts\">\n";
  out += fact_row(r.layer_positions.empty() ? "positions" : "classes (up to symmetry)", with_commas(r.states));
  if (!r.layer_positions.empty()) out += fact_row("positions", with_commas(r.positions()));
  if (r.gives(kViewEdges)) out += fact_row("moves (edges)", with_commas(r.edges));
  out += fact_row(r.directed ? "eccentricity (from the start, directed)" : "eccentricity of the start",
                  std::to_string(r.eccentricity()) + " moves");
  out += fact_row("farthest positions", with_commas(r.farthest.size()));
  if (r.diameter)
    out += fact_row("diameter", std::to_string(r.diameter->length) + " moves (" + r.diameter->method + ")");
  if (r.components) {
    const auto& c = *r.components;
    out +=
        fact_row("components", with_commas(c.sizes.size()) + " of " + with_commas(c.positions) +
                                   " positions (largest " + with_commas(c.sizes.empty() ? 0 : c.sizes.front()) + ")");
  }
  if (r.goal) {
    out += fact_row("goal", r.goal->goal);
    out += fact_row("shortest solution", r.goal->shortest ? std::to_string(*r.goal->shortest) + " moves"
                                                          : std::string("the goal is not reachable from the start"));
    if (r.goal->dead_ends) out += fact_row("dead ends", with_commas(*r.goal->dead_ends));
  }
  for (const auto& u : r.unavailable) out += fact_row("not available: " + u.view, u.reason);
  out += "</table>\n";

  out += "<h2>Positions by distance from the start</h2>\n" + distribution_chart_svg(r.layers, "depth") +
         "<div id=\"readout-depth\" class=\"muted\">Point at a bar for its numbers.</div>\n";
  if (r.goal && !r.goal->layers.empty()) {
    out += "<h2>Positions by distance to the goal</h2>\n" + distribution_chart_svg(r.goal->layers, "distance") +
           "<div id=\"readout-distance\" class=\"muted\">Point at a bar for its numbers.</div>\n";
  }

  const std::vector<std::string>& csv_farthest = r.table_positions ? r.table_positions->farthest : r.farthest;
  out += "<h2>The farthest positions: " + with_commas(r.farthest.size()) + " at " + std::to_string(r.eccentricity()) +
         " moves</h2>\n";
  out += boards_section(boards ? &boards->farthest : nullptr, r.farthest, csv_farthest, "farthest");
  if (r.goal && !r.goal->hardest.empty()) {
    const std::vector<std::string>& csv_hardest = r.table_positions ? r.table_positions->hardest : r.goal->hardest;
    out += "<h2>The hardest positions to the goal: " + with_commas(r.goal->hardest.size()) + " at " +
           std::to_string(r.goal->layers.empty() ? 0 : r.goal->layers.size() - 1) + " moves</h2>\n";
    out += boards_section(boards ? &boards->hardest : nullptr, r.goal->hardest, csv_hardest, "hardest");
  }

  out += "<h2>Files</h2>\n<ul id=\"files\">\n";
  for (const auto& f : files) {
    out += "<li><a href=\"" + xml_escape(link_target(f)) + "\">" + xml_escape(f) + "</a></li>\n";
  }
  out += "</ul>\n<p><a href=\"../index.html\">All puzzles in this folder</a></p>\n";
  return out + kChartScript + "</body>\n</html>\n";
}

std::string folder_index_html(const std::vector<AnalysisResult>& results) {
  std::string out = head("statespace reports");
  out += "<h1>statespace reports</h1>\n<p class=\"muted\">" + with_commas(results.size()) +
         (results.size() == 1 ? " puzzle" : " puzzles") +
         " analysed in this folder. <a href=\"summary.csv\">summary.csv</a> · <a "
         "href=\"summary.md\">summary.md</a></p>\n";
  out +=
      "<table class=\"list\" id=\"bundles\">\n<tr><th>puzzle</th><th>positions</th><th>moves</th>"
      "<th>eccentricity</th><th>farthest</th><th>diameter</th></tr>\n";
  for (const auto& r : results) {
    const std::string folder = folder_name(r.puzzle);
    out += "<tr><td><a href=\"" + xml_escape(link_target(folder)) + "/index.html\">" + xml_escape(r.puzzle) + "</a>" +
           (r.directed ? " <span class=\"muted\">(directed)</span>" : "") + "</td><td>" + with_commas(r.positions()) +
           "</td><td>" + (r.gives(kViewEdges) ? with_commas(r.edges) : "n/a") + "</td><td>" +
           std::to_string(r.eccentricity()) + "</td><td>" + with_commas(r.farthest_count()) + "</td><td>" +
           (r.diameter ? std::to_string(r.diameter->length) : "") + "</td></tr>\n";
  }
  return out + "</table>\n</body>\n</html>\n";
}

}  // namespace statespace::reports
