#include "reports/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "reports/escape.hpp"
#include "reports/tables.hpp"

namespace statespace::reports {

namespace {

constexpr const char* kFont = "DejaVu Sans, Helvetica, Arial, sans-serif";

// Okabe & Ito's palette, distinguishable with the common colour-vision deficiencies;
// dash patterns keep curves apart in grey print too.
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#000000", "#999999"};
constexpr const char* kDashes[] = {"", "7 3", "2 2", "9 3 2 3", "4 4", "12 3", "1 3", "6 2 1 2"};

std::string text(double x, double y, const std::string& s, const std::string& attributes) {
  return "<text x=\"" + svg_number(x) + "\" y=\"" + svg_number(y) + "\" " + attributes + ">" + xml_escape(s) +
         "</text>\n";
}

std::string line(double x1, double y1, double x2, double y2, const std::string& attributes) {
  return "<line x1=\"" + svg_number(x1) + "\" y1=\"" + svg_number(y1) + "\" x2=\"" + svg_number(x2) + "\" y2=\"" +
         svg_number(y2) + "\" " + attributes + "/>\n";
}

std::string header(double width, double height) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + svg_number(width) + "\" height=\"" +
         svg_number(height) + "\" viewBox=\"0 0 " + svg_number(width) + " " + svg_number(height) + "\" font-family=\"" +
         kFont + "\">\n" + "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
}

// 1, 2 or 5 times a power of ten, so that [0, span] gets at most `most` steps.
double nice_step(double span, int most) {
  for (double power = 1;; power *= 10) {
    for (double m : {1.0, 2.0, 5.0}) {
      if (span / (m * power) <= most) return m * power;
    }
  }
}

// 1, 10, 100, 1k, ..., 1M, ... for log axes.
std::string power_label(int exponent) {
  static const char* suffix[] = {"", "k", "M", "G", "T", "P"};
  const int group = std::min(exponent / 3, 5);
  return std::to_string(int(std::pow(10, exponent - 3 * group) + 0.5)) + suffix[group];
}

}  // namespace

std::string svg_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", std::abs(v) < 0.05 ? 0.0 : v);
  std::string s = buf;
  if (s.ends_with(".0")) s.resize(s.size() - 2);
  return s;
}

std::string distribution_svg(const std::string& title, const std::vector<Curve>& curves, bool log_scale) {
  constexpr double kWidth = 720, kHeight = 420, kLeft = 78, kRight = 550, kTop = 44, kBottom = 356;
  std::size_t depths = 1;
  std::uint64_t most = 1;
  for (const auto& c : curves) {
    depths = std::max(depths, c.counts.size());
    for (auto n : c.counts) most = std::max(most, n);
  }
  const double x_max = double(depths - 1 > 0 ? depths - 1 : 1);
  const int decades = std::max(1, int(std::ceil(std::log10(double(most)) - 1e-9)));
  const double y_step = log_scale ? 1 : nice_step(double(most), 8);
  const double y_max = log_scale ? decades : std::ceil(double(most) / y_step) * y_step;
  const auto px = [&](double depth) { return kLeft + (kRight - kLeft) * depth / x_max; };
  const auto py = [&](double count) {
    const double v = log_scale ? std::log10(std::max(count, 1.0)) : count;
    return kBottom - (kBottom - kTop) * v / y_max;
  };

  std::string out = header(kWidth, kHeight);
  out += text((kLeft + kRight) / 2, 24, title, "font-size=\"16\" font-weight=\"bold\" text-anchor=\"middle\"");
  // Grid and ticks.
  const double x_step = nice_step(x_max, 12);
  for (double d = 0; d <= x_max + 1e-9; d += x_step) {
    out += line(px(d), kTop, px(d), kBottom, "stroke=\"#e4e4e4\"");
    out += line(px(d), kBottom, px(d), kBottom + 5, "stroke=\"#000000\"");
    out += text(px(d), kBottom + 19, svg_number(d), "font-size=\"12\" text-anchor=\"middle\"");
  }
  const int label_every = log_scale && decades > 8 ? 2 : 1;
  for (int i = 0; i * y_step <= y_max + 1e-9; ++i) {
    const double y = kBottom - (kBottom - kTop) * (i * y_step) / y_max;
    out += line(kLeft, y, kRight, y, "stroke=\"#e4e4e4\"");
    out += line(kLeft - 5, y, kLeft, y, "stroke=\"#000000\"");
    if (i % label_every == 0) {
      const std::string label = log_scale ? power_label(i) : with_commas(std::uint64_t(i * y_step));
      out += text(kLeft - 8, y + 4, label, "font-size=\"12\" text-anchor=\"end\"");
    }
  }
  out += "<rect x=\"" + svg_number(kLeft) + "\" y=\"" + svg_number(kTop) + "\" width=\"" + svg_number(kRight - kLeft) +
         "\" height=\"" + svg_number(kBottom - kTop) + "\" fill=\"none\" stroke=\"#000000\"/>\n";
  out += text((kLeft + kRight) / 2, kBottom + 42, "depth (moves from the start)",
              "font-size=\"14\" text-anchor=\"middle\"");
  out += "<text transform=\"translate(20 " + svg_number((kTop + kBottom) / 2) +
         ") rotate(-90)\" font-size=\"14\" text-anchor=\"middle\">" +
         (log_scale ? "positions at that depth (log scale)" : "positions at that depth") + "</text>\n";

  // Curves, with markers while they stay apart.
  for (std::size_t i = 0; i < curves.size(); ++i) {
    const std::string colour = kColours[i % std::size(kColours)];
    const std::string dash = kDashes[i % std::size(kDashes)];
    std::string points;
    for (std::size_t d = 0; d < curves[i].counts.size(); ++d) {
      if (d) points += ' ';
      points.append(svg_number(px(double(d)))).append(",").append(svg_number(py(double(curves[i].counts[d]))));
    }
    out += "<polyline points=\"" + points + "\" fill=\"none\" stroke=\"" + colour +
           "\" stroke-width=\"2\" stroke-linejoin=\"round\"" +
           (dash.empty() ? std::string() : " stroke-dasharray=\"" + dash + "\"") + "/>\n";
    if (depths <= 60) {
      for (std::size_t d = 0; d < curves[i].counts.size(); ++d) {
        out += "<circle cx=\"" + svg_number(px(double(d))) + "\" cy=\"" + svg_number(py(double(curves[i].counts[d]))) +
               "\" r=\"2.5\" fill=\"" + colour + "\"/>\n";
      }
    }
  }
  // Legend beside the plot, where no curve can hide it.
  for (std::size_t i = 0; i < curves.size(); ++i) {
    const double y = kTop + 10 + 22 * double(i);
    const std::string colour = kColours[i % std::size(kColours)];
    const std::string dash = kDashes[i % std::size(kDashes)];
    out += line(kRight + 18, y, kRight + 48, y,
                "stroke=\"" + colour + "\" stroke-width=\"2\"" +
                    (dash.empty() ? std::string() : " stroke-dasharray=\"" + dash + "\""));
    out += text(kRight + 56, y + 4, curves[i].name, "font-size=\"13\"");
  }
  return out + "</svg>\n";
}

std::string boards_svg(const std::string& title, const BoardGeometry& geometry,
                       const std::vector<BoardPicture>& boards) {
  constexpr double kCell = 34, kInset = 2.5, kGap = 22, kPad = 6, kCaption = 16, kTitle = 34, kMaxWidth = 640;
  const bool hex = geometry.shape == CellShape::kHexagon;
  const double half_height = hex ? 1 / std::sqrt(3.0) : 0.5;  // pointy-top hexagon of unit width
  double min_x = 0, max_x = 0, min_y = 0, max_y = 0;
  for (std::size_t i = 0; i < geometry.cells.size(); ++i) {
    const auto& c = geometry.cells[i];
    min_x = i ? std::min(min_x, c.x) : c.x;
    max_x = i ? std::max(max_x, c.x) : c.x;
    min_y = i ? std::min(min_y, c.y) : c.y;
    max_y = i ? std::max(max_y, c.y) : c.y;
  }
  const double board_w = (max_x - min_x + 1) * kCell + 2 * kPad;
  const double board_h = (max_y - min_y + 2 * half_height) * kCell + 2 * kPad;
  const std::size_t columns = std::clamp<std::size_t>(std::size_t((kMaxWidth + kGap) / (board_w + kGap)), 1,
                                                      std::max<std::size_t>(boards.size(), 1));
  const std::size_t rows = (boards.size() + columns - 1) / columns;
  // Wide enough for the title too (bold 15 px DejaVu Sans averages under 9.5 px a character).
  const double width = std::max(double(columns) * (board_w + kGap) - kGap + 2 * kPad, 9.5 * double(title.size()) + 20);
  const double height = kTitle + double(rows) * (board_h + kCaption + kGap) - kGap + kPad;

  // The outline of one cell (inset by `inset` pixels) centred at (cx, cy).
  const auto shape = [&](double cx, double cy, double inset, const std::string& attributes) {
    if (!hex) {
      const double s = kCell - 2 * inset;
      return "<rect x=\"" + svg_number(cx - s / 2) + "\" y=\"" + svg_number(cy - s / 2) + "\" width=\"" +
             svg_number(s) + "\" height=\"" + svg_number(s) + "\" rx=\"3\" " + attributes + "/>\n";
    }
    const double radius = (kCell - 2 * inset) / std::sqrt(3.0);
    std::string points;
    for (int k = 0; k < 6; ++k) {
      const double a = (60.0 * k - 90) * 3.14159265358979323846 / 180;
      if (k) points += ' ';
      points.append(svg_number(cx + radius * std::cos(a))).append(",").append(svg_number(cy + radius * std::sin(a)));
    }
    return "<polygon points=\"" + points + "\" " + attributes + "/>\n";
  };

  std::string out = header(width, height);
  out += text(width / 2, 22, title, "font-size=\"15\" font-weight=\"bold\" text-anchor=\"middle\"");
  const double x0 = (width - (double(columns) * (board_w + kGap) - kGap)) / 2;
  for (std::size_t b = 0; b < boards.size(); ++b) {
    const BoardPicture& board = boards[b];
    const double left = x0 + double(b % columns) * (board_w + kGap);
    const double top = kTitle + double(b / columns) * (board_h + kCaption + kGap);
    const auto cx = [&](std::size_t i) { return left + kPad + (geometry.cells[i].x - min_x + 0.5) * kCell; };
    const auto cy = [&](std::size_t i) { return top + kPad + (geometry.cells[i].y - min_y + half_height) * kCell; };
    out += "<g>\n";
    for (std::size_t i = 0; i < geometry.cells.size(); ++i) {
      out += shape(cx(i), cy(i), 0.5, "fill=\"#d9d9d9\" stroke=\"#8c8c8c\"");
    }
    // Pieces: every cell inset, then a band between neighbouring cells of one piece
    // that covers the gap, so a piece over several cells reads as one shape.
    std::map<int, std::vector<std::size_t>> pieces;
    for (std::size_t i = 0; i < geometry.cells.size() && i < board.pieces.size(); ++i) {
      if (board.pieces[i] >= 0) pieces[board.pieces[i]].push_back(i);
    }
    for (const auto& [id, cells] : pieces) {
      const bool big = cells.size() > 1;
      const std::string fill = big ? "#9ecae1" : "#fdd58c", stroke = big ? "#2b5d8a" : "#8a5a00";
      for (auto i : cells) out += shape(cx(i), cy(i), kInset, "fill=\"" + fill + "\" stroke=\"" + stroke + "\"");
      for (std::size_t a = 0; a < cells.size(); ++a) {
        for (std::size_t c = a + 1; c < cells.size(); ++c) {
          const double dx = geometry.cells[cells[a]].x - geometry.cells[cells[c]].x;
          const double dy = geometry.cells[cells[a]].y - geometry.cells[cells[c]].y;
          if (dx * dx + dy * dy > 1.01) continue;
          out += line(cx(cells[a]), cy(cells[a]), cx(cells[c]), cy(cells[c]),
                      "stroke=\"" + fill + "\" stroke-width=\"" + svg_number(kCell - 2 * kInset - 2) + "\"");
        }
      }
      double sx = 0, sy = 0;
      for (auto i : cells) sx += cx(i), sy += cy(i);
      const std::string label = cells.front() < board.labels.size() ? board.labels[cells.front()] : "";
      out += text(sx / double(cells.size()), sy / double(cells.size()) + 5.5, label,
                  "font-size=\"16\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#202020\"");
    }
    out += text(left + board_w / 2, top + board_h + 12, board.caption, "font-size=\"11\" text-anchor=\"middle\"");
    out += "</g>\n";
  }
  return out + "</svg>\n";
}

}  // namespace statespace::reports
