// Graphviz reports. graph.dot draws every position (small graphs only), ranked by
// depth from the start; layers.dot draws one node per depth with its count and the
// number of moves between depths, readable for any size. On a directed space both
// draw arrows, each move once in its direction; a move back to an earlier depth or
// within one leaves the ranks alone (constraint=false).
#pragma once

#include <string>
#include <vector>

#include "analysis/engines/explicit/bfs.hpp"
#include "analysis/engines/explicit/graph.hpp"
#include "analysis/engines/result.hpp"

namespace statespace::reports {

// `labels[v]` is vertex v's position; rows become lines of the node label.
std::string graph_dot(const Graph& g, const std::vector<std::string>& labels, const std::vector<Distance>& depth,
                      bool directed = false);

std::string layers_dot(const AnalysisResult& r);

}  // namespace statespace::reports
