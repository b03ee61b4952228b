// The .tws reader's guards on move names and sizes: every name a move or one of its
// powers gets (R, R2, R') and every name --moves takes names one move, so two
// moves can never print alike; a file with more moves than any puzzle of the
// format has is refused at the Move line past the limit, before any table is
// built. The refusals are one line FILE:LINE:COLUMN with the expected form.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "core/errors.hpp"
#include "puzzles/tws_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::fresh_dir;
using testing::run_statespace;
using testing::write_file;

const std::string kHead = "Set A 3 1\nSolved\nA\n1 2 3\nEnd\n";
std::string move(const std::string& name) { return "Move " + name + "\nA\n2 3 1\nEnd\n"; }

std::string refusal(const std::string& text) {
  try {
    (void)parse_tws("t.tws", text);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "";
}

TEST(TwsNames, MoveNamesCannotCollideWithPowers) {
  // Before, both loaded and solve printed R2 for two different moves.
  EXPECT_EQ(refusal(kHead + move("R") + move("R2")),
            "t.tws:10:6: move R2 beside move R: the powers of R are named R2, R3, ...; expected move names that no "
            "power's name repeats");
  EXPECT_EQ(refusal(kHead + move("R12") + move("R")),
            "t.tws:10:6: move R beside move R12: the powers of R are named R2, R3, ...; expected move names that "
            "no power's name repeats");
  EXPECT_EQ(refusal(kHead + move("R") + move("R")), "t.tws:10:6: move R defined twice; expected one block a move");
  // Names --moves cannot take (it splits on ','), and a prime that reads as an inverse.
  EXPECT_EQ(refusal(kHead + move("X,Y")),
            "t.tws:6:6: the move name 'X,Y' holds ','; expected a move name of letters, digits, '_' or '-', "
            "with a letter or '_'");
  EXPECT_NE(refusal(kHead + move("R'")).find("t.tws:6:6: the move name 'R'' holds '''"), std::string::npos);
  // Names that only share a prefix are fine, and so are the format's usual ones.
  EXPECT_EQ(refusal(kHead + move("R") + move("Rw") + move("R_2") + move("DBL")), "");
  // twsearch's slice moves lead with their depth; digits alone would read as a power.
  EXPECT_EQ(refusal(kHead + move("2F") + move("3f") + move("2FRD") + move("1H")), "");
  EXPECT_EQ(refusal(kHead + move("2F") + move("2F2")),
            "t.tws:10:6: move 2F2 beside move 2F: the powers of 2F are named 2F2, 2F3, ...; expected move names that "
            "no power's name repeats");
  EXPECT_EQ(refusal(kHead + move("22")),
            "t.tws:6:6: the move name '22' has no letter or '_'; expected a move name of letters, digits, '_' or '-', "
            "with a letter or '_'");
}

// 25,000 moves: before, 32 s of CPU went into their tables before the memory
// refusal; now the 257th Move line is refused as the file is read.
TEST(TwsNames, TooManyMovesAreRefusedBeforeAnyTable) {
  const auto dir = fresh_dir("tws-many-moves");
  std::string text = "Set A 8 1\nSolved\nA\n1 2 3 4 5 6 7 8\nEnd\n";
  for (int i = 0; i < 25000; ++i) text += "Move M" + std::to_string(i) + "x\nA\n2 1 3 4 5 6 7 8\nEnd\n";
  const auto file = write_file(dir / "many.tws", text);
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_statespace("analyze " + file.string() + " --quiet --out " + (dir / "out").string());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.std_err,
            "statespace: " + file.string() + ":1030:1: more than 256 moves; expected at most 256 Move blocks\n");
  EXPECT_LT(seconds, 2.0);
}

}  // namespace
}  // namespace statespace
