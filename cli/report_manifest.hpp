// The manifest of `statespace report`: a TOML file naming the analyses of an
// article and the tables and figures made from them. Loading checks everything a
// run could trip over (keys, columns, figure kinds, puzzles, positions, engine
// options, references between entries) before any work starts; a problem is one
// ParseError "FILE:LINE:COLUMN: what is wrong (what was expected)".
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analyze.hpp"
#include "puzzles/registry.hpp"

namespace statespace::cli {

struct ManifestAnalysis {
  std::string label;        // unique; names its report folder and figure legends
  std::string puzzle;       // as written in the manifest
  std::string puzzle_path;  // what make_puzzle got: a puzzle file resolved against the manifest's folder
  std::string puzzle_hash;  // of a puzzle file's bytes; empty for a built-in model
  AnyPuzzle model;
  std::string moves;  // the move rule asked for; empty: the puzzle's own
  AnalyzeOptions options;
  AnyPlan plan;  // choose_engine()'s, made while the manifest is checked
};

struct ManifestTable {
  std::string name;
  std::vector<std::string> columns;
  std::vector<std::size_t> analyses;  // indices into Manifest::analyses
  int line = 0;                       // keeps index.md in the manifest's order
};

struct ManifestFigure {
  std::string name;
  std::string kind;   // "distribution" or "farthest-boards"
  std::string title;  // empty: one made from the data
  bool log_scale = true;
  std::vector<std::size_t> analyses;
  std::size_t limit = 36;  // farthest-boards: boards drawn at most
  int line = 0;
};

struct Manifest {
  std::string title;
  std::vector<ManifestAnalysis> analyses;
  std::vector<ManifestTable> tables;
  std::vector<ManifestFigure> figures;
};

Manifest load_manifest(const std::filesystem::path& file);
// Loads `text` as if read from `file` (puzzle files resolve against its folder).
Manifest load_manifest(const std::filesystem::path& file, std::string text);

// FNV-1a, 64 bits: a stable content hash for cache keys (not a defence against
// crafted collisions; the cache lives beside the report it serves).
inline std::uint64_t fnv1a64(std::string_view bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace statespace::cli
