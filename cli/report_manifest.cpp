#include "cli/report_manifest.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "analysis/analyze.hpp"
#include "analysis/pipeline/analyze_puzzle.hpp"
#include "cli/args.hpp"
#include "core/errors.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/toml_input.hpp"
#include "reports/article.hpp"
#include "reports/puzzle_report.hpp"

namespace statespace::cli {

namespace {

std::string join(const auto& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

class Loader {
 public:
  explicit Loader(TomlInput input) : input_(std::move(input)) {}

  Manifest load() {
    const toml::table& doc = input_.root();
    input_.check_keys(doc, {"title", "analysis", "table", "figure"});
    Manifest m;
    m.title = string(doc, "title", "statespace report");
    for (const toml::table* t : tables(doc, "analysis")) m.analyses.push_back(analysis(*t, m));
    if (m.analyses.empty()) fail(doc.source(), "no [[analysis]] (expected at least one, e.g. puzzle = \"tiles:3x3\")");
    for (const toml::table* t : tables(doc, "table")) m.tables.push_back(table(*t, m));
    for (const toml::table* t : tables(doc, "figure")) m.figures.push_back(figure(*t, m));
    return m;
  }

 private:
  TomlInput input_;

  [[noreturn]] void fail(const toml::source_region& where, const std::string& what) const { input_.fail(where, what); }

  std::vector<const toml::table*> tables(const toml::table& doc, std::string_view key) const {
    std::vector<const toml::table*> out;
    const toml::node* node = doc.get(key);
    if (!node) return out;
    const toml::array* array = node->as_array();
    if (!array || !array->is_array_of_tables()) {
      fail(node->source(),
           "'" + std::string(key) + "' must be an array of tables (expected [[" + std::string(key) + "]] sections)");
    }
    for (const auto& e : *array) out.push_back(e.as_table());
    return out;
  }

  std::string string(const toml::table& t, std::string_view key, std::string fallback, bool required = false,
                     std::string_view example = "") const {
    return input_.string(t, key, required, example).value_or(std::move(fallback));
  }

  bool boolean(const toml::table& t, std::string_view key) const {
    const toml::node* node = t.get(key);
    if (!node) return false;
    if (!node->is_boolean()) fail(node->source(), "'" + std::string(key) + "' must be true or false");
    return node->as_boolean()->get();
  }

  // The analyses named by `key` (labels), or every analysis when absent.
  std::vector<std::size_t> references(const toml::table& t, std::string_view key, const Manifest& m) const {
    std::vector<std::size_t> out;
    const toml::node* node = t.get(key);
    if (!node) {
      for (std::size_t i = 0; i < m.analyses.size(); ++i) out.push_back(i);
      return out;
    }
    const auto refer = [&](const toml::node& e) {
      if (!e.is_string()) fail(e.source(), "'" + std::string(key) + "' must name analyses by their labels");
      const std::string label(e.as_string()->get());
      for (std::size_t i = 0; i < m.analyses.size(); ++i) {
        if (m.analyses[i].label == label) return out.push_back(i);
      }
      std::vector<std::string> labels;
      for (const auto& a : m.analyses) labels.push_back(a.label);
      fail(e.source(), "no analysis '" + label + "' in this manifest (expected one of: " + join(labels) + ")");
    };
    if (const toml::array* array = node->as_array()) {
      if (array->empty()) fail(node->source(), "'" + std::string(key) + "' is empty (expected at least one label)");
      for (const auto& e : *array) refer(e);
    } else {
      refer(*node);
    }
    return out;
  }

  std::string entry_name(const toml::table& t, std::string_view what, const auto& taken) const {
    const std::string name = string(t, "name", "", true, "e.g. name = \"overview\"");
    const toml::node& node = *t.get("name");
    if (const std::string problem = name_problem(name); !problem.empty()) {
      fail(node.source(), "bad " + std::string(what) + " name '" + shown_text(name) + "': it " + problem +
                              " (expected " + std::string(kNameForm) + ")");
    }
    if (std::any_of(taken.begin(), taken.end(), [&](const auto& e) { return e.name == name; })) {
      fail(node.source(), "a second " + std::string(what) + " named '" + name + "' (names must be unique)");
    }
    return name;
  }

  // Runs `check` on the model, turning its ParseError or UsageError into this file's.
  void check_at(const toml::node& node, const auto& check) const {
    try {
      check();
    } catch (const ParseError& e) {
      fail(node.source(), e.what());
    } catch (const UsageError& e) {
      fail(node.source(), e.what());
    }
  }

  ManifestAnalysis analysis(const toml::table& t, const Manifest& m) const {
    input_.check_keys(t, {"puzzle", "label", "from", "goal", "moves", "engine", "all_pairs", "components", "memory"});
    ManifestAnalysis a;
    a.puzzle = string(t, "puzzle", "", true, "e.g. puzzle = \"tiles:3x3\"");
    const toml::node& puzzle = *t.get("puzzle");
    a.puzzle_path = a.puzzle;
    if (is_puzzle_file_name(a.puzzle) || a.puzzle.find('/') != std::string::npos) {
      const auto path = input_.file().parent_path() / a.puzzle;
      std::ifstream in(path, std::ios::binary);
      if (!in)
        fail(puzzle.source(), "cannot read puzzle file " + path.string() + " (paths are relative to the manifest)");
      std::stringstream bytes;
      bytes << in.rdbuf();
      char hash[17];
      std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a64(bytes.str())));
      a.puzzle_hash = hash;
      a.puzzle_path = path.string();
    }
    check_at(puzzle, [&] { a.model = make_puzzle(a.puzzle_path); });
    const std::string name = std::visit([](const auto& p) { return std::string(p.name()); }, a.model);

    a.label = string(t, "label", name);
    const toml::node& label_node = t.get("label") ? *t.get("label") : puzzle;
    const std::string folder = reports::folder_name(a.label);
    // A built-in puzzle's name may hold ':' (tiles:3x3), which folder_name turns into '-'.
    std::string problem = name_problem(a.label, ":+");
    if (problem.empty() && (folder == "cache" || folder == "tables" || folder == "figures")) {
      problem = "is a folder of the report itself";
    }
    if (problem.empty() && folder == "index.md") problem = "is a file of the report itself";
    if (!problem.empty()) {
      fail(label_node.source(), "bad label '" + shown_text(a.label) + "': it " + problem +
                                    " (expected 1 to 64 letters, digits, - _ : + . not starting with '.', and not "
                                    "cache, tables, figures or index.md; give the analysis a label = \"...\")");
    }
    for (const auto& other : m.analyses) {
      if (reports::folder_name(other.label) == folder) {
        fail(label_node.source(), "a second analysis labelled '" + a.label +
                                      "' (labels name report folders; give this one label = \"...\")");
      }
    }

    AnalyzeOptions& o = a.options;
    o.from = string(t, "from", "");
    o.goal = string(t, "goal", "");
    for (const char* key : {"from", "goal"}) {
      if (const toml::node* node = t.get(key)) {
        check_at(*node, [&] { std::visit([&](const auto& p) { (void)p.parse(node->as_string()->get()); }, a.model); });
      }
    }
    apply_start_option(a.model, o.from);
    a.moves = string(t, "moves", "");
    if (const toml::node* node = t.get("moves")) {
      if (a.moves != "step" && a.moves != "slide" && a.moves != "path") {
        fail(node->source(), "bad moves '" + a.moves + "' (expected step, slide or path)");
      }
      fail(node->source(), "'moves' does not apply to " + name +
                               ": its move rule is fixed (moves chooses the metric of sliding-block puzzle files)");
    }
    // Without an engine the plan chooses, as analyze's --engine auto does.
    if (const toml::node* node = t.get("engine")) {
      check_at(*node, [&] { o.engine = parse_engine(string(t, "engine", "")); });
      const EngineInfo& info = engine_info(o.engine);
      if (!info.in_manifests) {
        std::string others;
        for (const auto& e : kEngines) {
          if (e.in_manifests) others += std::string(others.empty() ? "" : ", ") + std::string(e.name);
        }
        fail(node->source(), "engine '" + std::string(info.name) +
                                 "' cannot run in a report manifest, which runs in one process (expected one of: " +
                                 others + "; run statespace analyze under mpirun for it)");
      }
    }
    o.all_pairs = boolean(t, "all_pairs");
    o.components = boolean(t, "components");
    if (const toml::node* node = t.get("memory")) {
      check_at(*node, [&] { o.memory = MemoryBudget(parse_bytes(string(t, "memory", ""))); });
    }
    const toml::node& engine_node = t.get("engine") ? *t.get("engine") : puzzle;
    check_at(engine_node, [&] { a.plan = plan_puzzle(a.model, o); });
    return a;
  }

  ManifestTable table(const toml::table& t, const Manifest& m) const {
    input_.check_keys(t, {"name", "columns", "analyses"});
    ManifestTable table;
    table.line = int(t.source().begin.line);
    table.name = entry_name(t, "table", m.tables);
    table.analyses = references(t, "analyses", m);
    const toml::node* node = t.get("columns");
    if (!node) {
      table.columns = {"puzzle", "states", "edges", "eccentricity", "farthest"};
      return table;
    }
    const toml::array* array = node->as_array();
    if (!array || array->empty()) fail(node->source(), "'columns' must be a list of column names");
    for (const auto& e : *array) {
      const auto& names = reports::table_columns();
      if (!e.is_string() || std::find(names.begin(), names.end(), e.as_string()->get()) == names.end()) {
        const std::string shown = e.is_string() ? "'" + std::string(e.as_string()->get()) + "'" : "a non-string";
        fail(e.source(), "unknown column " + shown + " (expected one of: " + join(names) + ")");
      }
      table.columns.emplace_back(e.as_string()->get());
    }
    return table;
  }

  ManifestFigure figure(const toml::table& t, const Manifest& m) const {
    input_.check_keys(t, {"name", "kind", "title", "scale", "analyses", "puzzle", "limit"});
    ManifestFigure f;
    f.line = int(t.source().begin.line);
    f.name = entry_name(t, "figure", m.figures);
    f.title = string(t, "title", "");
    f.kind = string(t, "kind", "", true, "kind = \"distribution\" or \"farthest-boards\"");
    const toml::node& kind = *t.get("kind");
    if (f.kind == "distribution") {
      if (t.get("puzzle") || t.get("limit")) {
        fail((t.get("puzzle") ? t.get("puzzle") : t.get("limit"))->source(),
             "'puzzle' and 'limit' apply to farthest-boards figures (a distribution takes 'analyses' and 'scale')");
      }
      const std::string scale = string(t, "scale", "log");
      if (scale != "log" && scale != "linear") {
        fail(t.get("scale")->source(), "bad scale '" + scale + "' (expected log or linear)");
      }
      f.log_scale = scale == "log";
      f.analyses = references(t, "analyses", m);
    } else if (f.kind == "farthest-boards") {
      if (t.get("scale") || t.get("analyses")) {
        fail((t.get("scale") ? t.get("scale") : t.get("analyses"))->source(),
             "'scale' and 'analyses' apply to distribution figures (farthest-boards takes 'puzzle' and 'limit')");
      }
      if (!t.get("puzzle") && m.analyses.size() > 1) {
        fail(t.source(), "missing key 'puzzle' (expected the label of the analysis to draw, e.g. puzzle = \"" +
                             m.analyses.front().label + "\")");
      }
      f.analyses = references(t, "puzzle", m);
      if (f.analyses.size() != 1) fail(t.get("puzzle")->source(), "'puzzle' names one analysis");
      if (const toml::node* node = t.get("limit")) {
        const auto* n = node->as_integer();
        if (!n || n->get() < 1 || n->get() > 10'000) {
          fail(node->source(), "bad limit (expected a whole number of boards from 1 to 10000)");
        }
        f.limit = std::size_t(n->get());
      }
    } else {
      fail(kind.source(), "unknown figure kind '" + f.kind + "' (expected distribution or farthest-boards)");
    }
    return f;
  }
};

}  // namespace

Manifest load_manifest(const std::filesystem::path& file) { return Loader(TomlInput(file)).load(); }

Manifest load_manifest(const std::filesystem::path& file, std::string text) {
  return Loader(TomlInput(file, std::move(text))).load();
}

}  // namespace statespace::cli
