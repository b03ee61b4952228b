#include "puzzles/sticker_pieces.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "core/errors.hpp"
#include "puzzles/tws_file.hpp"

namespace statespace {

namespace {

using From = std::array<std::uint8_t, CellState::kMaxCells>;
using Perm = std::vector<int>;

// A cyclic group of twists of a block of 32 cells has at most lcm(1..32) elements in
// theory, but a piece of a real puzzle turns in a handful of ways; past this many the
// group is taken as not cyclic and the cells stay pieces of their own.
constexpr std::size_t kMaxTwists = 512;

// The coarsest partition of the moving cells that refines "moved by the same moves"
// and that every move maps class to class (Moore's refinement). Class numbers follow
// the classes' smallest cells; fixed cells are -1.
std::vector<int> rigid_classes(const std::vector<From>& moves, int n) {
  std::vector<std::vector<int>> key(static_cast<std::size_t>(n));  // empty: a fixed cell
  for (int c = 0; c < n; ++c) {
    if (std::none_of(moves.begin(), moves.end(), [&](const From& m) { return m[std::size_t(c)] != c; })) continue;
    for (const From& m : moves) key[std::size_t(c)].push_back(m[std::size_t(c)] != c);
  }
  std::size_t classes = 0;
  while (true) {
    std::map<std::vector<int>, int> number;
    std::vector<int> cls(std::size_t(n), -1);
    for (int c = 0; c < n; ++c) {
      const auto& k = key[std::size_t(c)];
      if (!k.empty()) cls[std::size_t(c)] = number.emplace(k, int(number.size())).first->second;
    }
    // Keys only ever split classes, so an unchanged count is an unchanged partition.
    // Classes are numbered by their smallest cells.
    if (number.size() == classes) return cls;
    classes = number.size();
    // A cell's next key: its class and the class each move sends it to.
    for (int c = 0; c < n; ++c) {
      auto& k = key[std::size_t(c)];
      if (k.empty()) continue;
      k = {cls[std::size_t(c)]};
      for (const From& m : moves) k.push_back(cls[m[std::size_t(c)]]);
    }
  }
}

Perm compose(const Perm& a, const Perm& b) {  // x -> a(b(x))
  Perm p(a.size());
  for (std::size_t x = 0; x < a.size(); ++x) p[x] = a[std::size_t(b[x])];
  return p;
}

// The powers h^0, h^1, ... of a generator of the group the permutations generate, or
// nothing when that group is not cyclic (or too large to be a piece's twists).
std::optional<std::vector<Perm>> cyclic_powers(const std::set<Perm>& generators, std::size_t size) {
  Perm id(size);
  for (std::size_t x = 0; x < size; ++x) id[x] = int(x);
  std::set<Perm> group{id};
  std::vector<Perm> queue{id};
  for (std::size_t i = 0; i < queue.size(); ++i) {
    for (const Perm& g : generators) {
      Perm p = compose(g, queue[i]);
      if (group.insert(p).second) {
        if (group.size() > kMaxTwists) return std::nullopt;
        queue.push_back(std::move(p));
      }
    }
  }
  for (const Perm& h : group) {
    std::vector<Perm> powers{id};
    while (true) {
      Perm p = compose(h, powers.back());
      if (p == id) break;
      powers.push_back(std::move(p));
    }
    if (powers.size() == group.size()) return powers;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::pair<int, int>> StickerPieces::identify(const Layout& set, const std::vector<std::uint8_t>& read) {
  for (std::size_t t = 0; t < set.labels.size(); ++t) {
    for (std::size_t o = 0; o < set.power.size(); ++o) {
      bool same = true;
      for (std::size_t x = 0; x < read.size() && same; ++x) {
        same = read[x] == set.labels[t][std::size_t(set.power[o][x])];
      }
      if (same) return std::pair{int(t), int(o)};
    }
  }
  return std::nullopt;
}

std::optional<StickerPieces> StickerPieces::group(const CellPermutation& p) {
  StickerPieces g;
  g.cells_ = p.cells();
  g.fixed_ = p.start();
  g.definition_.name = p.name();
  const int n = g.cells_;
  std::vector<From> moves;
  for (const auto& m : p.moves()) moves.push_back(m.from);

  // One set from the orbit of `seed` under the moves, over the classes `cls`; nothing
  // when its twists are not cyclic or a piece reads the same in two orientations.
  struct Built {
    Layout layout;
    std::vector<Perm> perm, twist;  // [move][place]
  };
  const auto build = [&](const std::vector<int>& cls, int seed) -> std::optional<Built> {
    std::vector<int> frame0;
    for (int c = 0; c < n; ++c) {
      if (cls[std::size_t(c)] == cls[std::size_t(seed)]) frame0.push_back(c);
    }
    const std::size_t size = frame0.size();
    std::map<int, std::vector<int>> frame_of{{cls[std::size_t(seed)], frame0}};  // class -> frame
    std::vector<int> queue{cls[std::size_t(seed)]};
    for (std::size_t i = 0; i < queue.size(); ++i) {
      const std::vector<int> frame = frame_of[queue[i]];
      for (const From& m : moves) {
        const int to = cls[m[std::size_t(frame[0])]];
        if (frame_of.count(to)) continue;
        std::vector<int> f(size);
        for (std::size_t x = 0; x < size; ++x) f[x] = m[std::size_t(frame[x])];
        frame_of.emplace(to, std::move(f));
        queue.push_back(to);
      }
    }
    Built b;
    for (const auto& [c, frame] : frame_of) b.layout.cells.push_back(frame);  // places by smallest cell
    std::vector<std::pair<int, int>> at(std::size_t(n), {-1, -1});            // cell -> place, frame index
    for (std::size_t y = 0; y < b.layout.cells.size(); ++y) {
      for (std::size_t x = 0; x < size; ++x) at[std::size_t(b.layout.cells[y][x])] = {int(y), int(x)};
    }
    // Place y receives what place z held, turned by s: s(x) is where in z's frame the
    // sticker now at frame index x of y came from.
    std::vector<std::vector<Perm>> turn(moves.size());
    std::set<Perm> twists;
    for (std::size_t k = 0; k < moves.size(); ++k) {
      Perm perm;
      for (const auto& frame : b.layout.cells) {
        Perm s(size);
        int z = -1;
        for (std::size_t x = 0; x < size; ++x) {
          const auto [place, index] = at[moves[k][std::size_t(frame[x])]];
          z = place;
          s[x] = index;
        }
        perm.push_back(z);
        twists.insert(s);
        turn[k].push_back(std::move(s));
      }
      b.perm.push_back(std::move(perm));
    }
    const auto powers = cyclic_powers(twists, size);
    if (!powers) return std::nullopt;
    b.layout.power = *powers;
    for (std::size_t k = 0; k < moves.size(); ++k) {
      Perm twist;
      for (const Perm& s : turn[k]) {
        twist.push_back(int(std::find(powers->begin(), powers->end(), s) - powers->begin()));
      }
      b.twist.push_back(std::move(twist));
    }
    // Piece numbers in the order the start's places show them.
    for (const auto& frame : b.layout.cells) {
      std::vector<std::uint8_t> read(size);
      for (std::size_t x = 0; x < size; ++x) read[x] = g.fixed_.cell[std::size_t(frame[x])];
      if (const auto known = identify(b.layout, read)) {
        ++b.layout.count[std::size_t(known->first)];
        continue;
      }
      for (std::size_t o = 1; o < powers->size(); ++o) {
        bool same = true;
        for (std::size_t x = 0; x < size && same; ++x) same = read[x] == read[std::size_t((*powers)[o][x])];
        if (same) return std::nullopt;  // its orientation could not be read off its stickers
      }
      b.layout.labels.push_back(std::move(read));
      b.layout.count.push_back(1);
    }
    return b;
  };

  const std::vector<int> rigid = rigid_classes(moves, n);
  std::vector<int> single(std::size_t(n), -1);  // the cells as their own classes
  for (int c = 0; c < n; ++c) {
    if (rigid[std::size_t(c)] >= 0) single[std::size_t(c)] = c;
  }
  std::vector<std::pair<int, Built>> built;  // by smallest cell
  std::vector<char> done(std::size_t(n), 0);
  for (int c = 0; c < n; ++c) {
    if (rigid[std::size_t(c)] < 0 || done[std::size_t(c)]) continue;
    auto set = build(rigid, c);
    if (set) {
      for (const auto& frame : set->layout.cells) {
        for (const int cell : frame) done[std::size_t(cell)] = 1;
      }
      built.emplace_back(c, std::move(*set));
      continue;
    }
    // The orbit's cells become pieces of their own, one set per orbit of cells.
    // The other cells of the refused orbit come to this point again, each for its own
    // orbit of cells.
    const auto whole = build(single, c);  // one cell a class: twists are trivial, never refused
    for (const auto& frame : whole->layout.cells) done[std::size_t(frame[0])] = 1;
    built.emplace_back(c, *whole);
  }
  std::sort(built.begin(), built.end(), [](const auto& a, const auto& b) { return a.first < b.first; });

  g.definition_.moves.resize(moves.size());
  for (std::size_t k = 0; k < moves.size(); ++k) g.definition_.moves[k].name = p.moves()[k].name;
  for (auto& [first, b] : built) {
    const std::size_t size = b.layout.cells.size();
    // Appended apart: GCC 12 reports -Wrestrict false positives for a literal + string.
    std::string name = "PIECES";
    if (built.size() > 1) name += std::to_string(g.definition_.sets.size() + 1);
    g.definition_.sets.push_back({name, int(size), int(b.layout.power.size())});
    for (std::size_t k = 0; k < moves.size(); ++k) {
      g.definition_.moves[k].transform.perm.push_back(b.perm[k]);
      g.definition_.moves[k].transform.twist.push_back(b.twist[k]);
    }
    g.sets_.push_back(std::move(b.layout));
  }
  const auto start = g.pieces(p.start());
  const auto goal = g.pieces(p.goal());
  if (!start || !goal) return std::nullopt;
  g.start_ = *start;
  g.definition_.solved = *goal;
  return g;
}

std::optional<StickerPieces> StickerPieces::group(const CellPermutation& p, const TomlInput& file) {
  auto g = group(p);
  const toml::node* key = file.root().get("sets");
  if (!key) return g;
  const std::string form =
      "sets = [\"CORNERS\", \"EDGES\"], one name a set of pieces in the order the grouping finds them";
  const toml::array* names = key->as_array();
  if (!names) file.fail(*key, "sets must be an array of names (expected " + form + ")");
  if (!g) {
    file.fail(*key,
              "sets names pieces, but the goal is no arrangement of the start's pieces, so the file does not "
              "group into pieces (expected no sets key, or a goal the moves can reach)");
  }
  const auto& sets = g->definition_.sets;
  if (names->size() != sets.size()) {
    std::string found;
    for (const auto& set : sets) {
      found += (found.empty() ? "" : ", ") + std::to_string(set.size) + (set.size == 1 ? " place" : " places") + " x " +
               std::to_string(set.orientations);
    }
    file.fail(*key, std::to_string(names->size()) + (names->size() == 1 ? " name" : " names") + " for the " +
                        std::to_string(sets.size()) + (sets.size() == 1 ? " set" : " sets") +
                        " of pieces the moves form (" + found + " orientations; expected " + form + ")");
  }
  for (std::size_t k = 0; k < names->size(); ++k) {
    const toml::node& at = *names->get(k);
    const auto* name = at.as_string();
    if (!name) file.fail(at, "a set name must be a string (expected " + form + ")");
    const std::string text = name->get();
    if (const auto problem = set_name_problem(text); !problem.empty()) {
      file.fail(at,
                "the set name '" + shown_text(text) + "' " + problem + " (expected " + std::string(kSetNameForm) + ")");
    }
    for (std::size_t j = 0; j < k; ++j) {
      if (sets[j].name == text) {
        file.fail(at, "set name '" + shown_text(text) + "' given twice (expected a different name a set)");
      }
    }
    g->definition_.sets[k].name = text;
  }
  g->named_ = true;
  return g;
}

PieceDefinition generator_definition(const CellPermutation& p, const StickerPieces& g) {
  PieceDefinition d = g.definition();
  if (p.metric() == "given") return d;
  d.moves.clear();
  // The metric follows each generator g with the moves it adds, and a file whose
  // added moves repeat a move is refused: all-powers adds g^2 .. g^(order-1), quarter
  // adds g^-1 when the order is above 2.
  using From = std::array<std::uint8_t, CellState::kMaxCells>;
  const auto n = std::size_t(p.cells());
  for (std::size_t k = 0; k < p.moves().size();) {
    const From& m = p.moves()[k].from;
    std::size_t order = 1;
    for (From q = m;; ++order) {
      bool id = true;
      for (std::size_t i = 0; i < n && id; ++i) id = q[i] == i;
      if (id) break;
      From next{};
      for (std::size_t i = 0; i < n; ++i) next[i] = q[m[i]];
      q = next;
    }
    d.moves.push_back(g.definition().moves[k]);
    k += 1 + (p.metric() == "quarter" ? (order > 2 ? 1 : 0) : order - 2);
  }
  return d;
}

bool StickerPieces::groups_cells() const {
  return std::any_of(sets_.begin(), sets_.end(), [](const Layout& s) { return s.cells[0].size() > 1; });
}

CellState StickerPieces::stickers(const PieceTransform& position) const {
  CellState s = fixed_;
  for (std::size_t k = 0; k < sets_.size(); ++k) {
    const Layout& set = sets_[k];
    for (std::size_t y = 0; y < set.cells.size(); ++y) {
      const auto& labels = set.labels[std::size_t(position.perm[k][y])];
      const auto& power = set.power[std::size_t(position.twist[k][y])];
      for (std::size_t x = 0; x < set.cells[y].size(); ++x) {
        s.cell[std::size_t(set.cells[y][x])] = labels[std::size_t(power[x])];
      }
    }
  }
  return s;
}

std::optional<PieceTransform> StickerPieces::pieces(const CellState& s) const {
  PieceTransform t;
  for (const Layout& set : sets_) {
    std::vector<int> perm, twist, count(set.labels.size(), 0);
    for (const auto& frame : set.cells) {
      std::vector<std::uint8_t> read(frame.size());
      for (std::size_t x = 0; x < frame.size(); ++x) read[x] = s.cell[std::size_t(frame[x])];
      const auto piece = identify(set, read);
      if (!piece) return std::nullopt;
      perm.push_back(piece->first);
      twist.push_back(piece->second);
      ++count[std::size_t(piece->first)];
    }
    if (count != set.count) return std::nullopt;
    t.perm.push_back(std::move(perm));
    t.twist.push_back(std::move(twist));
  }
  if (stickers(t) != s) return std::nullopt;  // a cell no move touches changed
  return t;
}

GroupedStickers::GroupedStickers(CellPermutation stickers, StickerPieces grouping, Pieces pieces)
    : stickers_(std::move(stickers)), grouping_(std::move(grouping)), pieces_(std::move(pieces)) {}

std::optional<GroupedStickers> GroupedStickers::make(const CellPermutation& p) {
  auto grouping = StickerPieces::group(p);
  if (!grouping) return std::nullopt;
  return make(p, std::move(*grouping));
}

std::optional<GroupedStickers> GroupedStickers::make(const CellPermutation& p, StickerPieces grouping) {
  if (!grouping.groups_cells() && !grouping.named()) return std::nullopt;
  try {
    // The file's moves after its metric, closed under inverses: run as given.
    Pieces pieces(grouping.definition(), PieceMetric::given);
    const auto& start = grouping.start();
    const std::uint64_t start_rank = pieces.position_rank({start.perm, start.twist});
    GroupedStickers g(p, std::move(grouping), std::move(pieces));
    g.start_ = {start_rank};
    return g;
  } catch (const ParseError&) {
    // Ranks past 2^64, or a start of another class than the goal (a twist or parity
    // no move changes): the sticker model takes such files as they are.
    return std::nullopt;
  }
}

CellState GroupedStickers::sticker_state(const State& s) const {
  const auto position = pieces_.position(s.rank);
  return grouping_.stickers({position.perm, position.twist});
}

GroupedStickers::State GroupedStickers::parse(std::string_view text) const {
  // The per-set notation starts with the first set's name, which a sticker label may
  // equal: the stickers are tried first, and the per-set reading's error reported.
  const std::string_view first = pieces_.definition().sets.front().name;
  const auto start = text.find_first_not_of(" \t\r\n");
  const std::string_view word = start == std::string_view::npos ? std::string_view() : text.substr(start);
  if (word.starts_with(first) && (word.size() == first.size() ||
                                  std::string_view(" \t\r\n/,").find(word[first.size()]) != std::string_view::npos)) {
    try {
      return parse_stickers(text);
    } catch (const ParseError&) {
      return pieces_.parse(text);
    }
  }
  return parse_stickers(text);
}

GroupedStickers::State GroupedStickers::parse_stickers(std::string_view text) const {
  const CellState s = stickers_.parse(text);
  const auto position = grouping_.pieces(s);
  if (!position) {
    throw ParseError(name() + ": these stickers are no arrangement of the puzzle's pieces (expected a position the " +
                     "moves reach: the stickers of each piece together, in a turn of the piece)");
  }
  try {
    return {pieces_.position_rank({position->perm, position->twist})};
  } catch (const ParseError& e) {
    throw ParseError(name() + ": no sequence of moves reaches these stickers from the goal (" + e.what() + ")");
  }
}

std::variant<CellPermutation, GroupedStickers> load_permutation(const TomlInput& file) {
  CellPermutation stickers(file);
  if (auto grouping = StickerPieces::group(stickers, file)) {
    if (auto grouped = GroupedStickers::make(stickers, std::move(*grouping))) return std::move(*grouped);
  }
  return stickers;
}

}  // namespace statespace
