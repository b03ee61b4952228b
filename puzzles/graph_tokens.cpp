#include "puzzles/graph_tokens.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <sstream>

namespace statespace {

namespace {

// Vertex number 1..n of `text`, or -1.
int vertex_number(std::string_view text, int n) {
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || v < 1 || v > n) return -1;
  return v;
}

bool connected_without(const std::vector<std::vector<int>>& adj, int removed) {
  const int n = int(adj.size());
  std::vector<char> seen(adj.size(), 0);
  int first = removed == 0 ? 1 : 0;
  if (first >= n) return true;
  std::vector<int> stack{first};
  seen[std::size_t(first)] = 1;
  int reached = 1;
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    for (const int w : adj[std::size_t(v)]) {
      if (w == removed || seen[std::size_t(w)]) continue;
      seen[std::size_t(w)] = 1;
      ++reached;
      stack.push_back(w);
    }
  }
  return reached == n - (removed >= 0 ? 1 : 0);
}

bool bipartite(const std::vector<std::vector<int>>& adj) {
  std::vector<int> colour(adj.size(), -1);
  for (std::size_t s = 0; s < adj.size(); ++s) {
    if (colour[s] >= 0) continue;
    colour[s] = 0;
    std::vector<int> stack{int(s)};
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      for (const int w : adj[std::size_t(v)]) {
        if (colour[std::size_t(w)] < 0) {
          colour[std::size_t(w)] = 1 - colour[std::size_t(v)];
          stack.push_back(w);
        } else if (colour[std::size_t(w)] == colour[std::size_t(v)]) {
          return false;
        }
      }
    }
  }
  return true;
}

// Wilson's exceptional graph theta_0: two vertices of degree 3 joined by three
// paths of lengths 2, 3 and 3 (7 vertices).
bool is_theta0(const std::vector<std::vector<int>>& adj) {
  if (adj.size() != 7) return false;
  std::vector<int> ends;
  for (std::size_t v = 0; v < adj.size(); ++v) {
    if (adj[v].size() == 3) {
      ends.push_back(int(v));
    } else if (adj[v].size() != 2) {
      return false;
    }
  }
  if (ends.size() != 2) return false;
  std::vector<int> lengths;
  for (const int first : adj[std::size_t(ends[0])]) {
    int previous = ends[0], v = first, length = 1;
    while (v != ends[1] && adj[std::size_t(v)].size() == 2) {
      const int next = adj[std::size_t(v)][0] == previous ? adj[std::size_t(v)][1] : adj[std::size_t(v)][0];
      previous = v;
      v = next;
      ++length;
    }
    if (v != ends[1]) return false;
    lengths.push_back(length);
  }
  std::sort(lengths.begin(), lengths.end());
  return lengths == std::vector<int>{2, 3, 3};
}

}  // namespace

GraphTokens::GraphTokens(const TomlInput& file) {
  const auto& root = file.root();
  file.check_keys(root, {"name", "title", "kind", "edges", "start", "goal", "rows", "coordinates"});
  const std::string start_form = "start = \"1 2 3 _\", the token on each vertex in vertex order, '_' empty";
  const auto start = *file.string(root, "start", true, start_form);
  labels_ = CellLabels(file, *root.get("start"), start, true);
  const int n = labels_.cells();
  if (n > kMaxVertices || labels_.codes() > kMaxLabels) {
    file.fail(*root.get("start"), "start has " + std::to_string(n) + " vertices and " +
                                      std::to_string(labels_.codes()) + " distinct labels (expected at most " +
                                      std::to_string(kMaxVertices) + " vertices and " + std::to_string(kMaxLabels) +
                                      " labels counting '_')");
  }
  for (int c = 0; c < labels_.codes(); ++c) counts_[std::size_t(c)] = std::uint8_t(labels_.counts()[std::size_t(c)]);

  const std::string edge_form = "edges = \"1-2 2-3\", pairs of vertices 1.." + std::to_string(n);
  const auto edges = *file.string(root, "edges", true, edge_form);
  const toml::node& edges_node = *root.get("edges");
  adjacency_.assign(std::size_t(n), {});
  std::set<std::pair<int, int>> seen;
  // One word past the vertex pairs is enough: among so many there is a duplicate
  // or a bad edge for the loop to refuse, and the rest of the text is never split.
  for (const auto& w : words(edges, std::size_t(n) * std::size_t(n - 1) / 2 + 1)) {
    const auto dash = w.text.find('-');
    if (dash == std::string::npos) {
      fail_in_string(file, edges_node, w.offset,
                     "edge '" + w.text + "' is not two vertices (expected " + edge_form + ")");
    }
    const int a = vertex_number(std::string_view(w.text).substr(0, dash), n);
    const int b = vertex_number(std::string_view(w.text).substr(dash + 1), n);
    if (a < 0 || b < 0) {
      const std::string bad = a < 0 ? w.text.substr(0, dash) : w.text.substr(dash + 1);
      fail_in_string(file, edges_node, w.offset + (a < 0 ? 0 : dash + 1),
                     "unknown vertex '" + bad + "' in edge '" + w.text + "' (expected " + edge_form + ")");
    }
    if (a == b) fail_in_string(file, edges_node, w.offset, "self-loop '" + w.text + "' (expected " + edge_form + ")");
    if (!seen.insert({std::min(a, b), std::max(a, b)}).second) {
      fail_in_string(file, edges_node, w.offset,
                     "duplicate edge '" + w.text + "' (expected each edge once, " + edge_form + ")");
    }
    adjacency_[std::size_t(a - 1)].push_back(b - 1);
    adjacency_[std::size_t(b - 1)].push_back(a - 1);
  }
  for (auto& a : adjacency_) std::sort(a.begin(), a.end());

  goal_ = labels_.start();
  if (const auto goal = file.string(root, "goal", false, "goal = a position like start")) {
    goal_ = labels_.parse_at(file, *root.get("goal"), *goal);
  }
  if (const toml::node* node = root.get("coordinates")) read_coordinates(file, *node);
  // At most the degrees of the `empties` best-connected vertices.
  std::vector<int> degrees;
  for (const auto& a : adjacency_) degrees.push_back(int(a.size()));
  std::sort(degrees.rbegin(), degrees.rend());
  for (int k = 0; k < labels_.counts()[0]; ++k) max_moves_ += degrees[std::size_t(k)];
  max_moves_ = std::max(max_moves_, 1);
}

void GraphTokens::read_coordinates(const TomlInput& file, const toml::node& node) {
  const int n = labels_.cells();
  const std::string form =
      "coordinates = [[0, 0], [2, 0], ...], one [x, y] per vertex in vertex order, in token "
      "widths, y down";
  const auto* array = node.as_array();
  if (!array) file.fail(node, "'coordinates' must be an array of [x, y] pairs (expected " + form + ")");
  if (array->size() != std::size_t(n)) {
    file.fail(node, "coordinates has " + std::to_string(array->size()) + " pairs for " + std::to_string(n) +
                        " vertices (expected " + form + ")");
  }
  for (int v = 0; v < n; ++v) {
    const toml::node& pair = *array->get(std::size_t(v));
    const auto* xy = pair.as_array();
    const std::string vertex = "vertex " + std::to_string(v + 1);
    if (!xy || xy->size() != 2 || !xy->get(0)->is_number() || !xy->get(1)->is_number()) {
      file.fail(pair, vertex + "'s coordinates are not two numbers (expected " + form + ")");
    }
    BoardGeometry::Place at;
    for (int k = 0; k < 2; ++k) {
      const toml::node& c = *xy->get(std::size_t(k));
      const double value = c.is_integer() ? double(*c.value<std::int64_t>()) : *c.value<double>();
      if (!std::isfinite(value) || std::abs(value) > kMaxCoordinate) {
        file.fail(c, vertex + "'s " + (k == 0 ? "x" : "y") + " is out of range (expected a number from -" +
                         std::to_string(int(kMaxCoordinate)) + " to " + std::to_string(int(kMaxCoordinate)) + ")");
      }
      (k == 0 ? at.x : at.y) = value;
    }
    // Tokens are one width across: closer ones would be drawn over each other.
    for (int w = 0; w < v; ++w) {
      const double apart = std::hypot(at.x - coordinates_[std::size_t(w)].x, at.y - coordinates_[std::size_t(w)].y);
      if (apart < 1) {
        std::ostringstream text;
        text << vertex << " is " << apart << " from vertex " << w + 1
             << " (expected at least 1 apart, the width of a token)";
        file.fail(pair, text.str());
      }
    }
    coordinates_.push_back(at);
  }
}

BoardGeometry GraphTokens::cell_geometry() const {
  const int n = labels_.cells();
  BoardGeometry g;
  if (!coordinates_.empty()) {
    g.cells = coordinates_;
  } else if (labels_.rows().size() > 1) {
    g = row_geometry(labels_.rows());
  } else {
    // A radius that keeps neighbours on the circle about 1.6 cells apart.
    const double radius = std::max(1.0, 1.6 * n / (2 * 3.14159265358979323846));
    for (int v = 0; v < n; ++v) {
      const double a = 2 * 3.14159265358979323846 * v / n;
      g.cells.push_back({radius * std::sin(a), -radius * std::cos(a)});
    }
  }
  for (int v = 0; v < n; ++v) {
    for (const int w : adjacency_[std::size_t(v)]) {
      if (v < w) g.edges.emplace_back(v, w);
    }
  }
  return g;
}

std::string GraphTokens::move_name(const State& from, const State& to) const {
  int source = -1, target = -1;
  for (int v = 0; v < labels_.cells(); ++v) {
    if (from.cell[std::size_t(v)] == to.cell[std::size_t(v)]) continue;
    (to.cell[std::size_t(v)] == 0 ? source : target) = v;
  }
  if (source < 0 || target < 0) return "?";
  return labels_.label(from.cell[std::size_t(source)]) + ":" + std::to_string(source + 1) + "-" +
         std::to_string(target + 1);
}

ComponentPrediction GraphTokens::predicted_components() const {
  const int n = labels_.cells();
  const auto& counts = labels_.counts();
  const bool distinct = counts[0] == 1 && std::all_of(counts.begin() + 1, counts.end(), [](int c) { return c == 1; });
  if (!distinct) {
    return {"Wilson's theorem does not apply (it takes distinct tokens and one empty vertex)", 0};
  }
  if (!connected_without(adjacency_, -1)) return {"Wilson's theorem does not apply (the graph is not connected)", 0};
  bool two_connected = n >= 3;
  for (int v = 0; v < n && two_connected; ++v) two_connected = connected_without(adjacency_, v);
  if (!two_connected) {
    return {"Wilson's theorem does not apply (the graph has a cut vertex: it is not 2-connected)", 0};
  }
  if (std::all_of(adjacency_.begin(), adjacency_.end(), [](const auto& a) { return a.size() == 2; })) {
    // Tokens only rotate: n blank places times n-1 rotations per component.
    return {"Wilson's theorem, the cycle: (n-2)! components", kFactorial[std::size_t(n - 2)]};
  }
  if (is_theta0(adjacency_)) {
    return {"Wilson's theorem, the exceptional graph theta_0: 6 components (the group is PGL(2,5))", 6};
  }
  if (bipartite(adjacency_)) {
    return {"Wilson's theorem, 2-connected bipartite, not a cycle: 2 components (even permutations)", 2};
  }
  return {"Wilson's theorem, 2-connected non-bipartite, not a cycle nor theta_0: 1 component", 1};
}

GraphTokens load_graph(const TomlInput& file) { return GraphTokens(file); }

}  // namespace statespace
