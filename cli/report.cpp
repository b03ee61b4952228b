// statespace report: an article's tables, figures and per-analysis reports from one
// TOML manifest (cli/report_manifest.hpp). The whole manifest is checked before any
// work; the bundle is built in a staging folder beside DIR and renamed into place
// at the end, so DIR is either the old bundle or the new one. Results are cached
// under DIR/cache, keyed by everything that decides them, so editing a table or a
// figure reruns no BFS.
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "analysis/analyze.hpp"
#include "analysis/pipeline/analyze_puzzle.hpp"
#include "cli/cli.hpp"
#include "cli/report_manifest.hpp"
#include "core/errors.hpp"
#include "reports/article.hpp"
#include "reports/atomic_file.hpp"
#include "reports/puzzle_report.hpp"
#include "reports/staging.hpp"
#include "reports/summary_json.hpp"
#include "reports/svg.hpp"
#include "reports/tables.hpp"

namespace statespace::cli {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string first_field(const std::string& file, const std::string& key) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(key)) {
      const auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      const auto begin = line.find_first_not_of(" \t", colon + 1);
      return begin == std::string::npos ? "" : line.substr(begin);
    }
  }
  return "";
}

// "AMD EPYC 7B13, 2 CPUs, 24 GiB": where a result was computed, for provenance.
std::string machine_description() {
  std::string cpu = first_field("/proc/cpuinfo", "model name");
  if (cpu.empty()) cpu = "unknown CPU";
  const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  const double gib = double(::sysconf(_SC_PHYS_PAGES)) * double(::sysconf(_SC_PAGESIZE)) / double(1ull << 30);
  char buf[64];
  std::snprintf(buf, sizeof buf, ", %ld CPUs, %.0f GiB", cpus, gib);
  return cpu + buf;
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

// The `statespace analyze` line that reproduces one analysis.
std::string analyze_command(const ManifestAnalysis& a) {
  const AnalyzeOptions& o = a.options;
  std::string cmd = "statespace analyze " + a.puzzle;
  if (!o.from.empty()) cmd += " --from " + quoted(o.from);
  if (!o.goal.empty()) cmd += " --goal " + quoted(o.goal);
  if (!a.moves.empty()) cmd += " --moves " + a.moves;
  cmd += " --engine " + std::string(engine_name(o.engine));
  if (o.all_pairs) cmd += " --all-pairs";
  if (o.components) cmd += " --components";
  return cmd;
}

// Everything that decides a result, one fact a line.
std::string cache_key(const ManifestAnalysis& a, const std::string& puzzle_name) {
  const AnalyzeOptions& o = a.options;
  return std::string("statespace report cache\nversion ") + STATESPACE_VERSION + "\npuzzle " + puzzle_name +
         "\npuzzle-file-hash " + a.puzzle_hash + "\nfrom " + o.from + "\ngoal " + o.goal + "\nmoves " + a.moves +
         "\nengine " + std::string(engine_name(o.engine)) + "\nall-pairs " + (o.all_pairs ? "yes" : "no") +
         "\ncomponents " + (o.components ? "yes" : "no") + "\n";
}

// cache/<puzzle>-<hash of the key>: readable, and one folder per key.
fs::path cache_entry(const std::string& puzzle_name, const std::string& key) {
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a64(key)));
  std::string stem = reports::folder_name(puzzle_name);
  for (char& c : stem) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '-';
  }
  return fs::path("cache") / (stem + "-" + hash);
}

// The manifest chose the engine when it was loaded; bundles draw no graph.dot.
AnalysisResult compute(const ManifestAnalysis& a, AnalyzeOptions o) {
  o.draw_graph = false;
  Progress clock(a.label, false);
  AnalysisResult r = analyze_puzzle(a.model, o, a.plan).result;
  r.threads = o.threads;
  r.seconds = clock.seconds();
  r.peak_bytes = peak_rss_bytes();
  return r;
}

// A distribution plot, or the farthest positions of one analysis as boards.
std::string figure_svg(const ManifestFigure& f, const Manifest& manifest,
                       const std::vector<reports::ArticleAnalysis>& analyses) {
  if (f.kind == "distribution") {
    std::vector<reports::Curve> curves;
    // A directed analysis's depths run from its start, not to a goal: the legend says so.
    for (auto i : f.analyses) {
      curves.push_back({analyses[i].label + (analyses[i].result.directed ? " (directed, from the start)" : ""),
                        analyses[i].result.layers});
    }
    return reports::distribution_svg(f.title.empty() ? "Positions per depth" : f.title, curves, f.log_scale);
  }
  const auto& a = analyses[f.analyses.front()];
  const AnalysisResult& r = a.result;
  const std::size_t shown = std::min(f.limit, r.farthest.size());
  const std::string title = !f.title.empty()
                                ? f.title
                                : a.label + ": " +
                                      (shown < r.farthest.size() ? "the first " + std::to_string(shown) + " of " : "") +
                                      reports::with_commas(r.farthest.size()) +
                                      (r.farthest.size() == 1 ? " farthest position, " : " farthest positions, ") +
                                      std::to_string(r.eccentricity()) + " moves from the start";
  return std::visit(
      [&](const auto& p) {
        std::vector<reports::BoardPicture> boards;
        for (std::size_t i = 0; i < shown; ++i) {
          boards.push_back(reports::board_picture(p, r.farthest[i], std::to_string(i + 1)));
        }
        return reports::boards_svg(title, board_geometry(p), boards);
      },
      manifest.analyses[f.analyses.front()].model);
}

// DIR must be new, empty or an earlier report: the commit replaces it whole.
void check_target(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return;
  if (!fs::is_directory(dir, ec)) {
    throw UsageError("report: --out " + dir.string() +
                     " exists and is not a folder (expected a folder, new or written by statespace report)");
  }
  if (!fs::is_empty(dir, ec) && !fs::exists(dir / "index.md", ec)) {
    throw UsageError("report: --out " + dir.string() +
                     " holds files but no index.md, so it is not a report this command wrote; it would be replaced "
                     "whole (choose another folder)");
  }
}

}  // namespace

int run_report(const Args& args, Context& context) {
  std::string manifest_file, out;
  bool force = false, quiet = false;
  po::options_description options("Options");
  options.add_options()("manifest", po::value(&manifest_file)->value_name("MANIFEST"), "the article's TOML manifest")(
      "out", po::value(&out)->value_name("DIR"), "the bundle's folder (replaced whole at the end)")(
      "force", po::bool_switch(&force), "recompute every analysis, ignoring DIR/cache")(
      "quiet,q", po::bool_switch(&quiet), "no progress lines");
  po::positional_options_description positional;
  positional.add("manifest", 1);
  po::variables_map vm;
  if (!parse_command(command("report"), options, positional, args, vm, context)) return 0;
  if (manifest_file.empty()) throw UsageError("report: name a manifest (statespace report article.toml --out DIR)");
  if (out.empty()) throw UsageError("report: --out DIR is required (the bundle's folder)");

  const Manifest manifest = load_manifest(manifest_file);
  fs::path dir = fs::absolute(out).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();
  if (dir == dir.root_path()) throw UsageError("report: --out cannot be the root folder");
  check_target(dir);

  reports::StagedFolder staging(dir);
  const fs::path root = staging.path();
  std::error_code ec;
  if (fs::is_directory(dir / "cache", ec)) fs::copy(dir / "cache", root / "cache", fs::copy_options::recursive);

  const auto threads = apply_threads(context);
  std::vector<reports::ArticleAnalysis> analyses;
  std::size_t computed = 0;
  for (const auto& a : manifest.analyses) {
    const std::string name = std::visit([](const auto& p) { return std::string(p.name()); }, a.model);
    const std::string key = cache_key(a, name);
    const fs::path entry = cache_entry(name, key);
    reports::ArticleAnalysis article{a.label, {}, analyze_command(a), ""};
    bool reused = false;
    if (!force && read_text(root / entry / "key.txt") == key) {
      try {
        article.result = reports::read_summary_json(read_text(root / entry / "summary.json"));
        article.machine = read_text(root / entry / "machine.txt");
        reused = !article.machine.empty();
      } catch (const ParseError&) {
      }
    }
    if (reused) {
      std::cerr << "report: " << a.label << ": reused " << entry.string() << "\n";
    } else {
      std::cerr << "report: " << a.label << ": computing" << (force ? " (--force)" : "") << "\n";
      AnalyzeOptions o = a.options;
      o.progress = !quiet;
      o.threads = threads_in_use(context);
      article.result = compute(a, o);
      article.machine = machine_description();
      reports::write_file_atomically(root / entry / "summary.json", reports::summary_json(article.result));
      reports::write_file_atomically(root / entry / "machine.txt", article.machine);
      reports::write_file_atomically(root / entry / "key.txt", key);
      ++computed;
    }
    reports::write_report_folder(root / reports::folder_name(a.label), article.result, std::nullopt);
    analyses.push_back(std::move(article));
  }

  // Tables and figures, listed in index.md in the manifest's order.
  std::vector<std::pair<int, reports::IndexItem>> items;
  for (const auto& t : manifest.tables) {
    std::vector<const reports::ArticleAnalysis*> rows;
    for (auto i : t.analyses) rows.push_back(&analyses[i]);
    const std::string markdown = reports::table_markdown(t.columns, rows);
    reports::write_file_atomically(root / "tables" / (t.name + ".md"), markdown);
    reports::write_file_atomically(root / "tables" / (t.name + ".tex"), reports::table_latex(t.columns, rows));
    reports::write_file_atomically(root / "tables" / (t.name + ".csv"), reports::table_csv(t.columns, rows));
    items.push_back(
        {t.line,
         {"Table: " + t.name, markdown + "\n[LaTeX](tables/" + t.name + ".tex) · [CSV](tables/" + t.name + ".csv)\n"}});
  }
  for (const auto& f : manifest.figures) {
    const std::string svg = figure_svg(f, manifest, analyses);
    reports::write_file_atomically(root / "figures" / (f.name + ".svg"), svg);
    items.push_back({f.line, {"Figure: " + f.name, "![" + f.name + "](figures/" + f.name + ".svg)\n"}});
  }
  std::stable_sort(items.begin(), items.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<reports::IndexItem> ordered;
  for (auto& [line, item] : items) ordered.push_back(std::move(item));
  reports::write_file_atomically(root / "index.md", reports::index_markdown(manifest.title, ordered, analyses));

  staging.commit();
  if (!quiet) {
    std::cout << "report written to " << out << " (" << analyses.size() << " analyses: " << computed << " computed, "
              << analyses.size() - computed << " reused from the cache)\n";
  }
  return 0;
}

}  // namespace statespace::cli
