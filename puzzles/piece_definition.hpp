// A puzzle as sets of pieces, the model of twsearch and ksolve: each set is a
// permutation of its pieces over its places (identical pieces allowed) with an
// orientation per place. `.tws` files read into it directly; permutation files of
// stickers are grouped into it where the moves carry stickers rigidly as pieces.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace statespace {

struct PieceSet {
  std::string name;      // "CORNERS"
  int size = 0;          // places (and pieces) in the set
  int orientations = 1;  // orientations of each piece
};

// A permutation and a twist of every set: applied to a position, place i of set k
// receives the piece that was at place perm[k][i], its orientation raised by
// twist[k][i] modulo the set's orientations. Positions are transforms too: perm
// names the piece at each place (equal numbers: identical pieces), twist its
// orientation.
struct PieceTransform {
  std::vector<std::vector<int>> perm;
  std::vector<std::vector<int>> twist;
  friend bool operator==(const PieceTransform&, const PieceTransform&) = default;
};

struct PieceMove {
  std::string name;  // "R"
  PieceTransform transform;
};

// Where a definition was read from, for refusals that come after reading (a
// rotation the moves in use do not allow): the file as named and the line and column
// of each rotation's name. Empty when the definition is not from a file.
struct PieceSource {
  std::string file;
  std::vector<std::pair<int, int>> rotation_at;
  // The first Illegal line's keyword and the first wildcard ('?'), (0, 0) when none.
  std::pair<int, int> illegal_at{0, 0}, wild_at{0, 0};
};

// A piece no move may bring to a place (twsearch's `Illegal SET PLACE PIECE ...`):
// positions with `piece` (a number of the solved state, from 0) at `place` of `set`
// are left out of the graph, as no move's successor.
struct PieceIllegal {
  int set = 0;
  int place = 0;
  int piece = 0;
  friend bool operator==(const PieceIllegal&, const PieceIllegal&) = default;
};

struct PieceDefinition {
  std::string name;
  std::vector<PieceSet> sets;
  PieceTransform solved;
  std::vector<PieceMove> moves;  // as written, before a metric adds powers or inverses
  // Turns of the whole puzzle (a .tws file's x, y, z, Fv, DFRv ...): symmetries of
  // the puzzle, never moves of its graph.
  std::vector<PieceMove> rotations;
  std::vector<PieceIllegal> illegal;
  // Per set, per place of the solved state: the orientation of the piece there is
  // not counted (twsearch's '?' in the solved state's orientation row). Identical
  // pieces are all wild or none; a wild piece's twist is 0 in every position. Empty:
  // none anywhere.
  std::vector<std::vector<bool>> wild;
  PieceSource source;
};

}  // namespace statespace
