#include "vtkMacroscopeTreemapLayout.h"

#include "MacroscopeChart.h"
#include "TimeAxis.h"
#include "Treemap.h"
#include "TypeColorOverrides.h"
#include "TypePalette.h"

#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkIntArray.h"
#include "vtkObjectFactory.h"
#include "vtkPolyData.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkUnsignedCharArray.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeTreemapLayout);

namespace
{
using MacroscopeChart::RGB;

constexpr RGB NoValueColor{ { 205, 205, 205 } }; // a node with a size but no value
constexpr RGB MarkingColor{ { 40, 40, 40 } };
constexpr std::size_t LegendMaxTypes = 24;
// Text extent per point of font size (a proportional sans font, averaged):
// enough to decide whether a name fits, not to place glyphs.
constexpr const char* NoValueKey = "no value in this window";
constexpr const char* AggregateKey = "aggregate of several resources";

// Frames get lighter with depth, so that nesting reads on any background.
RGB FrameColor(int depth)
{
  const auto shade = static_cast<unsigned char>(std::min(232, 110 + 28 * depth));
  return RGB{ { shade, shade, shade } };
}

std::string FormatWindow(vtkDataArray* window)
{
  if (!window || window->GetNumberOfComponents() != 2 || window->GetNumberOfTuples() < 1)
  {
    return std::string();
  }
  const double t0 = window->GetComponent(0, 0);
  const double t1 = window->GetComponent(0, 1);
  const double magnitude = std::max(std::abs(t0), std::abs(t1));
  const double step = (t1 - t0) / 1000.0;
  return macroscope::FormatSeconds(t0, step, magnitude) + " to " +
    macroscope::FormatSeconds(t1, step, magnitude);
}

std::string FirstString(vtkFieldData* fields, const char* name)
{
  auto* array = vtkStringArray::SafeDownCast(fields->GetAbstractArray(name));
  return array && array->GetNumberOfValues() > 0 ? array->GetValue(0) : std::string();
}

double FirstNumber(vtkFieldData* fields, const char* name, double fallback)
{
  auto* array = vtkDataArray::SafeDownCast(fields->GetAbstractArray(name));
  return array && array->GetNumberOfTuples() > 0 ? array->GetComponent(0, 0) : fallback;
}
}

vtkMacroscopeTreemapLayout::vtkMacroscopeTreemapLayout() = default;

vtkMacroscopeTreemapLayout::~vtkMacroscopeTreemapLayout() = default;

void vtkMacroscopeTreemapLayout::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Algorithm: "
     << (this->Algorithm == SQUARIFIED       ? "squarified"
            : this->Algorithm == SLICE_AND_DICE ? "slice and dice"
                                                : "ordered squarified")
     << "\n";
  os << indent << "Margin: " << this->Margin << "\n";
  os << indent << "Header: " << this->Header << "\n";
  os << indent << "LabelFontSize: " << this->LabelFontSize << "\n";
}

int vtkMacroscopeTreemapLayout::Draw(vtkTable* input, vtkPolyData* outputs[NUMBER_OF_OUTPUTS])
{
  if (this->Algorithm != SQUARIFIED && this->Algorithm != SLICE_AND_DICE &&
    this->Algorithm != ORDERED_SQUARIFIED)
  {
    vtkErrorMacro("Algorithm must be 0 (squarified), 1 (slice and dice) or 2 (ordered "
                  "squarified), not "
      << this->Algorithm << ".");
    return 0;
  }
  if (!std::isfinite(this->Margin) || !(this->Margin >= 0.0) || !std::isfinite(this->Header) ||
    !(this->Header >= 0.0))
  {
    vtkErrorMacro("Margin and Header must be finite numbers of pixels >= 0, not "
      << this->Margin << " and " << this->Header << ".");
    return 0;
  }
  if (this->LabelFontSize < 1)
  {
    vtkErrorMacro("LabelFontSize must be at least 1 point, not " << this->LabelFontSize << ".");
    return 0;
  }
  if (!input)
  {
    vtkErrorMacro("Treemap Layout needs a table: the Treemap output of Resource Treemap.");
    return 0;
  }
  if (input->GetNumberOfColumns() == 0 && input->GetNumberOfRows() == 0)
  {
    // Under MPI the treemap filter fills piece 0 only: nothing to draw here.
    this->UpdateProgress(1.0);
    return 1;
  }
  auto* parents = vtkDataArray::SafeDownCast(input->GetColumnByName("Parent"));
  auto* sizes = vtkDataArray::SafeDownCast(input->GetColumnByName("Size"));
  auto* cuts = vtkDataArray::SafeDownCast(input->GetColumnByName("Cut"));
  auto* values = vtkDataArray::SafeDownCast(input->GetColumnByName("Values"));
  auto* names = vtkStringArray::SafeDownCast(input->GetColumnByName("Name"));
  auto* paths = vtkStringArray::SafeDownCast(input->GetColumnByName("Path"));
  auto* depths = vtkDataArray::SafeDownCast(input->GetColumnByName("Depth"));
  auto* resources = vtkDataArray::SafeDownCast(input->GetColumnByName("Resources"));
  if (!parents || !sizes || !cuts || !values || !names || !depths)
  {
    vtkErrorMacro("Treemap Layout needs the Treemap output of Resource Treemap: a table with "
                  "the columns Parent, Size, Cut, Values, Name and Depth (one of them is "
                  "missing).");
    return 0;
  }

  // The types: names and colours from the model's description.
  vtkFieldData* fields = input->GetFieldData();
  const int types = values->GetNumberOfComponents();
  const MacroscopeChart::TypeStyles styles =
    MacroscopeChart::ReadTypeStyles(fields, types, this->GetTypeColorOverrides());
  const std::vector<std::string>& typeName = styles.Names;
  const std::vector<RGB>& typeColor = styles.Colors;

  // The nested layout of the rows.
  const vtkIdType rows = input->GetNumberOfRows();
  std::vector<int64_t> parent(static_cast<std::size_t>(rows));
  std::vector<double> size(static_cast<std::size_t>(rows));
  for (vtkIdType row = 0; row < rows; ++row)
  {
    parent[row] = static_cast<int64_t>(parents->GetComponent(row, 0));
    size[row] = sizes->GetComponent(row, 0);
  }
  // The frame (docs/labels.md): the title above, the legend of every type
  // and its key at the right; node names inside their rectangles.
  const MacroscopeChart::TextMeasure measure(this->LabelFontSize);
  std::vector<std::string> keyNames = typeName;
  keyNames.insert(keyNames.end(), { NoValueKey, AggregateKey });
  const double edge = 2.0 * MacroscopeChart::LabelGap;
  const MacroscopeChart::Frame frame = MacroscopeChart::FitFrame(this->ViewSize, edge,
    MacroscopeChart::LegendMarginFor(keyNames, measure, this->ViewSize[0]), edge,
    measure.Height(MacroscopeChart::AXIS_TITLE) + 3.0 * MacroscopeChart::LabelGap);
  const double width = frame.Width;
  const double height = frame.Height;
  macroscope::TreemapOptions options;
  options.Algorithm = this->Algorithm == SLICE_AND_DICE ? macroscope::TreemapAlgorithm::SliceAndDice
    : this->Algorithm == ORDERED_SQUARIFIED            ? macroscope::TreemapAlgorithm::OrderedSquarified
                                                       : macroscope::TreemapAlgorithm::Squarified;
  // An ordered treemap keeps every piece in place when sizes change: its
  // types too, in a node and in the legend.
  const bool ordered = this->Algorithm == ORDERED_SQUARIFIED;
  options.Margin = this->Margin;
  options.Header = this->Header;
  macroscope::TreemapLayout layout;
  if (rows > 0)
  {
    try
    {
      layout = macroscope::LayoutTree(parent, size, { 0.0, 0.0, width, height }, options);
    }
    catch (const std::invalid_argument& error)
    {
      vtkErrorMacro("Treemap Layout cannot lay this table out: " << error.what() << ".");
      return 0;
    }
  }
  this->UpdateProgress(0.4);

  // Marks: inner nodes as frames behind, nodes of the cut tiled by type.
  MacroscopeChart::Geometry marks(4);
  MacroscopeChart::Geometry marking(4);
  MacroscopeChart::Geometry guides(4);
  MacroscopeChart::Labels labels;
  auto rowIds = MacroscopeChart::NamedArray<vtkIntArray>("Row", rows);
  auto pickIds = MacroscopeChart::NamedArray<vtkIdTypeArray>("vtkOriginalCellIds", rows);
  auto cellNames = MacroscopeChart::NamedArray<vtkStringArray>("Name", rows);
  auto cellPaths = MacroscopeChart::NamedArray<vtkStringArray>("Path", rows);
  auto cellTypes = MacroscopeChart::NamedArray<vtkIntArray>("Type", rows);
  auto cellTypeNames = MacroscopeChart::NamedArray<vtkStringArray>("TypeName", rows);
  auto cellValues = MacroscopeChart::NamedArray<vtkDoubleArray>("Value", rows);
  auto cellShares = MacroscopeChart::NamedArray<vtkDoubleArray>("Share", rows);
  auto addCell = [&](vtkIdType row, int type, const std::string& typeLabel, double value,
                   double share) {
    rowIds->InsertNextValue(static_cast<int>(row));
    pickIds->InsertNextValue(row);
    cellNames->InsertNextValue(names->GetValue(row));
    cellPaths->InsertNextValue(paths ? paths->GetValue(row) : names->GetValue(row));
    cellTypes->InsertNextValue(type);
    cellTypeNames->InsertNextValue(typeLabel);
    cellValues->InsertNextValue(value);
    cellShares->InsertNextValue(share);
  };
  // Node names are measured as drawn: a name shows only where its
  // rectangle holds it.
  const double lineHeight = measure.Height(MacroscopeChart::NODE_LABEL);
  auto textWidth = [&](const std::string& text) {
    return measure.Width(text, MacroscopeChart::NODE_LABEL);
  };
  std::vector<double> typeArea(static_cast<std::size_t>(types), 0.0);
  bool anyNoValue = false;
  bool anyAggregate = false;
  std::vector<double> nodeValues(static_cast<std::size_t>(types));
  for (vtkIdType row = 0; row < rows; ++row)
  {
    if (this->CheckAbort())
    {
      break;
    }
    const macroscope::TreemapRect& rect = layout.Rects[row];
    if (!(rect.Area() > 0.0))
    {
      continue; // a zero size: nothing to draw
    }
    const int depth = static_cast<int>(depths->GetComponent(row, 0));
    const std::string& name = names->GetValue(row);
    const bool cut = cuts->GetComponent(row, 0) != 0.0;
    // Outline: every node large enough for a line not to hide it.
    if (rect.Width() >= 3.0 && rect.Height() >= 3.0)
    {
      guides.Line(rect.X0, rect.Y0, rect.X1, rect.Y0, 0.4, MarkingColor);
      guides.Line(rect.X1, rect.Y0, rect.X1, rect.Y1, 0.4, MarkingColor);
      guides.Line(rect.X1, rect.Y1, rect.X0, rect.Y1, 0.4, MarkingColor);
      guides.Line(rect.X0, rect.Y1, rect.X0, rect.Y0, 0.4, MarkingColor);
    }
    if (!cut)
    {
      // Deeper frames in front of shallower ones, all behind the cut.
      marks.Quad(rect.X0, rect.Y0, rect.X1, rect.Y1, -0.5 + 0.001 * std::min(depth, 400),
        FrameColor(depth));
      addCell(row, -1, "", sizes->GetComponent(row, 0), 1.0);
      const double header = std::min(this->Header, 0.25 * rect.Height());
      if (header >= lineHeight && rect.Width() >= textWidth(name) + 2.0 * this->Margin + 2.0)
      {
        labels.Add(rect.X0 + this->Margin + 1.0, rect.Y1 - 1.0, name, MacroscopeChart::NODE_LABEL);
      }
      continue;
    }
    double total = 0.0;
    for (int u = 0; u < types; ++u)
    {
      nodeValues[u] = std::max(0.0, values->GetComponent(row, u));
      total += nodeValues[u];
    }
    if (!(total > 0.0))
    {
      anyNoValue = true;
      marks.Quad(rect.X0, rect.Y0, rect.X1, rect.Y1, 0.0, NoValueColor);
      addCell(row, -1, "no value", 0.0, 0.0);
    }
    else
    {
      // The types tile the node: an aggregate shows all its resources' shares.
      const std::vector<macroscope::TreemapRect> cells =
        macroscope::LayoutRectangles(nodeValues, rect,
          ordered ? macroscope::TreemapAlgorithm::OrderedSquarified
                  : macroscope::TreemapAlgorithm::Squarified);
      for (int u = 0; u < types; ++u)
      {
        const macroscope::TreemapRect& cell = cells[u];
        if (!(cell.Area() > 0.0))
        {
          continue;
        }
        marks.Quad(cell.X0, cell.Y0, cell.X1, cell.Y1, 0.0, typeColor[u]);
        addCell(row, u, typeName[u], nodeValues[u], nodeValues[u] / total);
        typeArea[u] += cell.Area();
      }
    }
    if (resources && resources->GetComponent(row, 0) > 1.0)
    {
      anyAggregate = true;
      marking.Line(rect.X0, rect.Y0, rect.X1, rect.Y1, 0.2, MarkingColor);
    }
    if (rect.Height() >= lineHeight + 2.0 && rect.Width() >= textWidth(name) + 4.0)
    {
      labels.Add(rect.X0 + 2.0, rect.Y1 - 1.0, name, MacroscopeChart::NODE_LABEL);
    }
  }
  this->UpdateProgress(0.8);

  // The title: what the areas measure, the window, the cut.
  std::string title = "Area: " + FirstString(fields, "SizeBy");
  const std::string window = FormatWindow(vtkDataArray::SafeDownCast(fields->GetAbstractArray("TimeWindow")));
  if (!window.empty())
  {
    title += "   window " + window;
  }
  const std::string constraint = FirstString(fields, "Constraint");
  char cutText[96] = "";
  if (constraint == "spatial")
  {
    std::snprintf(cutText, sizeof(cutText), "   optimal cut, p = %.3g",
      FirstNumber(fields, "Parameter", 0.0));
  }
  else if (constraint == "level")
  {
    const int level = static_cast<int>(FirstNumber(fields, "Level", -1.0));
    if (level < 0)
    {
      std::snprintf(cutText, sizeof(cutText), "   every resource");
    }
    else
    {
      std::snprintf(cutText, sizeof(cutText), "   level %d", level);
    }
  }
  labels.Add(0.5 * width, height + frame.Top - MacroscopeChart::LabelGap,
    measure.Elide(title + cutText, MacroscopeChart::AXIS_TITLE,
      MacroscopeChart::TitleRoom(frame)),
    MacroscopeChart::AXIS_TITLE);

  // The legend: the types drawn, largest area first (in the model's order
  // when ordered, so that it does not change between frames), then the marks.
  std::vector<int> order(static_cast<std::size_t>(types));
  std::iota(order.begin(), order.end(), 0);
  if (!ordered)
  {
    std::stable_sort(
      order.begin(), order.end(), [&](int a, int b) { return typeArea[a] > typeArea[b]; });
  }
  std::vector<MacroscopeChart::LegendEntry> entries;
  auto legendNames = MacroscopeChart::NamedArray<vtkStringArray>("LegendName");
  auto legendValues = MacroscopeChart::NamedArray<vtkDoubleArray>("LegendValue");
  for (int u : order)
  {
    if (typeArea[u] > 0.0)
    {
      entries.push_back({ typeName[u], typeColor[u], 255 });
      legendNames->InsertNextValue(typeName[u]);
      legendValues->InsertNextValue(typeArea[u]);
    }
  }
  if (anyNoValue)
  {
    entries.push_back({ NoValueKey, NoValueColor, 255 });
  }
  MacroscopeChart::Geometry legend(4);
  double y = MacroscopeChart::DrawLegend(
    legend, labels, entries, frame, measure, LegendMaxTypes, anyAggregate ? 1 : 0);
  if (anyAggregate && MacroscopeChart::LegendRows(frame) >= 1)
  {
    const double x = MacroscopeChart::LegendSwatchX(width);
    const double swatch = MacroscopeChart::LegendSwatch;
    legend.Quad(x, y, x + swatch, y + swatch, 0.5, FrameColor(3));
    marking.Line(x, y, x + swatch, y + swatch, 0.6, MarkingColor);
    labels.Add(MacroscopeChart::LegendTextX(width), y + 0.5 * swatch,
      measure.Elide(AggregateKey, MacroscopeChart::LEGEND_LABEL,
        MacroscopeChart::LegendTextRoom(frame)),
      MacroscopeChart::LEGEND_LABEL);
  }

  marks.Into(outputs[MARKS]);
  for (vtkAbstractArray* array : std::initializer_list<vtkAbstractArray*>{ rowIds, pickIds,
         cellNames, cellPaths, cellTypes, cellTypeNames, cellValues, cellShares })
  {
    outputs[MARKS]->GetCellData()->AddArray(array);
  }
  marking.Into(outputs[MARKING]);
  guides.Into(outputs[GUIDES]);
  labels.Fit(measure, frame); // no two labels overlap, all in the frame
  labels.Into(outputs[LABELS]);
  legend.Into(outputs[LEGEND]);
  outputs[LEGEND]->GetFieldData()->AddArray(legendNames);
  outputs[LEGEND]->GetFieldData()->AddArray(legendValues);
  this->UpdateProgress(1.0);
  return 1;
}
