#include "puzzles/puzzle_file.hpp"

#include <string>
#include <utility>

#include "puzzles/tws_file.hpp"

namespace statespace {

namespace {

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
  };
  return kinds;
}

std::optional<AnyPuzzle> make_file_puzzle(std::string_view name) {
  for (const auto& k : puzzle_kinds()) {
    if (!name.ends_with(k.extension)) continue;
    if (const auto* read = std::get_if<FileKindLoader>(&k.load)) return (*read)(std::filesystem::path(name));
    return load_puzzle_file(TomlInput{std::filesystem::path(name)});
  }
  return std::nullopt;
}

bool is_puzzle_file_name(std::string_view name) {
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
