// statespace list: the registry, with the size of each rank space and its goal; or,
// given a folder, the puzzle files in it. A listing never runs a BFS: the size shown
// for a file is its count of arrangements (graph, permutation) or of placements
// (blocks), both upper bounds of what analyze will reach, and a blocks count stops
// at kCountLimit. A file that does not load is reported on stderr with its
// FILE:LINE:COLUMN line; the listing goes on and the exit code is 2.
#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli/cli.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/registry.hpp"
#include "puzzles/rush_rows.hpp"
#include "puzzles/tws_file.hpp"
#include "puzzles/xsb_file.hpp"

namespace statespace::cli {

namespace {

constexpr std::uint64_t kCountLimit = 10'000'000;

// "4x5" for a rectangular board, else the row lengths: "2+3+2".
std::string board_text(const std::vector<int>& rows) {
  if (rows.empty()) return "-";
  if (std::all_of(rows.begin(), rows.end(), [&](int r) { return r == rows[0]; })) {
    return std::to_string(rows.size()) + "x" + std::to_string(rows[0]);
  }
  std::string out;
  for (const int r : rows) {
    if (!out.empty()) out += '+';
    out += std::to_string(r);
  }
  return out;
}

struct FileRow {
  std::string file, name, kind, board, size, title;
};

FileRow describe_file(const std::filesystem::path& path) {
  FileRow row;
  row.file = path.filename().string();
  std::optional<AnyPuzzle> puzzle;
  if (path.extension() == ".tws") {
    row.kind = "tws";
    // Positions past 512 bits: no rank space to show.
    if (const auto huge = load_huge_tws(path)) {
      row.name = huge->name();
      row.board = board_text(huge->row_lengths());
      row.size = "-";
      return row;
    }
    puzzle = make_file_puzzle(path.string());
  } else {
    const TomlInput input(path);
    row.kind = input.string(input.root(), "kind", false, "kind = \"blocks\"").value_or("-");
    row.title = input.string(input.root(), "title", false, "title = \"a line of text\"").value_or("");
    puzzle = make_file_puzzle(path.string());
  }
  std::visit(
      [&](const auto& p) {
        using P = std::decay_t<decltype(p)>;
        row.name = p.name();
        row.board = board_text(p.row_lengths());
        if constexpr (PlacementCountingPuzzle<P>) {
          const std::uint64_t n = p.count_placements(kCountLimit);
          row.size = (n >= kCountLimit ? ">= " : "") + with_commas(n);
        } else if constexpr (PositionCountingPuzzle<P>) {
          // Permutation files count their arrangements up to 2^40 only.
          const std::uint64_t n = p.position_count();
          row.size = (n >= (std::uint64_t(1) << 40) ? ">= " : "") + with_commas(n);
        } else if constexpr (RankedPuzzle<P>) {
          row.size = with_commas(p.rank_space());
        } else {
          row.size = "-";
        }
      },
      *puzzle);
  return row;
}

int list_folder(const std::filesystem::path& dir) {
  if (!std::filesystem::is_directory(dir)) {
    throw UsageError("list: '" + dir.string() + "' is not a folder (expected a folder of .toml or .tws puzzle files)");
  }
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.is_regular_file() && is_puzzle_file_name(e.path().filename().string())) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.filename().string() < b.filename().string(); });
  std::vector<FileRow> rows;
  int bad = 0;
  for (const auto& f : files) {
    try {
      if (is_xsb_name(f.filename().string())) {
        // A collection: a row per level, FILE:N; a refused level is an error line.
        const std::string text = read_collection_text(f);
        if (looks_like_rush_rows(text)) {
          for (const RushRow& row : read_rush_rows(f, text)) {
            if (!row.error.empty()) {
              std::cerr << "statespace: " << row.error << "\n";
              ++bad;
              continue;
            }
            rows.push_back({f.filename().string() + ":" + std::to_string(row.number), rush_row_name(f, row), "rows",
                            "6x6", "-", std::to_string(row.moves) + " moves, cluster " + with_commas(row.cluster)});
          }
          continue;
        }
        for (const XsbEntry& level : read_xsb(f, text)) {
          if (!level.level) {
            std::cerr << "statespace: " << level.error << "\n";
            ++bad;
            continue;
          }
          const Sokoban p(*level.level, SokobanMetric::kPushes);
          rows.push_back({f.filename().string() + ":" + std::to_string(level.number), p.name(),
                          f.extension().string().substr(1), board_text(p.row_lengths()), "-", level.title});
        }
        continue;
      }
      rows.push_back(describe_file(f));
    } catch (const ParseError& e) {
      std::cerr << "statespace: " << e.what() << "\n";
      ++bad;
    }
  }
  // Each column as wide as its longest cell and two blanks, so that none runs into
  // the next however long a board string (eliac's row lengths) or a count is.
  std::size_t file_width = 6, name_width = 6, kind_width = 13, board_width = 8, size_width = 22;
  for (const auto& r : rows) {
    file_width = std::max(file_width, r.file.size() + 2);
    name_width = std::max(name_width, r.name.size() + 2);
    kind_width = std::max(kind_width, r.kind.size() + 2);
    board_width = std::max(board_width, r.board.size() + 2);
    size_width = std::max(size_width, r.size.size());
  }
  std::ostringstream out;
  out << std::left << std::setw(int(file_width)) << "file" << std::setw(int(name_width)) << "name"
      << std::setw(int(kind_width)) << "kind" << std::setw(int(board_width)) << "board" << std::right
      << std::setw(int(size_width)) << "positions"
      << "  title\n";
  for (const auto& r : rows) {
    out << std::left << std::setw(int(file_width)) << r.file << std::setw(int(name_width)) << r.name
        << std::setw(int(kind_width)) << r.kind << std::setw(int(board_width)) << r.board << std::right
        << std::setw(int(size_width)) << r.size << "  " << r.title << "\n";
  }
  out << "\nboard: rows x columns (or the row lengths). positions: an upper bound, no search run: every\n"
         "arrangement of the cells (graph, permutation), the rank space (tws) or every placement of the pieces, moving "
         "or not\n"
         "(blocks; counted up to "
      << with_commas(kCountLimit) << "). statespace analyze FILE gives the reachable count.\n";
  std::cout << out.str();
  if (bad) std::cerr << "statespace: " << bad << " of " << files.size() << " files did not load\n";
  return bad ? 2 : 0;
}

}  // namespace

int run_list(const Args& args, Context& context) {
  std::string dir;
  po::options_description options("Options");
  options.add_options()("dir", po::value(&dir)->value_name("DIR"),
                        "list the puzzle files (*.toml, *.tws) in this folder instead of the built-in puzzles");
  po::positional_options_description positional;
  positional.add("dir", 1);
  po::variables_map vm;
  if (!parse_command(command("list"), options, positional, args, vm, context)) return 0;
  if (!dir.empty()) return list_folder(dir);
  std::cout << std::left << std::setw(12) << "puzzle" << std::setw(9) << "seed" << std::right << std::setw(16)
            << "positions"
            << "  goal\n";
  for (const auto& m : models()) {
    for (const auto name : m.listed) {
      std::visit(
          [&](const auto& p) {
            std::cout << std::left << std::setw(12) << name << std::setw(9) << m.seed << std::right << std::setw(16);
            if constexpr (RankedPuzzle<std::decay_t<decltype(p)>>) {
              std::cout << p.rank_space();
            } else {
              std::cout << "-";
            }
            std::cout << "  " << std::left << p.format(p.goal()) << "\n";
          },
          make_puzzle(name));
    }
  }
  std::cout << "\nForms (positions = the rank space; tiles reach exactly half of it):\n";
  for (const auto& m : models()) {
    std::cout << "  " << std::left << std::setw(12) << m.form << "seed " << std::setw(9)
              << (m.seed.empty() ? std::string_view("-") : m.seed) << m.description << "\n";
  }
  std::cout << "\nPuzzle files: statespace list DIR lists the *.toml and *.tws files in a folder.\n";
  return 0;
}

}  // namespace statespace::cli
