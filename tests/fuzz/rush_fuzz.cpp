// Rush Hour database rows, through the reader `statespace analyze rush.txt` uses.
// Every row is read or refused with one line naming its place; a row that reads
// must become a blocks file the blocks loader takes without a word, and that file
// must give back the row's board (`statespace convert` both ways).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "puzzles/rush_rows.hpp"
#include "puzzles/toml_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace statespace;
  fuzz::expect_clean([&] {
    const std::string text(reinterpret_cast<const char*>(data), size);
    for (const RushRow& row : read_rush_rows("fuzz.txt", text)) {
      if (!row.error.empty()) {
        fuzz::check_message(row.error);
        if (row.error.rfind("fuzz.txt:", 0) != 0) fuzz::finding("refusal without its place", row.error);
        continue;
      }
      const std::string toml = rush_row_toml(row, "fuzz-row");
      Blocks b;
      try {
        b = load_blocks(TomlInput("fuzz-row.toml", toml));
      } catch (const ParseError& e) {
        fuzz::finding("a row's blocks file does not load", e.what());
      }
      std::string board = row.board;
      std::replace(board.begin(), board.end(), '.', 'o');
      if (rush_board_of(b) != board) fuzz::finding("the blocks file gives another board", rush_board_of(b));
    }
  });
  return 0;
}
