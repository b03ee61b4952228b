#include "puzzles/puzzle_file.hpp"

#include <string>
#include <utility>

#include "core/errors.hpp"
#include "puzzles/rush_rows.hpp"
#include "puzzles/tws_file.hpp"
#include "puzzles/xsb_file.hpp"

namespace statespace {

namespace {

// A collection's entry: a Sokoban level, or a Rush Hour row when the file's content
// reads as Fogleman's rows.
AnyPuzzle collection_puzzle(const std::filesystem::path& file, std::string_view which) {
  const std::string text = read_collection_text(file);
  if (looks_like_rush_rows(text)) return AnyPuzzle(load_rush_row(file, text, which));
  return AnyPuzzle(load_xsb_level(file, which));
}

// A file of another name whose content is Rush Hour rows: FILE or FILE:N.
std::optional<std::pair<std::filesystem::path, std::string>> rows_file(std::string_view name) {
  for (const std::size_t cut : {name.size(), name.rfind(':')}) {
    if (cut == std::string_view::npos || cut == 0) continue;
    const std::filesystem::path file(name.substr(0, cut));
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec) || std::filesystem::file_size(file, ec) > kMaxXsbBytes) continue;
    try {
      if (looks_like_rush_rows(read_collection_text(file))) {
        return std::pair{file, std::string(cut == name.size() ? "" : name.substr(cut + 1))};
      }
    } catch (const ParseError&) {
    }
  }
  return std::nullopt;
}

// A loader's model (or one of its models) as the variant of every model.
template <class Model>
AnyPuzzle any(Model m) {
  return AnyPuzzle(std::move(m));
}
template <class... Models>
AnyPuzzle any(std::variant<Models...> m) {
  return std::visit([](auto& alternative) { return AnyPuzzle(std::move(alternative)); }, m);
}

}  // namespace

const std::vector<PuzzleKind>& puzzle_kinds() {
  static const std::vector<PuzzleKind> kinds = {
      {".toml", "graph", "tokens sliding along the edges of a graph into empty vertices",
       TomlKindLoader([](const TomlInput& f) { return any(load_graph(f)); })},
      {".toml", "permutation", "moves that permute numbered cells (2x2x2 cube, TopSpin, pancakes)",
       TomlKindLoader([](const TomlInput& f) { return any(load_permutation(f)); })},
      {".toml", "blocks", "sliding blocks: pieces of any shape on a board with walls (Klotski, Rush Hour)",
       TomlKindLoader([](const TomlInput& f) { return any(load_blocks(f)); })},
      {".toml", "rules", "rewrites of a board by pattern and replacement (peg solitaire, Sokoban, Lights Out)",
       TomlKindLoader([](const TomlInput& f) { return any(load_rules(f)); })},
      {".tws", "tws", "a twisty puzzle in twsearch's .tws format", FileKindLoader([](const std::filesystem::path& f) {
         return std::visit([](auto&& p) { return AnyPuzzle(std::move(p)); }, load_tws_model(f));
       })},
      {".xsb", "xsb", "Sokoban levels in XSB, many to a file (FILE.xsb:N names the N-th)",
       FileKindLoader([](const std::filesystem::path& f) { return collection_puzzle(f, ""); })},
      {".sok", "sok", "Sokoban levels in XSB with Title: lines (FILE.sok:N names the N-th)",
       FileKindLoader([](const std::filesystem::path& f) { return collection_puzzle(f, ""); })},
      {".txt", "txt", "Sokoban levels in XSB, or Rush Hour rows (MOVES BOARD CLUSTER), in a text file",
       FileKindLoader([](const std::filesystem::path& f) { return collection_puzzle(f, ""); })},
  };
  return kinds;
}

std::optional<AnyPuzzle> make_file_puzzle(std::string_view name) {
  // A collection's level: FILE:N or FILE:TITLE.
  if (const std::size_t colon = name.rfind(':'); colon != std::string_view::npos && is_xsb_name(name) &&
                                                 !name.ends_with(".xsb") && !name.ends_with(".sok") &&
                                                 !name.ends_with(".txt")) {
    return collection_puzzle(std::filesystem::path(name.substr(0, colon)), name.substr(colon + 1));
  }
  for (const auto& k : puzzle_kinds()) {
    if (!name.ends_with(k.extension)) continue;
    if (const auto* read = std::get_if<FileKindLoader>(&k.load)) return (*read)(std::filesystem::path(name));
    return load_puzzle_file(TomlInput{std::filesystem::path(name)});
  }
  if (const auto rows = rows_file(name)) return collection_puzzle(rows->first, rows->second);
  return std::nullopt;
}

bool is_puzzle_file_name(std::string_view name) {
  if (is_xsb_name(name) || rows_file(name)) return true;
  for (const auto& k : puzzle_kinds()) {
    if (name.ends_with(k.extension)) return true;
  }
  return false;
}

AnyPuzzle load_puzzle_file(const TomlInput& file) {
  std::string kinds;
  for (const auto& k : puzzle_kinds()) {
    if (std::holds_alternative<TomlKindLoader>(k.load)) kinds += (kinds.empty() ? "" : ", ") + std::string(k.name);
  }
  const auto kind = file.string(file.root(), "kind", true, "kind = one of: " + kinds);
  // Every kind's name becomes its report folder: checked here, for all of them.
  // Without a `name`, the file's stem names the folder: held to the same rule.
  if (!file.name(file.root(), "name", false)) {
    const std::string stem = file.file().stem().string();
    if (const auto problem = name_problem(stem); !problem.empty()) {
      file.fail(file.root().source(), "no name, and the file name '" + shown_text(stem) + "' " + problem +
                                          " (add name = \"...\": 1 to 64 letters, digits, '-', '_' or '.', not "
                                          "starting with '.')");
    }
  }
  for (const auto& k : puzzle_kinds()) {
    const auto* load = std::get_if<TomlKindLoader>(&k.load);
    if (load && k.name == *kind) return (*load)(file);
  }
  file.fail(*file.root().get("kind"), "unknown kind '" + *kind + "' (expected one of: " + kinds + ")");
}

}  // namespace statespace
