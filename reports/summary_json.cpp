#include "reports/summary_json.hpp"

#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace statespace::reports {

namespace {

// Stands in the document for the farthest positions, which are written into its text
// afterwards (splice_farthest): a copy of each in the document would cost more memory
// than the search's own tables on a space with many farthest positions (64,736 on
// the 2x2x2 cube of 8 corners). Control characters are escaped when dumped, so no
// position's text looks like it.
constexpr const char* kFarthestHere = "\001farthest\001";

// `text` with the dumped kFarthestHere replaced by `positions` as dump(2) writes an
// array of strings one level down.
std::string splice_farthest(const std::string& text, const std::vector<std::string>& positions) {
  // The key at the top level: a line break or a quote inside a string is escaped,
  // so no string of the document holds this text.
  const std::string key = "\n  \"farthest\": ";
  const std::string here = key + nlohmann::ordered_json(kFarthestHere).dump();
  std::size_t at = text.find(here);
  if (at == std::string::npos) return text;
  at += key.size();
  // The spliced text made in one array as large as all of it (escapes aside): grown
  // by doubling, or made apart and copied in, it would pass through twice its size.
  std::size_t room = text.size() + 8;
  for (const auto& p : positions) room += p.size() + 8;
  std::string out;
  out.reserve(room);
  out.append(text, 0, at);
  if (positions.empty()) {
    out += "[]";
  } else {
    out += "[\n";
    for (std::size_t i = 0; i < positions.size(); ++i) {
      out += "    ";
      out +=
          nlohmann::ordered_json(positions[i]).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
      out += i + 1 < positions.size() ? ",\n" : "\n";
    }
    out += "  ]";
  }
  out.append(text, at + here.size() - key.size());
  return out;
}

}  // namespace

std::string summary_json(const AnalysisResult& r) {
  nlohmann::ordered_json j;
  j["puzzle"] = r.puzzle;
  j["start"] = r.start;
  j["states"] = r.states;
  // Left out, like the goal's keys below, where the engine did not count them.
  if (r.gives(kViewEdges)) j["edges"] = r.edges;
  // Directed spaces only, so that undirected summaries keep their keys: distribution,
  // eccentricity and farthest are then distances from the start along the moves.
  if (r.directed) j["directed"] = true;
  // A search stopped short (--max-depth, --partial): eccentricity is the last depth
  // searched and farthest its positions, not the space's.
  if (!r.complete) j["complete"] = false;
  j["eccentricity"] = r.eccentricity();
  j["farthest_count"] = r.farthest_count();
  j["farthest"] = kFarthestHere;
  j["distribution"] = r.layers;
  // Up to symmetry: states and distribution count classes; these the positions.
  if (!r.layer_positions.empty()) {
    j["positions"] = r.positions();
    j["positions_distribution"] = r.layer_positions;
  }
  if (!r.symmetry.empty()) j["symmetry"] = r.symmetry;
  j["layer_edges"] = nlohmann::ordered_json::array();
  for (const auto& e : r.layer_edges) j["layer_edges"].push_back({{"from", e.from}, {"to", e.to}, {"moves", e.count}});
  if (r.diameter) {
    j["diameter"] = {{"length", r.diameter->length},
                     {"from", r.diameter->from},
                     {"to", r.diameter->to},
                     {"method", r.diameter->method},
                     {"sources", r.diameter->sources}};
  }
  if (r.components) {
    j["components"] = {{"count", r.components->sizes.size()},
                       {"positions", r.components->positions},
                       {"start", r.components->start},
                       {"sizes", r.components->sizes}};
  }
  if (r.goal) {
    auto& g = j["goal"];
    g["goal"] = r.goal->goal;
    g["reached"] = r.goal->reached;
    g["shortest"] = r.goal->shortest ? nlohmann::ordered_json(*r.goal->shortest) : nlohmann::ordered_json();
    // A directed space without predecessors has no distances to the goal: the keys
    // are left out (and the views listed under "unavailable") rather than written as
    // zeros a reader would take for facts.
    if (!r.directed || r.goal->dead_ends) {
      g["distribution"] = r.goal->layers;
      g["hardest_distance"] = r.goal->layers.empty() ? 0 : r.goal->layers.size() - 1;
      g["hardest_count"] = r.goal->hardest.size();
      g["hardest"] = r.goal->hardest;
    }
    if (r.goal->dead_ends) g["dead_ends"] = *r.goal->dead_ends;
  }
  // The keys above keep the file's own notation; a reader comparing a sticker file
  // with its .tws twin finds their shared notation here.
  if (r.table_positions) {
    j["table_positions"] = {{"start", r.table_positions->start}, {"farthest", r.table_positions->farthest}};
    if (r.goal) j["table_positions"]["hardest"] = r.table_positions->hardest;
  }
  if (!r.unavailable.empty()) {
    j["unavailable"] = nlohmann::ordered_json::array();
    for (const auto& u : r.unavailable) j["unavailable"].push_back({{"view", u.view}, {"reason", u.reason}});
  }
  j["engine"] = r.engine;
  j["lookup"] = r.lookup;
  if (r.comparisons) j["comparisons"] = *r.comparisons;
  j["statespace_version"] = STATESPACE_VERSION;
  j["run"] = {{"threads", r.threads}, {"seconds", r.seconds}};
  j["run"][r.peak_per_run ? "peak_bytes" : "process_peak_bytes"] = r.peak_bytes;
  // Text from a file is UTF-8 (TOML requires it); a stray byte from elsewhere becomes
  // U+FFFD rather than an exception halfway through writing the bundle.
  return splice_farthest(j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace), r.farthest) + "\n";
}

namespace {

AnalysisResult read_summary(const std::string& text, bool positions) {
  try {
    // The lists' keys: farthest at the top, hardest in goal, both in table_positions.
    const nlohmann::json::parser_callback_t skip_lists = [](int depth, nlohmann::json::parse_event_t event,
                                                            nlohmann::json& parsed) {
      if (event != nlohmann::json::parse_event_t::key) return true;
      const auto& key = parsed.get_ref<const std::string&>();
      return !(depth == 1 && key == "farthest") && !(depth == 2 && (key == "hardest" || key == "farthest"));
    };
    const auto j = positions ? nlohmann::json::parse(text) : nlohmann::json::parse(text, skip_lists);
    AnalysisResult r;
    j.at("puzzle").get_to(r.puzzle);
    j.at("start").get_to(r.start);
    j.at("states").get_to(r.states);
    r.edges = j.value("edges", std::uint64_t{0});
    if (positions) {
      j.at("farthest").get_to(r.farthest);
    } else {
      r.farthest_counted = j.at("farthest_count").get<std::uint64_t>();
    }
    j.at("distribution").get_to(r.layers);
    if (j.contains("positions_distribution")) j["positions_distribution"].get_to(r.layer_positions);
    if (j.contains("symmetry")) j["symmetry"].get_to(r.symmetry);
    for (const auto& e : j.at("layer_edges")) {
      r.layer_edges.push_back(
          {e.at("from").get<unsigned>(), e.at("to").get<unsigned>(), e.at("moves").get<std::uint64_t>()});
    }
    if (j.contains("diameter")) {
      const auto& d = j["diameter"];
      r.diameter =
          Diameter{d.at("length").get<unsigned>(), d.at("from").get<std::string>(), d.at("to").get<std::string>(),
                   d.at("method").get<std::string>(), d.at("sources").get<std::uint64_t>()};
    }
    if (j.contains("components")) {
      const auto& c = j["components"];
      r.components = Components{c.at("positions").get<std::uint64_t>(), c.at("sizes").get<std::vector<std::uint64_t>>(),
                                c.value("start", std::uint64_t(0))};
    }
    r.directed = j.value("directed", false);
    r.complete = j.value("complete", true);
    if (j.contains("goal")) {
      const auto& g = j["goal"];
      GoalView view;
      g.at("goal").get_to(view.goal);
      g.at("reached").get_to(view.reached);
      if (!g.at("shortest").is_null()) view.shortest = g["shortest"].get<unsigned>();
      if (g.contains("distribution")) g["distribution"].get_to(view.layers);
      if (positions && g.contains("hardest")) g["hardest"].get_to(view.hardest);
      if (g.contains("dead_ends")) view.dead_ends = g["dead_ends"].get<std::uint64_t>();
      r.goal = std::move(view);
    }
    if (j.contains("table_positions")) {
      const auto& t = j["table_positions"];
      TablePositions table;
      t.at("start").get_to(table.start);
      if (positions) t.at("farthest").get_to(table.farthest);
      if (positions && t.contains("hardest")) t["hardest"].get_to(table.hardest);
      r.table_positions = std::move(table);
    }
    if (j.contains("unavailable")) {
      for (const auto& u : j["unavailable"]) {
        r.unavailable.push_back({u.at("view").get<std::string>(), u.at("reason").get<std::string>()});
      }
    }
    j.at("engine").get_to(r.engine);
    j.at("lookup").get_to(r.lookup);
    if (j.contains("comparisons")) r.comparisons = j["comparisons"].get<std::uint64_t>();
    const auto& run = j.at("run");
    run.at("threads").get_to(r.threads);
    run.at("seconds").get_to(r.seconds);
    r.peak_per_run = run.contains("peak_bytes");
    run.at(r.peak_per_run ? "peak_bytes" : "process_peak_bytes").get_to(r.peak_bytes);
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw ParseError(std::string("not a statespace summary.json: ") + e.what());
  }
}

}  // namespace

AnalysisResult read_summary_json(const std::string& text) { return read_summary(text, true); }

AnalysisResult read_summary_counts(const std::string& text) { return read_summary(text, false); }

}  // namespace statespace::reports
