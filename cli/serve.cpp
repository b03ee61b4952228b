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
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

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
};

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
    if (path.starts_with("/api/play/")) return play(req, path.substr(10), query);
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
             {"farthest_count", r.farthest.size()},
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
      m.puzzle = std::move(puzzle);
    } catch (const std::exception& e) {
      m.error = one_line(e.what());
    }
    return models_.emplace(name, std::move(m)).first->second;
  }

  template <class P>
  Json view(const P& p, const typename P::State& s, const Json& summary) const {
    const reports::Drawing d = reports::draw_position(p, s);
    const auto before = reports::notation_cells(d.notation);
    Json moves = Json::array();
    int index = 0;
    p.for_each_successor(s, [&](const typename P::State& t) {
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
        name = "move " + std::to_string(index + 1);
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
           {"svg", reports::drawing_svg(d, 56)},
           {"moves", moves},
           {"distances", "distances need --table"}};
    return j;
  }

  Response play(const http::request<http::string_body>& req, const std::string& name,
                const std::map<std::string, std::string>& query) {
    const auto folder = bundle_dir(name);
    if (!folder) return error(req, http::status::not_found, "no bundle named " + name + " in the folder");
    for (const auto& [key, value] : query) {
      if (key != "position")
        return error(req, http::status::bad_request, "unknown parameter " + key + " (expected position)");
    }
    Model& m = model(name, *folder);
    if (!m.puzzle) return error(req, http::status::not_found, name + " cannot be played: " + m.error);
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
            return json(req, http::status::ok, view(p, p.parse(text_), summary));
          },
          *m.puzzle);
    } catch (const ParseError& e) {
      return error(req, http::status::bad_request, e.what());
    } catch (const UsageError& e) {
      return error(req, http::status::bad_request, e.what());
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
    res_ = server_.handle(parser_->get());
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
