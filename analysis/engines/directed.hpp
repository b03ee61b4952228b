// What every engine says the same way about goals and directed spaces
// (DirectedPuzzle): which models have a partial goal, which goal the distance to the
// goal is measured to, the views a report cannot give and
// why, and the requests that have no meaning once moves cannot be undone. One place,
// so that the explicit, levels and ranked engines fill AnalysisResult::unavailable
// with the same words and refuse the same options with the same message.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/engines/options.hpp"
#include "analysis/engines/result.hpp"
#include "core/errors.hpp"
#include "core/puzzle.hpp"

namespace statespace {

// Models whose goal is a predicate over positions rather than one position.
template <class P>
concept PartialGoalPuzzle = Puzzle<P> && requires(const P& p, const typename P::State& s) {
  { p.has_goal() } -> std::same_as<bool>;
  { p.is_goal(s) } -> std::same_as<bool>;
  { p.goal_text() } -> std::convertible_to<std::string>;
};

// The goal views of a directed space, each with `reason`.
inline std::vector<UnavailableView> goal_views_unavailable(const std::string& reason) {
  return {{kViewDistanceToGoal, reason}, {kViewFarthestFromGoal, reason}, {kViewDeadEnds, reason}};
}

// Why a directed model without predecessors has no goal views: a search forward from
// the start says how far each position is from the start, never how far from the goal.
inline const std::string& no_predecessors_reason() {
  static const std::string reason =
      "the moves cannot always be undone and the model cannot list a position's predecessors, so only the search "
      "forward from the start was made";
  return reason;
}

inline const std::string& no_goal_reason() {
  static const std::string reason = "the puzzle names no goal";
  return reason;
}

// The goal a directed analysis measures the distance to: a puzzle file's partial goal
// when it names one; none when a puzzle file names none (its goal() is its start);
// else --goal's position or the model's goal position.
template <Puzzle P>
class DirectedGoal {
 public:
  using State = typename P::State;

  static std::optional<DirectedGoal> of(const P& p, const AnalyzeOptions& o) {
    DirectedGoal g(p);
    if constexpr (GoalPredicatePuzzle<P>) {
      if (o.goal.empty()) {
        if (!p.has_goal()) return std::nullopt;
        g.predicate_ = true;
        if constexpr (requires { p.goal_text(); }) {
          g.text_ = p.goal_text();
        } else {
          g.text_ = "the puzzle's goal";
        }
        return g;
      }
    }
    g.position_ = o.goal.empty() ? p.goal() : p.parse(o.goal);
    g.text_ = p.format(*g.position_);
    return g;
  }

  [[nodiscard]] bool operator()(const State& s) const {
    if constexpr (GoalPredicatePuzzle<P>) {
      if (predicate_) return p_->is_goal(s);
    }
    return s == *position_;
  }
  [[nodiscard]] const std::string& text() const { return text_; }

 private:
  explicit DirectedGoal(const P& p) : p_(&p) {}
  const P* p_;
  bool predicate_ = false;
  std::optional<State> position_;
  std::string text_;
};

// --all-pairs and --components measure an undirected space (a diameter, connected
// components): refused on a directed one before any work.
template <Puzzle P>
void refuse_undirected_only(const P& p, const AnalyzeOptions& o) {
  if (!is_directed(p)) return;
  if (o.all_pairs) {
    throw UsageError(p.name() +
                     ": --all-pairs measures the diameter of an undirected space; this puzzle's moves cannot always "
                     "be undone, so a distance from one position to another is not the distance back (analyze "
                     "without --all-pairs gives the distances from the start and to the goal)");
  }
  if (o.components) {
    throw UsageError(p.name() +
                     ": --components counts the connected components of an undirected space; this puzzle's moves "
                     "cannot always be undone, so reaching a position does not mean it reaches back (analyze "
                     "without --components gives the dead ends: the reachable positions that cannot reach the goal)");
  }
}

}  // namespace statespace
