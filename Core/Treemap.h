// Treemap layouts of a weighted tree (Schnorr 2009 (Triva), sections 4.4 and 5.5): the
// squarified layout of Bruls, Huizing and van Wijk, and the original
// slice-and-dice layout it improves on, nested with margins that show the
// hierarchy. Triva draws the resource hierarchy this way, each node's area
// given by a metric of a time window.
#pragma once

#include <cstdint>
#include <vector>

namespace macroscope
{

/// An axis-aligned rectangle [X0, X1] x [Y0, Y1] (X0 <= X1, Y0 <= Y1).
struct TreemapRect
{
  double X0 = 0.0;
  double Y0 = 0.0;
  double X1 = 0.0;
  double Y1 = 0.0;

  double Width() const { return this->X1 - this->X0; }
  double Height() const { return this->Y1 - this->Y0; }
  double Area() const { return this->Width() * this->Height(); }
  /// max(w / h, h / w); 1 for a square, +inf for a degenerate rectangle.
  double AspectRatio() const;
  /// Whether `inner` lies in this rectangle, borders included, up to
  /// `tolerance`.
  bool Contains(const TreemapRect& inner, double tolerance = 0.0) const;
};

enum class TreemapAlgorithm
{
  Squarified,   ///< rows of near-square rectangles, largest first (Bruls et al.)
  SliceAndDice, ///< parallel strips, alternating direction with depth (Shneiderman)
  /// Bruls et al.'s rows filled in the order of the values rather than
  /// largest first (the idea of the order-preserving layouts of Bederson,
  /// Shneiderman and Wattenberg, "Ordered and quantum treemaps", 2002): a
  /// node keeps its place when sizes change, as Triva's animations need;
  /// the rectangles are a little less square.
  OrderedSquarified
};

/// Tiles `bounds` with one rectangle per value, in the order of `values`:
/// rectangle i has area bounds.Area() * values[i] / sum(values), and the
/// non-empty rectangles cover `bounds` without overlapping. A zero value
/// gets an empty rectangle (zero width or height) inside `bounds`; when all
/// values are zero every rectangle is empty. Slice-and-dice cuts `bounds`
/// into strips along x when `alongX`, along y otherwise; squarified ignores
/// `alongX`. Throws std::invalid_argument on a negative, NaN or infinite
/// value, or on bounds that are not finite with X0 <= X1 and Y0 <= Y1.
/// Every layout starts at the top-left corner (low x, high y): squarified
/// puts the largest value there, ordered squarified and slice-and-dice the
/// first one; the squarified layouts give zero values the empty rectangle
/// at the bottom-right corner.
std::vector<TreemapRect> LayoutRectangles(const std::vector<double>& values,
  const TreemapRect& bounds, TreemapAlgorithm algorithm, bool alongX = true);

struct TreemapOptions
{
  TreemapAlgorithm Algorithm = TreemapAlgorithm::Squarified;
  /// Space kept free inside every inner node on each side before its
  /// children are laid out, in the units of the bounds: the nesting that
  /// shows the hierarchy. A node too small for its margins keeps at most a
  /// quarter of its width and height as margins.
  double Margin = 0.0;
  /// Extra space kept free at the top (high y) of every inner node, for its
  /// label; limited like the margin, to a quarter of its height.
  double Header = 0.0;
};

/// The nested layout of a tree.
struct TreemapLayout
{
  std::vector<TreemapRect> Rects; ///< per node
  std::vector<double> Size;       ///< per node: a leaf's size, an inner node's sum
  std::vector<int> Depth;         ///< per node: 0 for the root
};

/// Lays out the tree given by `parent` (parent[n] is n's parent, -1 for the
/// one root; any node order; children are laid out in index order among
/// equal sizes) in `bounds`. `size[n]` is the size of leaf n (>= 0, finite);
/// an inner node's size is the sum of its children's (the value given for
/// it is ignored). The root fills `bounds`; each inner node's children tile
/// its rectangle minus the margins and header, with areas proportional to
/// their sizes. Throws std::invalid_argument on a malformed tree (no root
/// or several, a cycle, a parent out of range), a bad size, bad bounds or a
/// negative or non-finite margin or header. An empty tree gives an empty
/// layout. Linear in the nodes apart from sorting each node's children.
TreemapLayout LayoutTree(const std::vector<int64_t>& parent, const std::vector<double>& size,
  const TreemapRect& bounds, const TreemapOptions& options = {});

/// Mean of AspectRatio() over the rectangles with a positive area (0 when
/// there are none): the measure by which squarified beats slice-and-dice.
double MeanAspectRatio(const std::vector<TreemapRect>& rects);

}
