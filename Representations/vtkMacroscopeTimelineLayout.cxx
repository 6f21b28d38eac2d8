#include "vtkMacroscopeTimelineLayout.h"

#include "MacroscopeChart.h"
#include "MacroscopeModelPlan.h"
#include "MacroscopeNameList.h"
#include "MacroscopeTraceColumns.h"
#include "MacroscopeTraceInputs.h"
#include "ResourceHierarchy.h"
#include "TimeNavigation.h"
#include "TimeAxis.h"
#include "TimelineLayout.h"
#include "TraceSchema.h"
#include "TypePalette.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCommunicator.h"
#include "vtkDataSetAttributes.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkMultiProcessController.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTree.h"
#include "vtkTypeInt64Array.h"
#include "vtkUnsignedCharArray.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeTimelineLayout);
vtkCxxSetObjectMacro(vtkMacroscopeTimelineLayout, Controller, vtkMultiProcessController);

namespace
{
namespace schema = macroscope::schema;
using RGB = macroscope::RGB;

// Colours of what is not a type.
constexpr RGB HatchColor{ { 45, 45, 45 } };
constexpr RGB MessageColor{ { 25, 25, 25 } };
constexpr RGB MessageAggregateColor{ { 200, 30, 30 } };
constexpr RGB FrameColor{ { 150, 150, 150 } };
constexpr RGB TickColor{ { 60, 60, 60 } };

// Pixels between "/" hatch lines: sparse enough that at full view, where
// every column is an aggregate, the colours of the marks stay readable
// (about 1 pixel in 12 is hatching), dense enough to be seen on any mark
// a few pixels wide.
constexpr double TimeHatchSpacing = 12.0;
// The mode colour of an aggregate is blended towards this grey by the share
// of time the mode does not hold: the transparency by the mode's proportion
// of Dosimont et al., "Combining Data and Visual Aggregation Techniques to
// Build a Coherent Spatiotemporal Overview" (2014), without translucent
// geometry. At least ModeMinWeight of the colour is kept.
constexpr RGB ModeBlendColor{ { 232, 232, 232 } };
constexpr double ModeMinWeight = 0.35;
// The message density strip, above the chart: its gap to the chart and its
// height (pixels), and the grey of its emptiest and fullest columns.
constexpr double DensityGap = 4.0;
constexpr double DensityHeight = 10.0;
constexpr double DensityLightest = 225.0;
constexpr double DensityDarkest = 20.0;
constexpr double RowHatchSpacing = 8.0;  // pixels between "\" hatch lines
constexpr const char* AggregateKey = "merged narrow states or rows";
constexpr const char* MessageKey = "message";
constexpr const char* MergedMessagesKey = "messages merged in one pixel";
constexpr const char* DensityKey = "messages sent per pixel (top strip)";
constexpr std::size_t LegendMaxTypes = 24;
using MacroscopeChart::LegendRowHeight;
using MacroscopeChart::LegendSwatch;

// Which row each leaf is drawn on, and the hierarchy vertex naming each row.
struct RowPlan
{
  std::vector<uint32_t> RowOfLeaf;
  std::vector<vtkIdType> RowVertex;
  int Level = -1; // -1: one row per location; k: the vertices of depth k
};

// The zoom across rows: keeps the locations window[0]..window[1] of those
// `keep` holds (top to bottom), all when window[1] < window[0]; `drawn` gets
// the first and last kept and how many there were to choose from.
void KeepRowWindow(const std::vector<int64_t>& parent, const std::vector<int64_t>& leafIndex,
  const int window[2], std::vector<bool>& keep, int drawn[3])
{
  const auto full = macroscope::BuildResourceHierarchy(parent, leafIndex, -1, keep);
  const int total = static_cast<int>(full.Resources);
  const bool all = window[1] < window[0];
  drawn[0] = all ? 0 : std::clamp(window[0], 0, std::max(total - 1, 0));
  drawn[1] = all ? total - 1 : std::clamp(window[1], drawn[0], std::max(total - 1, 0));
  drawn[2] = total;
  if (all)
  {
    return;
  }
  keep.assign(full.ResourceOfLeaf.size(), false);
  for (std::size_t leaf = 0; leaf < full.ResourceOfLeaf.size(); ++leaf)
  {
    const uint32_t row = full.ResourceOfLeaf[leaf];
    keep[leaf] = row != macroscope::NoResource && static_cast<int>(row) >= drawn[0] &&
      static_cast<int>(row) <= drawn[1];
  }
}

RowPlan PlanRows(const std::vector<int64_t>& parent, const std::vector<int64_t>& leafIndex,
  double viewHeight, double minRowHeight, const std::vector<bool>& keepLeaf)
{
  const double fit = minRowHeight > 0.0 ? std::floor(viewHeight / minRowHeight)
                                        : std::numeric_limits<double>::infinity();
  int maxDepth = 0;
  std::vector<int> depth(parent.size(), 0);
  for (std::size_t v = 0; v < parent.size(); ++v)
  {
    depth[v] = parent[v] < 0 ? 0 : depth[static_cast<std::size_t>(parent[v])] + 1;
    maxDepth = std::max(maxDepth, depth[v]);
  }
  auto plan = [&](int level) {
    const auto hierarchy = macroscope::BuildResourceHierarchy(parent, leafIndex, level, keepLeaf);
    RowPlan rows;
    rows.RowOfLeaf = hierarchy.ResourceOfLeaf;
    rows.RowVertex.assign(hierarchy.Vertex.begin(), hierarchy.Vertex.begin() + hierarchy.Resources);
    rows.Level = level;
    return rows;
  };
  RowPlan rows = plan(-1);
  // Seed 001 §III-C: rows too thin to be seen give way to their parents.
  for (int level = maxDepth - 1; level >= 1 && static_cast<double>(rows.RowVertex.size()) > fit;
       --level)
  {
    rows = plan(level);
  }
  return rows;
}

std::string VertexName(vtkTree* tree, vtkIdType vertex)
{
  auto* names = vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::Name));
  return names ? names->GetValue(vertex) : "vertex " + std::to_string(vertex);
}

// Row names, made unique by the parent's name where they repeat (every
// process has a "Master thread").
// The path from a band's first row up to the root, for its row label: a
// level where the band's last row has another ancestor (the band straddles
// two groups) is -1.
std::vector<int64_t> BandAncestors(
  const std::vector<int64_t>& parent, vtkIdType firstVertex, vtkIdType lastVertex)
{
  auto pathOf = [&parent](int64_t vertex) {
    std::vector<int64_t> path;
    for (; vertex >= 0; vertex = parent[static_cast<std::size_t>(vertex)])
    {
      path.push_back(vertex);
    }
    return path;
  };
  std::vector<int64_t> path = pathOf(firstVertex);
  if (lastVertex != firstVertex)
  {
    const std::vector<int64_t> last = pathOf(lastVertex);
    for (int64_t& vertex : path)
    {
      if (std::find(last.begin(), last.end(), vertex) == last.end())
      {
        vertex = -1;
      }
    }
  }
  return path;
}

std::vector<std::string> RowNames(vtkTree* tree, const std::vector<vtkIdType>& rowVertex)
{
  std::vector<std::string> names;
  std::map<std::string, int> uses;
  for (vtkIdType vertex : rowVertex)
  {
    names.push_back(VertexName(tree, vertex));
    ++uses[names.back()];
  }
  for (std::size_t r = 0; r < names.size(); ++r)
  {
    const vtkIdType up = tree->GetParent(rowVertex[r]);
    if (uses[names[r]] > 1 && up >= 0)
    {
      names[r] = VertexName(tree, up) + " / " + names[r];
    }
  }
  return names;
}

using MacroscopeChart::TypeLook;
using MacroscopeChart::Geometry;
using MacroscopeChart::NamedArray;

// Room above the plot: half a row label, which is centred on its row, and
// the message density strip when messages are shown (whether it is drawn is
// known only after the layout, which the frame must precede).
double TopMargin(const MacroscopeChart::TextMeasure& measure, bool messages, bool title)
{
  const double label =
    0.5 * measure.Height(MacroscopeChart::ROW_LABEL) + 2.0 * MacroscopeChart::LabelGap;
  const double strip = messages ? std::max(label, DensityGap + DensityHeight + 1.0) : label;
  return title ? strip + measure.Height(MacroscopeChart::AXIS_TITLE) + 2.0 * MacroscopeChart::LabelGap
               : strip;
}

// The top of the title's box (titles hang from their anchor): at the top
// of the view, above the density strip (TopMargin with a title).
double TitleY(double plotHeight, const MacroscopeChart::Frame& frame)
{
  return plotHeight + frame.Top - MacroscopeChart::LabelGap;
}

// The chart's frame in a view of `viewSize` pixels: row names at the left,
// the time axis below, the legend of every type that may be drawn (the
// marks are laid out in the frame, so it cannot wait for them) and its key
// at the right.
MacroscopeChart::Frame TimelineFrame(const int viewSize[2], const std::vector<std::string>& rowNames,
  const TypeLook& types, const std::vector<bool>& keepType,
  const MacroscopeChart::TextMeasure& measure, bool messages, bool title)
{
  std::vector<std::string> legendNames{ AggregateKey, MessageKey, MergedMessagesKey, DensityKey };
  for (std::size_t type = 0; type < types.Names.size(); ++type)
  {
    if (keepType.empty() || (type < keepType.size() && keepType[type]))
    {
      legendNames.push_back(types.Names[type]);
    }
  }
  return MacroscopeChart::FitFrame(viewSize, MacroscopeChart::RowLabelMargin(rowNames, measure, viewSize[0]),
    MacroscopeChart::LegendMarginFor(legendNames, measure, viewSize[0]),
    MacroscopeChart::TimeAxisMargin(measure), TopMargin(measure, messages, title));
}

void Hatch(Geometry& hatching, double x0, double y0, double x1, double y1, double z,
  double spacing, int slope)
{
  MacroscopeChart::Hatch(hatching, x0, y0, x1, y1, z, spacing, slope, HatchColor);
}

// The colour of an aggregate drawn in its mode's colour: the mode's share
// `share` of the mark's time in [0, 1] (1: all of it) keeps that much of the
// colour, at least ModeMinWeight.
RGB ModeShade(RGB color, double share)
{
  const double weight = ModeMinWeight + (1.0 - ModeMinWeight) * std::clamp(share, 0.0, 1.0);
  RGB shaded;
  for (int c = 0; c < 3; ++c)
  {
    shaded[c] = static_cast<unsigned char>(
      std::lround(weight * color[c] + (1.0 - weight) * ModeBlendColor[c]));
  }
  return shaded;
}

// Clips the segment (x0, y0)-(x1, y1) to x in [0, width]; false when nothing is left.
bool ClipToWidth(double& x0, double& y0, double& x1, double& y1, double width)
{
  double t0 = 0.0;
  double t1 = 1.0;
  const double dx = x1 - x0;
  for (double bound : { 0.0, width })
  {
    if (dx == 0.0)
    {
      if (x0 < 0.0 || x0 > width)
      {
        return false;
      }
      continue;
    }
    const double t = (bound - x0) / dx;
    const bool entering = (bound == 0.0) == (dx > 0.0);
    if (entering)
    {
      t0 = std::max(t0, t);
    }
    else
    {
      t1 = std::min(t1, t);
    }
  }
  if (t0 > t1)
  {
    return false;
  }
  const double dy = y1 - y0;
  const double ax = x0 + t0 * dx, ay = y0 + t0 * dy;
  x1 = x0 + t1 * dx;
  y1 = y0 + t1 * dy;
  x0 = ax;
  y0 = ay;
  return true;
}
}

struct vtkMacroscopeTimelineLayout::IndexCache
{
  vtkTable* States = nullptr;
  vtkTable* Messages = nullptr;
  vtkMTimeType StatesTime = 0;
  vtkMTimeType MessagesTime = 0;
  uint32_t Leaves = 0;
  MacroscopeColumnStore Store;
  macroscope::StateRows StateRows;
  macroscope::MessageRows MessageRows;
  macroscope::TimelineIndex Index;
};

vtkMacroscopeTimelineLayout::vtkMacroscopeTimelineLayout()
{
  this->SetNumberOfOutputPorts(6);
  this->SetController(vtkMultiProcessController::GetGlobalController());
}

vtkMacroscopeTimelineLayout::~vtkMacroscopeTimelineLayout()
{
  this->SetController(nullptr);
  this->SetTitle(nullptr);
}

void vtkMacroscopeTimelineLayout::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "TimeWindow: " << this->TimeWindow[0] << " " << this->TimeWindow[1] << "\n";
  os << indent << "RowWindow: " << this->RowWindow[0] << " " << this->RowWindow[1] << "\n";
  os << indent << "ViewSize: " << this->ViewSize[0] << " " << this->ViewSize[1] << "\n";
  os << indent << "Title: " << (this->Title ? this->Title : "(none)") << "\n";
  os << indent << "MinMarkWidth: " << this->MinMarkWidth << "\n";
  os << indent << "MinRowHeight: " << this->MinRowHeight << "\n";
  os << indent << "Depth: " << this->Depth << "\n";
  os << indent << "ShowMessages: " << this->ShowMessages << "\n";
  os << indent << "MaxMessagesPerPixel: " << this->MaxMessagesPerPixel << "\n";
  os << indent << "GroupLevel: " << this->GroupLevel << "\n";
  os << indent << "AggregateStyle: " << (this->AggregateStyle == MODE ? "Mode" : "Stacked") << "\n";
  MacroscopeNameList::Print(os, indent, "Resources", this->Resources);
  MacroscopeNameList::Print(os, indent, "Types", this->Types);
  os << indent << "TypeColors: " << this->TypeColors.size() / 2 << " pairs\n";
  os << indent << "Controller: " << this->Controller << "\n";
}

void vtkMacroscopeTimelineLayout::AddResource(const char* name)
{
  MacroscopeNameList::Add(this->Resources, name);
  this->Modified();
}

void vtkMacroscopeTimelineLayout::RemoveAllResources()
{
  if (MacroscopeNameList::Clear(this->Resources))
  {
    this->Modified();
  }
}

void vtkMacroscopeTimelineLayout::AddType(const char* name)
{
  MacroscopeNameList::Add(this->Types, name);
  this->Modified();
}

void vtkMacroscopeTimelineLayout::RemoveAllTypes()
{
  if (MacroscopeNameList::Clear(this->Types))
  {
    this->Modified();
  }
}

int vtkMacroscopeTimelineLayout::FillInputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkDataObject");
  info->Set(vtkAlgorithm::INPUT_IS_REPEATABLE(), 1);
  return 1;
}

int vtkMacroscopeTimelineLayout::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  vtkPolyData* outputs[6];
  for (int port = 0; port < 6; ++port)
  {
    outputs[port] = vtkPolyData::GetData(outputVector, port);
    outputs[port]->Initialize();
  }
  // Properties first: every problem is reported before any work is done.
  if (this->ViewSize[0] < 1 || this->ViewSize[1] < 1)
  {
    vtkErrorMacro("ViewSize must be at least 1 x 1 pixels, not " << this->ViewSize[0] << " x "
                                                                << this->ViewSize[1] << ".");
    return 0;
  }
  if (!(this->MinMarkWidth >= 0.0) || !(this->MinRowHeight >= 0.0) ||
    !std::isfinite(this->MinMarkWidth) || !std::isfinite(this->MinRowHeight))
  {
    vtkErrorMacro("MinMarkWidth and MinRowHeight must be finite pixel sizes >= 0, not "
      << this->MinMarkWidth << " and " << this->MinRowHeight << ".");
    return 0;
  }
  if (this->Depth < -1 || this->MaxMessagesPerPixel < 0 || this->GroupLevel < 0 ||
    (this->AggregateStyle != STACKED && this->AggregateStyle != MODE))
  {
    vtkErrorMacro("Depth must be >= -1, MaxMessagesPerPixel and GroupLevel >= 0 and "
                  "AggregateStyle 0 (stacked) or 1 (mode); got "
      << this->Depth << ", " << this->MaxMessagesPerPixel << ", " << this->GroupLevel << ", "
      << this->AggregateStyle << ".");
    return 0;
  }
  macroscope::TypeColorOverrides typeColors;
  {
    std::string problem;
    if (!MacroscopeChart::ParseTypeColors(this->TypeColors, typeColors, problem))
    {
      vtkErrorMacro("TypeColors: " << problem << ".");
      return 0;
    }
  }

  MacroscopeTraceInputs trace;
  std::string problem;
  if (!trace.CollectTrace(this, inputVector[0], problem))
  {
    vtkErrorMacro("Timeline Layout: " << problem << ".");
    return 0;
  }
  if (!trace.States || !trace.Hierarchy)
  {
    vtkErrorMacro("Timeline Layout needs a trace reader's States and Hierarchy outputs "
                  "(Messages and Types are optional); "
      << trace.Describe() << ".");
    return 0;
  }

  // The window: the trace's span where the property leaves it open
  // (collective: before any rank can stop on its own).
  double span[2];
  if (!trace.ResolveWindow(this->TimeWindow, this->Controller, span, problem))
  {
    vtkErrorMacro(<< problem << ".");
    return 0;
  }
  const double t0 = span[0], t1 = span[1];

  std::vector<int64_t> parent;
  std::vector<int64_t> leafIndex;
  if (!MacroscopeHierarchyArrays(trace.Hierarchy, parent, leafIndex, problem))
  {
    vtkErrorMacro("Timeline Layout: " << problem << ".");
    return 0;
  }
  // The selection (linked views): rows of the selected resources only,
  // states of the selected types only. The Hierarchy and Types are whole on
  // every rank, so every rank fails alike on an unknown name.
  std::vector<bool> keepLeaf;
  std::vector<bool> keepType;
  if (!MacroscopeModelPlan::SelectLeaves(trace.Hierarchy, parent, leafIndex, this->Resources,
        keepLeaf, problem) ||
    !MacroscopeModelPlan::SelectTypes(trace.Types, this->Types, keepType, problem))
  {
    vtkErrorMacro("Timeline Layout: " << problem << ".");
    return 0;
  }
  int drawnRows[3] = { 0, 0, 0 };
  try
  {
    KeepRowWindow(parent, leafIndex, this->RowWindow, keepLeaf, drawnRows);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Timeline Layout: the Hierarchy cannot be used: " << error.what());
    return 0;
  }
  // The frame (docs/labels.md): the plot and the margins its text needs
  // fill ViewSize; the rows share the plot's height.
  const MacroscopeChart::TextMeasure measure(this->LabelFontSize);
  MacroscopeChart::Frame frame = MacroscopeChart::FitFrame(
    this->ViewSize, 0.0, 0.0, MacroscopeChart::TimeAxisMargin(measure),
    TopMargin(measure, this->ShowMessages != 0, this->Title && *this->Title));
  RowPlan rows;
  try
  {
    rows = PlanRows(parent, leafIndex, frame.Height, this->MinRowHeight, keepLeaf);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Timeline Layout: the Hierarchy cannot be used: " << error.what());
    return 0;
  }
  const uint32_t leaves = static_cast<uint32_t>(rows.RowOfLeaf.size());
  if (leaves == 0)
  {
    vtkErrorMacro("Timeline Layout: the Hierarchy has no locations.");
    return 0;
  }
  this->UpdateProgress(0.05);
  auto aborted = [this, &outputs]() {
    for (vtkPolyData* output : outputs)
    {
      output->Initialize(); // nothing of an earlier run
    }
    vtkWarningMacro("Timeline Layout aborted.");
    return 1;
  };

  // The window index, built once per trace (O(n log n)), then reused.
  vtkTable* messageTable = trace.Messages;
  if (!this->Cache || this->Cache->States != trace.States ||
    this->Cache->StatesTime != trace.States->GetMTime() || this->Cache->Messages != messageTable ||
    (messageTable && this->Cache->MessagesTime != messageTable->GetMTime()) ||
    this->Cache->Leaves != leaves)
  {
    this->Cache.reset(new IndexCache);
    IndexCache& cache = *this->Cache;
    MacroscopeColumnStore& store = cache.Store;
    vtkTable* states = trace.States;
    cache.StateRows = { store.Ids32(states, schema::Location), store.Ids32(states, schema::Type),
      store.Ids32(states, schema::Depth), store.Real(states, schema::Start),
      store.Real(states, schema::End), static_cast<std::size_t>(states->GetNumberOfRows()) };
    const auto& s = cache.StateRows;
    if (!s.Location || !s.Type || !s.Depth || !s.Start || !s.End)
    {
      this->Cache.reset();
      vtkErrorMacro("Timeline Layout: the States table misses one of the columns Location, Type, "
                    "Depth, Start, End (see docs/architecture.md).");
      return 0;
    }
    if (messageTable)
    {
      cache.MessageRows = { store.Ids32(messageTable, schema::Sender),
        store.Ids32(messageTable, schema::Receiver), store.Real(messageTable, schema::SendTime),
        store.Real(messageTable, schema::RecvTime), store.Real(messageTable, schema::Bytes),
        static_cast<std::size_t>(messageTable->GetNumberOfRows()) };
      const auto& m = cache.MessageRows;
      if (!m.Sender || !m.Receiver || !m.SendTime || !m.RecvTime)
      {
        this->Cache.reset();
        vtkErrorMacro("Timeline Layout: the Messages table misses one of the columns Sender, "
                      "Receiver, SendTime, RecvTime (see docs/architecture.md).");
        return 0;
      }
    }
    try
    {
      cache.Index = macroscope::BuildTimelineIndex(cache.StateRows, cache.MessageRows, leaves,
        [this](double fraction) {
          this->UpdateProgress(0.05 + 0.45 * fraction);
          return !this->GetAbortExecute();
        },
        this->Threads());
    }
    catch (const macroscope::TimelineLayoutAborted&)
    {
      this->Cache.reset(); // half built
      return aborted();
    }
    catch (const std::exception& error)
    {
      this->Cache.reset();
      vtkErrorMacro("Timeline Layout: " << error.what());
      return 0;
    }
    cache.States = trace.States;
    cache.StatesTime = trace.States->GetMTime();
    cache.Messages = messageTable;
    cache.MessagesTime = messageTable ? messageTable->GetMTime() : 0;
    cache.Leaves = leaves;
  }
  this->UpdateProgress(0.5);

  const std::vector<std::string> rowNames = RowNames(trace.Hierarchy, rows.RowVertex);
  TypeLook types;
  types.Fill(trace.Types, typeColors);
  const bool titled = this->Title && *this->Title;
  frame = TimelineFrame(
    this->ViewSize, rowNames, types, keepType, measure, this->ShowMessages != 0, titled);
  const double width = frame.Width;
  const double height = frame.Height;
  macroscope::TimelineOptions options;
  options.WindowBegin = t0;
  options.WindowEnd = t1;
  options.ViewWidth = width;
  options.MinMarkWidth = this->MinMarkWidth;
  options.ViewHeight = height;
  options.MinRowHeight = this->MinRowHeight;
  options.RowOfLeaf = rows.RowOfLeaf;
  options.KeepType = keepType;
  options.Rows = static_cast<uint32_t>(rows.RowVertex.size());
  options.Depth = this->Depth;
  options.MaxMessagesPerPixel = static_cast<uint32_t>(this->MaxMessagesPerPixel);
  // More lines than pixel columns would cover the states: a density instead.
  options.MaxMessageLines = static_cast<std::size_t>(std::max(1.0, width));
  options.Messages = this->ShowMessages && messageTable;
  options.Threads = this->Threads();
  options.Progress = [this](double fraction) {
    this->UpdateProgress(0.5 + 0.3 * fraction);
    return !this->GetAbortExecute(); // CheckAbort would make the pipeline run it again
  };
  macroscope::TimelineLayout layout;
  try
  {
    layout = macroscope::LayoutTimeline(
      this->Cache->Index, this->Cache->StateRows, this->Cache->MessageRows, options);
  }
  catch (const macroscope::TimelineLayoutAborted&)
  {
    return aborted();
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Timeline Layout: " << error.what());
    return 0;
  }
  this->UpdateProgress(0.8);

  const double pps = layout.PixelsPerSecond;
  const std::size_t bands = layout.Bands.FirstRow.size();
  // Locations drawn on each band: an aggregate's time can fill at most its
  // extent once per location.
  std::vector<double> leavesOfBand(bands, 0.0);
  for (uint32_t row : rows.RowOfLeaf)
  {
    if (row != macroscope::NoResource && row / layout.RowsPerBand < bands)
    {
      leavesOfBand[row / layout.RowsPerBand] += 1.0;
    }
  }
  const double bandHeight = height / static_cast<double>(std::max<std::size_t>(bands, 1));
  auto bandTop = [&](uint32_t band) { return height - band * bandHeight; };
  auto xOf = [&](double time) { return (time - t0) * pps; };

  // Nesting: deeper states are drawn inset and in front of shallower ones.
  const macroscope::TimelineMarks& marks = layout.Marks;
  uint32_t deepest = 0;
  for (std::size_t i = 0; i < marks.Size(); ++i)
  {
    deepest = std::max(deepest, marks.Depth[i]);
  }
  const uint32_t shallowest = this->Depth >= 0 ? static_cast<uint32_t>(this->Depth) : 0;
  const double gap = bandHeight >= 4.0 ? 0.08 * bandHeight : 0.0;
  const double insetStep =
    deepest > shallowest ? std::min(0.12 * bandHeight, 0.3 * bandHeight / (deepest - shallowest)) : 0.0;
  auto markRows = [&](uint32_t band, uint32_t depth, double& y0, double& y1) {
    const double inset = (depth - shallowest) * insetStep;
    y1 = bandTop(band) - gap - inset;
    y0 = bandTop(band) - bandHeight + gap + inset;
  };
  auto zOf = [&](uint32_t depth) { return 1.0 + (depth - shallowest); };

  // Marks.
  Geometry markCells;
  const vtkIdType reserve = static_cast<vtkIdType>(marks.Size());
  auto typeIds = NamedArray<vtkIntArray>(schema::Type, reserve);
  auto markIds = NamedArray<vtkTypeInt64Array>("Mark", reserve);
  auto bandIds = NamedArray<vtkIntArray>("Band", reserve);
  auto depths = NamedArray<vtkIntArray>(schema::Depth, reserve);
  auto starts = NamedArray<vtkDoubleArray>(schema::Start, reserve);
  auto ends = NamedArray<vtkDoubleArray>(schema::End, reserve);
  auto durations = NamedArray<vtkDoubleArray>("Duration", reserve);
  auto counts = NamedArray<vtkTypeInt64Array>("StateCount", reserve);
  auto flags = NamedArray<vtkUnsignedCharArray>("Aggregate", reserve);
  auto fractions = NamedArray<vtkDoubleArray>("Fraction", reserve);
  auto typeTimes = NamedArray<vtkDoubleArray>("TypeTime", reserve);
  std::vector<double> timeOfType(types.Names.size(), 0.0);
  Geometry guides;
  Geometry hatching;
  // Hatching spans: runs of touching aggregates of one band and depth.
  struct Span
  {
    double X0, X1, Y0, Y1, Z;
    uint8_t Flags;
  };
  std::vector<Span> spans;
  for (std::size_t i = 0; i < marks.Size(); ++i)
  {
    double x0 = xOf(marks.Start[i]);
    double x1 = xOf(marks.End[i]);
    const uint8_t markFlags = marks.Flags[i];
    if ((markFlags & macroscope::TimelineTimeAggregate) && x1 - x0 < this->MinMarkWidth)
    {
      // Never dropped: a narrow aggregate is widened to the budget.
      const double centre = 0.5 * (x0 + x1);
      x0 = std::max(0.0, centre - 0.5 * this->MinMarkWidth);
      x1 = std::min(width, x0 + this->MinMarkWidth);
      x0 = std::max(0.0, x1 - this->MinMarkWidth);
    }
    double y0, y1;
    markRows(marks.Band[i], marks.Depth[i], y0, y1);
    const double z = zOf(marks.Depth[i]);
    const std::size_t first = marks.TypeOffset[i];
    const std::size_t last = marks.TypeOffset[i + 1];
    double total = 0.0;
    for (std::size_t k = first; k < last; ++k)
    {
      total += marks.TypeTime[k];
      if (marks.TypeId[k] >= timeOfType.size())
      {
        timeOfType.resize(marks.TypeId[k] + 1, 0.0);
      }
      timeOfType[marks.TypeId[k]] += marks.TypeTime[k];
    }
    // The share of the mark's time and locations the mode fills: idle gaps
    // between the narrow states count against it, so a column where a
    // location mostly waits without a state is drawn lighter.
    const double capacity = std::max(
      total, (marks.End[i] - marks.Start[i]) * std::max(1.0, leavesOfBand[marks.Band[i]]));
    auto addCell = [&](double cy0, double cy1, uint32_t type, double seconds, bool shade) {
      const double fraction = total > 0.0 ? seconds / total : 1.0;
      const double filled = capacity > 0.0 ? seconds / capacity : 1.0;
      markCells.Quad(
        x0, cy0, x1, cy1, z, shade ? ModeShade(types.Color(type), filled) : types.Color(type));
      typeIds->InsertNextValue(static_cast<int>(type));
      markIds->InsertNextValue(static_cast<vtkTypeInt64>(i));
      bandIds->InsertNextValue(static_cast<int>(marks.Band[i]));
      depths->InsertNextValue(static_cast<int>(marks.Depth[i]));
      starts->InsertNextValue(marks.Start[i]);
      ends->InsertNextValue(marks.End[i]);
      durations->InsertNextValue(marks.End[i] - marks.Start[i]);
      counts->InsertNextValue(marks.StateCount[i]);
      flags->InsertNextValue(markFlags);
      fractions->InsertNextValue(fraction);
      typeTimes->InsertNextValue(seconds);
    };
    if (markFlags != 0 && this->AggregateStyle == STACKED && last - first > 1 && total > 0.0)
    {
      double y = y0;
      for (std::size_t k = first; k < last; ++k)
      {
        const double fraction = marks.TypeTime[k] / total;
        const double next = k + 1 == last ? y1 : y + fraction * (y1 - y0);
        addCell(y, next, marks.TypeId[k], marks.TypeTime[k], false);
        y = next;
      }
    }
    else
    {
      double modeTime = 0.0;
      for (std::size_t k = first; k < last; ++k)
      {
        if (marks.TypeId[k] == marks.Type[i])
        {
          modeTime = marks.TypeTime[k];
        }
      }
      addCell(y0, y1, marks.Type[i], modeTime, (markFlags & macroscope::TimelineTimeAggregate) != 0);
    }
    if (markFlags != 0)
    {
      Span* open = spans.empty() ? nullptr : &spans.back();
      if (open && open->Y0 == y0 && open->Y1 == y1 && open->Flags == markFlags &&
        x0 <= open->X1 + 1.0 && x1 >= open->X0)
      {
        open->X1 = std::max(open->X1, x1);
      }
      else
      {
        spans.push_back({ x0, x1, y0, y1, z + 0.5, markFlags });
      }
    }
  }
  markCells.Into(outputs[MARKS]);
  vtkCellData* markData = outputs[MARKS]->GetCellData();
  for (vtkAbstractArray* array : std::initializer_list<vtkAbstractArray*>{ typeIds, markIds,
         bandIds, depths, starts, ends, durations, counts, flags, fractions, typeTimes })
  {
    markData->AddArray(array);
  }
  markData->SetActiveScalars(schema::Color);
  // Every mark's time per type, whatever the style (a Mode cell keeps only
  // its mode's): mark i (the "Mark" cell array) holds MarkTypeTime[k] seconds
  // of type MarkTypeId[k] for k in [MarkTypeOffset[i], MarkTypeOffset[i + 1]).
  {
    auto typeOffsets = NamedArray<vtkTypeInt64Array>("MarkTypeOffset");
    typeOffsets->SetNumberOfValues(static_cast<vtkIdType>(marks.TypeOffset.size()));
    for (std::size_t i = 0; i < marks.TypeOffset.size(); ++i)
    {
      typeOffsets->SetValue(static_cast<vtkIdType>(i), static_cast<vtkTypeInt64>(marks.TypeOffset[i]));
    }
    auto markTypeIds = NamedArray<vtkIntArray>("MarkTypeId");
    auto markTypeTimes = NamedArray<vtkDoubleArray>("MarkTypeTime");
    markTypeIds->SetNumberOfValues(static_cast<vtkIdType>(marks.TypeId.size()));
    markTypeTimes->SetNumberOfValues(static_cast<vtkIdType>(marks.TypeTime.size()));
    for (std::size_t k = 0; k < marks.TypeId.size(); ++k)
    {
      markTypeIds->SetValue(static_cast<vtkIdType>(k), static_cast<int>(marks.TypeId[k]));
      markTypeTimes->SetValue(static_cast<vtkIdType>(k), marks.TypeTime[k]);
    }
    outputs[MARKS]->GetFieldData()->AddArray(typeOffsets);
    outputs[MARKS]->GetFieldData()->AddArray(markTypeIds);
    outputs[MARKS]->GetFieldData()->AddArray(markTypeTimes);
  }

  // MPI: the ranks agree on lines or density (the lines of every rank
  // against the budget), and the density strip is the sum of the ranks'
  // columns, drawn by the first rank. A line, merged or not, lies in one
  // pixel column (the column of its send time: messages group by it), so a
  // rank's lines count into the density exactly.
  const int ranks = this->Controller ? this->Controller->GetNumberOfProcesses() : 1;
  if (ranks > 1 && options.Messages)
  {
    const double mine[2] = { layout.Density.Size() > 0 ? 1.0 : 0.0,
      static_cast<double>(layout.Lines.Size()) };
    double all[2] = { 0.0, 0.0 };
    this->Controller->AllReduce(mine, all, 2, vtkCommunicator::SUM_OP);
    if (all[0] > 0.0 || all[1] > static_cast<double>(options.MaxMessageLines))
    {
      const auto columns = static_cast<std::size_t>(std::max(1.0, std::ceil(width)));
      std::vector<double> counts(2 * columns, 0.0); // counts, then bytes
      const macroscope::TimelineDensity& own = layout.Density;
      for (std::size_t c = 0; c < own.Size(); ++c)
      {
        counts[static_cast<std::size_t>(own.Column[c])] += own.Count[c];
        counts[columns + static_cast<std::size_t>(own.Column[c])] += own.Bytes[c];
      }
      const macroscope::TimelineLines& own_lines = layout.Lines;
      for (std::size_t i = 0; i < own_lines.Size(); ++i)
      {
        const double column = std::clamp(
          std::floor((own_lines.SendTime[i] - t0) * pps), 0.0, static_cast<double>(columns - 1));
        counts[static_cast<std::size_t>(column)] += own_lines.Count[i];
        counts[columns + static_cast<std::size_t>(column)] += own_lines.Bytes[i];
      }
      std::vector<double> sums(counts.size(), 0.0);
      this->Controller->Reduce(counts.data(), sums.data(), static_cast<vtkIdType>(counts.size()),
        vtkCommunicator::SUM_OP, 0);
      layout.Lines = macroscope::TimelineLines();
      layout.Density = macroscope::TimelineDensity();
      if (this->Controller->GetLocalProcessId() == 0)
      {
        macroscope::TimelineDensity& density = layout.Density;
        for (std::size_t c = 0; c < columns; ++c)
        {
          if (sums[c] > 0.0)
          {
            density.Column.push_back(static_cast<int64_t>(c));
            density.Count.push_back(static_cast<uint32_t>(sums[c]));
            density.Bytes.push_back(sums[columns + c]);
            density.MaxCount = std::max(density.MaxCount, density.Count.back());
          }
        }
      }
    }
  }

  // Messages.
  Geometry lineCells;
  const macroscope::TimelineLines& lines = layout.Lines;
  const vtkIdType lineReserve = static_cast<vtkIdType>(lines.Size());
  auto sendTimes = NamedArray<vtkDoubleArray>(schema::SendTime, lineReserve);
  auto recvTimes = NamedArray<vtkDoubleArray>(schema::RecvTime, lineReserve);
  auto lineCounts = NamedArray<vtkTypeInt64Array>("Count", lineReserve);
  auto lineBytes = NamedArray<vtkDoubleArray>(schema::Bytes, lineReserve);
  auto lineFlags = NamedArray<vtkUnsignedCharArray>("Aggregate", lineReserve);
  const double lineZ = zOf(std::max(deepest, shallowest)) + 2.0;
  for (std::size_t i = 0; i < lines.Size(); ++i)
  {
    double x0 = xOf(lines.SendTime[i]);
    double y0 = bandTop(lines.SenderBand[i]) - 0.5 * bandHeight;
    double x1 = xOf(lines.RecvTime[i]);
    double y1 = bandTop(lines.ReceiverBand[i]) - 0.5 * bandHeight;
    if (!ClipToWidth(x0, y0, x1, y1, width))
    {
      continue;
    }
    const bool merged = lines.Flags[i] & macroscope::TimelineMessageAggregate;
    lineCells.Line(x0, y0, x1, y1, lineZ, merged ? MessageAggregateColor : MessageColor);
    sendTimes->InsertNextValue(lines.SendTime[i]);
    recvTimes->InsertNextValue(lines.RecvTime[i]);
    lineCounts->InsertNextValue(lines.Count[i]);
    lineBytes->InsertNextValue(lines.Bytes[i]);
    lineFlags->InsertNextValue(lines.Flags[i]);
  }
  // The density strip above the chart: a quad per pixel column holding
  // sends, darker with more (linear in the count, the fullest column
  // darkest). SendTime and RecvTime hold the column's time span there.
  const macroscope::TimelineDensity& density = layout.Density;
  for (std::size_t c = 0; c < density.Size(); ++c)
  {
    const double x0 = static_cast<double>(density.Column[c]);
    const double x1 = std::min(width, x0 + 1.0);
    const double share = density.MaxCount ? double(density.Count[c]) / density.MaxCount : 0.0;
    const auto grey =
      static_cast<unsigned char>(std::lround(DensityLightest + share * (DensityDarkest - DensityLightest)));
    lineCells.Quad(x0, height + DensityGap, x1, height + DensityGap + DensityHeight, lineZ,
      RGB{ { grey, grey, grey } });
    sendTimes->InsertNextValue(t0 + x0 / pps);
    recvTimes->InsertNextValue(t0 + x1 / pps);
    lineCounts->InsertNextValue(density.Count[c]);
    lineBytes->InsertNextValue(density.Bytes[c]);
    lineFlags->InsertNextValue(MESSAGE_DENSITY);
  }
  lineCells.Into(outputs[MESSAGES]);
  for (vtkAbstractArray* array : std::initializer_list<vtkAbstractArray*>{ sendTimes, recvTimes,
         lineCounts, lineBytes, lineFlags })
  {
    outputs[MESSAGES]->GetCellData()->AddArray(array);
  }
  outputs[MESSAGES]->GetCellData()->SetActiveScalars(schema::Color);

  // The legend: every type drawn, over all ranks, most time first.
  const int processes = this->Controller ? this->Controller->GetNumberOfProcesses() : 1;
  const bool root = !this->Controller || this->Controller->GetLocalProcessId() == 0;
  if (processes > 1)
  {
    // Ranks may know different numbers of types: agree on the longest list.
    int mine = static_cast<int>(timeOfType.size());
    int most = mine;
    this->Controller->AllReduce(&mine, &most, 1, vtkCommunicator::MAX_OP);
    timeOfType.resize(static_cast<std::size_t>(most), 0.0);
    std::vector<double> sum(timeOfType.size(), 0.0);
    if (most > 0)
    {
      this->Controller->AllReduce(timeOfType.data(), sum.data(), most, vtkCommunicator::SUM_OP);
    }
    timeOfType = sum;
  }

  // Guides and labels: drawn once, by the first rank.
  MacroscopeChart::Labels labelPoints;
  labelPoints.Z = lineZ + 1.0;
  auto label = [&](double x, double y, const std::string& text, int kind) {
    labelPoints.Add(x, y, text, kind);
  };
  if (root)
  {
    const uint32_t rowsPerBand = layout.RowsPerBand;
    if (this->GroupLevel > 0)
    {
      // The group of a row: its ancestor at depth GroupLevel (or itself).
      std::vector<int> depthOf(parent.size(), 0);
      for (std::size_t v = 0; v < parent.size(); ++v)
      {
        depthOf[v] = parent[v] < 0 ? 0 : depthOf[static_cast<std::size_t>(parent[v])] + 1;
      }
      auto groupOf = [&](vtkIdType vertex) {
        while (depthOf[static_cast<std::size_t>(vertex)] > this->GroupLevel)
        {
          vertex = parent[static_cast<std::size_t>(vertex)];
        }
        return vertex;
      };
      std::size_t row = 0;
      while (row < rows.RowVertex.size())
      {
        const vtkIdType group = groupOf(rows.RowVertex[row]);
        std::size_t end = row + 1;
        while (end < rows.RowVertex.size() && groupOf(rows.RowVertex[end]) == group)
        {
          ++end;
        }
        const double top = bandTop(static_cast<uint32_t>(row / rowsPerBand));
        const double bottom = bandTop(static_cast<uint32_t>((end - 1) / rowsPerBand)) - bandHeight;
        guides.Line(0.0, top, width, top, 0.5, FrameColor);
        // Inside the chart, at the group's top left corner: row names
        // fill the margin, and text does not scale with the chart.
        label(4.0, top - 2.0, VertexName(trace.Hierarchy, group), GROUP_LABEL);
        (void)bottom;
        row = end;
      }
    }
    // Row labels: every band its name when they are tall enough for the
    // text, else the groups (ranks, nodes...) that are.
    std::vector<MacroscopeChart::LabelledRow> labelled;
    for (std::size_t band = 0; band < bands; ++band)
    {
      const uint32_t first = layout.Bands.FirstRow[band];
      const uint32_t count = layout.Bands.RowCount[band];
      MacroscopeChart::LabelledRow row;
      row.Top = bandTop(static_cast<uint32_t>(band));
      row.Bottom = row.Top - bandHeight;
      row.Name = rowNames[first];
      if (count > 1)
      {
        row.Name += " \xE2\x80\xA6 " + rowNames[first + count - 1];
      }
      row.Ancestors = BandAncestors(parent, rows.RowVertex[first], rows.RowVertex[first + count - 1]);
      labelled.push_back(std::move(row));
    }
    MacroscopeChart::DrawGroupedRowLabels(labelPoints, guides, labelled,
      [&trace](int64_t vertex) { return VertexName(trace.Hierarchy, vertex); }, frame, measure,
      FrameColor);
    if (titled)
    {
      label(0.5 * width, TitleY(height, frame),
        measure.Elide(this->Title, AXIS_TITLE, MacroscopeChart::TitleRoom(frame)), AXIS_TITLE);
    }
    // Frame, time axis and ticks.
    MacroscopeChart::DrawFrame(guides, width, height, FrameColor);
    MacroscopeChart::DrawTimeAxis(guides, labelPoints, t0, t1, frame, measure, TickColor);
  }
  // Hatching of the aggregates: "/" over merged states, "\\" over merged rows.
  for (const Span& span : spans)
  {
    if (span.Flags & macroscope::TimelineTimeAggregate)
    {
      Hatch(hatching, span.X0, span.Y0, span.X1, span.Y1, span.Z, TimeHatchSpacing, +1);
    }
    if (span.Flags & macroscope::TimelineRowAggregate)
    {
      Hatch(hatching, span.X0, span.Y0, span.X1, span.Y1, span.Z, RowHatchSpacing, -1);
    }
  }
  guides.Into(outputs[GUIDES]);
  outputs[GUIDES]->GetCellData()->SetActiveScalars(schema::Color);

  auto legendNames = NamedArray<vtkStringArray>("LegendName");
  auto legendColors = NamedArray<vtkUnsignedCharArray>("LegendColor");
  legendColors->SetNumberOfComponents(3);
  auto legendTimes = NamedArray<vtkDoubleArray>("LegendTime");
  std::vector<uint32_t> order(timeOfType.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
    [&](uint32_t a, uint32_t b) { return timeOfType[a] > timeOfType[b]; });
  for (uint32_t type : order)
  {
    if (timeOfType[type] > 0.0)
    {
      legendNames->InsertNextValue(types.Name(type));
      const RGB rgb = types.Color(type);
      const unsigned char tuple[3] = { rgb[0], rgb[1], rgb[2] };
      legendColors->InsertNextTypedTuple(tuple);
      legendTimes->InsertNextValue(timeOfType[type]);
    }
  }
  // The legend, drawn right of the chart by the first rank: a swatch per
  // type (most time first), then the aggregate marks' hatching when any
  // rank drew an aggregate.
  int anyAggregate = std::any_of(marks.Flags.begin(), marks.Flags.end(),
    [](uint8_t markFlags) { return markFlags != 0; });
  if (processes > 1)
  {
    int mine = anyAggregate;
    this->Controller->Reduce(&mine, &anyAggregate, 1, vtkCommunicator::MAX_OP, 0);
  }
  Geometry legend;
  if (root)
  {
    std::vector<MacroscopeChart::LegendEntry> entries;
    for (vtkIdType i = 0; i < legendNames->GetNumberOfValues(); ++i)
    {
      entries.push_back({ legendNames->GetValue(i),
        RGB{ { legendColors->GetValue(3 * i), legendColors->GetValue(3 * i + 1),
          legendColors->GetValue(3 * i + 2) } } });
    }
    // Rows of the marks' key go below the types, which give way to them.
    const std::size_t keyRows = (anyAggregate ? 1 : 0) + (options.Messages ? 2 : 0);
    double y = MacroscopeChart::DrawLegend(
      legend, labelPoints, entries, frame, measure, LegendMaxTypes, keyRows);
    const double x = MacroscopeChart::LegendSwatchX(width);
    const double room = MacroscopeChart::LegendTextRoom(frame);
    auto keyLabel = [&](const char* text) {
      label(MacroscopeChart::LegendTextX(width), y + 0.5 * LegendSwatch,
        measure.Elide(text, LEGEND_LABEL, room), LEGEND_LABEL);
    };
    const bool keyFits = MacroscopeChart::LegendRows(frame) >= keyRows;
    if (anyAggregate && keyFits)
    {
      Hatch(hatching, x, y, x + LegendSwatch, y + LegendSwatch, 0.5, 0.3 * LegendSwatch, +1);
      keyLabel(AggregateKey);
      y -= LegendRowHeight;
    }
    if (options.Messages && keyFits)
    {
      legend.Quad(x, y + 0.5 * LegendSwatch - 0.5, x + LegendSwatch, y + 0.5 * LegendSwatch + 0.5,
        0.5, MessageColor);
      keyLabel(MessageKey);
      y -= LegendRowHeight;
      if (layout.Density.Size() > 0)
      {
        // The density strip's entry: light to dark grey.
        for (int part = 0; part < 3; ++part)
        {
          const auto grey = static_cast<unsigned char>(
            std::lround(DensityLightest + 0.5 * part * (DensityDarkest - DensityLightest)));
          legend.Quad(x + part * LegendSwatch / 3.0, y, x + (part + 1) * LegendSwatch / 3.0,
            y + LegendSwatch, 0.5, RGB{ { grey, grey, grey } });
        }
        keyLabel(DensityKey);
      }
      else
      {
        legend.Quad(x, y + 0.5 * LegendSwatch - 1.0, x + LegendSwatch,
          y + 0.5 * LegendSwatch + 1.0, 0.5, MessageAggregateColor);
        keyLabel(MergedMessagesKey);
      }
    }
  }
  hatching.Into(outputs[HATCHING]);
  outputs[HATCHING]->GetCellData()->SetActiveScalars(schema::Color);
  legend.Into(outputs[LEGEND]);
  outputs[LEGEND]->GetCellData()->SetActiveScalars(schema::Color);
  labelPoints.Fit(measure, frame); // no two labels overlap, all in the frame
  labelPoints.Into(outputs[LABELS]);

  // Field data: the window and the rows on every output, the legend's
  // types on Legend.
  vtkNew<vtkDoubleArray> window;
  window->SetName("TimeWindow");
  window->SetNumberOfComponents(2);
  window->InsertNextTuple2(t0, t1);
  vtkNew<vtkIntArray> rowInfo;
  rowInfo->SetName("Rows");
  rowInfo->SetNumberOfComponents(4);
  const int rowTuple[4] = { static_cast<int>(rows.RowVertex.size()), rows.Level,
    static_cast<int>(bands), static_cast<int>(layout.RowsPerBand) };
  rowInfo->InsertNextTypedTuple(rowTuple);
  // The zoom across rows: first and last location drawn, of how many.
  vtkNew<vtkIntArray> rowWindowInfo;
  rowWindowInfo->SetName("RowWindow");
  rowWindowInfo->SetNumberOfComponents(3);
  rowWindowInfo->InsertNextTypedTuple(drawnRows);
  // The time axis for picking a range with the mouse (macroscope.links):
  // x of t0 and of t1 in chart pixels, then t0 and t1.
  vtkNew<vtkDoubleArray> axis;
  axis->SetName("TimeAxis");
  axis->SetNumberOfComponents(4);
  const double axisTuple[4] = { xOf(t0), xOf(t1), t0, t1 };
  axis->InsertNextTuple(axisTuple);
  for (vtkPolyData* output : outputs)
  {
    output->GetFieldData()->AddArray(window);
    output->GetFieldData()->AddArray(rowInfo);
    output->GetFieldData()->AddArray(rowWindowInfo);
    output->GetFieldData()->AddArray(axis);
  }
  // Details on demand (docs/details-on-demand.md): which band each leaf is
  // drawn on, and where the bands lie, so that a mark or a message end can
  // be traced back to its locations and state rows.
  {
    vtkNew<vtkIntArray> leafBand;
    leafBand->SetName("LeafBand");
    leafBand->SetNumberOfTuples(static_cast<vtkIdType>(leaves));
    const uint32_t rowCount = static_cast<uint32_t>(rows.RowVertex.size());
    const uint32_t perBand = std::max<uint32_t>(layout.RowsPerBand, 1);
    for (uint32_t leaf = 0; leaf < leaves; ++leaf)
    {
      const uint32_t row = rows.RowOfLeaf[leaf];
      leafBand->SetValue(leaf, row < rowCount ? static_cast<int>(row / perBand) : -1);
    }
    vtkNew<vtkDoubleArray> bandGeometry; // y of the top of band 0, band height
    bandGeometry->SetName("BandGeometry");
    bandGeometry->SetNumberOfComponents(2);
    bandGeometry->InsertNextTuple2(height, bandHeight);
    for (int port : { static_cast<int>(MARKS), static_cast<int>(MESSAGES) })
    {
      outputs[port]->GetFieldData()->AddArray(leafBand);
      outputs[port]->GetFieldData()->AddArray(bandGeometry);
    }
  }
  for (vtkAbstractArray* array :
    std::initializer_list<vtkAbstractArray*>{ legendNames, legendColors, legendTimes })
  {
    outputs[LEGEND]->GetFieldData()->AddArray(array);
  }
  this->UpdateProgress(1.0);
  return 1;
}

unsigned vtkMacroscopeTimelineLayout::Threads() const
{
  // The cores shared among the ranks of this machine (MPI ranks are assumed
  // to share one, as the OTF2 reader's threads do).
  const int processes = this->Controller ? std::max(1, this->Controller->GetNumberOfProcesses()) : 1;
  return std::max(1u, std::max(1u, std::thread::hardware_concurrency()) / static_cast<unsigned>(processes));
}

void vtkMacroscopeTimelineLayout::ClearTypeColors()
{
  if (!this->TypeColors.empty())
  {
    this->TypeColors.clear();
    this->Modified();
  }
}

void vtkMacroscopeTimelineLayout::AddTypeColor(const char* entry)
{
  this->TypeColors.emplace_back(entry ? entry : "");
  this->Modified();
}

void vtkMacroscopeTimelineLayout::SetTypeColors(const std::vector<std::string>& entries)
{
  if (entries != this->TypeColors)
  {
    this->TypeColors = entries;
    this->Modified();
  }
}
