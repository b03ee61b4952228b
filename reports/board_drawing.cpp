#include "reports/board_drawing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "reports/escape.hpp"
#include "reports/svg.hpp"

namespace statespace::reports {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kPad = 4;
constexpr double kCaptionWidth = 2.6;  // cells left of a set's places for its name

// Okabe & Ito's palette and lighter tints of it: pieces stay apart for the common
// colour-vision deficiencies.
constexpr const char* kPieceColours[] = {"#56B4E9", "#E69F00", "#009E73", "#F0E442", "#0072B2", "#D55E00",
                                         "#CC79A7", "#9ad0f5", "#f5c26b", "#7fd3bd", "#b9a3d9", "#e8a07a"};

bool numeric(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A colour per label, the same on every board and every page (FNV-1a, not std::hash).
std::string colour_of(const std::string& label) {
  if (numeric(label)) return "#fdd58c";
  std::uint32_t h = 2166136261u;
  for (const unsigned char c : label) h = (h ^ c) * 16777619u;
  return kPieceColours[h % std::size(kPieceColours)];
}

struct Box {
  double min_x = 0, max_x = 0, min_y = 0, max_y = 0;
};

Box bounds(const Drawing& d) {
  Box b;
  for (std::size_t i = 0; i < d.cells.size(); ++i) {
    const auto& c = d.cells[i];
    const double left = c.role == CellRole::kCaption ? c.x : c.x - 0.5;
    const double right = c.role == CellRole::kCaption ? c.x + kCaptionWidth - 0.5 : c.x + 0.5;
    b.min_x = i ? std::min(b.min_x, left) : left;
    b.max_x = i ? std::max(b.max_x, right) : right;
    b.min_y = i ? std::min(b.min_y, c.y - 0.5) : c.y - 0.5;
    b.max_y = i ? std::max(b.max_y, c.y + 0.5) : c.y + 0.5;
  }
  if (d.shape == CellShape::kHexagon) {  // pointy tops reach 1/sqrt(3) above the centre
    b.min_y -= 1 / std::sqrt(3.0) - 0.5;
    b.max_y += 1 / std::sqrt(3.0) - 0.5;
  }
  return b;
}

std::string cell_outline(CellShape shape, double cx, double cy, double size, const std::string& attributes) {
  if (shape == CellShape::kHexagon) {
    const double radius = size / std::sqrt(3.0);
    std::string points;
    for (int k = 0; k < 6; ++k) {
      const double a = (60.0 * k - 90) * kPi / 180;
      if (k) points += ' ';
      points.append(svg_number(cx + radius * std::cos(a))).append(",").append(svg_number(cy + radius * std::sin(a)));
    }
    return "<polygon points=\"" + points + "\" " + attributes + "/>";
  }
  return "<rect x=\"" + svg_number(cx - size / 2) + "\" y=\"" + svg_number(cy - size / 2) + "\" width=\"" +
         svg_number(size) + "\" height=\"" + svg_number(size) + "\" rx=\"" + svg_number(size / 8) + "\" " + attributes +
         "/>";
}

}  // namespace

std::vector<std::string> notation_cells(const std::string& notation) {
  std::vector<std::string> cells;
  std::istringstream in(notation);
  for (std::string cell; in >> cell;) {
    if (cell != "/") cells.push_back(cell);
  }
  return cells;
}

void lay_out_roles(Drawing& d, const std::vector<int>& row_lengths) {
  std::size_t i = 0;
  for (std::size_t r = 0; r < row_lengths.size(); ++r) {
    for (int c = 0; c < row_lengths[r] && i < d.cells.size(); ++c, ++i) {
      DrawnCell& cell = d.cells[i];
      cell.y = double(r);
      const bool after_caption =
          r < row_lengths.size() && i >= std::size_t(c) && d.cells[i - std::size_t(c)].role == CellRole::kCaption;
      if (cell.role == CellRole::kCaption) {
        cell.x = -0.5;
      } else if (after_caption) {
        cell.x = kCaptionWidth + double(c - 1);
      } else {
        cell.x = kCaptionWidth + double(c);
      }
    }
  }
}

std::pair<double, double> drawing_size(const Drawing& d, double cell) {
  if (d.as_text) return {0, 0};
  const Box b = bounds(d);
  return {(b.max_x - b.min_x) * cell + 2 * kPad, (b.max_y - b.min_y) * cell + 2 * kPad};
}

std::string drawing_svg(const Drawing& d, double cell) {
  if (d.as_text) {
    return "<pre class=\"notation\" data-position=\"" + xml_escape(d.notation) + "\">" + xml_escape(d.notation) +
           "</pre>";
  }
  const Box b = bounds(d);
  const auto [width, height] = drawing_size(d, cell);
  const auto cx = [&](const DrawnCell& c) { return kPad + (c.x - b.min_x) * cell; };
  const auto cy = [&](const DrawnCell& c) { return kPad + (c.y - b.min_y) * cell; };
  const bool graph = !d.edges.empty();
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" width=\"" + svg_number(width) +
                    "\" height=\"" + svg_number(height) + "\" viewBox=\"0 0 " + svg_number(width) + " " +
                    svg_number(height) + "\" data-position=\"" + xml_escape(d.notation) + "\">";
  for (const auto& [a, c] : d.edges) {
    if (std::size_t(a) >= d.cells.size() || std::size_t(c) >= d.cells.size()) continue;
    out += "<line x1=\"" + svg_number(cx(d.cells[std::size_t(a)])) + "\" y1=\"" +
           svg_number(cy(d.cells[std::size_t(a)])) + "\" x2=\"" + svg_number(cx(d.cells[std::size_t(c)])) + "\" y2=\"" +
           svg_number(cy(d.cells[std::size_t(c)])) + "\" stroke=\"#8c8c8c\" stroke-width=\"3\"/>";
  }
  // The board under the pieces: cells, walls, marks.
  for (std::size_t i = 0; i < d.cells.size(); ++i) {
    const DrawnCell& c = d.cells[i];
    const double x = cx(c), y = cy(c);
    if (c.role == CellRole::kCaption) {
      out += "<text x=\"" + svg_number(x) + "\" y=\"" + svg_number(y + cell * 0.14) + "\" font-size=\"" +
             svg_number(cell * 0.36) + "\" font-weight=\"bold\" data-cell=\"" + std::to_string(i) + "\" data-label=\"" +
             xml_escape(c.label) + "\">" + xml_escape(c.label) + "</text>";
      continue;
    }
    if (c.role == CellRole::kOrientation) {
      const bool twisted = !c.label.empty() && c.label != "0";
      out += "<g data-cell=\"" + std::to_string(i) + "\" data-label=\"" + xml_escape(c.label) + "\"><circle cx=\"" +
             svg_number(x) + "\" cy=\"" + svg_number(y) + "\" r=\"" + svg_number(cell * 0.27) + "\" fill=\"" +
             (twisted ? "#D55E00" : "#ffffff") + "\" stroke=\"#8c8c8c\"/><text x=\"" + svg_number(x) + "\" y=\"" +
             svg_number(y + cell * 0.12) + "\" font-size=\"" + svg_number(cell * 0.32) +
             "\" text-anchor=\"middle\" fill=\"" + (twisted ? "#ffffff" : "#404040") + "\">" + xml_escape(c.label) +
             "</text></g>";
      continue;
    }
    if (c.wall) {
      out += cell_outline(d.shape, x, y, cell,
                          "fill=\"#4d4d4d\" data-cell=\"" + std::to_string(i) + "\" data-label=\"#\"");
      continue;
    }
    const std::string place = "class=\"place\" data-cell=\"" + std::to_string(i) + "\"";
    if (graph) {
      out += "<circle cx=\"" + svg_number(x) + "\" cy=\"" + svg_number(y) + "\" r=\"" + svg_number(cell * 0.46) +
             "\" fill=\"#eeeeee\" stroke=\"#8c8c8c\" stroke-width=\"1.5\" " + place + "/>";
    } else {
      out += cell_outline(d.shape, x, y, cell - 1, "fill=\"#dddddd\" stroke=\"#b0b0b0\" " + place);
    }
    if (!c.mark.empty()) {
      out += "<circle cx=\"" + svg_number(x) + "\" cy=\"" + svg_number(y) + "\" r=\"" + svg_number(cell * 0.2) +
             "\" fill=\"none\" stroke=\"#CC79A7\" stroke-width=\"3\"><title>mark " + xml_escape(c.mark) +
             "</title></circle>";
    }
  }
  // Pieces: each cell inset, then bands across the gaps between neighbouring cells of
  // one piece, so that a piece over several cells reads as one shape.
  std::map<int, std::vector<std::size_t>> pieces;
  for (std::size_t i = 0; i < d.cells.size(); ++i) {
    if (d.cells[i].piece >= 0) pieces[d.cells[i].piece].push_back(i);
  }
  const double inset = cell * 0.08;
  for (const auto& [id, cells] : pieces) {
    const DrawnCell& first = d.cells[cells.front()];
    const std::string fill = colour_of(first.label);
    const bool round = cells.size() == 1 && (graph || !numeric(first.label));
    out +=
        "<g class=\"piece\" data-piece=\"" + std::to_string(id) + "\" data-label=\"" + xml_escape(first.label) + "\">";
    for (const auto i : cells) {
      const DrawnCell& c = d.cells[i];
      const std::string attributes = "fill=\"" + fill + "\" stroke=\"#303030\" stroke-width=\"1.2\" data-cell=\"" +
                                     std::to_string(i) + "\" data-label=\"" + xml_escape(c.label) + "\"";
      if (round) {
        out += "<circle cx=\"" + svg_number(cx(c)) + "\" cy=\"" + svg_number(cy(c)) + "\" r=\"" +
               svg_number(cell / 2 - inset) + "\" " + attributes + "/>";
      } else {
        out += cell_outline(d.shape, cx(c), cy(c), cell - 2 * inset, attributes);
      }
    }
    for (std::size_t a = 0; a < cells.size(); ++a) {
      for (std::size_t c = a + 1; c < cells.size(); ++c) {
        const DrawnCell& p = d.cells[cells[a]];
        const DrawnCell& q = d.cells[cells[c]];
        const double dx = p.x - q.x, dy = p.y - q.y;
        if (dx * dx + dy * dy > 1.01) continue;
        // A band as wide as the piece, from centre to centre, clicks through to the cell.
        const double w = cell - 2 * inset - 2.4;
        const double x0 = std::min(cx(p), cx(q)) - (dx == 0 ? w / 2 : 0);
        const double y0 = std::min(cy(p), cy(q)) - (dy == 0 ? w / 2 : 0);
        const double bw = dx == 0 ? w : std::abs(cx(p) - cx(q));
        const double bh = dy == 0 ? w : std::abs(cy(p) - cy(q));
        out += "<rect x=\"" + svg_number(x0) + "\" y=\"" + svg_number(y0) + "\" width=\"" + svg_number(bw) +
               "\" height=\"" + svg_number(bh) + "\" fill=\"" + fill + "\" data-cell=\"" + std::to_string(cells[a]) +
               "\"/>";
      }
    }
    double sx = 0, sy = 0;
    for (const auto i : cells) sx += cx(d.cells[i]), sy += cy(d.cells[i]);
    const double size = std::min(cell * 0.5, cell * 1.6 / double(std::max<std::size_t>(first.label.size(), 1)));
    out += "<text x=\"" + svg_number(sx / double(cells.size())) + "\" y=\"" +
           svg_number(sy / double(cells.size()) + size * 0.36) + "\" font-size=\"" + svg_number(size) +
           "\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#202020\" "
           "pointer-events=\"none\">" +
           xml_escape(first.label) + "</text></g>";
  }
  return out + "</svg>";
}

}  // namespace statespace::reports
