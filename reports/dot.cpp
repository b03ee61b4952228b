#include "reports/dot.hpp"

#include <algorithm>
#include <sstream>

#include "core/notation.hpp"
#include "reports/escape.hpp"
#include "reports/tables.hpp"

namespace statespace::reports {

std::string graph_dot(const Graph& g, const std::vector<std::string>& labels, const std::vector<Distance>& depth,
                      bool directed) {
  std::ostringstream out;
  out << "digraph G {\nrankdir=TB;\nnode [shape=box, fontname=\"monospace\"];\n"
      << (directed ? "" : "edge [dir=none];\n");
  for (Vertex v = 0; v < depth.size(); ++v) {
    out << v << "[label=\"" << with_row_separator(dot_escape(labels[v]), "\\n") << "\", depth=" << depth[v] << "];\n";
  }
  Distance deepest = 0;
  for (auto d : depth) deepest = std::max(deepest, d);
  std::vector<std::vector<Vertex>> by_depth(std::size_t(deepest) + 1);
  for (Vertex v = 0; v < depth.size(); ++v) by_depth[depth[v]].push_back(v);
  for (const auto& layer : by_depth) {
    out << "{rank=same;";
    for (Vertex v : layer) out << " " << v << ";";
    out << "}\n";
  }
  // Each move is stored in both directions: draw it once, from the shallower end, so
  // that dot puts every depth one rank below the one before; a move within one depth
  // must not push its ends apart.
  for (Vertex u = 0; u < depth.size(); ++u) {
    for (auto [e, end] = out_edges(u, g); e != end; ++e) {
      const Vertex v = target(*e, g);
      if (directed) {
        // Every move is stored once: draw each, and only a move one depth down ranks.
        out << u << "->" << v << (depth[u] < depth[v] ? " ;\n" : " [constraint=false];\n");
      } else if (depth[u] < depth[v]) {
        out << u << "->" << v << " ;\n";
      } else if (depth[u] == depth[v] && u < v) {
        out << u << "->" << v << " [constraint=false];\n";
      }
    }
  }
  out << "}\n";
  return out.str();
}

std::string layers_dot(const AnalysisResult& r) {
  std::string out = r.directed ? "digraph layers {\nrankdir=TB;\nnode [shape=box];\n"
                               : "graph layers {\nrankdir=TB;\nnode [shape=box];\n";
  for (std::size_t d = 0; d < r.layers.size(); ++d) {
    out += "d" + std::to_string(d) + " [label=\"depth " + std::to_string(d) + "\\n" + with_commas(r.layers[d]) +
           (r.layers[d] == 1 ? " position" : " positions") + "\"];\n";
  }
  for (const auto& e : r.layer_edges) {
    if (r.directed) {
      out += "d" + std::to_string(e.from) + " -> d" + std::to_string(e.to) + " [label=\"" + with_commas(e.count) +
             (e.to > e.from ? "\"];\n" : "\", constraint=false];\n");
      continue;
    }
    out +=
        "d" + std::to_string(e.from) + " -- d" + std::to_string(e.to) + " [label=\"" + with_commas(e.count) + "\"];\n";
  }
  return out + "}\n";
}

}  // namespace statespace::reports
