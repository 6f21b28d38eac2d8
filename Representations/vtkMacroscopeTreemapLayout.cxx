#include "vtkMacroscopeTreemapLayout.h"

#include "MacroscopeChart.h"
#include "MacroscopeTraceColumns.h"
#include "TimeAxis.h"
#include "Treemap.h"
#include "TreemapDrawing.h"
#include "TypeColorOverrides.h"
#include "TypePalette.h"

#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
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
constexpr const char* NoValueKey = "no value in this window";
constexpr const char* AggregateKey = "aggregate of several resources";

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
     << (this->Algorithm == SQUARIFIED          ? "squarified"
            : this->Algorithm == SLICE_AND_DICE ? "slice and dice"
                                                : "ordered squarified")
     << "\n";
  os << indent << "Margin: " << this->Margin << "\n";
  os << indent << "Header: " << this->Header << "\n";
  os << indent << "LabelFontSize: " << this->LabelFontSize << "\n";
}

// One call of Draw: the Treemap table as read, its layout and what is drawn.
struct vtkMacroscopeTreemapLayout::Run
{
  vtkTable* Table = nullptr;
  vtkPolyData** Outputs = nullptr;
  vtkDataArray* Parents = nullptr;
  vtkDataArray* Sizes = nullptr;
  vtkDataArray* Cuts = nullptr;
  vtkDataArray* Values = nullptr;
  vtkStringArray* Names = nullptr;
  vtkStringArray* Paths = nullptr;
  vtkDataArray* Depths = nullptr;
  vtkDataArray* Resources = nullptr;
  int Types = 0;
  bool Ordered = false;
  MacroscopeChart::TypeStyles Styles;
  MacroscopeChart::TextMeasure Measure;
  MacroscopeChart::Frame Frame;
  macroscope::TreemapLayout Layout;
  MacroscopeChart::Geometry Marks{ 4 };
  MacroscopeChart::Geometry Marking{ 4 };
  MacroscopeChart::Geometry Guides{ 4 };
  MacroscopeChart::Labels Labels;
  std::vector<double> TypeArea;
  bool AnyNoValue = false;
  bool AnyAggregate = false;
  vtkNew<vtkIntArray> RowIds = MacroscopeChart::NamedArray<vtkIntArray>("Row");
  vtkNew<vtkIdTypeArray> PickIds =
    MacroscopeChart::NamedArray<vtkIdTypeArray>("vtkOriginalCellIds");
  vtkNew<vtkStringArray> CellNames = MacroscopeChart::NamedArray<vtkStringArray>("Name");
  vtkNew<vtkStringArray> CellPaths = MacroscopeChart::NamedArray<vtkStringArray>("Path");
  vtkNew<vtkIntArray> CellTypes = MacroscopeChart::NamedArray<vtkIntArray>("Type");
  vtkNew<vtkStringArray> CellTypeNames = MacroscopeChart::NamedArray<vtkStringArray>("TypeName");
  vtkNew<vtkDoubleArray> CellValues = MacroscopeChart::NamedArray<vtkDoubleArray>("Value");
  vtkNew<vtkDoubleArray> CellShares = MacroscopeChart::NamedArray<vtkDoubleArray>("Share");

  explicit Run(int fontSize)
    : Measure(fontSize)
  {
  }
  // Annotates the mark just drawn for `row`.
  void AddCell(vtkIdType row, int type, const std::string& typeLabel, double value, double share)
  {
    this->RowIds->InsertNextValue(static_cast<int>(row));
    this->PickIds->InsertNextValue(row);
    this->CellNames->InsertNextValue(this->Names->GetValue(row));
    this->CellPaths->InsertNextValue(
      this->Paths ? this->Paths->GetValue(row) : this->Names->GetValue(row));
    this->CellTypes->InsertNextValue(type);
    this->CellTypeNames->InsertNextValue(typeLabel);
    this->CellValues->InsertNextValue(value);
    this->CellShares->InsertNextValue(share);
  }
  // Node names are measured as drawn: a name shows only where its
  // rectangle holds it.
  double TextWidth(const std::string& text) const
  {
    return this->Measure.Width(text, MacroscopeChart::NODE_LABEL);
  }
};

int vtkMacroscopeTreemapLayout::Draw(vtkTable* input, vtkPolyData* outputs[NUMBER_OF_OUTPUTS])
{
  if (!this->CheckProperties())
  {
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
  Run run(this->LabelFontSize);
  run.Table = input;
  run.Outputs = outputs;
  if (!this->ReadTable(run) || !this->Layout(run))
  {
    return 0;
  }
  this->UpdateProgress(0.4);
  // Marks: inner nodes as frames behind, nodes of the cut tiled by type.
  run.TypeArea.assign(static_cast<std::size_t>(run.Types), 0.0);
  for (vtkIdType row = 0; row < input->GetNumberOfRows(); ++row)
  {
    if (this->CheckAbort())
    {
      break;
    }
    this->DrawNode(run, row);
  }
  this->UpdateProgress(0.8);
  DrawTitle(run);
  DrawLegend(run);
  run.Marks.Into(outputs[MARKS]);
  for (vtkAbstractArray* array :
    std::initializer_list<vtkAbstractArray*>{ run.RowIds, run.PickIds, run.CellNames, run.CellPaths,
      run.CellTypes, run.CellTypeNames, run.CellValues, run.CellShares })
  {
    outputs[MARKS]->GetCellData()->AddArray(array);
  }
  run.Marking.Into(outputs[MARKING]);
  run.Guides.Into(outputs[GUIDES]);
  run.Labels.Fit(run.Measure, run.Frame); // no two labels overlap, all in the frame
  run.Labels.Into(outputs[LABELS]);
  this->UpdateProgress(1.0);
  return 1;
}

bool vtkMacroscopeTreemapLayout::CheckProperties()
{
  if (this->Algorithm != SQUARIFIED && this->Algorithm != SLICE_AND_DICE &&
    this->Algorithm != ORDERED_SQUARIFIED)
  {
    vtkErrorMacro("Algorithm must be 0 (squarified), 1 (slice and dice) or 2 (ordered "
                  "squarified), not "
      << this->Algorithm << ".");
    return false;
  }
  if (!std::isfinite(this->Margin) || !(this->Margin >= 0.0) || !std::isfinite(this->Header) ||
    !(this->Header >= 0.0))
  {
    vtkErrorMacro("Margin and Header must be finite numbers of pixels >= 0, not "
      << this->Margin << " and " << this->Header << ".");
    return false;
  }
  if (this->LabelFontSize < 1)
  {
    vtkErrorMacro("LabelFontSize must be at least 1 point, not " << this->LabelFontSize << ".");
    return false;
  }
  return true;
}

bool vtkMacroscopeTreemapLayout::ReadTable(Run& run)
{
  vtkTable* input = run.Table;
  run.Parents = vtkDataArray::SafeDownCast(input->GetColumnByName("Parent"));
  run.Sizes = vtkDataArray::SafeDownCast(input->GetColumnByName("Size"));
  run.Cuts = vtkDataArray::SafeDownCast(input->GetColumnByName("Cut"));
  run.Values = vtkDataArray::SafeDownCast(input->GetColumnByName("Values"));
  run.Names = vtkStringArray::SafeDownCast(input->GetColumnByName("Name"));
  run.Paths = vtkStringArray::SafeDownCast(input->GetColumnByName("Path"));
  run.Depths = vtkDataArray::SafeDownCast(input->GetColumnByName("Depth"));
  run.Resources = vtkDataArray::SafeDownCast(input->GetColumnByName("Resources"));
  if (!run.Parents || !run.Sizes || !run.Cuts || !run.Values || !run.Names || !run.Depths)
  {
    vtkErrorMacro("Treemap Layout needs the Treemap output of Resource Treemap: a table with "
                  "the columns Parent, Size, Cut, Values, Name and Depth (one of them is "
                  "missing).");
    return false;
  }
  // The types: names and colours from the model's description.
  run.Types = run.Values->GetNumberOfComponents();
  run.Styles = MacroscopeChart::ReadTypeStyles(
    input->GetFieldData(), run.Types, this->GetTypeColorOverrides());
  // An ordered treemap keeps every piece in place when sizes change: its
  // types too, in a node and in the legend.
  run.Ordered = this->Algorithm == ORDERED_SQUARIFIED;
  return true;
}

bool vtkMacroscopeTreemapLayout::Layout(Run& run)
{
  const vtkIdType rows = run.Table->GetNumberOfRows();
  const std::vector<int64_t> parent = MacroscopeColumnValues<int64_t>(run.Parents);
  const std::vector<double> size = MacroscopeColumnValues<double>(run.Sizes);
  // The frame (docs/labels.md): the title above, the legend of every type
  // and its key at the right; node names inside their rectangles.
  std::vector<std::string> keyNames = run.Styles.Names;
  keyNames.insert(keyNames.end(), { NoValueKey, AggregateKey });
  const double edge = 2.0 * MacroscopeChart::LabelGap;
  run.Frame = MacroscopeChart::FitFrame(this->ViewSize, edge,
    MacroscopeChart::LegendMarginFor(keyNames, run.Measure, this->ViewSize[0]), edge,
    run.Measure.Height(MacroscopeChart::AXIS_TITLE) + 3.0 * MacroscopeChart::LabelGap);
  macroscope::TreemapOptions options;
  options.Algorithm = this->Algorithm == SLICE_AND_DICE ? macroscope::TreemapAlgorithm::SliceAndDice
    : this->Algorithm == ORDERED_SQUARIFIED ? macroscope::TreemapAlgorithm::OrderedSquarified
                                            : macroscope::TreemapAlgorithm::Squarified;
  options.Margin = this->Margin;
  options.Header = this->Header;
  if (rows == 0)
  {
    return true;
  }
  try
  {
    run.Layout = macroscope::LayoutTree(
      parent, size, { 0.0, 0.0, run.Frame.Width, run.Frame.Height }, options);
  }
  catch (const std::invalid_argument& error)
  {
    vtkErrorMacro("Treemap Layout cannot lay this table out: " << error.what() << ".");
    return false;
  }
  return true;
}

void vtkMacroscopeTreemapLayout::DrawNode(Run& run, vtkIdType row)
{
  const macroscope::TreemapRect& rect = run.Layout.Rects[row];
  if (!(rect.Area() > 0.0))
  {
    return; // a zero size: nothing to draw
  }
  const std::string& name = run.Names->GetValue(row);
  // Outline: every node large enough for a line not to hide it.
  if (rect.Width() >= 3.0 && rect.Height() >= 3.0)
  {
    run.Guides.Line(rect.X0, rect.Y0, rect.X1, rect.Y0, 0.4, MarkingColor);
    run.Guides.Line(rect.X1, rect.Y0, rect.X1, rect.Y1, 0.4, MarkingColor);
    run.Guides.Line(rect.X1, rect.Y1, rect.X0, rect.Y1, 0.4, MarkingColor);
    run.Guides.Line(rect.X0, rect.Y1, rect.X0, rect.Y0, 0.4, MarkingColor);
  }
  const double lineHeight = run.Measure.Height(MacroscopeChart::NODE_LABEL);
  if (run.Cuts->GetComponent(row, 0) == 0.0)
  {
    // Deeper frames in front of shallower ones, all behind the cut.
    const int depth = static_cast<int>(run.Depths->GetComponent(row, 0));
    run.Marks.Quad(rect.X0, rect.Y0, rect.X1, rect.Y1, -0.5 + 0.001 * std::min(depth, 400),
      macroscope::TreemapFrameColor(depth));
    run.AddCell(row, -1, "", run.Sizes->GetComponent(row, 0), 1.0);
    const double header = std::min(this->Header, 0.25 * rect.Height());
    if (header >= lineHeight && rect.Width() >= run.TextWidth(name) + 2.0 * this->Margin + 2.0)
    {
      run.Labels.Add(
        rect.X0 + this->Margin + 1.0, rect.Y1 - 1.0, name, MacroscopeChart::NODE_LABEL);
    }
    return;
  }
  std::vector<double> values(static_cast<std::size_t>(run.Types));
  for (int u = 0; u < run.Types; ++u)
  {
    values[u] = run.Values->GetComponent(row, u);
  }
  std::vector<macroscope::TreemapRect> cells;
  const double total = macroscope::TileNodeByType(values, rect, run.Ordered, cells);
  if (!(total > 0.0))
  {
    run.AnyNoValue = true;
    run.Marks.Quad(rect.X0, rect.Y0, rect.X1, rect.Y1, 0.0, NoValueColor);
    run.AddCell(row, -1, "no value", 0.0, 0.0);
  }
  for (std::size_t u = 0; u < cells.size(); ++u)
  {
    const macroscope::TreemapRect& cell = cells[u];
    if (cell.Area() > 0.0)
    {
      run.Marks.Quad(cell.X0, cell.Y0, cell.X1, cell.Y1, 0.0, run.Styles.Colors[u]);
      run.AddCell(row, static_cast<int>(u), run.Styles.Names[u], values[u], values[u] / total);
      run.TypeArea[u] += cell.Area();
    }
  }
  if (run.Resources && run.Resources->GetComponent(row, 0) > 1.0)
  {
    run.AnyAggregate = true;
    run.Marking.Line(rect.X0, rect.Y0, rect.X1, rect.Y1, 0.2, MarkingColor);
  }
  if (rect.Height() >= lineHeight + 2.0 && rect.Width() >= run.TextWidth(name) + 4.0)
  {
    run.Labels.Add(rect.X0 + 2.0, rect.Y1 - 1.0, name, MacroscopeChart::NODE_LABEL);
  }
}

void vtkMacroscopeTreemapLayout::DrawTitle(Run& run)
{
  // What the areas measure, the window, the cut.
  vtkFieldData* fields = run.Table->GetFieldData();
  std::string title = "Area: " + FirstString(fields, "SizeBy");
  const std::string window =
    FormatWindow(vtkDataArray::SafeDownCast(fields->GetAbstractArray("TimeWindow")));
  if (!window.empty())
  {
    title += "   window " + window;
  }
  title += macroscope::TreemapCutText(FirstString(fields, "Constraint"),
    FirstNumber(fields, "Parameter", 0.0), static_cast<int>(FirstNumber(fields, "Level", -1.0)));
  const MacroscopeChart::Frame& frame = run.Frame;
  run.Labels.Add(0.5 * frame.Width, frame.Height + frame.Top - MacroscopeChart::LabelGap,
    run.Measure.Elide(title, MacroscopeChart::AXIS_TITLE, MacroscopeChart::TitleRoom(frame)),
    MacroscopeChart::AXIS_TITLE);
}

void vtkMacroscopeTreemapLayout::DrawLegend(Run& run)
{
  // The types drawn, largest area first (in the model's order when
  // ordered, so that it does not change between frames), then the marks.
  std::vector<MacroscopeChart::LegendEntry> entries;
  auto legendNames = MacroscopeChart::NamedArray<vtkStringArray>("LegendName");
  auto legendValues = MacroscopeChart::NamedArray<vtkDoubleArray>("LegendValue");
  for (int u : macroscope::TreemapLegendOrder(run.TypeArea, run.Ordered))
  {
    entries.push_back({ run.Styles.Names[u], run.Styles.Colors[u], 255 });
    legendNames->InsertNextValue(run.Styles.Names[u]);
    legendValues->InsertNextValue(run.TypeArea[u]);
  }
  if (run.AnyNoValue)
  {
    entries.push_back({ NoValueKey, NoValueColor, 255 });
  }
  const MacroscopeChart::Frame& frame = run.Frame;
  MacroscopeChart::Geometry legend(4);
  const double y = MacroscopeChart::DrawLegend(
    legend, run.Labels, entries, frame, run.Measure, LegendMaxTypes, run.AnyAggregate ? 1 : 0);
  if (run.AnyAggregate && MacroscopeChart::LegendRows(frame) >= 1)
  {
    const double x = MacroscopeChart::LegendSwatchX(frame.Width);
    const double swatch = MacroscopeChart::LegendSwatch;
    legend.Quad(x, y, x + swatch, y + swatch, 0.5, macroscope::TreemapFrameColor(3));
    run.Marking.Line(x, y, x + swatch, y + swatch, 0.6, MarkingColor);
    run.Labels.Add(MacroscopeChart::LegendTextX(frame.Width), y + 0.5 * swatch,
      run.Measure.Elide(
        AggregateKey, MacroscopeChart::LEGEND_LABEL, MacroscopeChart::LegendTextRoom(frame)),
      MacroscopeChart::LEGEND_LABEL);
  }
  legend.Into(run.Outputs[LEGEND]);
  run.Outputs[LEGEND]->GetFieldData()->AddArray(legendNames);
  run.Outputs[LEGEND]->GetFieldData()->AddArray(legendValues);
}
