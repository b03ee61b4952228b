#include "puzzles/sokoban.hpp"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <queue>
#include <tuple>
#include <utility>

#include "core/errors.hpp"

namespace statespace {

namespace {

// Directions in LURD's order: left, up, right, down.
constexpr std::array<int, 4> kRowStep = {0, -1, 0, 1};
constexpr std::array<int, 4> kColStep = {-1, 0, 1, 0};
constexpr std::array<char, 4> kStepLetter = {'l', 'u', 'r', 'd'};
constexpr std::array<char, 4> kPushLetter = {'L', 'U', 'R', 'D'};
constexpr std::array<std::string_view, 4> kDirName = {"left", "up", "right", "down"};
constexpr int opposite(int d) { return (d + 2) % 4; }
constexpr bool has(std::uint64_t set, int bit) { return ((set >> bit) & 1) != 0; }
constexpr std::uint64_t bit(int b) { return std::uint64_t{1} << b; }

}  // namespace

Sokoban::Sokoban(SokobanLevel level, SokobanMetric metric) : level_(std::move(level)), metric_(metric) {
  const int cells = level_.rows * level_.cols;
  floor_of_.assign(std::size_t(cells), kNone);
  for (int c = 0; c < cells; ++c) {
    if (level_.walls[std::size_t(c)] != '-') continue;
    if (int(cell_of_.size()) == kMaxFloor) {
      throw ParseError(level_.name + ": more than " + std::to_string(kMaxFloor) + " floor cells (a level of at most " +
                       std::to_string(kMaxFloor) + " is supported)");
    }
    floor_of_[std::size_t(c)] = int(cell_of_.size());
    cell_of_.push_back(c);
  }
  for (const int c : cell_of_) {
    std::array<int, 4> n{};
    for (int d = 0; d < 4; ++d) {
      const int r = c / level_.cols + kRowStep[std::size_t(d)], col = c % level_.cols + kColStep[std::size_t(d)];
      const bool inside = r >= 0 && r < level_.rows && col >= 0 && col < level_.cols;
      n[std::size_t(d)] = inside ? floor_of_[std::size_t(r * level_.cols + col)] : kNone;
    }
    next_.push_back(n);
  }
  std::uint64_t boxes = 0;
  for (const int g : level_.goals) goal_boxes_ |= bit(floor_of_[std::size_t(g)]);
  for (const int b : level_.boxes) boxes |= bit(floor_of_[std::size_t(b)]);
  boxes_ = int(level_.boxes.size());
  start_ = State{normal(boxes, floor_of_[std::size_t(level_.keeper)])};
}

void Sokoban::set_metric(SokobanMetric m) {
  metric_ = m;
  std::uint64_t boxes = 0;
  for (const int b : level_.boxes) boxes |= bit(floor_of_[std::size_t(b)]);
  start_ = State{normal(boxes, floor_of_[std::size_t(level_.keeper)])};
}

void Sokoban::choose_metric(std::string_view name) {
  if (name == "pushes") {
    set_metric(SokobanMetric::kPushes);
  } else if (name == "moves") {
    set_metric(SokobanMetric::kMoves);
  } else {
    throw ParseError("bad --metric '" + std::string(name) + "' for a Sokoban level (expected pushes or moves)");
  }
}

void Sokoban::throw_too_many_placements() const {
  throw UsageError(level_.name + ": more than " + std::to_string(kMaxListed) +
                   " placements of the boxes and the keeper to list (expected a smaller level for --components)");
}

std::uint64_t Sokoban::reach(int from, std::uint64_t boxes) const {
  std::uint64_t seen = bit(from);
  std::array<int, kMaxFloor> stack{};
  int n = 0;
  stack[std::size_t(n++)] = from;
  while (n > 0) {
    const int c = stack[std::size_t(--n)];
    for (const int t : next_[std::size_t(c)]) {
      if (t == kNone || has(seen | boxes, t)) continue;
      seen |= bit(t);
      stack[std::size_t(n++)] = t;
    }
  }
  return seen;
}

int Sokoban::successors(std::uint64_t w, std::uint64_t* out) const {
  const std::uint64_t boxes = w & kBoxMask;
  const int keeper = int(w >> kKeeperShift);
  int n = 0;
  if (metric_ == SokobanMetric::kMoves) {
    for (int d = 0; d < 4; ++d) {
      const int t = next_[std::size_t(keeper)][std::size_t(d)];
      if (t == kNone) continue;
      if (!has(boxes, t)) {
        out[n++] = word(boxes, t);
        continue;
      }
      const int u = next_[std::size_t(t)][std::size_t(d)];
      if (u != kNone && !has(boxes, u)) out[n++] = word(boxes ^ bit(t) ^ bit(u), t);
    }
    return n;
  }
  const std::uint64_t region = reach(keeper, boxes);
  for (std::uint64_t left = boxes; left != 0; left &= left - 1) {
    const int b = std::countr_zero(left);
    for (int d = 0; d < 4; ++d) {
      const int behind = next_[std::size_t(b)][std::size_t(opposite(d))];
      const int ahead = next_[std::size_t(b)][std::size_t(d)];
      if (behind == kNone || ahead == kNone || !has(region, behind) || has(boxes, ahead)) continue;
      out[n++] = normal(boxes ^ bit(b) ^ bit(ahead), b);
    }
  }
  return n;
}

int Sokoban::predecessors(std::uint64_t w, std::uint64_t* out) const {
  const std::uint64_t boxes = w & kBoxMask;
  const int keeper = int(w >> kKeeperShift);
  int n = 0;
  if (metric_ == SokobanMetric::kMoves) {
    // The keeper came from the cell behind him: by a step, or by pushing the box now
    // ahead of him (a pull, read backwards).
    for (int d = 0; d < 4; ++d) {
      const int from = next_[std::size_t(keeper)][std::size_t(opposite(d))];
      if (from == kNone || has(boxes, from)) continue;
      out[n++] = word(boxes, from);
      const int ahead = next_[std::size_t(keeper)][std::size_t(d)];
      if (ahead != kNone && has(boxes, ahead)) out[n++] = word(boxes ^ bit(ahead) ^ bit(keeper), from);
    }
    return n;
  }
  // A push in direction d left the keeper on the cell behind the box, inside the
  // region; before it the box stood there and the keeper one cell further back.
  const std::uint64_t region = reach(keeper, boxes);
  for (std::uint64_t left = boxes; left != 0; left &= left - 1) {
    const int b = std::countr_zero(left);
    for (int d = 0; d < 4; ++d) {
      const int was = next_[std::size_t(b)][std::size_t(opposite(d))];
      if (was == kNone || !has(region, was)) continue;
      const int stood = next_[std::size_t(was)][std::size_t(opposite(d))];
      if (stood == kNone || has(boxes, stood)) continue;
      out[n++] = normal(boxes ^ bit(b) ^ bit(was), stood);
    }
  }
  return n;
}

std::string Sokoban::format(const State& s) const {
  const std::string rows = xsb(s);
  std::string out;
  int r = 0, c = 0;
  const auto cell = [&](char ch) {
    if (c > 0) out += ' ';
    out += ch == ' ' ? '#' : ch == '-' ? '_' : ch;
    ++c;
  };
  for (std::size_t i = 0; i <= rows.size(); ++i) {
    if (i == rows.size() || rows[i] == '\n') {
      while (c < level_.cols) cell('#');
      if (++r < level_.rows) out += " / ";
      c = 0;
      continue;
    }
    cell(rows[i]);
  }
  return out;
}

std::vector<std::string> Sokoban::cell_marks() const {
  std::vector<std::string> out(std::size_t(level_.rows * level_.cols));
  for (const int g : level_.goals) out[std::size_t(g)] = std::string(1, '.');
  return out;
}

std::string Sokoban::xsb(const State& s) const {
  std::string out;
  for (int r = 0; r < level_.rows; ++r) {
    std::string row;
    for (int c = 0; c < level_.cols; ++c) {
      const int g = r * level_.cols + c;
      const int f = floor_of_[std::size_t(g)];
      const bool goal = std::find(level_.goals.begin(), level_.goals.end(), g) != level_.goals.end();
      char ch = level_.walls[std::size_t(g)] == '#' ? '#' : ' ';
      if (f != kNone) {
        ch = goal ? '.' : '-';
        if (has(s.word & kBoxMask, f)) ch = goal ? '*' : '$';
        if (keeper_of(s) == f) ch = goal ? '+' : '@';
      }
      row += ch;
    }
    while (!row.empty() && row.back() == ' ') row.pop_back();
    out += (r > 0 ? "\n" : "") + row;
  }
  return out;
}

Sokoban::State Sokoban::parse(std::string_view text) const {
  const State s = placed(text);
  return State{normal(s.word & kBoxMask, keeper_of(s))};
}

Sokoban::State Sokoban::placed_start() const {
  return State{word(start_.word & kBoxMask, floor_of_[std::size_t(level_.keeper)])};
}

Sokoban::State Sokoban::placed(std::string_view text) const {
  const auto fail = [&](const std::string& why) {
    throw ParseError(level_.name + ": " + why + " (expected XSB lines like \"" + xsb(start_) +
                     "\", or cells as written: \"" + format(start_) + "\")");
  };
  // Rows of characters, one per grid cell: XSB lines, or the notation's cells.
  std::vector<std::string> rows;
  const bool lines = text.find('\n') != std::string_view::npos || text.find('|') != std::string_view::npos;
  std::string row;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const bool end = i == text.size();
    if (lines && (end || text[i] == '\n' || text[i] == '|')) {
      if (!row.empty() && row.back() == '\r') row.pop_back();
      rows.push_back(row);
      row.clear();
    } else if (!lines && (end || text.substr(i, 3) == " / ")) {
      rows.push_back(row);
      row.clear();
      i += 2;
    } else if (lines || text[i] != ' ') {
      row += text[i];
    }
  }
  while (!rows.empty() && rows.back().find_first_not_of(" \t") == std::string::npos) rows.pop_back();
  while (!rows.empty() && rows.front().find_first_not_of(" \t") == std::string::npos) rows.erase(rows.begin());
  if (int(rows.size()) > level_.rows)
    fail("position has " + std::to_string(rows.size()) + " rows, the level " + std::to_string(level_.rows));
  std::uint64_t boxes = 0;
  int keeper = kNone, count = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t c = 0; c < rows[r].size(); ++c) {
      const char ch = rows[r][c];
      const std::string at = " at row " + std::to_string(r + 1) + ", column " + std::to_string(c + 1);
      if (std::string_view("#@+$*. -_").find(ch) == std::string_view::npos) {
        fail("unexpected '" + std::string(1, ch) + "'" + at);
      }
      if (ch != '@' && ch != '+' && ch != '$' && ch != '*') continue;
      const int f = int(c) < level_.cols ? floor_of_[r * std::size_t(level_.cols) + c] : kNone;
      if (f == kNone) fail(std::string(ch == '@' || ch == '+' ? "keeper" : "box") + " off the floor" + at);
      if (ch == '$' || ch == '*') {
        boxes |= bit(f);
        ++count;
      } else {
        if (keeper != kNone) fail("a second keeper" + at);
        keeper = f;
      }
    }
  }
  if (keeper == kNone) fail("no keeper (@ or +)");
  if (count != boxes_) fail(std::to_string(count) + " boxes, the level has " + std::to_string(boxes_));
  return State{word(boxes, keeper)};
}

std::string Sokoban::move_name(const State& from, const State& to) const {
  const std::uint64_t before = from.word & kBoxMask, after = to.word & kBoxMask;
  if (before == after) {
    for (int d = 0; d < 4; ++d) {
      if (next_[std::size_t(keeper_of(from))][std::size_t(d)] == keeper_of(to))
        return "step " + std::string(kDirName[std::size_t(d)]);
    }
    return "?";
  }
  const int gone = std::countr_zero(before & ~after), come = std::countr_zero(after & ~before);
  for (int d = 0; d < 4; ++d) {
    if (next_[std::size_t(gone)][std::size_t(d)] != come) continue;
    const int g = cell_of_[std::size_t(gone)];
    return "push " + std::string(kDirName[std::size_t(d)]) + " at " + std::to_string(g / level_.cols + 1) + "," +
           std::to_string(g % level_.cols + 1);
  }
  return "?";
}

std::optional<std::string> Sokoban::lurd(const State& from, int* pushes, int* steps) const {
  // Dijkstra over boxes and the keeper's real cell, on the cost (primary, secondary):
  // (pushes, moves) or (moves, pushes), as one number; ties between equal costs go to
  // the smaller word, so the answer is the same on every run.
  constexpr std::uint64_t kScale = std::uint64_t{1} << 32;
  const bool by_pushes = metric_ == SokobanMetric::kPushes;
  struct Seen {
    std::uint64_t cost = 0, parent = 0;
    char letter = 0;
  };
  absl::flat_hash_map<std::uint64_t, Seen> seen;
  using Entry = std::pair<std::uint64_t, std::uint64_t>;  // cost, word
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  seen[from.word] = Seen{0, from.word, 0};
  queue.emplace(0, from.word);
  while (!queue.empty()) {
    const auto [cost, w] = queue.top();
    queue.pop();
    if (seen[w].cost != cost) continue;
    const std::uint64_t boxes = w & kBoxMask;
    if (boxes == goal_boxes_) {
      std::string out;
      int p = 0;
      for (std::uint64_t at = w; at != from.word; at = seen[at].parent) {
        out += seen[at].letter;
        p += seen[at].letter >= 'A' && seen[at].letter <= 'Z';
      }
      std::reverse(out.begin(), out.end());
      if (pushes) *pushes = p;
      if (steps) *steps = int(out.size());
      return out;
    }
    const int keeper = int(w >> kKeeperShift);
    for (int d = 0; d < 4; ++d) {
      const int t = next_[std::size_t(keeper)][std::size_t(d)];
      if (t == kNone) continue;
      std::uint64_t to = 0, add = 0;
      char letter = kStepLetter[std::size_t(d)];
      if (!has(boxes, t)) {
        to = word(boxes, t);
        add = by_pushes ? 1 : kScale;
      } else {
        const int u = next_[std::size_t(t)][std::size_t(d)];
        if (u == kNone || has(boxes, u)) continue;
        to = word(boxes ^ bit(t) ^ bit(u), t);
        add = kScale + 1;
        letter = kPushLetter[std::size_t(d)];
      }
      const auto [it, fresh] = seen.try_emplace(to, Seen{cost + add, w, letter});
      if (!fresh && it->second.cost <= cost + add) continue;
      it->second = Seen{cost + add, w, letter};
      queue.emplace(cost + add, to);
    }
  }
  return std::nullopt;
}

Sokoban::State Sokoban::replay(const State& from, std::string_view lurd) const {
  std::uint64_t boxes = from.word & kBoxMask;
  int keeper = keeper_of(from);
  for (std::size_t i = 0; i < lurd.size(); ++i) {
    const auto d = int(std::string_view("lurd").find(char(lurd[i] | 0x20)));
    const bool push = lurd[i] >= 'A' && lurd[i] <= 'Z';
    const auto refuse = [&](const std::string& why) {
      throw ParseError(level_.name + ": LURD letter " + std::to_string(i + 1) + " '" + std::string(1, lurd[i]) + "' " +
                       why + " (expected l, u, r, d for steps and L, U, R, D for pushes)");
    };
    if (d < 0 || d > 3) refuse("is not a direction");
    const int t = next_[std::size_t(keeper)][std::size_t(d)];
    if (t == kNone) refuse("walks into a wall");
    if (has(boxes, t) != push) refuse(push ? "pushes no box" : "walks into a box");
    if (push) {
      const int u = next_[std::size_t(t)][std::size_t(d)];
      if (u == kNone || has(boxes, u)) refuse("pushes a box into a wall or a box");
      boxes ^= bit(t) ^ bit(u);
    }
    keeper = t;
  }
  return State{word(boxes, keeper)};
}

}  // namespace statespace
