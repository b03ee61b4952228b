// statespace serve: the report bundles of a folder over HTTP on this machine, a JSON
// API over them and a page to play each puzzle (docs/serve.md). One thread serves
// every connection (Boost.Beast, asynchronous), so the models it keeps need no
// locks; a move is a successor listing, microseconds on every model. The pages are
// built into the binary (cli/serve_assets.cpp): nothing is fetched at run time.
// Boost 1.74's asio uses std::exchange without including <utility>.
// clang-format off
#include <utility>
// clang-format on
#include <array>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "analysis/pipeline/pipeline_instances.hpp"
#include "analysis/tables/table_probe.hpp"
#include "cli/args.hpp"
#include "cli/cli.hpp"
#include "cli/serve_assets.hpp"
#include "core/errors.hpp"
#include "puzzles/registry.hpp"
#include "reports/board_drawing.hpp"
#include "reports/puzzle_report.hpp"

namespace statespace::cli {

namespace {

namespace fs = std::filesystem;
namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Json = nlohmann::ordered_json;

// Requests are small: a path and a query. Anything larger is refused unread.
constexpr std::size_t kHeaderLimit = 8 * 1024;
constexpr std::size_t kBodyLimit = 1024;
constexpr auto kIdle = std::chrono::seconds(30);
constexpr std::size_t kMaxPosition = 4096;

using Response = http::response<http::string_body>;

// A request well formed but with nothing to answer (404).
struct NotFound : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// %XX decoded, and '+' as a space in a query; nothing when an escape is malformed or
// decodes to a NUL byte.
std::optional<std::string> percent_decode(std::string_view s, bool query) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%') {
      if (i + 2 >= s.size()) return std::nullopt;
      const auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
      };
      const int hi = hex(s[i + 1]), lo = hex(s[i + 2]);
      if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) return std::nullopt;
      out += char(hi * 16 + lo);
      i += 2;
    } else if (query && s[i] == '+') {
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

std::map<std::string, std::string> parse_query(std::string_view q, std::string& error) {
  std::map<std::string, std::string> out;
  while (!q.empty()) {
    const auto amp = q.find('&');
    const std::string_view pair = q.substr(0, amp);
    q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
    if (pair.empty()) continue;
    const auto eq = pair.find('=');
    const auto key = percent_decode(pair.substr(0, eq), true);
    const auto value = percent_decode(eq == std::string_view::npos ? "" : pair.substr(eq + 1), true);
    if (!key || !value) {
      error = "a malformed %-escape in the query (expected %XX with two hex digits, not %00)";
      return {};
    }
    out[*key] = *value;
  }
  return out;
}

std::string content_type(const fs::path& p) {
  const std::string ext = p.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".js") return "text/javascript; charset=utf-8";
  return "text/plain; charset=utf-8";  // csv, md, dot, toml, tws: shown, not downloaded
}

// A message as one line: a position echoed in an error may hold line breaks.
std::string one_line(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return s;
}

struct Model {
  std::optional<AnyPuzzle> puzzle;
  std::string error;  // why it cannot be played, when puzzle is empty
  // The bundle's distance table, mapped and checked against the puzzle once.
  std::optional<GoalTableFile> table;
  std::string no_table;  // why there are no distances, when table is empty
};

void put_entry(Json& j, const TableEntry& e) {
  j["standing"] = standing_name(e.standing);
  if (e.standing == Standing::distance) j["distance"] = e.distance;
}

// A whole number in [0, most] from a query parameter, or the reason it is not one.
std::optional<std::uint64_t> whole(const std::string& text, std::uint64_t most) {
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos) return {};
  const std::uint64_t v = std::stoull(text);
  if (v > most) return {};
  return v;
}

class Server {
 public:
  explicit Server(fs::path dir) : dir_(fs::canonical(dir)) {}

  Response handle(const http::request<http::string_body>& req) {
    const std::string_view target(req.target().data(), req.target().size());
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
      auto res = error(req, http::status::method_not_allowed, "only GET and HEAD are served");
      res.set(http::field::allow, "GET, HEAD");
      return res;
    }
    if (target.empty() || target.front() != '/')
      return error(req, http::status::bad_request, "the target must start with /");
    const auto qmark = target.find('?');
    const std::string_view raw_path = target.substr(0, qmark);
    std::string query_error;
    const auto query =
        parse_query(qmark == std::string_view::npos ? std::string_view() : target.substr(qmark + 1), query_error);
    if (!query_error.empty()) return error(req, http::status::bad_request, query_error);
    const auto decoded = percent_decode(raw_path, false);
    if (!decoded) return error(req, http::status::not_found, "no such page");
    const std::string& path = *decoded;

    if (path == "/") return text(req, http::status::ok, serve_assets::kHome, "text/html; charset=utf-8");
    if (path.starts_with("/play/")) return text(req, http::status::ok, serve_assets::kPlay, "text/html; charset=utf-8");
    if (path == "/api/bundles") return json(req, http::status::ok, bundles());
    if (path.starts_with("/api/bundles/")) return bundle(req, path.substr(13));
    if (path.starts_with("/api/play/")) return play(req, path.substr(10), query, Ask::moves);
    if (path.starts_with("/api/line/")) return play(req, path.substr(10), query, Ask::line);
    if (path.starts_with("/api/random/")) return play(req, path.substr(12), query, Ask::random);
    if (path.starts_with("/reports/")) return file(req, path.substr(9));
    return error(req, http::status::not_found, "no such page (see docs/serve.md for the routes)");
  }

  const fs::path& dir() const { return dir_; }

 private:
  static Response text(const http::request<http::string_body>& req, http::status status, std::string_view body,
                       std::string_view type) {
    Response res{status, req.version()};
    res.set(http::field::server, "statespace");
    res.set(http::field::content_type, std::string(type));
    res.set(http::field::cache_control, "no-store");
    res.set("X-Content-Type-Options", "nosniff");
    // The pages load nothing from anywhere but this server.
    res.set("Content-Security-Policy",
            "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' "
            "data:");
    res.keep_alive(req.keep_alive());
    if (req.method() == http::verb::head) {
      res.content_length(body.size());
    } else {
      res.body() = std::string(body);
      res.prepare_payload();
    }
    return res;
  }

  static Response json(const http::request<http::string_body>& req, http::status status, const Json& j) {
    return text(req, status, j.dump(2) + "\n", "application/json");
  }

  static Response error(const http::request<http::string_body>& req, http::status status, const std::string& message) {
    return json(req, status, Json{{"error", one_line(message)}});
  }

  // A bundle folder's name as given in a path: one component, no dot files.
  std::optional<fs::path> bundle_dir(const std::string& name) const {
    if (name.empty() || name.starts_with(".") || name.find('/') != std::string::npos) return std::nullopt;
    std::error_code ec;
    const fs::path folder = dir_ / name;
    if (!fs::is_regular_file(folder / "summary.json", ec)) return std::nullopt;
    if (!inside(folder / "summary.json")) return std::nullopt;
    return folder;
  }

  // Whether p, symlinks resolved, lies inside DIR.
  bool inside(const fs::path& p) const {
    std::error_code ec;
    const fs::path real = fs::canonical(p, ec);
    if (ec) return false;
    auto d = dir_.begin();
    auto r = real.begin();
    for (; d != dir_.end(); ++d, ++r) {
      if (r == real.end() || *d != *r) return false;
    }
    return true;
  }

  static std::optional<std::string> read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return std::nullopt;
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  Json bundles() const {
    Json list = Json::array();
    for (const auto& r : reports::read_bundles(dir_, seed_puzzles())) {
      const std::string folder = reports::folder_name(r.puzzle);
      std::error_code ec;
      const bool playable = fs::is_regular_file(dir_ / folder / "play.json", ec);
      Json b{{"folder", folder},
             {"puzzle", r.puzzle},
             {"states", r.states},
             {"eccentricity", r.eccentricity()},
             {"farthest_count", r.farthest_count()},
             {"directed", r.directed},
             {"report", "/reports/" + folder + "/index.html"},
             {"playable", playable}};
      if (playable) b["play"] = "/play/" + folder;
      list.push_back(b);
    }
    return Json{{"bundles", list}};
  }

  Response bundle(const http::request<http::string_body>& req, const std::string& name) {
    const auto folder = bundle_dir(name);
    if (!folder) return error(req, http::status::not_found, "no bundle named " + name + " in the folder");
    const auto text_ = read(*folder / "summary.json");
    if (!text_) return error(req, http::status::not_found, "no bundle named " + name + " in the folder");
    return text(req, http::status::ok, *text_, "application/json");
  }

  Response file(const http::request<http::string_body>& req, const std::string& rel) {
    const auto missing = [&] { return error(req, http::status::not_found, "no such file in the folder"); };
    // Every component a plain name: no "..", ".", hidden files (the lock, staging
    // folders) or empty components ("//" would make the rest absolute).
    fs::path p = dir_;
    std::size_t at = 0;
    while (at <= rel.size()) {
      const std::size_t slash = std::min(rel.find('/', at), rel.size());
      const std::string part = rel.substr(at, slash - at);
      const bool last = slash == rel.size();
      if (part.empty() && !last) return missing();
      if (!part.empty()) {
        if (part.starts_with(".") || part.find('\\') != std::string::npos) return missing();
        p /= part;
      }
      at = slash + 1;
    }
    std::error_code ec;
    if (fs::is_directory(p, ec)) p /= "index.html";
    if (!fs::is_regular_file(p, ec) || !inside(p)) return missing();
    const auto body = read(p);
    if (!body) return missing();
    return text(req, http::status::ok, *body, content_type(p));
  }

  Model& model(const std::string& name, const fs::path& folder) {
    auto it = models_.find(name);
    if (it != models_.end()) return it->second;
    Model m;
    try {
      const auto text_ = read(folder / "play.json");
      if (!text_) throw UsageError("the bundle has no play.json (analyze it again to play it)");
      const Json j = Json::parse(*text_);
      std::string source;
      if (j.contains("file")) {
        const std::string file = j.at("file").get<std::string>();
        if (file != "puzzle.toml" && file != "puzzle.tws") {
          throw UsageError("play.json names an unknown file (expected puzzle.toml or puzzle.tws)");
        }
        source = (folder / file).string();
      } else {
        source = j.at("puzzle").get<std::string>();
      }
      AnyPuzzle puzzle = make_puzzle(source);
      apply_move_options(puzzle, j.value("moves", std::string()), j.value("metric", std::string()));
      apply_symmetry_option(puzzle, j.value("symmetry", std::string()));
      m.puzzle = std::move(puzzle);
    } catch (const std::exception& e) {
      m.error = one_line(e.what());
    }
    if (m.puzzle) open_table(m, folder);
    return models_.emplace(name, std::move(m)).first->second;
  }

  // The bundle's table, when analyze --table wrote one: opened (its checksums
  // checked) and matched against the puzzle here, so that a request only probes.
  static void open_table(Model& m, const fs::path& folder) {
    const fs::path path = folder / kGoalTableFile;
    std::error_code ec;
    if (!fs::exists(path, ec)) {
      m.no_table = "distances need a distance table: statespace analyze PUZZLE --table";
      return;
    }
    try {
      m.table.emplace(GoalTableFile::open(path));
      std::visit([&](const auto& p) { const TableProbe probe(p, *m.table); }, *m.puzzle);
    } catch (const std::exception& e) {
      m.table.reset();
      m.no_table = "no distances: " + one_line(e.what());
    }
  }

  enum class Ask { moves, line, random };

  // The name of a move for a model that names none: the piece that moved, as the
  // board showed it before the move, and which way on the drawn board ("6 ↓"): the
  // cells it left and the cells it entered, when those it left held one label; else
  // "move N". (Files whose pieces of one shape are relettered in reading order after
  // each move, like Klotski's, change other letters too: the cells left and entered
  // still name the piece.)
  static std::string piece_move_name(const reports::Drawing& d, const std::vector<std::string>& before,
                                     const std::vector<std::string>& after, int number) {
    const auto blank = [](const std::string& c) { return c == kBlank || c == "." || c == "#"; };
    const std::string fallback = "move " + std::to_string(number);
    if (d.as_text || d.cells.size() != before.size() || before.size() != after.size()) return fallback;
    std::string label;
    double sx = 0, sy = 0, tx = 0, ty = 0;
    int left = 0, entered = 0;
    for (std::size_t i = 0; i < before.size(); ++i) {
      if (!blank(before[i]) && blank(after[i])) {
        if (!label.empty() && before[i] != label) return fallback;
        label = before[i];
        sx += d.cells[i].x, sy += d.cells[i].y, ++left;
      } else if (blank(before[i]) && !blank(after[i])) {
        tx += d.cells[i].x, ty += d.cells[i].y, ++entered;
      }
    }
    if (left == 0 || entered == 0) return fallback;
    const double dx = tx / entered - sx / left, dy = ty / entered - sy / left;
    const double ax = std::abs(dx), ay = std::abs(dy);
    std::string arrow;
    if (ax > 2 * ay) {
      arrow = dx > 0 ? "\u2192" : "\u2190";
    } else if (ay > 2 * ax) {
      arrow = dy > 0 ? "\u2193" : "\u2191";
    } else {
      arrow = dy > 0 ? (dx > 0 ? "\u2198" : "\u2199") : (dx > 0 ? "\u2197" : "\u2196");
    }
    return label + " " + arrow;
  }

  template <class P>
  Json view(const P& p, const typename P::State& s, const Json& summary, const Model& m) const {
    const reports::Drawing d = reports::draw_position(p, s);
    const auto before = reports::notation_cells(d.notation);
    Json moves = Json::array();
    int index = 0;
    std::vector<typename P::State> after_states;
    for_each_step(p, s, [&](const typename P::State& t) {
      after_states.push_back(t);
      const std::string position = p.format(t);
      const auto after = reports::notation_cells(position);
      Json changed = Json::array();
      for (std::size_t i = 0; i < before.size() && i < after.size(); ++i) {
        if (before[i] != after[i]) changed.push_back(i);
      }
      std::string name;
      if constexpr (MoveNamingPuzzle<P>) {
        name = p.move_name(s, t);
      } else {
        name = piece_move_name(d, before, after, index + 1);
      }
      moves.push_back(Json{{"index", index}, {"name", name}, {"position", position}, {"changed", changed}});
      ++index;
    });
    Json cells = Json::array();
    for (const auto& c : before) cells.push_back(c);
    Json j{{"puzzle", p.name()},
           {"position", d.notation},
           {"start", summary.value("start", std::string())},
           {"cells", cells},
           {"svg", reports::drawing_svg(d, 56)}};
    if (!m.table) {
      j["moves"] = std::move(moves);
      j["distances"] = m.no_table;
      return j;
    }
    // The moves as statespace query probes them (best first), put back in the
    // model's order: a successor's entry is found by its position.
    const TableProbe probe(p, *m.table);
    const TableEntry here = probe.entry(s);
    put_entry(j, here);
    const auto probed = probe.moves(s, here);
    std::vector<char> used(probed.size(), 0);
    for (std::size_t i = 0; i < moves.size(); ++i) {
      Json& move = moves[i];
      for (std::size_t k = 0; k < probed.size(); ++k) {
        if (used[k] || !(probed[k].to == after_states[i])) continue;
        used[k] = 1;
        put_entry(move, probed[k].entry);
        move["change"] = change_name(here, probed[k].entry);
        break;
      }
    }
    j["moves"] = std::move(moves);
    // The best move: the first of the probe's order, when it leads closer.
    if (!probed.empty() && here.standing == Standing::distance && probed.front().entry.standing == Standing::distance &&
        probed.front().entry.distance < here.distance) {
      for (std::size_t i = 0; i < after_states.size(); ++i) {
        if (after_states[i] == probed.front().to) {
          j["best"] = i;
          break;
        }
      }
    }
    const GoalTableHeader& h = m.table->header();
    j["table"] = {{"layers", h.layers}, {"directed", h.directed}, {"dead", h.dead}};
    return j;
  }

  // The line of best moves from s to the goal: statespace query --line.
  template <class P>
  Json line(const P& p, const typename P::State& s, const Model& m) const {
    const TableProbe probe(p, *m.table);
    const TableEntry here = probe.entry(s);
    if (here.standing != Standing::distance) {
      throw UsageError(p.format(s) + " has no distance to the goal (" + standing_name(here.standing) +
                       "): no line to solve it");
    }
    const auto path = probe.line(s, here.distance);
    Json steps = Json::array();
    for (std::size_t i = 1; i < path.size(); ++i) {
      std::string name;
      if constexpr (MoveNamingPuzzle<P>) {
        name = p.move_name(path[i - 1], path[i]);
      } else {
        const reports::Drawing d = reports::draw_position(p, path[i - 1]);
        name =
            piece_move_name(d, reports::notation_cells(d.notation), reports::notation_cells(p.format(path[i])), int(i));
      }
      steps.push_back(Json{{"move", name}, {"position", p.format(path[i])}});
    }
    return Json{{"puzzle", p.name()}, {"position", p.format(s)}, {"distance", here.distance}, {"line", steps}};
  }

  // A position at distance d, from the table (TableProbe::random_at); the bundle's
  // farthest and hardest positions are the walks' last resort.
  template <class P>
  Json random(const P& p, unsigned d, std::uint64_t seed, const Json& summary, const Model& m) const {
    const TableProbe probe(p, *m.table);
    const GoalTableHeader& h = m.table->header();
    const auto reached = [&](unsigned k) { return k < h.layers.size() && h.layers[k] > 0; };
    if (!reached(d)) {
      throw UsageError("no position at distance " + std::to_string(d) + " (the table's distances run 0 to " +
                       std::to_string(h.layers.empty() ? 0 : h.layers.size() - 1) + ")");
    }
    std::vector<typename P::State> far;
    const auto add = [&](const Json& list) {
      if (!list.is_array()) return;
      for (const auto& t : list) {
        try {
          far.push_back(p.parse(t.template get<std::string>()));
        } catch (const std::exception&) {
          // A bundle from another version of the model: its positions are no help.
        }
      }
    };
    if (summary.contains("farthest")) add(summary["farthest"]);
    if (summary.contains("goal") && summary["goal"].contains("hardest")) add(summary["goal"]["hardest"]);
    std::mt19937_64 rng(seed);
    const auto s = probe.random_at(d, rng, far);
    if (!s) throw NotFound("no position at distance " + std::to_string(d) + " was found (try again)");
    return Json{{"puzzle", p.name()}, {"position", p.format(*s)}, {"distance", d}, {"seed", seed}};
  }

  Response play(const http::request<http::string_body>& req, const std::string& name,
                const std::map<std::string, std::string>& query, Ask ask) {
    const auto folder = bundle_dir(name);
    if (!folder) return error(req, http::status::not_found, "no bundle named " + name + " in the folder");
    const char* const allowed = ask == Ask::random ? "distance and seed" : "position";
    for (const auto& [key, value] : query) {
      const bool known = ask == Ask::random ? key == "distance" || key == "seed" : key == "position";
      if (!known) {
        return error(req, http::status::bad_request,
                     "unknown parameter " + key + " (expected " + std::string(allowed) + ")");
      }
    }
    Model& m = model(name, *folder);
    if (!m.puzzle) return error(req, http::status::not_found, name + " cannot be played: " + m.error);
    if (ask != Ask::moves && !m.table) return error(req, http::status::not_found, name + ": " + m.no_table);
    std::uint64_t distance = 0, seed = std::random_device{}();
    if (ask == Ask::random) {
      const auto d = query.find("distance");
      const auto parsed = d == query.end() ? std::nullopt : whole(d->second, 100000);
      if (!parsed) {
        return error(req, http::status::bad_request,
                     "distance must be a whole number of moves, e.g. distance=10 (the table's distances are listed "
                     "in /api/play's table.layers)");
      }
      distance = *parsed;
      if (const auto given_seed = query.find("seed"); given_seed != query.end()) {
        const auto parsed_seed = whole(given_seed->second, ~std::uint64_t{0});
        if (!parsed_seed) {
          return error(req, http::status::bad_request, "seed must be a whole number below 2^64, e.g. seed=7");
        }
        seed = *parsed_seed;
      }
    }
    Json summary;
    try {
      summary = Json::parse(read(*folder / "summary.json").value_or("{}"));
    } catch (const std::exception&) {
      summary = Json::object();
    }
    const auto given = query.find("position");
    if (given != query.end() && given->second.size() > kMaxPosition) {
      return error(req, http::status::bad_request,
                   "the position has " + std::to_string(given->second.size()) + " characters (at most " +
                       std::to_string(kMaxPosition) + ")");
    }
    try {
      return std::visit(
          [&](const auto& p) {
            std::string text_;
            if (given != query.end()) {
              text_ = given->second;
            } else if (summary.contains("farthest") && !summary["farthest"].empty()) {
              text_ = summary["farthest"][0].template get<std::string>();  // the hardest start there is
            } else {
              text_ = summary.value("start", p.format(p.goal()));
            }
            if (text_.find_first_not_of(" \t\r\n") == std::string::npos) {
              throw ParseError("an empty position (expected one like \"" + p.format(p.goal()) + "\")");
            }
            if (ask == Ask::random) return json(req, http::status::ok, random(p, unsigned(distance), seed, summary, m));
            const auto s = p.parse(text_);
            if (ask == Ask::line) return json(req, http::status::ok, line(p, s, m));
            return json(req, http::status::ok, view(p, s, summary, m));
          },
          *m.puzzle);
    } catch (const ParseError& e) {
      return error(req, http::status::bad_request, e.what());
    } catch (const UsageError& e) {
      return error(req, http::status::bad_request, e.what());
    } catch (const NotFound& e) {
      return error(req, http::status::not_found, e.what());
    }
  }

  fs::path dir_;
  std::map<std::string, Model> models_;
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, Server& server) : stream_(std::move(socket)), server_(server) {}

  void run() { net::dispatch(stream_.get_executor(), beast::bind_front_handler(&Session::read, shared_from_this())); }

 private:
  void read() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(kBodyLimit);
    stream_.expires_after(kIdle);
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&Session::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream) return close();
    if (ec == http::error::header_limit)
      return refuse(http::status::request_header_fields_too_large, "the request's header is over 8 KiB");
    if (ec == http::error::body_limit)
      return refuse(http::status::payload_too_large, "the request's body is over 1 KiB");
    if (ec == beast::error::timeout || ec == net::error::operation_aborted || ec == net::error::connection_reset ||
        ec == net::error::eof) {
      return close();
    }
    if (ec) return refuse(http::status::bad_request, "a malformed request: " + ec.message());
    const auto started = std::chrono::steady_clock::now();
    res_ = server_.handle(parser_->get());
    // The time the answer took here, for a browser's network panel and
    // bench/serve_timing.py: Server-Timing (W3C), in milliseconds.
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - started;
    char timing[48];
    std::snprintf(timing, sizeof timing, "app;dur=%.3f", took.count());
    res_.set("Server-Timing", timing);
    write(!res_.keep_alive());
  }

  // Answers and closes: what is left of the request is not read.
  void refuse(http::status status, const std::string& message) {
    res_ = Response{status, 11};
    res_.set(http::field::server, "statespace");
    res_.set(http::field::content_type, "application/json");
    res_.body() = Json{{"error", message}}.dump(2) + "\n";
    res_.keep_alive(false);
    res_.prepare_payload();
    write(true);
  }

  void write(bool then_close) {
    http::async_write(stream_, res_, [self = shared_from_this(), then_close](beast::error_code ec, std::size_t) {
      if (ec) return;
      if (then_close) return self->close();
      self->buffer_.consume(self->buffer_.size());
      self->read();
    });
  }

  // Half-closes, then reads what the client still sends until it closes too: closing
  // with unread bytes would reset the connection before the client read the answer.
  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.expires_after(std::chrono::seconds(5));
    drain();
  }

  void drain() {
    stream_.async_read_some(net::buffer(drained_), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (!ec) self->drain();
    });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Response res_;
  Server& server_;
  std::array<char, 4096> drained_{};
};

void accept(tcp::acceptor& acceptor, Server& server) {
  acceptor.async_accept([&acceptor, &server](beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted) return;  // stopping
    if (!ec) std::make_shared<Session>(std::move(socket), server)->run();
    accept(acceptor, server);
  });
}

}  // namespace

int run_serve(const Args& args, Context& context) {
  std::string dir = "reports-out", host = "127.0.0.1", port_text = "8080";
  po::options_description options("Options");
  options.add_options()("dir", po::value(&dir)->value_name("DIR"),
                        "the folder of report bundles (default reports-out)")(
      "port", po::value(&port_text)->default_value(port_text)->value_name("N"),
      "the TCP port; 0 picks a free one (the line printed at the start names it)")(
      "host", po::value(&host)->default_value(host)->value_name("ADDR"),
      "the address to listen on; other machines reach the server only when this is not a loopback address");
  po::positional_options_description positional;
  positional.add("dir", 1);
  po::variables_map vm;
  if (!parse_command(command("serve"), options, positional, args, vm, context)) return 0;
  const auto port = static_cast<unsigned short>(parse_whole("--port", port_text, 0, 65535));
  require_nonempty("DIR", dir, "a folder");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw UsageError("serve: " + quote_input(dir) +
                     " is not a folder (expected the --out folder of statespace analyze, e.g. reports-out)");
  }
  boost::system::error_code bec;
  const auto address = net::ip::make_address(host, bec);
  if (bec) throw UsageError("serve: bad --host " + quote_input(host) + " (expected an IP address, e.g. 127.0.0.1)");

  net::io_context ioc{1};
  tcp::acceptor acceptor(ioc);
  const tcp::endpoint endpoint(address, port);
  acceptor.open(endpoint.protocol(), bec);
  if (!bec) acceptor.set_option(net::socket_base::reuse_address(true), bec);
  if (!bec) acceptor.bind(endpoint, bec);
  if (!bec) acceptor.listen(net::socket_base::max_listen_connections, bec);
  if (bec) {
    throw UsageError("serve: cannot listen on " + host + ":" + std::to_string(port) + ": " + bec.message() +
                     " (choose another --port)");
  }
  Server server(dir);
  net::signal_set signals(ioc, SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code, int) {
    acceptor.close();
    ioc.stop();
  });
  accept(acceptor, server);
  const auto bound = acceptor.local_endpoint();
  const std::string shown =
      bound.address().is_v6() ? "[" + bound.address().to_string() + "]" : bound.address().to_string();
  std::cout << "statespace serve: http://" << shown << ":" << bound.port() << "/ serving " << server.dir().string()
            << " (Ctrl-C stops it)" << std::endl;
  ioc.run();
  std::cout << "statespace serve: stopped" << std::endl;
  return 0;
}

}  // namespace statespace::cli
