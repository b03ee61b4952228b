// The text parts of an article bundle (statespace report): tables over several
// analyses in Markdown, LaTeX (booktabs) and CSV, and index.md, which lists every
// table and figure in the manifest's order and one provenance line per analysis.
// Everything is a pure function of its arguments, so the same inputs give the same
// bytes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/engines/result.hpp"

namespace statespace::reports {

// One analysis of the bundle: its label (the puzzle's name unless the manifest gave
// another), its result, and how to reproduce it.
struct ArticleAnalysis {
  std::string label;
  AnalysisResult result;
  std::string command;  // the equivalent `statespace analyze ...` line
  std::string machine;  // where the result was computed
};

// The column names a table may ask for, in a sensible order.
const std::vector<std::string_view>& table_columns();

// Numbers right-aligned with thousands separators (Markdown, LaTeX); plain in CSV.
// Every column name must be one of table_columns().
std::string table_markdown(const std::vector<std::string>& columns, const std::vector<const ArticleAnalysis*>& rows);
std::string table_latex(const std::vector<std::string>& columns, const std::vector<const ArticleAnalysis*>& rows);
std::string table_csv(const std::vector<std::string>& columns, const std::vector<const ArticleAnalysis*>& rows);

// One table or figure of index.md: a heading and Markdown under it.
struct IndexItem {
  std::string heading;
  std::string body;
};

std::string index_markdown(const std::string& title, const std::vector<IndexItem>& items,
                           const std::vector<ArticleAnalysis>& analyses);

}  // namespace statespace::reports
