#include "puzzles/puzzle_file.hpp"

#include <string>

#include "puzzles/tws_file.hpp"

namespace statespace {

const std::vector<PuzzleKind>& puzzle_kinds() {
  static const std::vector<PuzzleKind> kinds = {
      {"graph", "tokens sliding along the edges of a graph into empty vertices",
       [](const TomlInput& f) { return AnyPuzzle(GraphTokens(f)); }},
      {"permutation", "moves that permute numbered cells (2x2x2 cube, TopSpin, pancakes)",
       [](const TomlInput& f) -> AnyPuzzle {
         // Stickers the moves carry together run as ranked pieces, printed as stickers.
         CellPermutation stickers(f);
         if (auto grouping = StickerPieces::group(stickers, f)) {
           if (auto grouped = GroupedStickers::make(stickers, std::move(*grouping))) return std::move(*grouped);
         }
         return stickers;
       }},
      {"blocks", "sliding blocks: pieces of any shape on a board with walls (Klotski, Rush Hour)",
       [](const TomlInput& file) -> AnyPuzzle { return load_blocks(file); }},
      {"rules", "rewrites of a board by pattern and replacement (peg solitaire, Sokoban, Lights Out)",
       [](const TomlInput& file) -> AnyPuzzle { return load_rules(file); }},
  };
  return kinds;
}

std::optional<AnyPuzzle> make_file_puzzle(std::string_view name) {
  if (!name.ends_with(".toml")) return std::nullopt;
  return load_puzzle_file(TomlInput{std::filesystem::path(name)});
}

std::optional<AnyPuzzle> make_tws_puzzle(std::string_view name) {
  if (!name.ends_with(".tws")) return std::nullopt;
  return std::visit([](auto&& p) { return AnyPuzzle(std::move(p)); }, load_tws_model(std::filesystem::path(name)));
}

bool is_puzzle_file_name(std::string_view name) { return name.ends_with(".toml") || name.ends_with(".tws"); }

AnyPuzzle load_puzzle_file(const TomlInput& file) {
  std::string kinds;
  for (const auto& k : puzzle_kinds()) kinds += (kinds.empty() ? "" : ", ") + std::string(k.name);
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
    if (k.name == *kind) return k.load(file);
  }
  file.fail(*file.root().get("kind"), "unknown kind '" + *kind + "' (expected one of: " + kinds + ")");
}

}  // namespace statespace
