// Text that puzzle files and manifests control (titles, names, cell labels,
// positions, goals) made safe for each output format: one function per format, so
// that every writer quotes a piece of text the same way and no writer passes any
// through raw. A title may hold any text; what a format cannot hold at all (a
// newline in a Markdown table cell or a LaTeX cell, a control character in XML) is
// turned into a space or dropped rather than breaking the file.
#pragma once

#include <string>
#include <string_view>

namespace statespace::reports {

// SVG and HTML text and attribute values: & < > " ' as entities; control characters
// other than tab and newline, which XML 1.0 forbids even as references, dropped.
std::string xml_escape(std::string_view s);

// LaTeX text (pdflatex): \ { } $ % & # _ ^ ~ < > | as commands that print them; line
// breaks as spaces (a blank line would end the paragraph inside a table cell).
std::string latex_escape(std::string_view s);

// Markdown inline text, a table cell or a heading: \ ` * _ [ ] < > | & backslash-escaped
// (CommonMark lets a backslash escape any ASCII punctuation); line breaks as spaces.
std::string markdown_escape(std::string_view s);

// A Markdown code span that stays one table cell: fenced by one backtick more than
// the longest run inside, padded when the text starts or ends with one, and | as \|
// (GitHub's tables split cells at a bare | even inside code).
std::string markdown_code(std::string_view s);

// A relative link target in Markdown (a report folder): every byte but letters,
// digits, - . _ ~ percent-encoded (RFC 3986), so no space, bracket or line break
// ends the link.
std::string link_target(std::string_view s);

// The inside of a double-quoted Graphviz string: " and \ backslash-escaped (so no
// \n, \l or \N of dot's own escapes can be formed by accident), & as &amp; (dot
// reads HTML entities in labels), line breaks as \n.
std::string dot_escape(std::string_view s);

// One CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a
// quote or a line break; as it is otherwise.
std::string csv_field(std::string_view s);

}  // namespace statespace::reports
