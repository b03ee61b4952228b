#include "puzzles/tws_file.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "puzzles/toml_input.hpp"

namespace statespace {

namespace {

constexpr std::string_view kKeywords =
    "Name, Set, Solved, StartState, Move, MoveTransformation, MoveSequence, MoveAlias or Illegal";
constexpr std::string_view kIllegalForm =
    "Illegal SET PLACE PIECE ..., the pieces (numbered as in the solved state, from 1) no move may bring to that "
    "place, e.g. Illegal SLICE 3 17";
constexpr std::string_view kSequenceForm =
    "moves and rotations the file defines, each with an optional power: R, R2, R', R2'";

struct Token {
  std::string text;
  int line = 0;
  int column = 0;
};

// The file as lines of tokens, blank lines and comments left out.
class Lines {
 public:
  Lines(std::filesystem::path file, const std::string& text) : file_(std::move(file)) {
    int line = 0;
    // A byte order mark (editors on Windows write one) is no part of the first word.
    std::size_t at = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    // Blanks are space, tab and CR (of CRLF line ends); any other control byte or a
    // bidirectional override is refused where it stands, never read as a blank.
    if (const auto f = forbidden_character(std::string_view(text).substr(at), "\t\r\n")) {
      const std::size_t offset = at + f->offset;
      const std::size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
      const std::size_t column = offset - (line_start == std::string::npos || offset == 0 ? at : line_start + 1);
      fail({"", int(std::count(text.begin(), text.begin() + std::ptrdiff_t(offset), '\n')) + 1, int(column) + 1},
           forbidden_name(*f) + " in the file",
           "words separated by spaces, tabs and line breaks, no control characters or bidirectional overrides");
    }
    while (at <= text.size()) {
      std::size_t end = text.find('\n', at);
      if (end == std::string::npos) end = text.size();
      ++line;
      std::vector<Token> tokens;
      for (std::size_t i = at; i < end;) {
        if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r') {
          ++i;
          continue;
        }
        if (text[i] == '#') break;  // a comment runs to the end of the line
        const std::size_t start = i;
        while (i < end && text[i] != ' ' && text[i] != '\t' && text[i] != '\r') ++i;
        tokens.push_back({text.substr(start, i - start), line, int(start - at) + 1});
      }
      if (!tokens.empty()) {
        lines_.push_back(std::move(tokens));
        last_line_ = line;  // where a file that stops short is reported
      }
      at = end + 1;
    }
  }

  [[nodiscard]] bool done() const { return next_ == lines_.size(); }
  const std::vector<Token>& next() {
    if (done()) fail_end("the file ends inside a block", "End");
    return lines_[next_++];
  }
  [[nodiscard]] const std::vector<Token>& peek() const { return lines_[next_]; }

  [[noreturn]] void fail(const Token& at, const std::string& problem, std::string_view expected) const {
    throw ParseError(file_.string() + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + problem +
                     "; expected " + std::string(expected));
  }
  [[noreturn]] void fail_end(const std::string& problem, std::string_view expected) const {
    fail({"", last_line_, 1}, problem, expected);
  }
  // A line of exactly `count` tokens, the first being its keyword.
  void expect(const std::vector<Token>& line, std::size_t count, std::string_view form) const {
    if (line.size() != count) {
      fail(line.size() > count ? line[count] : line.front(),
           quote_input(line.front().text) + " takes " + std::to_string(count - 1) + (count == 2 ? " word" : " words"),
           form);
    }
  }

 private:
  std::filesystem::path file_;
  std::vector<std::vector<Token>> lines_;
  std::size_t next_ = 0;
  int last_line_ = 1;
};

std::optional<int> number(const std::string& text) {
  if (text.empty() || text.size() > 3) return std::nullopt;
  int v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

bool is_number_line(const std::vector<Token>& line) {
  const char c = line.front().text.front();
  return (c >= '0' && c <= '9') || c == '?' || c == '-';
}

// What a block is for: a position (Solved, StartState) or a move (Move,
// MoveTransformation); from zero (StartState, MoveTransformation) or one.
struct BlockKind {
  bool move = false;
  bool from_zero = false;
};

class Reader {
 public:
  Reader(const std::filesystem::path& file, const std::string& text) : lines_(file, text), file_(file) {}

  PieceDefinition read() {
    bool named = false, solved = false;
    while (!lines_.done()) {
      const auto& line = lines_.next();
      const Token& key = line.front();
      if (key.text == "Name") {
        if (named || !def_.sets.empty()) lines_.fail(key, "Name after the sets or twice", "one Name line, first");
        lines_.expect(line, 2, "Name NAME");
        if (const auto problem = name_problem(line[1].text); !problem.empty()) {
          lines_.fail(line[1], "the name " + quote_input(line[1].text) + " " + problem, kNameForm);
        }
        def_.name = line[1].text;
        named = true;
      } else if (key.text == "Set") {
        if (solved) lines_.fail(key, "Set after the solved state", "every Set line before Solved");
        read_set(line);
      } else if (key.text == "Solved" || key.text == "StartState") {
        if (def_.sets.empty()) lines_.fail(key, "Solved before any Set", "Set NAME PLACES ORIENTATIONS first");
        if (solved) lines_.fail(key, "a second solved state", "one Solved or StartState block");
        lines_.expect(line, 1, key.text + " alone on its line");
        def_.solved = read_block({false, key.text == "StartState"}, key.text);
        solved = true;
      } else if (key.text == "Move" || key.text == "MoveTransformation") {
        if (!solved) lines_.fail(key, "a move before the solved state", "Solved ... End before the moves");
        lines_.expect(line, 2, key.text + " NAME");
        const bool rotation = is_rotation_name(line[1].text);
        if (!rotation) check_move_name(line);
        check_new_name(line[1]);
        if (first_move_.line == 0 && !rotation) first_move_ = key;
        (rotation ? def_.rotations : def_.moves)
            .push_back({line[1].text, read_block({true, key.text == "MoveTransformation"},
                                                 (rotation ? "rotation " : "move ") + line[1].text)});
        if (rotation) def_.source.rotation_at.emplace_back(line[1].line, line[1].column);
      } else if (key.text == "MoveSequence" || key.text == "MoveAlias") {
        // A move made of others (twsearch's MoveSequence), or another name for one,
        // which names no move of the graph (twsearch leaves aliases out of its
        // searches): both resolved once every move is read.
        if (!solved) lines_.fail(key, "'" + key.text + "' before the solved state", "Solved ... End before the moves");
        if (key.text == "MoveAlias") {
          lines_.expect(line, 3, "MoveAlias NAME MOVE, e.g. MoveAlias Rw r");
        } else if (line.size() < 3) {
          lines_.fail(key, "'MoveSequence' takes a name and at least one move",
                      "MoveSequence NAME MOVE ..., e.g. MoveSequence R Fv L Fv");
        }
        check_new_name(line[1]);
        if (first_move_.line == 0 && key.text == "MoveSequence" && !is_rotation_name(line[1].text)) first_move_ = key;
        sequences_.push_back({key.text == "MoveAlias", line});
      } else if (key.text == "Illegal") {
        if (!solved) lines_.fail(key, "'Illegal' before the solved state", "Solved ... End before the Illegal lines");
        read_illegal(line);
      } else {
        lines_.fail(key, "unexpected " + quote_input(key.text), "a line starting with " + std::string(kKeywords));
      }
    }
    if (def_.sets.empty()) lines_.fail_end("no Set line", "Set NAME PLACES ORIENTATIONS");
    if (!solved) lines_.fail_end("no solved state", "Solved ... End after the sets");
    resolve_sequences();
    if (def_.moves.empty()) {
      lines_.fail_end(def_.rotations.empty() ? "no moves" : "no moves, only rotations of the whole puzzle",
                      "Move NAME ... End blocks after the solved state, NAME not x, y, z or ending in v");
    }
    if (!named) {
      const std::string stem = file_.stem().string();
      if (const auto problem = name_problem(stem); !problem.empty()) {
        lines_.fail(first_set_, "no Name, and the file name " + quote_input(stem) + " " + problem,
                    "a Name NAME line: " + std::string(kNameForm));
      }
      def_.name = stem;
    }
    def_.source.file = file_.string();
    return def_;
  }

  [[noreturn]] void fail_model(const std::string& problem) const {
    const bool moves = problem.starts_with("move ") || problem.starts_with("no move");
    lines_.fail(moves ? first_move_ : first_set_, problem,
                "a puzzle whose positions rank below 2^64 or whose places fit 512 bits");
  }

 private:
  // A move's name, its powers' (R2, R') and --moves must name one move each: a
  // name of set-name characters (no ',', which --moves splits on, no '\''), not
  // another's name followed by digits (R2 beside R, whose square is R2), at most
  // kMaxTwsMoves moves, counted before any table is built.
  void check_move_name(const std::vector<Token>& line) {
    const Token& name = line[1];
    constexpr std::string_view form = "a move name of letters, digits, '_' or '-', with a letter or '_'";
    if (const auto problem = move_name_problem(name.text); !problem.empty()) {
      lines_.fail(name, "the move name " + quote_input(name.text) + " " + problem, form);
    }
    const auto power_of = [](const std::string& name, const std::string& base) {
      return name.size() > base.size() && name.starts_with(base) &&
             name.find_first_not_of("0123456789", base.size()) == std::string::npos;
    };
    for (const auto& m : def_.moves) {
      if (m.name == name.text) lines_.fail(name, "move " + shown_text(m.name) + " defined twice", "one block a move");
      if (power_of(name.text, m.name) || power_of(m.name, name.text)) {
        const auto& base = power_of(name.text, m.name) ? m.name : name.text;
        lines_.fail(name,
                    "move " + shown_text(name.text) + " beside move " + shown_text(m.name) + ": the powers of " + base +
                        " are named " + base + "2, " + base + "3, ...",
                    "move names that no power's name repeats");
      }
    }
    if (def_.moves.size() == kMaxTwsMoves) {
      lines_.fail(line[0], "more than " + std::to_string(kMaxTwsMoves) + " moves",
                  "at most " + std::to_string(kMaxTwsMoves) + " Move blocks");
    }
  }

  struct Sequence {
    bool alias = false;
    std::vector<Token> line;  // the keyword, the name, then the moves
  };

  // A name no move, rotation, sequence or alias has yet.
  void check_new_name(const Token& name) {
    for (const auto* list : {&def_.moves, &def_.rotations}) {
      for (const auto& m : *list) {
        if (m.name == name.text) lines_.fail(name, "move " + shown_text(m.name) + " defined twice", "one block a move");
      }
    }
    for (const auto& s : sequences_) {
      if (s.line[1].text == name.text) {
        lines_.fail(name, "move " + shown_text(name.text) + " defined twice", "one block a move");
      }
    }
  }

  // The transform a word of a sequence names: a move, rotation or resolved sequence,
  // raised to the power its suffix gives (R2, R', R2'); nothing when none matches.
  std::optional<PieceTransform> named_transform(const std::string& word, const std::vector<PieceMove>& resolved) const {
    const auto find = [&](std::string_view name) -> const PieceTransform* {
      for (const auto* list : {&def_.moves, &def_.rotations, &resolved}) {
        for (const auto& m : *list) {
          if (m.name == name) return &m.transform;
        }
      }
      return nullptr;
    };
    if (const auto* t = find(word)) return *t;
    std::string_view base = word;
    const bool inverse = base.ends_with('\'');
    if (inverse) base.remove_suffix(1);
    int power = 1;
    std::size_t digits = 0;
    while (digits < base.size() && digits < 3 && base[base.size() - 1 - digits] >= '0' &&
           base[base.size() - 1 - digits] <= '9') {
      ++digits;
    }
    if (digits > 0) {
      power = std::stoi(std::string(base.substr(base.size() - digits)));
      base.remove_suffix(digits);
    }
    const auto* t = base.empty() ? nullptr : find(base);
    if (!t) return std::nullopt;
    PieceTransform out = pieces_detail::identity_transform(def_);
    for (int i = 0; i < power; ++i) out = pieces_detail::then_transform(def_, out, *t);
    return inverse ? pieces_detail::inverse_transform(def_, out) : out;
  }

  // Sequences may name moves defined after them and other sequences, in any order:
  // resolved in rounds until a round resolves none.
  void resolve_sequences() {
    std::vector<PieceMove> resolved;
    std::vector<bool> done(sequences_.size());
    for (std::size_t left = sequences_.size(); left > 0;) {
      std::size_t now = 0;
      for (std::size_t i = 0; i < sequences_.size(); ++i) {
        if (done[i]) continue;
        const auto& line = sequences_[i].line;
        PieceTransform t = pieces_detail::identity_transform(def_);
        bool known = true;
        for (std::size_t j = 2; j < line.size() && known; ++j) {
          const auto step = named_transform(line[j].text, resolved);
          if (step) t = pieces_detail::then_transform(def_, t, *step);
          known = step.has_value();
        }
        if (!known) continue;
        resolved.push_back({line[1].text, t});
        done[i] = true;
        ++now;
      }
      if (now == 0) {
        for (std::size_t i = 0; i < sequences_.size(); ++i) {
          if (done[i]) continue;
          for (std::size_t j = 2; j < sequences_[i].line.size(); ++j) {
            const Token& word = sequences_[i].line[j];
            if (!named_transform(word.text, resolved)) {
              lines_.fail(word,
                          quote_input(word.text) + " in " + sequences_[i].line[1].text +
                              " is no move, rotation or sequence of the file (or the sequences name each other "
                              "in a cycle)",
                          kSequenceForm);
            }
          }
        }
      }
      left -= now;
    }
    // In the order written, after the Move blocks; aliases name no move.
    for (const auto& s : sequences_) {
      if (s.alias) continue;
      for (const auto& r : resolved) {
        if (r.name != s.line[1].text) continue;
        (is_rotation_name(r.name) ? def_.rotations : def_.moves).push_back(r);
        if (is_rotation_name(r.name)) def_.source.rotation_at.emplace_back(s.line[1].line, s.line[1].column);
      }
    }
  }

  // twsearch's `Illegal SET PLACE PIECE ...`: positions with one of the pieces at the
  // place are no position of the graph. The pieces are the solved state's numbers,
  // from 1 whether it was written as Solved or as StartState (twsearch reads them so).
  void read_illegal(const std::vector<Token>& line) {
    if (line.size() < 4) {
      lines_.fail(line.size() > 1 ? line.back() : line.front(), "'Illegal' takes a set, a place and at least one piece",
                  kIllegalForm);
    }
    std::size_t k = 0;
    while (k < def_.sets.size() && def_.sets[k].name != line[1].text) ++k;
    if (k == def_.sets.size()) lines_.fail(line[1], "unknown set " + quote_input(line[1].text), kIllegalForm);
    const PieceSet& set = def_.sets[k];
    const auto place = number(line[2].text);
    if (!place || *place < 1 || *place > set.size) {
      lines_.fail(line[2], quote_input(line[2].text) + " is no place of set " + set.name,
                  "a place from 1 to " + std::to_string(set.size));
    }
    const auto& pieces = def_.solved.perm[k];
    for (std::size_t i = 3; i < line.size(); ++i) {
      const auto piece = number(line[i].text);
      if (!piece || *piece < 1 || std::find(pieces.begin(), pieces.end(), *piece - 1) == pieces.end()) {
        lines_.fail(line[i], quote_input(line[i].text) + " is no piece of set " + set.name + "'s solved state",
                    "a number of the solved state's row of " + set.name + ", from 1");
      }
      if (pieces[std::size_t(*place - 1)] == *piece - 1) {
        lines_.fail(line[i],
                    "the solved state holds piece " + line[i].text + " at place " + line[2].text + " of " + set.name +
                        ", which this line forbids",
                    "Illegal lines that the solved state keeps");
      }
      const PieceIllegal rule{int(k), *place - 1, *piece - 1};
      if (std::find(def_.illegal.begin(), def_.illegal.end(), rule) == def_.illegal.end()) def_.illegal.push_back(rule);
    }
    if (def_.source.illegal_at.first == 0) def_.source.illegal_at = {line[0].line, line[0].column};
  }

  void read_set(const std::vector<Token>& line) {
    constexpr std::string_view form = "Set NAME PLACES ORIENTATIONS, e.g. Set CORNERS 8 3";
    lines_.expect(line, 4, form);
    if (const auto problem = set_name_problem(line[1].text); !problem.empty()) {
      lines_.fail(line[1], "the set name " + quote_input(line[1].text) + " " + problem, kSetNameForm);
    }
    for (const auto& s : def_.sets) {
      if (s.name == line[1].text) lines_.fail(line[1], "set " + shown_text(s.name) + " defined twice", form);
    }
    const auto places = number(line[2].text), orientations = number(line[3].text);
    if (!places || *places < 1 || *places > 255) lines_.fail(line[2], "places must be 1 to 255", form);
    if (!orientations || *orientations < 1 || *orientations > 127) {
      lines_.fail(line[3], "orientations must be 1 to 127", form);
    }
    if (def_.sets.size() == kMaxTwsSets) {
      lines_.fail(line[0], "more than " + std::to_string(kMaxTwsSets) + " sets", form);
    }
    if (first_set_.line == 0) first_set_ = line[0];
    def_.sets.push_back({line[1].text, *places, *orientations});
  }

  // A Solved/StartState or Move/MoveTransformation block, up to its End line.
  PieceTransform read_block(BlockKind kind, const std::string& what) {
    PieceTransform t;
    std::vector<bool> given(def_.sets.size());
    for (const auto& set : def_.sets) {
      std::vector<int> p(std::size_t(set.size));
      for (int i = 0; i < set.size; ++i) p[std::size_t(i)] = i;
      t.perm.push_back(p);
      t.twist.emplace_back(std::size_t(set.size), 0);
    }
    std::string set_names;
    for (const auto& s : def_.sets) set_names += (set_names.empty() ? "" : ", ") + s.name;
    while (true) {
      const auto& line = lines_.next();
      const Token& key = line.front();
      if (key.text == "End") {
        lines_.expect(line, 1, "End alone on its line");
        return t;
      }
      if (is_number_line(line)) lines_.fail(key, "numbers outside a set", "a set name (" + set_names + ") first");
      std::size_t k = 0;
      while (k < def_.sets.size() && def_.sets[k].name != key.text) ++k;
      if (k == def_.sets.size()) {
        lines_.fail(key, "unknown set " + quote_input(key.text) + " in " + what, "one of: " + set_names + ", or End");
      }
      if (given[k]) lines_.fail(key, "set " + key.text + " twice in " + what, "each set once a block");
      given[k] = true;
      lines_.expect(line, 1, "the set name alone on its line");
      const PieceSet& set = def_.sets[k];
      const auto n = std::size_t(set.size);
      const std::string perm_form = std::to_string(n) + " numbers from " + (kind.from_zero ? "0" : "1") +
                                    (kind.move ? ", each once" : "") + " for set " + set.name;
      const auto& perm_line = lines_.next();
      if (!is_number_line(perm_line)) lines_.fail(perm_line.front(), "no numbers for set " + set.name, perm_form);
      read_numbers(perm_line, n, perm_form, kind.from_zero ? 0 : 1, kind.move ? int(n) - (kind.from_zero ? 1 : 0) : 255,
                   t.perm[k]);
      for (auto& v : t.perm[k]) v -= kind.from_zero ? 0 : 1;
      if (kind.move) {
        std::vector<bool> seen(n);
        for (std::size_t i = 0; i < n; ++i) {
          const auto v = std::size_t(t.perm[k][i]);
          if (seen[v]) lines_.fail(perm_line[i], "place " + perm_line[i].text + " twice in " + what, perm_form);
          seen[v] = true;
        }
      }
      std::vector<int> twist(n, 0);
      if (!lines_.done() && is_number_line(lines_.peek())) {
        // A position's twist may be '?' (twsearch's wildcard): that piece's orientation
        // is not counted, where the set has orientations to count.
        const bool wild = !kind.move && set.orientations > 1;
        const std::string twist_form = std::to_string(n) + " twists from 0 to " + std::to_string(set.orientations - 1) +
                                       (wild ? " or '?'" : "") + " for set " + set.name;
        const auto& twist_line = lines_.next();
        read_numbers(twist_line, n, twist_form, 0, set.orientations - 1, twist, wild);
        if (wild) read_wildcards(k, twist_line, t.perm[k], twist);
      }
      // A ksolve Move gives the twist of a piece by the place it leaves; the model, as
      // MoveTransformation does, by the place it reaches.
      for (std::size_t i = 0; i < n; ++i) {
        t.twist[k][i] = kind.move && !kind.from_zero ? twist[std::size_t(t.perm[k][i])] : twist[i];
      }
    }
  }

  // Pieces whose twist is '?': marked in the definition's `wild`, their twist 0. The
  // pieces of one number must agree, as twsearch asks: a number names a kind of piece
  // and the wildcard is a property of the kind.
  void read_wildcards(std::size_t k, const std::vector<Token>& line, const std::vector<int>& perm,
                      std::vector<int>& twist) {
    const auto n = perm.size();
    std::vector<bool> wild(n);
    std::optional<std::size_t> first;  // the first wildcard's place
    for (std::size_t i = 0; i < n; ++i) {
      wild[i] = line[i].text == "?";
      if (wild[i] && !first) first = i;
      if (wild[i]) twist[i] = 0;
    }
    if (!first) return;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (perm[i] != perm[j] || wild[i] == wild[j]) continue;
        const std::size_t at = wild[i] ? j : i;
        lines_.fail(line[at],
                    "piece " + std::to_string(perm[i] + 1) + " of set " + def_.sets[k].name +
                        " has a wildcard orientation at one place and " + quote_input(line[at].text) + " at another",
                    "'?' at every place of identical pieces or at none");
      }
    }
    if (def_.wild.empty()) def_.wild.resize(def_.sets.size());
    def_.wild[k] = std::move(wild);
    if (def_.source.wild_at.first == 0) def_.source.wild_at = {line[*first].line, line[*first].column};
  }

  // `wildcards`: '?' is read as 0 (read_wildcards marks it); elsewhere it is refused.
  void read_numbers(const std::vector<Token>& line, std::size_t n, const std::string& form, int low, int high,
                    std::vector<int>& out, bool wildcards = false) {
    for (std::size_t i = 0; i < line.size() && i < n; ++i) {
      if (line[i].text == "?") {
        if (wildcards) {
          out[i] = 0;
          continue;
        }
        lines_.fail(line[i], "a wildcard ('?') where it means nothing",
                    form + " ('?' only as a twist of Solved or StartState, in a set of more than one orientation)");
      }
      const auto v = number(line[i].text);
      if (!v || *v < low || *v > high) lines_.fail(line[i], quote_input(line[i].text) + " out of range", form);
      out[i] = *v;
    }
    if (line.size() != n) {
      lines_.fail(line.size() > n ? line[n] : line.back(),
                  std::to_string(line.size()) + (line.size() == 1 ? " number" : " numbers"), form);
    }
  }

  Lines lines_;
  std::filesystem::path file_;
  PieceDefinition def_;
  Token first_set_, first_move_;
  std::vector<Sequence> sequences_;
};

std::string read_file(const std::filesystem::path& file) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec) throw ParseError(file.string() + ":1:1: cannot read the file; expected a readable .tws file");
  if (size > kMaxTwsBytes) {
    throw ParseError(file.string() + ":1:1: " + std::to_string(size) + " bytes; expected at most " +
                     std::to_string(kMaxTwsBytes));
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw ParseError(file.string() + ":1:1: cannot read the file; expected a readable .tws file");
  return text.str();
}

// The twists of a move as a Move block lists them: by the place each piece leaves.
std::vector<int> leaving_twists(const std::vector<int>& perm, const std::vector<int>& twist) {
  std::vector<int> out(twist.size(), 0);
  for (std::size_t i = 0; i < perm.size(); ++i) out[std::size_t(perm[i])] = twist[i];
  return out;
}

void append_row(std::string& out, const std::vector<int>& values, int add) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ' ';
    out += std::to_string(values[i] + add);
  }
  out += '\n';
}

}  // namespace

bool is_rotation_name(std::string_view name) {
  if (name == "x" || name == "y" || name == "z") return true;
  if (name.size() == 2 && (name[0] == 'x' || name[0] == 'y' || name[0] == 'z')) {
    return name[1] == '2' || name[1] == '\'';
  }
  std::size_t grip = 0;
  while (grip < name.size() && (name[grip] == '_' || (name[grip] >= 'A' && name[grip] <= 'Z'))) ++grip;
  return grip > 0 && grip + 1 == name.size() && name[grip] == 'v';
}

std::string set_name_problem(std::string_view name) {
  constexpr std::string_view kKeywordList[] = {
      "Name", "Set",       "Solved",       "StartState", "Move", "MoveTransformation",
      "End",  "MoveAlias", "MoveSequence", "Illegal"};
  if (name.empty()) return "is empty";
  if (name.size() > 64) return "is longer than 64 characters";
  const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!letter(name.front())) return "does not start with a letter or '_'";
  for (const char c : name) {
    if (!letter(c) && !(c >= '0' && c <= '9') && c != '-') return "holds " + quote_input(std::string(1, c));
  }
  for (const auto keyword : kKeywordList) {
    if (name == keyword) return "is a keyword of the format";
  }
  return "";
}

std::string move_name_problem(std::string_view name) {
  // twsearch's slice moves start with their depth (2F, 3f, 2FRD): digits may lead,
  // but a name of digits alone would read as a power.
  if (name.size() > 64) return "is longer than 64 characters";
  const std::size_t first = name.find_first_not_of("0123456789");
  if (first == 0 || name.empty()) return set_name_problem(name);
  if (first == std::string_view::npos) return "has no letter or '_'";
  auto problem = set_name_problem(name.substr(first));
  return problem == "is a keyword of the format" ? "" : problem;
}

std::string format_tws(const PieceDefinition& d, const std::vector<std::string>& comment) {
  std::string out;
  for (const auto& line : comment) out += line.empty() ? "#\n" : "# " + line + "\n";
  if (!comment.empty()) out += '\n';
  out += "Name " + d.name + "\n\n";
  for (const auto& set : d.sets) {
    out += "Set " + set.name + " " + std::to_string(set.size) + " " + std::to_string(set.orientations) + "\n";
  }
  // A twist row only where a set has orientations to give.
  const auto block = [&](const std::string& head, const PieceTransform& t, bool move) {
    out += '\n';
    out += head;
    out += '\n';
    for (std::size_t k = 0; k < d.sets.size(); ++k) {
      out += d.sets[k].name;
      out += '\n';
      append_row(out, t.perm[k], 1);
      if (d.sets[k].orientations == 1) continue;
      if (!move && k < d.wild.size() && !d.wild[k].empty()) {
        for (std::size_t i = 0; i < t.twist[k].size(); ++i) {
          out += (i ? " " : "") + (d.wild[k][i] ? std::string("?") : std::to_string(t.twist[k][i]));
        }
        out += '\n';
      } else {
        append_row(out, move ? leaving_twists(t.perm[k], t.twist[k]) : t.twist[k], 0);
      }
    }
    out += "End\n";
  };
  block("Solved", d.solved, false);
  for (const auto& m : d.moves) block("Move " + m.name, m.transform, true);
  for (const auto& r : d.rotations) block("Move " + r.name, r.transform, true);
  // In the order read (parse_tws gives the same list back): a run of one place's
  // pieces on one line.
  for (std::size_t i = 0; i < d.illegal.size(); ++i) {
    const PieceIllegal& a = d.illegal[i];
    if (i == 0) out += '\n';
    if (i == 0 || a.set != d.illegal[i - 1].set || a.place != d.illegal[i - 1].place) {
      if (i > 0) out += '\n';
      out += "Illegal " + d.sets[std::size_t(a.set)].name + " " + std::to_string(a.place + 1);
    }
    out += " " + std::to_string(a.piece + 1);
  }
  if (!d.illegal.empty()) out += '\n';
  return out;
}

PieceDefinition parse_tws(const std::filesystem::path& file, const std::string& text) {
  return Reader(file, text).read();
}

PieceDefinition read_tws(const std::filesystem::path& file) { return parse_tws(file, read_file(file)); }

Pieces load_tws(const std::filesystem::path& file, const std::string& text) {
  Reader reader(file, text);
  const PieceDefinition def = reader.read();
  try {
    return Pieces(def, PieceMetric::all_powers);
  } catch (const ParseError& e) {
    reader.fail_model(e.what());
  }
}

Pieces load_tws(const std::filesystem::path& file) { return load_tws(file, read_file(file)); }

TwsModel load_tws_model(const std::filesystem::path& file, const std::string& text) {
  Reader reader(file, text);
  const PieceDefinition def = reader.read();
  try {
    return Pieces(def, PieceMetric::all_powers);
  } catch (const ParseError& e) {
    if (!std::string_view(e.what()).starts_with("its positions do not rank below 2^64")) reader.fail_model(e.what());
  }
  const int limbs = wide_pieces_detail::limbs_needed(def);
  int bits = 0;  // past 512: the refusal below says how many
  try {
    if (limbs <= 2) return WidePieces(def, PieceMetric::all_powers);
    if (limbs <= 4) return WidePieces256(def, PieceMetric::all_powers);
    if (limbs <= 8) return WidePieces512(def, PieceMetric::all_powers);
    bits = HugePieces(def, PieceMetric::all_powers).bits();
  } catch (const ParseError& e) {
    reader.fail_model(e.what());
  }
  reader.fail_model("its positions do not rank below 2^64, and its places take " + std::to_string(bits) +
                    " bits, past the 512 that solve, query and distance tables take: only `statespace analyze " +
                    file.string() + " --max-depth D` (or --partial) counts its first levels");
}

std::optional<HugePieces> load_huge_tws(const std::filesystem::path& file) {
  const std::string text = read_file(file);
  Reader reader(file, text);
  const PieceDefinition def = reader.read();
  if (wide_pieces_detail::limbs_needed(def) <= 8) return std::nullopt;
  try {
    (void)Pieces(def, PieceMetric::all_powers);
    return std::nullopt;  // its positions rank: load_tws_model's
  } catch (const ParseError& e) {
    if (!std::string_view(e.what()).starts_with("its positions do not rank below 2^64")) reader.fail_model(e.what());
  }
  try {
    return HugePieces(def, PieceMetric::all_powers);
  } catch (const ParseError& e) {
    reader.fail_model(e.what());
  }
}

TwsModel load_tws_model(const std::filesystem::path& file) { return load_tws_model(file, read_file(file)); }

}  // namespace statespace
