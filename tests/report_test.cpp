// statespace report end to end: the tables' numbers, the cache (reuse proven by a
// planted cached value showing up), identical bytes twice, bad manifests refused
// with FILE:LINE:COLUMN and exit 2 leaving the old bundle untouched, and the SVG
// and LaTeX rendered by the tools a reader uses (skipped when those are absent).
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "reports/html.hpp"
#include "reports/summary_json.hpp"
#include "reports/tables.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

namespace fs = std::filesystem;
using testing::fresh_dir;
using testing::read_file;
using testing::run_statespace;

constexpr const char* kSeeds = R"(title = "Three seeds"
[[analysis]]
puzzle = "nooff"
[[analysis]]
puzzle = "hex6"
[[analysis]]
puzzle = "tiles:3x3"
[[table]]
name = "overview"
columns = ["puzzle", "states", "edges", "eccentricity", "farthest"]
[[figure]]
name = "distributions"
title = "Three seeds, by depth"
kind = "distribution"
[[figure]]
name = "hex6-hardest"
kind = "farthest-boards"
puzzle = "hex6"
[[figure]]
name = "nooff-hardest"
kind = "farthest-boards"
puzzle = "nooff"
[[figure]]
name = "hex6-four"
kind = "farthest-boards"
puzzle = "hex6"
limit = 4
)";

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

// Every file under `dir` (relative path -> bytes).
std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) files[fs::relative(e.path(), dir).string()] = read_file(e.path());
  }
  return files;
}

int count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (auto i = text.find(needle); i != std::string::npos; i = text.find(needle, i + 1)) ++n;
  return n;
}

struct Bundle {
  fs::path dir;
  fs::path manifest;
  fs::path out;
};

Bundle seeds_bundle(const std::string& name) {
  const auto dir = fresh_dir(name);
  write(dir / "article.toml", kSeeds);
  return {dir, dir / "article.toml", dir / "article"};
}

testing::CommandResult report(const Bundle& b, const std::string& extra = "") {
  return run_statespace("report " + b.manifest.string() + " --out " + b.out.string() + " --quiet " + extra);
}

TEST(Report, TablesFiguresAndReportsOfThreeSeeds) {
  const auto b = seeds_bundle("report-seeds");
  const auto r = report(b);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(count(r.std_err, ": computing"), 3) << r.std_err;
  EXPECT_EQ(read_file(b.out / "tables/overview.md"),
            "| Puzzle | States | Edges | Eccentricity | Farthest positions |\n"
            "|---|--:|--:|--:|--:|\n"
            "| nooff | 540 | 570 | 56 | 3 |\n"
            "| hex6 | 5,040 | 8,640 | 15 | 24 |\n"
            "| tiles:3x3 | 181,440 | 241,920 | 31 | 2 |\n");
  EXPECT_EQ(read_file(b.out / "tables/overview.csv"),
            "puzzle,states,edges,eccentricity,farthest\n"
            "nooff,540,570,56,3\nhex6,5040,8640,15,24\ntiles:3x3,181440,241920,31,2\n");
  const auto tex = read_file(b.out / "tables/overview.tex");
  EXPECT_NE(tex.find("\\begin{tabular}{lrrrr}\n\\toprule\n"
                     "Puzzle & States & Edges & Eccentricity & Farthest positions \\\\\n\\midrule\n"
                     "nooff & 540 & 570 & 56 & 3 \\\\\n"
                     "hex6 & 5,040 & 8,640 & 15 & 24 \\\\\n"
                     "tiles:3x3 & 181,440 & 241,920 & 31 & 2 \\\\\n\\bottomrule\n\\end{tabular}\n"),
            std::string::npos)
      << tex;

  const auto plot = read_file(b.out / "figures/distributions.svg");
  EXPECT_EQ(count(plot, "<polyline"), 3);
  EXPECT_EQ(count(plot, "<circle"), 57 + 16 + 32);  // one marker per depth
  for (const char* label :
       {">nooff<", ">hex6<", ">tiles:3x3<", ">depth (moves from the start)<", ">100k<", ">Three seeds, by depth<"}) {
    EXPECT_NE(plot.find(label), std::string::npos) << label;
  }
  const auto hex = read_file(b.out / "figures/hex6-hardest.svg");
  EXPECT_NE(hex.find(">hex6: 24 farthest positions, 15 moves from the start<"), std::string::npos);
  EXPECT_EQ(count(hex, "<polygon"), 24 * 7 + 24 * 6);  // 7 hexagonal cells and 6 tiles per board
  const auto four = read_file(b.out / "figures/hex6-four.svg");
  EXPECT_NE(four.find(">hex6: the first 4 of 24 farthest positions, 15 moves from the start<"), std::string::npos);
  EXPECT_EQ(count(four, "<polygon"), 4 * (7 + 6));
  const auto nooff = read_file(b.out / "figures/nooff-hardest.svg");
  EXPECT_EQ(count(nooff, "<rect x="), 3 * (8 + 7));  // 8 cells, 7 piece cells (the bulb's two joined)
  EXPECT_EQ(count(nooff, ">L<"), 3);                 // the bulb labelled once

  const auto farthest = read_file(b.out / "hex6/farthest.csv");
  EXPECT_TRUE(farthest.starts_with("distance,position\n15,_ 1 / 2 4 3 / 5 6\n")) << farthest;
  EXPECT_EQ(count(farthest, "\n15,"), 24);
  EXPECT_TRUE(read_file(b.out / "tiles-3x3/distribution.csv").ends_with("31,2,181440\n"));
  const auto index = read_file(b.out / "index.md");
  EXPECT_TRUE(index.starts_with("# Three seeds\n\n## Table: overview\n\n| Puzzle |")) << index;
  EXPECT_LT(index.find("## Figure: distributions"), index.find("## Figure: hex6-hardest"));
  EXPECT_NE(index.find("- tiles:3x3 ([report](tiles-3x3/)): `statespace analyze tiles:3x3 --engine auto`; "
                       "statespace "),
            std::string::npos)
      << index;
  for (const auto& e : fs::directory_iterator(b.dir)) {
    EXPECT_EQ(e.path().filename().string().find(".staging"), std::string::npos) << e.path();
  }
}

TEST(Report, CacheIsReusedAndTheSameManifestGivesTheSameBytes) {
  const auto b = seeds_bundle("report-cache");
  ASSERT_EQ(report(b).exit_code, 0);
  const auto first = tree(b.out);
  const auto again = report(b);
  ASSERT_EQ(again.exit_code, 0) << again.out;
  EXPECT_EQ(count(again.std_err, ": reused cache/"), 3) << again.std_err;
  EXPECT_EQ(tree(b.out), first);  // byte for byte, index.md and the run facts included

  // A fresh bundle recomputes; only the run facts may differ.
  auto other = b;
  other.out = b.dir / "other";
  ASSERT_EQ(report(other).exit_code, 0);
  const auto second = tree(other.out);
  ASSERT_EQ(first.size(), second.size());
  for (const auto& [path, bytes] : first) {
    if (path.ends_with("summary.json")) {
      auto x = nlohmann::json::parse(bytes), y = nlohmann::json::parse(second.at(path));
      x.erase("run"), y.erase("run");
      EXPECT_EQ(x, y) << path;
    } else if (path != "index.md" && !path.ends_with("machine.txt")) {
      EXPECT_EQ(bytes, second.at(path)) << path;
    }
  }

  // A planted value in the cache shows in the table: the result was read, not recomputed.
  fs::path nooff_entry;
  for (const auto& e : fs::directory_iterator(b.out / "cache")) {
    if (e.path().filename().string().starts_with("nooff-")) nooff_entry = e.path();
  }
  ASSERT_FALSE(nooff_entry.empty());
  auto summary = nlohmann::ordered_json::parse(read_file(nooff_entry / "summary.json"));
  summary["states"] = 541;
  write(nooff_entry / "summary.json", summary.dump(2));
  std::string manifest = kSeeds;
  manifest.replace(manifest.find("\"farthest\"]"), 11, "\"farthest\", \"engine\"]");  // a table edit only
  write(b.manifest, manifest);
  const auto edited = report(b);
  ASSERT_EQ(edited.exit_code, 0) << edited.out;
  EXPECT_EQ(count(edited.std_err, ": reused cache/"), 3) << edited.std_err;
  EXPECT_NE(read_file(b.out / "tables/overview.md").find("| nooff | 541 | 570 | 56 | 3 | ranked |"), std::string::npos);

  // Editing one analysis recomputes that one only; --force recomputes all.
  manifest.replace(manifest.find("puzzle = \"hex6\""), 15, "puzzle = \"hex6\"\nfrom = \"_ 1 / 2 3 4 / 5 6\"");
  write(b.manifest, manifest);
  const auto one = report(b);
  ASSERT_EQ(one.exit_code, 0) << one.out;
  EXPECT_EQ(count(one.std_err, ": reused cache/"), 2) << one.std_err;
  EXPECT_NE(one.std_err.find("hex6: computing"), std::string::npos) << one.std_err;
  const auto forced = report(b, "--force");
  ASSERT_EQ(forced.exit_code, 0) << forced.out;
  EXPECT_EQ(count(forced.std_err, ": computing (--force)"), 3) << forced.std_err;
  EXPECT_NE(read_file(b.out / "tables/overview.md").find("| nooff | 540 |"), std::string::npos);
}

TEST(Report, BadManifestsNameTheSpotExitTwoAndReplaceNothing) {
  const auto b = seeds_bundle("report-bad");
  ASSERT_EQ(report(b).exit_code, 0);
  const auto before = tree(b.out);
  const std::string head = "[[analysis]]\npuzzle = \"nooff\"\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"colour = \"red\"\n" + head, ":1:1: unknown key 'colour' (expected one of: title, analysis, table, figure)"},
      {head + "lookup = \"linear\"\n", ":3:1: unknown key 'lookup' (expected one of: puzzle, label,"},
      {head + "[[table]]\nname = \"t\"\ncolumns = [\"states\", \"colour\"]\n", ":5:22: unknown column 'colour'"},
      {head + "[[figure]]\nname = \"f\"\nkind = \"pie\"\n", ":5:8: unknown figure kind 'pie'"},
      {"[[analysis]]\npuzzle = \"chess\"\n", ":2:10: unknown puzzle 'chess'"},
      {"[[analysis]]\npuzzle = \"puzzles/gone.toml\"\n", ":2:10: cannot read puzzle file"},
      {head + "[[figure]]\nname = \"f\"\nkind = \"farthest-boards\"\npuzzle = \"hex6\"\n",
       ":6:10: no analysis 'hex6' in this manifest (expected one of: nooff)"},
      {head + "[[table]]\nname = \"t\"\nanalyses = [\"nooff\", \"tiles:3x3\"]\n", ":5:22: no analysis 'tiles:3x3'"},
      {head + "title = \n", ":3:9: "},
      {head + "from = \"L L N O / O F F\"\n", ":3:8: nooff: position has 7 cells, expected 8"},
      {head + "moves = \"path\"\n", ":3:9: 'moves' does not apply to nooff"},
      {head + head, ":4:10: a second analysis labelled 'nooff'"},
      {"[[analysis]]\nfrom = \"1 2 / 3 4 5 / 6 _\"\n", ":1:1: missing key 'puzzle'"},
      {head + "engine = \"implicit\"\n", ":3:10: nooff: --engine implicit handles the tiles:RxC puzzles only"},
      {"[[analysis]]\npuzzle = \"tiles:2x3\"\nengine = \"mpi\"\n",
       ":3:10: engine 'mpi' cannot run in a report manifest, which runs in one process (expected one of: explicit, "
       "implicit, levels, ranked, chains, auto;"},
      {"title = \"nothing\"\n", ":1:1: no [[analysis]]"},
  };
  for (const auto& [text, needle] : cases) {
    write(b.manifest, text);
    const auto r = report(b);
    EXPECT_EQ(r.exit_code, 2) << text << r.out;
    EXPECT_EQ(count(r.out, "\n"), 1) << r.out;
    EXPECT_NE(r.out.find(b.manifest.string() + needle), std::string::npos) << needle << "\n" << r.out;
    EXPECT_EQ(tree(b.out), before) << text;
  }
  for (const auto& e : fs::directory_iterator(b.dir)) {
    EXPECT_EQ(e.path().filename().string().find(".staging"), std::string::npos) << e.path();
  }

  // A folder that is not a report is never replaced.
  write(b.manifest, kSeeds);
  const auto precious = b.dir / "precious";
  fs::create_directories(precious);
  write(precious / "notes.txt", "mine");
  const auto r = run_statespace("report " + b.manifest.string() + " --out " + precious.string());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("no index.md"), std::string::npos) << r.out;
  EXPECT_EQ(read_file(precious / "notes.txt"), "mine");
}

// The figures and tables as a reader gets them: rsvg-convert (librsvg2-bin) and
// pdflatex with booktabs (texlive-latex-base, texlive-latex-recommended).
TEST(Report, FiguresRenderAndTablesTypeset) {
  const bool rsvg = std::system("command -v rsvg-convert >/dev/null 2>&1") == 0;
  const bool latex = std::system("command -v pdflatex >/dev/null 2>&1") == 0;
  if (!rsvg && !latex) GTEST_SKIP() << "rsvg-convert and pdflatex not found (scripts/install-deps.sh installs them)";
  const auto b = seeds_bundle("report-render");
  ASSERT_EQ(report(b).exit_code, 0);
  if (rsvg) {
    for (const char* name : {"distributions", "hex6-hardest", "nooff-hardest"}) {
      const auto svg = b.out / "figures" / (std::string(name) + ".svg");
      const auto png = b.dir / (std::string(name) + ".png");
      ASSERT_EQ(std::system(("rsvg-convert " + svg.string() + " -o " + png.string() + " 2>&1").c_str()), 0) << name;
      EXPECT_TRUE(read_file(png).starts_with("\x89PNG")) << name;
    }
  } else {
    std::cout << "[ SKIPPED  ] SVG rendering: rsvg-convert not found (apt-get install librsvg2-bin)\n";
  }
  if (latex) {
    write(b.dir / "doc.tex", "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n\\input{" +
                                 (b.out / "tables/overview.tex").string() + "}\n\\end{document}\n");
    const auto cmd =
        "cd " + b.dir.string() + " && pdflatex -interaction=nonstopmode -halt-on-error doc.tex >latex.log 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << read_file(b.dir / "latex.log");
    EXPECT_TRUE(read_file(b.dir / "doc.pdf").starts_with("%PDF")) << read_file(b.dir / "latex.log");
  } else {
    std::cout << "[ SKIPPED  ] LaTeX typesetting: pdflatex not found (apt-get install texlive-latex-recommended)\n";
  }
}

TEST(Report, SummaryJsonReadsBack) {
  AnalysisResult r;
  r.puzzle = "tiles:3x3";
  r.start = "1 2 3 / 4 5 6 / 7 8 _";
  r.states = 181440;
  r.edges = 241920;
  r.layers = {1, 2, 4};
  r.farthest = {"a", "b"};
  r.layer_edges = {{0, 1, 2}, {1, 2, 4}};
  r.diameter = Diameter{31, "x", "y", "blank-symmetry", 9};
  r.components = Components{362880, {181440, 181440}};
  r.comparisons = 77;
  r.engine = "implicit";
  r.threads = 2;
  r.seconds = 0.123456789;
  r.peak_bytes = 31326208;
  const std::string json = reports::summary_json(r);
  EXPECT_EQ(reports::summary_json(reports::read_summary_json(json)), json);
  EXPECT_EQ(reports::read_summary_json(json).layer_edges, r.layer_edges);
  EXPECT_THROW(reports::read_summary_json("{\"puzzle\": 1}"), ParseError);
}

// The folder's tables read each bundle's counts without its positions: the same
// rows as from the whole summary, with no position held.
TEST(Report, SummaryCountsSkipThePositions) {
  AnalysisResult r;
  r.puzzle = "tiles:2x3";
  r.start = "1 2 3 / 4 5 _";
  r.states = 360;
  r.edges = 420;
  r.layers = {1, 2, 3};
  r.farthest = {"a", "b", "c"};
  r.layer_edges = {{0, 1, 2}, {1, 2, 3}};
  r.directed = true;
  r.goal = GoalView{"1 2 3 / 4 5 _", 1, 2u, {1, 4, 2}, {"d", "e"}, 3};
  r.table_positions = TablePositions{"s", {"f1", "f2"}, {"h1"}};
  r.engine = "ranked";
  const std::string json = reports::summary_json(r);
  const AnalysisResult counts = reports::read_summary_counts(json);
  EXPECT_TRUE(counts.farthest.empty());
  EXPECT_EQ(counts.farthest_count(), 3u);
  ASSERT_TRUE(counts.goal.has_value());
  EXPECT_TRUE(counts.goal->hardest.empty());
  EXPECT_EQ(counts.goal->layers, r.goal->layers);
  ASSERT_TRUE(counts.table_positions.has_value());
  EXPECT_EQ(counts.table_positions->start, "s");
  EXPECT_TRUE(counts.table_positions->farthest.empty() && counts.table_positions->hardest.empty());
  EXPECT_EQ(reports::summary_csv({counts}), reports::summary_csv({r}));
  EXPECT_EQ(reports::summary_markdown({counts}), reports::summary_markdown({r}));
  EXPECT_EQ(reports::folder_index_html({counts}), reports::folder_index_html({r}));
  // Stopped short: the count is the last level's, not the positions listed.
  r.complete = false;
  r.layers.back() = 7;
  EXPECT_EQ(reports::read_summary_counts(reports::summary_json(r)).farthest_count(), 7u);
}

}  // namespace
}  // namespace statespace
