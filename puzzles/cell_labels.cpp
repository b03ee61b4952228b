#include "puzzles/cell_labels.hpp"

#include <algorithm>
#include <map>

#include "core/errors.hpp"
#include "core/notation.hpp"

namespace statespace {

namespace {

bool label_less(const std::string& a, const std::string& b) {
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

// The cells of the start in order, whatever its row layout; blank synonyms as "_",
// as split_cells reads positions. Past `most` cells they are only counted (in
// `count`), so a huge start costs no more than its text.
std::vector<std::string> tokens_of(std::string_view text, std::size_t most, std::size_t& count) {
  std::vector<std::string> out;
  std::string token;
  count = 0;
  const auto flush = [&] {
    if (token == "0" || token == "*" || token == "--") token = std::string(kBlank);
    if (!token.empty() && ++count <= most) out.push_back(std::move(token));
    token.clear();
  };
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == ',' || c == '\r' || c == '\n' || c == '/') {
      flush();
    } else {
      token += c;
    }
  }
  flush();
  return out;
}

}  // namespace

CellLabels::CellLabels(const TomlInput& file, const toml::node& start_node, const std::string& start,
                       bool blank_code_zero) {
  name_ = file.string(file.root(), "name", false, "name = \"a short name\"").value_or(file.file().stem().string());
  std::size_t count = 0;
  const auto tokens = tokens_of(start, kMaxCells, count);
  if (count == 0 || count > std::size_t(kMaxCells)) {
    file.fail(start_node, "start has " + std::to_string(count) + " cells (expected 1 to " + std::to_string(kMaxCells) +
                              " labels separated by spaces)");
  }
  cells_ = int(count);
  std::vector<std::string> distinct(tokens.begin(), tokens.end());
  std::sort(distinct.begin(), distinct.end(), label_less);
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (blank_code_zero) {
    const auto blank = std::find(distinct.begin(), distinct.end(), std::string(kBlank));
    if (blank == distinct.end()) {
      file.fail(start_node, "start has no empty vertex (expected at least one '_' among the tokens)");
    }
    std::rotate(distinct.begin(), blank, blank + 1);
  }
  labels_ = std::move(distinct);
  counts_.assign(labels_.size(), 0);
  for (int i = 0; i < cells_; ++i) {
    const auto code = std::size_t(std::find(labels_.begin(), labels_.end(), tokens[std::size_t(i)]) - labels_.begin());
    start_.cell[std::size_t(i)] = std::uint8_t(code);
    ++counts_[code];
  }

  rows_ = {cells_};
  if (const toml::node* rows = file.root().get("rows")) {
    const auto* array = rows->as_array();
    const std::string form = "rows = [2, 3, 2], row lengths summing to the " + std::to_string(cells_) + " cells";
    if (!array || array->empty()) file.fail(*rows, "'rows' must be an array of row lengths (expected " + form + ")");
    rows_.clear();
    int sum = 0;
    for (const auto& r : *array) {
      // Only integers: value<int64_t>() would convert a float, and a float past the
      // integer range makes that conversion undefined.
      const auto v = r.is_integer() ? r.value<std::int64_t>() : std::nullopt;
      if (!v || *v < 1 || *v > kMaxCells) file.fail(r, "bad row length (expected " + form + ")");
      rows_.push_back(int(*v));
      sum += int(*v);
    }
    if (sum != cells_) {
      file.fail(*rows, "rows sum to " + std::to_string(sum) + " cells, start has " + std::to_string(cells_) +
                           " (expected " + form + ")");
    }
  }
}

std::string CellLabels::format(const CellState& s) const {
  std::vector<std::string> cells(static_cast<std::size_t>(cells_));
  for (int i = 0; i < cells_; ++i) cells[std::size_t(i)] = labels_[s.cell[std::size_t(i)]];
  return join_cells(cells, rows_);
}

CellState CellLabels::parse(std::string_view text) const {
  const std::string example = format(start_);
  const auto tokens = split_cells(text, rows_, name_, example);
  CellState s;
  std::vector<int> counts(labels_.size(), 0);
  for (int i = 0; i < cells_; ++i) {
    const auto& t = tokens[std::size_t(i)];
    const auto at = std::find(labels_.begin(), labels_.end(), t);
    if (at == labels_.end()) {
      throw ParseError(name_ + ": unknown label '" + t + "' in cell " + std::to_string(i + 1) +
                       " (expected the labels of the start, e.g. \"" + example + "\")");
    }
    s.cell[std::size_t(i)] = std::uint8_t(at - labels_.begin());
    ++counts[std::size_t(at - labels_.begin())];
  }
  for (std::size_t c = 0; c < labels_.size(); ++c) {
    if (counts[c] != counts_[c]) {
      throw ParseError(name_ + ": label '" + labels_[c] + "' appears " + std::to_string(counts[c]) +
                       " times, the start has it " + std::to_string(counts_[c]) +
                       " times (expected an arrangement of the start, e.g. \"" + example + "\")");
    }
  }
  return s;
}

CellState CellLabels::parse_at(const TomlInput& file, const toml::node& at, std::string_view text) const {
  try {
    return parse(text);
  } catch (const ParseError& e) {
    file.fail(at, e.what());
  }
}

void fail_in_string(const TomlInput& file, const toml::node& at, std::size_t offset, std::string_view message) {
  toml::source_region where = at.source();
  if (where.begin.line == where.end.line) where.begin.column += toml::source_index(offset + 1);
  file.fail(where, message);
}

std::vector<Token> words(std::string_view text, std::size_t most) {
  std::vector<Token> out;
  for (std::size_t i = 0; i < text.size() && out.size() < most;) {
    if (text[i] == ' ' || text[i] == '\t' || text[i] == ',' || text[i] == '\r' || text[i] == '\n') {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() &&
           !(text[j] == ' ' || text[j] == '\t' || text[j] == ',' || text[j] == '\r' || text[j] == '\n')) {
      ++j;
    }
    out.push_back({std::string(text.substr(i, j - i)), i});
    i = j;
  }
  return out;
}

std::uint64_t arrangements(const std::vector<int>& counts, std::uint64_t cap) {
  // Built as a product of binomials, each step exact: C(n, k) = C(n, k-1) * (n-k+1) / k.
  long double total = 1;
  int placed = 0;
  for (const int c : counts) {
    for (int k = 1; k <= c; ++k) total = total * (placed + k) / k;
    placed += c;
  }
  return total >= static_cast<long double>(cap) ? cap : std::uint64_t(total + 0.5L);
}

}  // namespace statespace
