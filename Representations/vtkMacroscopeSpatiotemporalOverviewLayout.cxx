#include "vtkMacroscopeSpatiotemporalOverviewLayout.h"

#include "Aggregation.h"
#include "DivergingScale.h"
#include "MacroscopeChart.h"
#include "MacroscopeOverviewMarkArrays.h"
#include "MacroscopeTraceColumns.h"
#include "SpatiotemporalOverview.h"
#include "SpatiotemporalOverviewDrawing.h"
#include "TemporalOverview.h"
#include "TimelineDrawing.h" // TypesByTime
#include "TypeColorOverrides.h"
#include "TypePalette.h"

#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPolyData.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTypeInt64Array.h"
#include "vtkUnsignedCharArray.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeSpatiotemporalOverviewLayout);

namespace
{
using MacroscopeChart::Geometry;
using MacroscopeChart::NamedArray;
using RGB = macroscope::RGB;

constexpr RGB BorderColor{ { 150, 150, 150 } };
constexpr RGB AggregateMarkColor{ { 20, 20, 20 } };
constexpr RGB FrameColor{ { 150, 150, 150 } };
constexpr RGB TickColor{ { 60, 60, 60 } };
constexpr RGB LegendBackground{ { 200, 200, 200 } };
constexpr unsigned char BorderAlpha = 255; // opaque: see the marks' colour
constexpr double MarksZ = 0.0;
constexpr double MarkingZ = 0.2;
constexpr double GuidesZ = 0.5;
// Short enough for a fifth of a 960 px view (docs/labels.md).
constexpr const char* SameKey = "aggregate: one time partition";
constexpr const char* DifferentKey = "aggregate: mixed time partitions";
constexpr const char* OpacityKey = "opacity: share of the mode type";
constexpr const char* SignKey = "colour: A \xE2\x88\x92 B of the mode type";
constexpr std::size_t LegendMaxTypes = 24;

// A column of the Partition table as doubles, or null when it is missing or
// has the wrong number of components.
vtkDataArray* Column(vtkTable* table, const char* name, int components = 1)
{
  auto* array = vtkDataArray::SafeDownCast(table->GetColumnByName(name));
  return array && array->GetNumberOfComponents() == components ? array : nullptr;
}

// A difference model's partition (docs/comparison.md): the signed means
// A - B of every part, into the parts; false for any other partition.
bool ReadSignedMeans(vtkTable* table, int types, std::vector<macroscope::OverviewPart>& parts)
{
  vtkDataArray* signedMeans = types > 0 ? Column(table, "SignedMean", types) : nullptr;
  if (!signedMeans || signedMeans->GetNumberOfTuples() != static_cast<vtkIdType>(parts.size()))
  {
    return false;
  }
  for (std::size_t i = 0; i < parts.size(); ++i)
  {
    parts[i].SignedMean.resize(static_cast<std::size_t>(types));
    for (int u = 0; u < types; ++u)
    {
      parts[i].SignedMean[u] = signedMeans->GetComponent(static_cast<vtkIdType>(i), u);
    }
  }
  return true;
}

// The names of runs A and B of a difference model ("A", "B" without any).
std::array<std::string, 2> RunNamesOf(vtkFieldData* fields)
{
  auto* names = vtkStringArray::SafeDownCast(fields->GetAbstractArray("RunNames"));
  if (names && names->GetNumberOfValues() == 2)
  {
    return { names->GetValue(0), names->GetValue(1) };
  }
  return { "A", "B" };
}

// Whether the partition's metric is in seconds (its values are then
// written in seconds' units).
bool MetricInSeconds(vtkFieldData* fields)
{
  auto* metric = vtkStringArray::SafeDownCast(fields->GetAbstractArray("Metric"));
  auto* extensive = vtkDataArray::SafeDownCast(fields->GetAbstractArray("Extensive"));
  auto* width = vtkDataArray::SafeDownCast(fields->GetAbstractArray("SliceWidth"));
  return metric && metric->GetNumberOfValues() > 0 &&
    macroscope::DescribeAmplitudeAxis(metric->GetValue(0),
      extensive && extensive->GetNumberOfTuples() > 0 && extensive->GetComponent(0, 0) != 0.0,
      width && width->GetNumberOfTuples() > 0 ? width->GetComponent(0, 0) : 1.0)
      .Seconds;
}

// A mark's type written at its top left, when the mark holds the text.
void TagMark(MacroscopeChart::Labels& labels, const macroscope::OverviewMark& m,
  const std::string& type, const MacroscopeChart::TextMeasure& measure)
{
  const double textWidth = measure.Width(type, MacroscopeChart::GROUP_LABEL);
  const double textHeight = measure.Height(MacroscopeChart::GROUP_LABEL);
  if (m.X1 - m.X0 >= textWidth + 8.0 && m.Y1 - m.Y0 >= textHeight + 4.0)
  {
    labels.Add(m.X0 + 4.0, m.Y1 - 2.0, type, MacroscopeChart::GROUP_LABEL);
  }
}

// The chart's frame in a view of `viewSize` pixels: the names any row may
// show at the left (a node's, or its parent's and its own when the name
// repeats), the time axis below, the legend of every type and its key at
// the right.
template <typename NodeName>
MacroscopeChart::Frame OverviewFrame(const int viewSize[2], const std::vector<int64_t>& parent,
  NodeName nodeName, const std::vector<std::string>& typeNames,
  const MacroscopeChart::TextMeasure& measure)
{
  std::map<std::string, int> uses;
  for (std::size_t n = 0; n < parent.size(); ++n)
  {
    ++uses[nodeName(static_cast<int64_t>(n))];
  }
  std::vector<std::string> rowNames;
  for (std::size_t n = 0; n < parent.size(); ++n)
  {
    std::string name = nodeName(static_cast<int64_t>(n));
    rowNames.push_back(
      uses[name] > 1 && parent[n] >= 0 ? nodeName(parent[n]) + " / " + name : name);
  }
  std::vector<std::string> legendNames = typeNames;
  legendNames.insert(legendNames.end(), { SameKey, DifferentKey, OpacityKey });
  const double rowHalf = 0.5 * measure.Height(MacroscopeChart::ROW_LABEL);
  return MacroscopeChart::FitFrame(viewSize,
    MacroscopeChart::RowLabelMargin(rowNames, measure, viewSize[0]),
    MacroscopeChart::LegendMarginFor(legendNames, measure, viewSize[0]),
    MacroscopeChart::TimeAxisMargin(measure),
    std::max(rowHalf, measure.Height(MacroscopeChart::AXIS_TITLE)) +
      3.0 * MacroscopeChart::LabelGap); // the title above the plot
}

const char* const Needs = "Spatiotemporal Overview Layout needs the Partition output of a "
                          "Temporal, Spatial or Spatiotemporal Aggregation filter";

// The legend right of the chart: the entries (types, or the diverging
// scale), then the marks of visual aggregation, lines on grey swatches
// below them, and what the opacity or the colour means. The lines go in
// first (cell data follow VTK's order: lines, then polys), so their rows
// are found before DrawLegend draws the types; the types give way to the
// three rows of the key when room runs out.
void DrawLegendKey(Geometry& legend, MacroscopeChart::Labels& labels,
  const std::vector<MacroscopeChart::LegendEntry>& entries, const MacroscopeChart::Frame& frame,
  const MacroscopeChart::TextMeasure& measure, bool signedScale)
{
  Geometry typeSwatches(4);
  MacroscopeChart::Labels typeLabels;
  const double diagonalY = MacroscopeChart::DrawLegend(
    typeSwatches, typeLabels, entries, frame, measure, LegendMaxTypes, 3);
  const double rowStep = MacroscopeChart::LegendRowHeight;
  const double crossY = diagonalY - rowStep;
  const double x = MacroscopeChart::LegendSwatchX(frame.Width);
  const double s = MacroscopeChart::LegendSwatch;
  const double lineZ = GuidesZ + 0.1; // over the swatch
  const bool keyFits = MacroscopeChart::LegendRows(frame) >= 3;
  if (keyFits)
  {
    legend.Line(x, diagonalY, x + s, diagonalY + s, lineZ, AggregateMarkColor);
    legend.Line(x, crossY, x + s, crossY + s, lineZ, AggregateMarkColor);
    legend.Line(x, crossY + s, x + s, crossY, lineZ, AggregateMarkColor);
  }
  MacroscopeChart::DrawLegend(legend, labels, entries, frame, measure, LegendMaxTypes, 3);
  if (!keyFits)
  {
    return;
  }
  const double room = MacroscopeChart::LegendTextRoom(frame);
  auto key = [&](double y, const char* text)
  {
    labels.Add(MacroscopeChart::LegendTextX(frame.Width), y + 0.5 * s,
      measure.Elide(text, MacroscopeChart::LEGEND_LABEL, room), MacroscopeChart::LEGEND_LABEL);
  };
  legend.Quad(x, diagonalY, x + s, diagonalY + s, GuidesZ, LegendBackground);
  key(diagonalY, SameKey);
  legend.Quad(x, crossY, x + s, crossY + s, GuidesZ, LegendBackground);
  key(crossY, DifferentKey);
  key(crossY - rowStep, signedScale ? SignKey : OpacityKey);
}

}

vtkMacroscopeSpatiotemporalOverviewLayout::vtkMacroscopeSpatiotemporalOverviewLayout() {}

vtkMacroscopeSpatiotemporalOverviewLayout::~vtkMacroscopeSpatiotemporalOverviewLayout() = default;

void vtkMacroscopeSpatiotemporalOverviewLayout::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "MinRowHeight: " << this->MinRowHeight << "\n";
  os << indent << "GroupLevel: " << this->GroupLevel << "\n";
  os << indent << "SignedDifference: " << this->SignedDifference << "\n";
}

// One call of Draw: the Partition as read, and its layout.
struct vtkMacroscopeSpatiotemporalOverviewLayout::Run
{
  vtkTable* Table = nullptr;
  vtkPolyData** Outputs = nullptr;
  vtkFieldData* Fields = nullptr;
  vtkStringArray* NodeNames = nullptr;
  const macroscope::TypeColorOverrides* Overrides = nullptr;
  int Resources = 0;
  int Types = 0;
  std::vector<int64_t> Parent;
  std::vector<macroscope::OverviewPart> Parts;
  bool SignedScale = false;
  std::array<std::string, 2> Runs;
  MacroscopeChart::TypeStyles Styles;
  MacroscopeChart::TextMeasure Measure;
  MacroscopeChart::Frame Frame;
  macroscope::SpatiotemporalOverviewOptions Options;
  std::unique_ptr<macroscope::AggregationHierarchy> Hierarchy;
  macroscope::SpatiotemporalOverview Overview;
  double LargestSigned = 1.0;

  explicit Run(int fontSize)
    : Measure(fontSize)
  {
  }
  std::string NodeName(int64_t node) const
  {
    return this->NodeNames && node < this->NodeNames->GetNumberOfValues()
      ? this->NodeNames->GetValue(node)
      : "node " + std::to_string(node);
  }
  std::string TypeName(uint32_t type) const
  {
    return type < this->Styles.Names.size() ? this->Styles.Names[type]
                                            : "type " + std::to_string(type);
  }
  RGB TypeColor(uint32_t type) const
  {
    return type < this->Styles.Colors.size() ? this->Styles.Colors[type]
                                             : this->Overrides->Resolve(this->TypeName(type));
  }
};

int vtkMacroscopeSpatiotemporalOverviewLayout::Draw(
  vtkTable* input, vtkPolyData* outputs[NUMBER_OF_OUTPUTS])
{
  if (!std::isfinite(this->MinRowHeight) || !(this->MinRowHeight >= 0.0))
  {
    vtkErrorMacro(
      "MinRowHeight must be a finite number of pixels >= 0, not " << this->MinRowHeight << ".");
    return 0;
  }
  if (this->GroupLevel < 0)
  {
    vtkErrorMacro("GroupLevel must be >= 0, not " << this->GroupLevel << ".");
    return 0;
  }
  if (!input || (input->GetNumberOfColumns() == 0 && input->GetNumberOfRows() == 0))
  {
    return 1; // a later piece of a Partition: the first piece holds the rows
  }
  Run run(this->LabelFontSize);
  run.Table = input;
  run.Outputs = outputs;
  run.Overrides = &this->GetTypeColorOverrides();
  if (!this->ReadPartition(run) || !this->Layout(run))
  {
    return 0;
  }
  this->UpdateProgress(0.3);
  MacroscopeChart::Labels labels;
  if (!this->EmitMarks(run, labels))
  {
    for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
    {
      outputs[port]->Initialize();
    }
    return 1;
  }
  Geometry guides;
  this->DrawGuides(run, guides, labels);
  this->DrawLegend(run, labels);
  guides.Into(outputs[GUIDES]);
  labels.Fit(run.Measure, run.Frame); // no two labels overlap, all in the frame
  labels.Into(outputs[LABELS]);
  vtkNew<vtkDoubleArray> windowField;
  windowField->SetName("TimeWindow");
  windowField->SetNumberOfComponents(2);
  windowField->InsertNextTuple2(run.Options.WindowBegin, run.Options.WindowEnd);
  vtkNew<vtkIntArray> rowCount;
  rowCount->SetName("DisplayRows");
  rowCount->InsertNextValue(static_cast<int>(run.Overview.Rows.size()));
  vtkNew<vtkIntArray> aggregateCount;
  aggregateCount->SetName("VisualAggregates");
  aggregateCount->InsertNextValue(static_cast<int>(run.Overview.Aggregates));
  for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
  {
    outputs[port]->GetFieldData()->AddArray(windowField);
    outputs[port]->GetFieldData()->AddArray(rowCount);
    outputs[port]->GetFieldData()->AddArray(aggregateCount);
  }
  AddTimeNavigation(
    input, outputs, run.Frame.Width, run.Options.WindowBegin, run.Options.WindowEnd);
  this->UpdateProgress(1.0);
  return 1;
}

bool vtkMacroscopeSpatiotemporalOverviewLayout::ReadPartition(Run& run)
{
  vtkTable* table = run.Table;
  vtkDataArray* nodes = Column(table, "Node");
  vtkDataArray* firstSlices = Column(table, "FirstSlice");
  vtkDataArray* lastSlices = Column(table, "LastSlice");
  run.Fields = table->GetFieldData();
  auto* shape = vtkDataArray::SafeDownCast(run.Fields->GetAbstractArray("ModelShape"));
  auto* parents = vtkDataArray::SafeDownCast(run.Fields->GetAbstractArray("NodeParent"));
  auto* window = vtkDataArray::SafeDownCast(run.Fields->GetAbstractArray("TimeWindow"));
  run.NodeNames = vtkStringArray::SafeDownCast(run.Fields->GetAbstractArray("NodeName"));
  if (!nodes || !firstSlices || !lastSlices || !shape || shape->GetNumberOfComponents() != 3 ||
    shape->GetNumberOfTuples() < 1 || !parents || !window || window->GetNumberOfComponents() != 2 ||
    window->GetNumberOfTuples() < 1)
  {
    vtkErrorMacro(<< Needs
                  << ": its columns Node, FirstSlice, LastSlice and Mean and its field data "
                     "ModelShape, NodeParent and TimeWindow are missing or malformed.");
    return false;
  }
  run.Options.Slices = static_cast<int>(shape->GetComponent(0, 0));
  run.Resources = static_cast<int>(shape->GetComponent(0, 1));
  const int types = run.Types = static_cast<int>(shape->GetComponent(0, 2));
  vtkDataArray* means = types > 0 ? Column(table, "Mean", types) : nullptr;
  if (!means || run.Resources < 1)
  {
    vtkErrorMacro(<< Needs << ": its Mean column must have one component per type of ModelShape ("
                  << types << ") and the model at least one resource.");
    return false;
  }
  run.Options.WindowBegin = window->GetComponent(0, 0);
  run.Options.WindowEnd = window->GetComponent(0, 1);
  run.Parent = MacroscopeColumnValues<int64_t>(parents);
  const vtkIdType rows = table->GetNumberOfRows();
  run.Parts.resize(static_cast<std::size_t>(rows));
  for (vtkIdType i = 0; i < rows; ++i)
  {
    macroscope::OverviewPart& part = run.Parts[static_cast<std::size_t>(i)];
    part.Node = static_cast<int64_t>(nodes->GetComponent(i, 0));
    part.FirstSlice = static_cast<int>(firstSlices->GetComponent(i, 0));
    part.LastSlice = static_cast<int>(lastSlices->GetComponent(i, 0));
    part.Mean.resize(static_cast<std::size_t>(types));
    for (int u = 0; u < types; ++u)
    {
      part.Mean[u] = means->GetComponent(i, u);
    }
  }
  run.SignedScale = this->SignedDifference && ReadSignedMeans(table, types, run.Parts);
  run.Runs = RunNamesOf(run.Fields);
  run.Styles = MacroscopeChart::ReadTypeStyles(run.Fields, std::max(types, 0), *run.Overrides);
  return true;
}

bool vtkMacroscopeSpatiotemporalOverviewLayout::Layout(Run& run)
{
  // The frame (docs/labels.md): the plot and the margins its text needs
  // fill ViewSize. Any node may name a row, any type the legend.
  run.Frame = OverviewFrame(
    this->ViewSize, run.Parent, [&run](int64_t node) { return run.NodeName(node); },
    run.Styles.Names, run.Measure);
  run.Options.PlotWidth = run.Frame.Width;
  run.Options.PlotHeight = run.Frame.Height;
  run.Options.MinRowHeight = this->MinRowHeight;
  try
  {
    run.Hierarchy = std::make_unique<macroscope::AggregationHierarchy>(
      run.Parent, static_cast<uint32_t>(run.Resources));
    run.Overview = macroscope::LayoutSpatiotemporalOverview(
      *run.Hierarchy, run.Parts, static_cast<uint32_t>(run.Types), run.Options);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro(<< Needs << "; this one cannot be drawn: " << error.what());
    return false;
  }
  run.LargestSigned = macroscope::LargestSignedValue(run.Overview.Marks);
  return true;
}

bool vtkMacroscopeSpatiotemporalOverviewLayout::EmitMarks(Run& run, MacroscopeChart::Labels& labels)
{
  const vtkIdType count = static_cast<vtkIdType>(run.Overview.Marks.size());
  Geometry marks(4);
  Geometry marking(4);
  MacroscopeOverviewMarkArrays arrays(count);
  auto markOfLine = NamedArray<vtkTypeInt64Array>("Mark");
  auto lineKinds = NamedArray<vtkUnsignedCharArray>("MarkingKind");
  for (vtkIdType i = 0; i < count; ++i)
  {
    const macroscope::OverviewMark& m = run.Overview.Marks[static_cast<std::size_t>(i)];
    // Eq. 5's proportion as opacity over the white of the chart: an even
    // mix fades, a pure mode is solid.
    RGB color = macroscope::OverOpaqueWhite(run.TypeColor(m.Mode), m.ModeProportion);
    if (run.SignedScale)
    {
      // Comparisons: the sign and size of A - B, the type written where
      // it fits (the details show it everywhere).
      color = macroscope::DifferenceColor(m.SignedValue, m.Value, run.LargestSigned);
      if (macroscope::NamesDifferingType(m, run.LargestSigned))
      {
        TagMark(labels, m, run.TypeName(m.Mode), run.Measure);
      }
    }
    marks.Quad(m.X0, m.Y0, m.X1, m.Y1, MarksZ, color, 255);
    arrays.Add(m, run.NodeName(m.Node), run.TypeName(m.Mode));
    for (const macroscope::OverviewMarkingLine& line :
      macroscope::MarkingLines(m, run.Frame.Height))
    {
      const bool border = line.Kind == macroscope::OverviewMarkingKind::Border;
      marking.Line(line.X0, line.Y0, line.X1, line.Y1, MarkingZ,
        border ? BorderColor : AggregateMarkColor, border ? BorderAlpha : 255);
      markOfLine->InsertNextValue(i);
      lineKinds->InsertNextValue(static_cast<unsigned char>(line.Kind));
    }
    if (i % 4096 == 0)
    {
      this->UpdateProgress(0.3 + 0.6 * double(i) / double(count));
      if (this->GetAbortExecute())
      {
        return false;
      }
    }
  }
  marks.Into(run.Outputs[MARKS]);
  arrays.Into(run.Outputs[MARKS]->GetCellData(), run.SignedScale);
  marking.Into(run.Outputs[MARKING]);
  run.Outputs[MARKING]->GetCellData()->AddArray(markOfLine);
  run.Outputs[MARKING]->GetCellData()->AddArray(lineKinds);
  return true;
}

void vtkMacroscopeSpatiotemporalOverviewLayout::DrawGuides(
  Run& run, Geometry& guides, MacroscopeChart::Labels& labels)
{
  // Frame, time axis, groups and display-row names.
  const MacroscopeChart::Frame& frame = run.Frame;
  const double width = frame.Width, height = frame.Height;
  MacroscopeChart::DrawFrame(guides, width, height, FrameColor);
  MacroscopeChart::DrawTimeAxis(
    guides, labels, run.Options.WindowBegin, run.Options.WindowEnd, frame, run.Measure, TickColor);
  // Centred above the plot: what is shown (p, parts, the model's shape).
  labels.Add(0.5 * width, height + frame.Top - MacroscopeChart::LabelGap,
    run.Measure.Elide(
      (run.SignedScale ? run.Runs[0] + " \xE2\x88\x92 " + run.Runs[1] + ", " : std::string()) +
        PartitionTitleOf(run.Table, true),
      MacroscopeChart::AXIS_TITLE, MacroscopeChart::TitleRoom(frame)),
    MacroscopeChart::AXIS_TITLE);
  if (this->GroupLevel > 0)
  {
    const double resources = run.Resources;
    for (int64_t n : macroscope::ShownGroups(run.Parent, run.Overview.Rows, this->GroupLevel))
    {
      const double top = height * double(run.Resources - run.Hierarchy->LeafBegin(n)) / resources;
      guides.Line(0.0, top, width, top, GuidesZ, FrameColor);
      labels.Add(4.0, top - 2.0, run.NodeName(n), MacroscopeChart::GROUP_LABEL);
    }
  }
  // Row names, made unique by the parent's where they repeat ("Master
  // thread"); when rows are too thin for one each, the groups (ranks,
  // nodes...) that are tall enough are named instead, so no row is left
  // unnamed.
  std::map<std::string, int> uses;
  for (const macroscope::OverviewRow& row : run.Overview.Rows)
  {
    ++uses[run.NodeName(row.Node)];
  }
  std::vector<MacroscopeChart::LabelledRow> labelled;
  for (const macroscope::OverviewRow& row : run.Overview.Rows)
  {
    MacroscopeChart::LabelledRow entry;
    entry.Top = std::max(row.Y0, row.Y1);
    entry.Bottom = std::min(row.Y0, row.Y1);
    entry.Name = run.NodeName(row.Node);
    const int64_t up = run.Parent[static_cast<std::size_t>(row.Node)];
    if (uses[entry.Name] > 1 && up >= 0)
    {
      entry.Name = run.NodeName(up) + " / " + entry.Name;
    }
    for (int64_t n = row.Node; n >= 0; n = run.Parent[static_cast<std::size_t>(n)])
    {
      entry.Ancestors.push_back(n);
    }
    labelled.push_back(std::move(entry));
  }
  MacroscopeChart::DrawGroupedRowLabels(
    labels, guides, labelled, [&run](int64_t node) { return run.NodeName(node); }, frame,
    run.Measure, FrameColor);
}

void vtkMacroscopeSpatiotemporalOverviewLayout::DrawLegend(
  Run& run, MacroscopeChart::Labels& labels)
{
  // The mode types drawn, largest area first, then the marks of visual
  // aggregation and what the opacity means.
  std::vector<MacroscopeChart::LegendEntry> entries;
  auto legendNames = NamedArray<vtkStringArray>("LegendName");
  auto legendColors = NamedArray<vtkUnsignedCharArray>("LegendColor");
  legendColors->SetNumberOfComponents(3);
  auto legendAreas = NamedArray<vtkDoubleArray>("LegendArea");
  auto addEntry = [&](const std::string& name, const RGB& rgb, double area)
  {
    entries.push_back({ name, rgb, 255 });
    legendNames->InsertNextValue(name);
    legendColors->InsertNextTypedTuple(rgb.data());
    legendAreas->InsertNextValue(area);
  };
  if (run.SignedScale)
  {
    for (const macroscope::DivergingLegendEntry& entry : macroscope::DifferenceLegend(
           run.LargestSigned, run.Runs[0], run.Runs[1], MetricInSeconds(run.Fields)))
    {
      addEntry(entry.Text,
        std::isnan(entry.Fraction) ? macroscope::MixedColor
                                   : macroscope::DivergingColor(entry.Fraction),
        0.0);
    }
  }
  else
  {
    const std::vector<double> areaOfType = macroscope::ModeAreaOfTypes(
      run.Overview.Marks, static_cast<std::size_t>(std::max(run.Types, 0)));
    for (uint32_t type : macroscope::TypesByTime(areaOfType))
    {
      addEntry(run.TypeName(type), run.TypeColor(type), areaOfType[type]);
    }
  }
  Geometry legend(4);
  DrawLegendKey(legend, labels, entries, run.Frame, run.Measure, run.SignedScale);
  legend.Into(run.Outputs[LEGEND]);
  for (vtkAbstractArray* array :
    std::initializer_list<vtkAbstractArray*>{ legendNames, legendColors, legendAreas })
  {
    run.Outputs[LEGEND]->GetFieldData()->AddArray(array);
  }
}
