#include "reports/summary_json.hpp"

#include <nlohmann/json.hpp>

namespace statespace::reports {

std::string summary_json(const AnalysisResult& r) {
  nlohmann::ordered_json j;
  j["puzzle"] = r.puzzle;
  j["start"] = r.start;
  j["states"] = r.states;
  j["edges"] = r.edges;
  j["eccentricity"] = r.eccentricity();
  j["farthest_count"] = r.farthest.size();
  j["farthest"] = r.farthest;
  j["distribution"] = r.layers;
  if (r.diameter) {
    j["diameter"] = {{"length", r.diameter->length},
                     {"from", r.diameter->from},
                     {"to", r.diameter->to},
                     {"method", r.diameter->method},
                     {"sources", r.diameter->sources}};
  }
  if (r.components) {
    j["components"] = {
        {"count", r.components->sizes.size()}, {"positions", r.components->positions}, {"sizes", r.components->sizes}};
  }
  j["engine"] = r.engine;
  j["lookup"] = r.lookup;
  if (r.comparisons) j["comparisons"] = *r.comparisons;
  j["statespace_version"] = STATESPACE_VERSION;
  j["run"] = {{"threads", r.threads}, {"seconds", r.seconds}, {"peak_bytes", r.peak_bytes}};
  return j.dump(2) + "\n";
}

}  // namespace statespace::reports
