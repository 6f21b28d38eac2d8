#include "vtkMacroscopeSpatiotemporalOverviewLayout.h"

#include "Aggregation.h"
#include "DivergingScale.h"
#include "MacroscopeChart.h"
#include "SpatiotemporalOverview.h"
#include "TemporalOverview.h"
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
// A difference's mark is named by its mode type when its |A - B| is at
// least this share of the largest drawn.
constexpr double TagThreshold = 0.05;

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

// The largest |A - B| of the marks' modes, the end of the diverging scale
// (1 when every mark is equal, so that all are white).
double LargestSignedValue(const std::vector<macroscope::OverviewMark>& marks)
{
  double largest = 0.0;
  for (const macroscope::OverviewMark& m : marks)
  {
    largest = std::max(largest, std::abs(m.SignedValue));
  }
  return largest > 0.0 ? largest : 1.0;
}

// The hierarchy depth of every node of a parent array (root 0).
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
    rowNames.push_back(uses[name] > 1 && parent[n] >= 0 ? nodeName(parent[n]) + " / " + name : name);
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

std::vector<int> Depths(const std::vector<int64_t>& parent)
{
  std::vector<int> depth(parent.size(), 0);
  for (std::size_t n = parent.size(); n-- > 0;)
  {
    depth[n] = parent[n] < 0 ? 0 : depth[static_cast<std::size_t>(parent[n])] + 1;
  }
  return depth;
}
}

vtkMacroscopeSpatiotemporalOverviewLayout::vtkMacroscopeSpatiotemporalOverviewLayout()
{
}

vtkMacroscopeSpatiotemporalOverviewLayout::~vtkMacroscopeSpatiotemporalOverviewLayout() = default;

void vtkMacroscopeSpatiotemporalOverviewLayout::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "MinRowHeight: " << this->MinRowHeight << "\n";
  os << indent << "GroupLevel: " << this->GroupLevel << "\n";
  os << indent << "SignedDifference: " << this->SignedDifference << "\n";
}

int vtkMacroscopeSpatiotemporalOverviewLayout::Draw(vtkTable* input, vtkPolyData* outputs[NUMBER_OF_OUTPUTS])
{
  if (!std::isfinite(this->MinRowHeight) || !(this->MinRowHeight >= 0.0))
  {
    vtkErrorMacro("MinRowHeight must be a finite number of pixels >= 0, not " << this->MinRowHeight
                                                                               << ".");
    return 0;
  }
  if (this->GroupLevel < 0)
  {
    vtkErrorMacro("GroupLevel must be >= 0, not " << this->GroupLevel << ".");
    return 0;
  }
  vtkTable* table = input;
  if (!table || (table->GetNumberOfColumns() == 0 && table->GetNumberOfRows() == 0))
  {
    return 1; // a later piece of a Partition: the first piece holds the rows
  }

  // What the drawing needs from the Partition table.
  const char* needs = "Spatiotemporal Overview Layout needs the Partition output of a Temporal, "
                      "Spatial or Spatiotemporal Aggregation filter";
  vtkDataArray* nodes = Column(table, "Node");
  vtkDataArray* firstSlices = Column(table, "FirstSlice");
  vtkDataArray* lastSlices = Column(table, "LastSlice");
  vtkFieldData* fields = table->GetFieldData();
  auto* shape = vtkDataArray::SafeDownCast(fields->GetAbstractArray("ModelShape"));
  auto* parents = vtkDataArray::SafeDownCast(fields->GetAbstractArray("NodeParent"));
  auto* window = vtkDataArray::SafeDownCast(fields->GetAbstractArray("TimeWindow"));
  auto* nodeNames = vtkStringArray::SafeDownCast(fields->GetAbstractArray("NodeName"));
  if (!nodes || !firstSlices || !lastSlices || !shape || shape->GetNumberOfComponents() != 3 ||
    shape->GetNumberOfTuples() < 1 || !parents || !window || window->GetNumberOfComponents() != 2 ||
    window->GetNumberOfTuples() < 1)
  {
    vtkErrorMacro(<< needs
                  << ": its columns Node, FirstSlice, LastSlice and Mean and its field data "
                     "ModelShape, NodeParent and TimeWindow are missing or malformed.");
    return 0;
  }
  const int slices = static_cast<int>(shape->GetComponent(0, 0));
  const int resources = static_cast<int>(shape->GetComponent(0, 1));
  const int types = static_cast<int>(shape->GetComponent(0, 2));
  vtkDataArray* means = types > 0 ? Column(table, "Mean", types) : nullptr;
  if (!means || resources < 1)
  {
    vtkErrorMacro(<< needs << ": its Mean column must have one component per type of ModelShape ("
                  << types << ") and the model at least one resource.");
    return 0;
  }
  std::vector<int64_t> parent(static_cast<std::size_t>(parents->GetNumberOfTuples()));
  for (std::size_t n = 0; n < parent.size(); ++n)
  {
    parent[n] = static_cast<int64_t>(parents->GetComponent(static_cast<vtkIdType>(n), 0));
  }
  const vtkIdType rows = table->GetNumberOfRows();
  std::vector<macroscope::OverviewPart> parts(static_cast<std::size_t>(rows));
  for (vtkIdType i = 0; i < rows; ++i)
  {
    macroscope::OverviewPart& part = parts[static_cast<std::size_t>(i)];
    part.Node = static_cast<int64_t>(nodes->GetComponent(i, 0));
    part.FirstSlice = static_cast<int>(firstSlices->GetComponent(i, 0));
    part.LastSlice = static_cast<int>(lastSlices->GetComponent(i, 0));
    part.Mean.resize(static_cast<std::size_t>(types));
    for (int u = 0; u < types; ++u)
    {
      part.Mean[u] = means->GetComponent(i, u);
    }
  }
  const bool signedScale = this->SignedDifference && ReadSignedMeans(table, types, parts);
  const std::array<std::string, 2> runs = RunNamesOf(fields);
  const MacroscopeChart::TypeStyles styles =
    MacroscopeChart::ReadTypeStyles(fields, std::max(types, 0), this->GetTypeColorOverrides());
  auto nodeName = [&](int64_t node) {
    return nodeNames && node < nodeNames->GetNumberOfValues() ? nodeNames->GetValue(node)
                                                              : "node " + std::to_string(node);
  };
  // The frame (docs/labels.md): the plot and the margins its text needs
  // fill ViewSize. Any node may name a row, any type the legend.
  const MacroscopeChart::TextMeasure measure(this->LabelFontSize);
  const MacroscopeChart::Frame frame =
    OverviewFrame(this->ViewSize, parent, nodeName, styles.Names, measure);
  macroscope::SpatiotemporalOverviewOptions options;
  options.Slices = slices;
  options.WindowBegin = window->GetComponent(0, 0);
  options.WindowEnd = window->GetComponent(0, 1);
  options.PlotWidth = frame.Width;
  options.PlotHeight = frame.Height;
  options.MinRowHeight = this->MinRowHeight;
  std::unique_ptr<macroscope::AggregationHierarchy> hierarchy;
  macroscope::SpatiotemporalOverview overview;
  try
  {
    hierarchy = std::make_unique<macroscope::AggregationHierarchy>(
      parent, static_cast<uint32_t>(resources));
    overview = macroscope::LayoutSpatiotemporalOverview(
      *hierarchy, parts, static_cast<uint32_t>(types), options);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro(<< needs << "; this one cannot be drawn: " << error.what());
    return 0;
  }
  this->UpdateProgress(0.3);

  auto typeName = [&](uint32_t type) {
    return type < styles.Names.size() ? styles.Names[type] : "type " + std::to_string(type);
  };
  auto typeColor = [&](uint32_t type) {
    return type < styles.Colors.size() ? styles.Colors[type]
                                       : this->GetTypeColorOverrides().Resolve(typeName(type));
  };

  // Marks and their marking.
  const double width = frame.Width;
  const double height = frame.Height;
  const vtkIdType count = static_cast<vtkIdType>(overview.Marks.size());
  Geometry marks(4);
  Geometry marking(4);
  auto partIds = NamedArray<vtkIntArray>("Part", count);
  auto nodeIds = NamedArray<vtkTypeInt64Array>("Node", count);
  auto names = NamedArray<vtkStringArray>("NodeName", count);
  auto modes = NamedArray<vtkIntArray>("Type", count);
  auto modeNames = NamedArray<vtkStringArray>("TypeName", count);
  auto values = NamedArray<vtkDoubleArray>("Value", count);
  auto signedValues = NamedArray<vtkDoubleArray>("SignedValue", count);
  auto proportions = NamedArray<vtkDoubleArray>("ModeProportion", count);
  auto kinds = NamedArray<vtkUnsignedCharArray>("VisualAggregate", count);
  auto partCounts = NamedArray<vtkIntArray>("PartCount", count);
  auto firstLeaves = NamedArray<vtkIntArray>("FirstLeaf", count);
  auto lastLeaves = NamedArray<vtkIntArray>("LastLeaf", count);
  auto firstSliceIds = NamedArray<vtkIntArray>("FirstSlice", count);
  auto lastSliceIds = NamedArray<vtkIntArray>("LastSlice", count);
  auto starts = NamedArray<vtkDoubleArray>("Start", count);
  auto ends = NamedArray<vtkDoubleArray>("End", count);
  auto markOfLine = NamedArray<vtkTypeInt64Array>("Mark");
  auto lineKinds = NamedArray<vtkUnsignedCharArray>("MarkingKind");
  auto line = [&](double x0, double y0, double x1, double y1, RGB color, unsigned char alpha,
                vtkIdType mark, int kind) {
    marking.Line(x0, y0, x1, y1, MarkingZ, color, alpha);
    markOfLine->InsertNextValue(mark);
    lineKinds->InsertNextValue(static_cast<unsigned char>(kind));
  };
  std::vector<double> areaOfType(static_cast<std::size_t>(types), 0.0);
  const double largestSigned = LargestSignedValue(overview.Marks);
  MacroscopeChart::Labels labels;
  bool aborted = false;
  for (vtkIdType i = 0; i < count && !aborted; ++i)
  {
    const macroscope::OverviewMark& m = overview.Marks[static_cast<std::size_t>(i)];
    // Eq. 5's proportion as opacity over the white of the chart: an even
    // mix fades, a pure mode is solid. The colour is blended here and drawn
    // opaque, because translucent geometry would need depth sorting, and
    // is lost by depth compositing under MPI.
    const double opacity = std::min(1.0, std::max(0.0, m.ModeProportion));
    const RGB pure = typeColor(m.Mode);
    RGB blended;
    for (int c = 0; c < 3; ++c)
    {
      blended[c] = static_cast<unsigned char>(std::lround(255.0 - opacity * (255.0 - pure[c])));
    }
    if (signedScale)
    {
      // Comparisons: the sign and size of A - B, the type written where
      // it fits (the details show it everywhere).
      blended = macroscope::DifferenceColor(m.SignedValue, m.Value, largestSigned);
      // Where the runs (nearly) agree, no type differs most.
      if (m.Value >= TagThreshold * largestSigned)
      {
        TagMark(labels, m, typeName(m.Mode), measure);
      }
    }
    marks.Quad(m.X0, m.Y0, m.X1, m.Y1, MarksZ, blended, 255);
    partIds->InsertNextValue(static_cast<int>(m.Part));
    nodeIds->InsertNextValue(m.Node);
    names->InsertNextValue(nodeName(m.Node));
    modes->InsertNextValue(static_cast<int>(m.Mode));
    modeNames->InsertNextValue(typeName(m.Mode));
    values->InsertNextValue(m.Value);
    signedValues->InsertNextValue(m.SignedValue);
    proportions->InsertNextValue(m.ModeProportion);
    kinds->InsertNextValue(static_cast<unsigned char>(m.Kind));
    partCounts->InsertNextValue(static_cast<int>(m.PartCount));
    firstLeaves->InsertNextValue(static_cast<int>(m.FirstLeaf));
    lastLeaves->InsertNextValue(static_cast<int>(m.LeafEnd) - 1);
    firstSliceIds->InsertNextValue(m.FirstSlice);
    lastSliceIds->InsertNextValue(m.LastSlice);
    starts->InsertNextValue(m.Start);
    ends->InsertNextValue(m.End);
    areaOfType[m.Mode] += (m.X1 - m.X0) * (m.Y1 - m.Y0);
    // Borders: every edge between two marks is the left or the top edge of
    // one of them; the chart's own edges are the frame's.
    if (m.X0 > 0.0)
    {
      line(m.X0, m.Y0, m.X0, m.Y1, BorderColor, BorderAlpha, i, BORDER);
    }
    if (m.Y1 < height)
    {
      line(m.X0, m.Y1, m.X1, m.Y1, BorderColor, BorderAlpha, i, BORDER);
    }
    if (m.Kind != macroscope::OverviewMarkKind::Part)
    {
      line(m.X0, m.Y0, m.X1, m.Y1, AggregateMarkColor, 255, i, DIAGONAL);
    }
    if (m.Kind == macroscope::OverviewMarkKind::CrossAggregate)
    {
      line(m.X0, m.Y1, m.X1, m.Y0, AggregateMarkColor, 255, i, CROSS);
    }
    if (i % 4096 == 0)
    {
      this->UpdateProgress(0.3 + 0.6 * double(i) / double(count));
      aborted = this->GetAbortExecute();
    }
  }
  if (aborted)
  {
    for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
    {
      outputs[port]->Initialize();
    }
    return 1;
  }
  marks.Into(outputs[MARKS]);
  if (signedScale)
  {
    outputs[MARKS]->GetCellData()->AddArray(signedValues);
  }
  for (vtkAbstractArray* array : std::initializer_list<vtkAbstractArray*>{ partIds, nodeIds,
         names, modes, modeNames, values, proportions, kinds, partCounts, firstLeaves, lastLeaves,
         firstSliceIds, lastSliceIds, starts, ends })
  {
    outputs[MARKS]->GetCellData()->AddArray(array);
  }

  // Guides and labels: frame, time axis, groups and display-row names.
  Geometry guides;
  MacroscopeChart::DrawFrame(guides, width, height, FrameColor);
  MacroscopeChart::DrawTimeAxis(
    guides, labels, options.WindowBegin, options.WindowEnd, frame, measure, TickColor);
  // Centred above the plot: what is shown (p, parts, the model's shape).
  labels.Add(0.5 * width, height + frame.Top - MacroscopeChart::LabelGap,
    measure.Elide((signedScale ? runs[0] + " \xE2\x88\x92 " + runs[1] + ", " : std::string()) +
        PartitionTitleOf(table, true),
      MacroscopeChart::AXIS_TITLE,
      MacroscopeChart::TitleRoom(frame)),
    MacroscopeChart::AXIS_TITLE);
  const std::vector<int> depth = Depths(parent);
  if (this->GroupLevel > 0)
  {
    // A group is drawn only where the display rows show it: at or above
    // the cut, never inside a row standing for several groups.
    std::vector<uint8_t> shown(parent.size(), 0);
    for (const macroscope::OverviewRow& row : overview.Rows)
    {
      for (int64_t n = row.Node; n >= 0; n = parent[static_cast<std::size_t>(n)])
      {
        shown[static_cast<std::size_t>(n)] = 1;
      }
    }
    for (std::size_t n = 0; n < parent.size(); ++n)
    {
      if (depth[n] == this->GroupLevel && shown[n])
      {
        const double top =
          height * double(resources - hierarchy->LeafBegin(static_cast<int64_t>(n))) / resources;
        guides.Line(0.0, top, width, top, GuidesZ, FrameColor);
        labels.Add(4.0, top - 2.0, nodeName(static_cast<int64_t>(n)),
          MacroscopeChart::GROUP_LABEL);
      }
    }
  }
  // Row names, made unique by the parent's where they repeat ("Master
  // thread"); when rows are too thin for one each, the groups (ranks,
  // nodes...) that are tall enough are named instead, so no row is left
  // unnamed.
  std::map<std::string, int> uses;
  for (const macroscope::OverviewRow& row : overview.Rows)
  {
    ++uses[nodeName(row.Node)];
  }
  std::vector<MacroscopeChart::LabelledRow> labelled;
  for (const macroscope::OverviewRow& row : overview.Rows)
  {
    MacroscopeChart::LabelledRow entry;
    entry.Top = std::max(row.Y0, row.Y1);
    entry.Bottom = std::min(row.Y0, row.Y1);
    entry.Name = nodeName(row.Node);
    const int64_t up = parent[static_cast<std::size_t>(row.Node)];
    if (uses[entry.Name] > 1 && up >= 0)
    {
      entry.Name = nodeName(up) + " / " + entry.Name;
    }
    for (int64_t n = row.Node; n >= 0; n = parent[static_cast<std::size_t>(n)])
    {
      entry.Ancestors.push_back(n);
    }
    labelled.push_back(std::move(entry));
  }
  MacroscopeChart::DrawGroupedRowLabels(
    labels, guides, labelled, nodeName, frame, measure, FrameColor);

  // Legend: the mode types drawn, largest area first, then the marks of
  // visual aggregation and what the opacity means.
  std::vector<uint32_t> order(areaOfType.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
    [&](uint32_t a, uint32_t b) { return areaOfType[a] > areaOfType[b]; });
  std::vector<MacroscopeChart::LegendEntry> entries;
  auto legendNames = NamedArray<vtkStringArray>("LegendName");
  auto legendColors = NamedArray<vtkUnsignedCharArray>("LegendColor");
  legendColors->SetNumberOfComponents(3);
  auto legendAreas = NamedArray<vtkDoubleArray>("LegendArea");
  auto addEntry = [&](const std::string& name, const RGB& rgb, double area) {
    entries.push_back({ name, rgb, 255 });
    legendNames->InsertNextValue(name);
    const unsigned char tuple[3] = { rgb[0], rgb[1], rgb[2] };
    legendColors->InsertNextTypedTuple(tuple);
    legendAreas->InsertNextValue(area);
  };
  if (signedScale)
  {
    for (const macroscope::DivergingLegendEntry& entry :
      macroscope::DifferenceLegend(largestSigned, runs[0], runs[1], MetricInSeconds(fields)))
    {
      addEntry(entry.Text,
        std::isnan(entry.Fraction) ? macroscope::MixedColor : macroscope::DivergingColor(entry.Fraction),
        0.0);
    }
  }
  for (uint32_t type : order)
  {
    if (!signedScale && areaOfType[type] > 0.0)
    {
      addEntry(typeName(type), typeColor(type), areaOfType[type]);
    }
  }
  // The marks of visual aggregation are lines on grey swatches below the
  // types; lines go in first (cell data follow VTK's order: lines, then
  // polys), so their rows are found before DrawLegend draws the types.
  // The types give way to the three rows of the key when room runs out.
  Geometry legend(4);
  MacroscopeChart::Geometry typeSwatches(4);
  MacroscopeChart::Labels typeLabels;
  const double diagonalY = MacroscopeChart::DrawLegend(
    typeSwatches, typeLabels, entries, frame, measure, LegendMaxTypes, 3);
  const double rowStep = MacroscopeChart::LegendRowHeight;
  const double crossY = diagonalY - rowStep;
  const double x = MacroscopeChart::LegendSwatchX(width);
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
  if (keyFits)
  {
    const double room = MacroscopeChart::LegendTextRoom(frame);
    auto key = [&](double y, const char* text) {
      labels.Add(MacroscopeChart::LegendTextX(width), y + 0.5 * s,
        measure.Elide(text, MacroscopeChart::LEGEND_LABEL, room), MacroscopeChart::LEGEND_LABEL);
    };
    legend.Quad(x, diagonalY, x + s, diagonalY + s, GuidesZ, LegendBackground);
    key(diagonalY, SameKey);
    legend.Quad(x, crossY, x + s, crossY + s, GuidesZ, LegendBackground);
    key(crossY, DifferentKey);
    key(crossY - rowStep, signedScale ? SignKey : OpacityKey);
  }

  marking.Into(outputs[MARKING]);
  outputs[MARKING]->GetCellData()->AddArray(markOfLine);
  outputs[MARKING]->GetCellData()->AddArray(lineKinds);
  guides.Into(outputs[GUIDES]);
  labels.Fit(measure, frame); // no two labels overlap, all in the frame
  labels.Into(outputs[LABELS]);
  legend.Into(outputs[LEGEND]);
  for (vtkAbstractArray* array :
    std::initializer_list<vtkAbstractArray*>{ legendNames, legendColors, legendAreas })
  {
    outputs[LEGEND]->GetFieldData()->AddArray(array);
  }
  vtkNew<vtkDoubleArray> windowField;
  windowField->SetName("TimeWindow");
  windowField->SetNumberOfComponents(2);
  windowField->InsertNextTuple2(options.WindowBegin, options.WindowEnd);
  vtkNew<vtkIntArray> rowCount;
  rowCount->SetName("DisplayRows");
  rowCount->InsertNextValue(static_cast<int>(overview.Rows.size()));
  vtkNew<vtkIntArray> aggregateCount;
  aggregateCount->SetName("VisualAggregates");
  aggregateCount->InsertNextValue(static_cast<int>(overview.Aggregates));
  for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
  {
    outputs[port]->GetFieldData()->AddArray(windowField);
    outputs[port]->GetFieldData()->AddArray(rowCount);
    outputs[port]->GetFieldData()->AddArray(aggregateCount);
  }
  AddTimeNavigation(input, outputs, width, options.WindowBegin, options.WindowEnd);
  this->UpdateProgress(1.0);
  return 1;
}
