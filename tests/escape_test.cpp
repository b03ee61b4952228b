// Text a file controls (titles, names, cell labels, positions, goals) through every
// report writer: each format's escaper on its own, then one title holding every
// special character of every format through every writer, each output checked by
// the tool that reads that format (rsvg-convert, dot, pdflatex, nlohmann's JSON
// parser, an RFC 4180 reader written here, Markdown's table rule). The tools are
// required: a machine without them fails this test (scripts/install-deps.sh and CI
// install them).
#include "reports/escape.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "reports/article.hpp"
#include "reports/dot.hpp"
#include "reports/summary_json.hpp"
#include "reports/svg.hpp"
#include "reports/tables.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

namespace fs = std::filesystem;
using namespace reports;
using testing::fresh_dir;
using testing::read_file;

TEST(Escape, XmlEscapesMarkupAndDropsWhatXmlCannotHold) {
  EXPECT_EQ(xml_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(xml_escape("tab\there\nnew\x01\x1f\x7f."), "tab\there\nnew.");
  EXPECT_EQ(xml_escape("é plain"), "é plain");
}

TEST(Escape, LatexEscapesEverySpecialCharacter) {
  EXPECT_EQ(latex_escape("\\{}$%&#_^~"), "\\textbackslash{}\\{\\}\\$\\%\\&\\#\\_\\textasciicircum{}\\textasciitilde{}");
  EXPECT_EQ(latex_escape("<>|"), "\\textless{}\\textgreater{}\\textbar{}");
  EXPECT_EQ(latex_escape("two\nlines\r\n\x01"), "two lines  ");
  EXPECT_EQ(latex_escape("tiles:3x3"), "tiles:3x3");
}

TEST(Escape, MarkdownEscapesPipesAndInlineMarkup) {
  EXPECT_EQ(markdown_escape("a|b"), "a\\|b");
  EXPECT_EQ(markdown_escape("*x_y* `z` [l](u) <h> & \\"), "\\*x\\_y\\* \\`z\\` \\[l\\](u) \\<h\\> \\& \\\\");
  EXPECT_EQ(markdown_escape("two\nlines"), "two lines");
  EXPECT_EQ(markdown_escape("tiles:3x3"), "tiles:3x3");
}

TEST(Escape, MarkdownCodeSpansOutlastTheirBackticks) {
  EXPECT_EQ(markdown_code("1 2 / 3 _"), "`1 2 / 3 _`");
  EXPECT_EQ(markdown_code("a|b"), "`a\\|b`");
  EXPECT_EQ(markdown_code("x ``y`` z"), "```x ``y`` z```");
  EXPECT_EQ(markdown_code("`a"), "`` `a ``");
  EXPECT_EQ(markdown_code("a\nb"), "`a b`");
}

TEST(Escape, LinkTargetsArePercentEncoded) {
  EXPECT_EQ(link_target("tiles-3x3"), "tiles-3x3");
  EXPECT_EQ(link_target("a b)\n|é"), "a%20b%29%0A%7C%C3%A9");
}

TEST(Escape, DotEscapesQuotesAndBackslashes) {
  EXPECT_EQ(dot_escape("A \" \\\\"), "A \\\" \\\\\\\\");
  EXPECT_EQ(dot_escape("\\n \\l"), "\\\\n \\\\l");
  EXPECT_EQ(dot_escape("two\nlines\r"), "two\\nlines");
  EXPECT_EQ(dot_escape("&amp; &"), "&amp;amp; &amp;");
}

TEST(Escape, CsvQuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(csv_field("1 2 / 3 _"), "1 2 / 3 _");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("cr\r"), "\"cr\r\"");
}

// Cells labelled A, " and \\ (start = 'A " \\' in a file): dot used to refuse
// graph.dot's `label="" A \\"`.
TEST(Escape, GraphDotQuotesCellLabels) {
  const Graph g = make_graph({0, 1, 2}, {1, 0});
  const std::string dot = graph_dot(g, {"A \" \\\\", "\" A \\\\"}, {0, 1});
  EXPECT_NE(dot.find("0[label=\"A \\\" \\\\\\\\\", depth=0];"), std::string::npos) << dot;
  EXPECT_NE(dot.find("1[label=\"\\\" A \\\\\\\\\", depth=1];"), std::string::npos) << dot;
}

// RFC 4180: fields separated by commas, records by CRLF or LF; a quoted field may
// hold commas, line breaks and doubled quotes. Anything else is a failure.
std::vector<std::vector<std::string>> read_csv(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  std::size_t i = 0;
  bool quoted = false, after_quote = false;
  const auto end_field = [&] {
    record.push_back(field);
    field.clear();
    quoted = after_quote = false;
  };
  while (i < text.size()) {
    const char c = text[i++];
    if (quoted && !after_quote) {
      if (c != '"') {
        field += c;
      } else if (i < text.size() && text[i] == '"') {
        field += '"';
        ++i;
      } else {
        after_quote = true;
      }
    } else if (c == ',') {
      end_field();
    } else if (c == '\n' || (c == '\r' && i < text.size() && text[i] == '\n')) {
      if (c == '\r') ++i;
      end_field();
      records.push_back(std::move(record));
      record.clear();
    } else if (after_quote) {
      ADD_FAILURE() << "CSV: '" << c << "' after a closing quote at byte " << i - 1;
      return {};
    } else if (c == '"') {
      if (!field.empty()) {
        ADD_FAILURE() << "CSV: a quote inside an unquoted field at byte " << i - 1;
        return {};
      }
      quoted = true;
    } else if (c == '\r') {
      ADD_FAILURE() << "CSV: a bare CR in an unquoted field at byte " << i - 1;
      return {};
    } else {
      field += c;
    }
  }
  if (quoted && !after_quote) ADD_FAILURE() << "CSV: the file ends inside a quoted field";
  if (!field.empty() || !record.empty()) ADD_FAILURE() << "CSV: the last record has no line break";
  return records;
}

TEST(Escape, CsvReaderFollowsRfc4180) {
  EXPECT_EQ(read_csv("a,\"b,\"\"c\"\"\nd\"\r\n,e\n"),
            (std::vector<std::vector<std::string>>{{"a", "b,\"c\"\nd"}, {"", "e"}}));
}

// The '|' of a Markdown table row that separate cells (not those escaped as \|).
int cell_separators(const std::string& row) {
  int n = 0;
  for (std::size_t i = 0; i < row.size(); ++i) n += row[i] == '|' && (i == 0 || row[i - 1] != '\\');
  return n;
}

// Every table row of `markdown` (lines starting with '|') has the header's count of
// separators; returns how many rows there were.
int expect_table_rows(const std::string& markdown) {
  std::istringstream in(markdown);
  int rows = 0, separators = -1;
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("|")) continue;
    if (separators < 0) separators = cell_separators(line);
    EXPECT_EQ(cell_separators(line), separators) << line;
    ++rows;
  }
  return rows;
}

bool tool(const std::string& name) { return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0; }

// Every character that some format treats specially, a line break and backticks.
const std::string kTitle = "Q: <b>&amp; \"x\" 'y' \\ { } $ % & # _ ^ ~ | a,b\nline 2 `one` ``two`` \\n \\l";

TEST(Escape, OneTitleThroughEveryWriter) {
  ASSERT_TRUE(tool("rsvg-convert")) << "rsvg-convert not found (apt-get install librsvg2-bin)";
  ASSERT_TRUE(tool("dot")) << "dot not found (apt-get install graphviz)";
  ASSERT_TRUE(tool("pdflatex")) << "pdflatex not found (apt-get install texlive-latex-recommended)";
  const auto dir = fresh_dir("escape-writers");
  const auto save = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name, std::ios::binary) << text;
    return (dir / name).string();
  };

  AnalysisResult r;
  r.puzzle = kTitle;
  r.start = kTitle;
  r.states = 3;
  r.edges = 2;
  r.layers = {1, 2};
  r.farthest = {kTitle, kTitle + "!"};
  r.layer_edges = {{0, 1, 2}};
  r.goal = GoalView{kTitle, 1, 0u, {1, 2}, {kTitle}, std::nullopt};
  const ArticleAnalysis a{kTitle, r, "statespace analyze x --from \"" + kTitle + "\"", kTitle};
  const std::vector<std::string> columns = {"label", "puzzle", "start", "states", "engine"};
  const std::vector<const ArticleAnalysis*> rows = {&a, &a};

  // SVG: both figures render.
  const std::vector<std::pair<std::string, std::string>> svgs = {
      {"distribution.svg", distribution_svg(kTitle, {{kTitle, {1, 2}}, {kTitle + "2", {1, 1}}}, true)},
      {"boards.svg", boards_svg(kTitle, row_geometry({2}), {BoardPicture{{kTitle, ""}, {0, -1}, kTitle}})},
  };
  for (const auto& [name, svg] : svgs) {
    const auto file = save(name, svg);
    EXPECT_EQ(std::system(("rsvg-convert " + file + " -o " + file + ".png 2>" + file + ".log").c_str()), 0)
        << name << ": " << read_file(file + ".log");
    EXPECT_TRUE(read_file(file + ".png").starts_with("\x89PNG")) << name;
  }

  // DOT: dot reads both files and keeps the labels' text (its SVG escapes it again).
  const Graph g = make_graph({0, 1, 2}, {1, 0});
  for (const auto& [name, text] : std::vector<std::pair<std::string, std::string>>{
           {"graph.dot", graph_dot(g, {kTitle, "A \" \\\\"}, {0, 1})}, {"layers.dot", layers_dot(r)}}) {
    const auto file = save(name, text);
    EXPECT_EQ(std::system(("dot -Tsvg " + file + " -o " + file + ".svg 2>" + file + ".log").c_str()), 0)
        << name << ": " << read_file(file + ".log");
    EXPECT_EQ(read_file(file + ".log"), "") << name;
  }
  const std::string drawn = read_file(dir / "graph.dot.svg");
  EXPECT_NE(drawn.find("Q: &lt;b&gt;&amp;amp; &quot;x&quot; &#39;y&#39; \\ { } $ % &amp; # _ ^ ~ | a,b"),
            std::string::npos)
      << drawn;
  EXPECT_NE(drawn.find(">line 2 `one` ``two`` \\n \\l<"), std::string::npos) << drawn;
  EXPECT_NE(drawn.find(">A &quot; \\\\<"), std::string::npos) << drawn;

  // LaTeX: the table typesets.
  save("table.tex", table_latex(columns, rows));
  save("doc.tex",
       "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n\\input{table.tex}\n\\end{document}\n");
  EXPECT_EQ(std::system(("cd " + dir.string() +
                         " && pdflatex -interaction=nonstopmode -halt-on-error doc.tex "
                         "</dev/null >latex.log 2>&1")
                            .c_str()),
            0)
      << read_file(dir / "latex.log");
  EXPECT_TRUE(read_file(dir / "doc.pdf").starts_with("%PDF"));

  // JSON: parses, and every text reads back as it was.
  const auto json = nlohmann::json::parse(summary_json(r));
  EXPECT_EQ(json.at("puzzle"), kTitle);
  EXPECT_EQ(json.at("start"), kTitle);
  EXPECT_EQ(json.at("farthest"), (std::vector<std::string>{kTitle, kTitle + "!"}));
  EXPECT_EQ(json.at("goal").at("goal"), kTitle);
  EXPECT_EQ(json.at("goal").at("hardest"), std::vector<std::string>{kTitle});

  // CSV: every record has the header's fields, and the text reads back as it was.
  const auto summary = read_csv(summary_csv({r, r}));
  ASSERT_EQ(summary.size(), 3u);
  for (const auto& record : summary) EXPECT_EQ(record.size(), 9u);
  EXPECT_EQ(summary[1][0], kTitle);
  EXPECT_EQ(summary[2][1], kTitle);
  const auto farthest = read_csv(farthest_csv(r));
  EXPECT_EQ(farthest,
            (std::vector<std::vector<std::string>>{{"distance", "position"}, {"1", kTitle}, {"1", kTitle + "!"}}));
  const auto table = read_csv(table_csv(columns, rows));
  ASSERT_EQ(table.size(), 3u);
  EXPECT_EQ(table[1], (std::vector<std::string>{kTitle, kTitle, kTitle, "3", "explicit"}));

  // Markdown: each table row has the header's cells; the heading is one line.
  EXPECT_EQ(expect_table_rows(summary_markdown({r, r})), 4);
  EXPECT_EQ(expect_table_rows(table_markdown(columns, rows)), 4);
  const std::string index = index_markdown(kTitle, {{kTitle, table_markdown(columns, rows)}}, {a});
  EXPECT_EQ(expect_table_rows(index), 4);
  EXPECT_TRUE(index.starts_with("# Q: \\<b\\>\\&amp; \"x\" 'y' \\\\ { } $ % \\& # \\_ ^ ~ \\| a,b line 2 \\`one\\`"))
      << index;
  EXPECT_NE(index.find("\n## Q: \\<b\\>"), std::string::npos) << index;
  std::istringstream lines(index);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("- ")) {
      EXPECT_NE(line.find(" s on Q: \\<b\\>"), std::string::npos) << line;
    }
  }
}

}  // namespace
}  // namespace statespace
