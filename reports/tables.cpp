#include "reports/tables.hpp"

namespace statespace::reports {

namespace {

std::string components_text(const AnalysisResult& r, const char* separator) {
  if (!r.components) return "";
  std::string out;
  for (std::size_t i = 0; i < r.components->sizes.size(); ++i) {
    if (i) out += separator;
    out += std::to_string(r.components->sizes[i]);
  }
  return out;
}

}  // namespace

std::string distribution_csv(const AnalysisResult& r) {
  std::string out = "depth,count,cumulative\n";
  std::uint64_t cumulative = 0;
  for (std::size_t d = 0; d < r.layers.size(); ++d) {
    cumulative += r.layers[d];
    out += std::to_string(d) + "," + std::to_string(r.layers[d]) + "," + std::to_string(cumulative) + "\n";
  }
  return out;
}

std::string farthest_csv(const AnalysisResult& r) {
  std::string out = "distance,position\n";
  for (const auto& p : r.farthest) out += std::to_string(r.eccentricity()) + "," + csv_field(p) + "\n";
  return out;
}

std::string summary_csv(const std::vector<AnalysisResult>& results) {
  std::string out = "puzzle,start,states,edges,eccentricity,farthest,diameter,components,start_component\n";
  for (const auto& r : results) {
    out += csv_field(r.puzzle) + "," + csv_field(r.start) + "," + std::to_string(r.states) + "," +
           std::to_string(r.edges) + "," + std::to_string(r.eccentricity()) + "," + std::to_string(r.farthest.size()) +
           "," + (r.diameter ? std::to_string(r.diameter->length) : "") + "," + components_text(r, " ") + "," +
           (r.components ? std::to_string(r.components->start) : "") + "\n";
  }
  return out;
}

std::string summary_markdown(const std::vector<AnalysisResult>& results) {
  std::string out =
      "| puzzle | start | states | edges | eccentricity | farthest positions | diameter | components |\n"
      "|---|---|--:|--:|--:|--:|--:|---|\n";
  for (const auto& r : results) {
    out += "| " + markdown_escape(r.puzzle) + " | " + markdown_code(r.start) + " | " + with_commas(r.states) + " | " +
           with_commas(r.edges) + " | " + std::to_string(r.eccentricity()) + " | " + with_commas(r.farthest.size()) +
           " | " + (r.diameter ? std::to_string(r.diameter->length) : "") + " | " + components_text(r, " + ") + " |\n";
  }
  return out;
}

}  // namespace statespace::reports
