#include "vtkMacroscopeTimelineLayout.h"

#include "MacroscopeChart.h"
#include "MacroscopeModelPlan.h"
#include "MacroscopeNameList.h"
#include "MacroscopeTraceColumns.h"
#include "MacroscopeTraceInputs.h"
#include "ResourceHierarchy.h"
#include "TimeAxis.h"
#include "TimeNavigation.h"
#include "TimelineDrawing.h"
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
// The message density strip, above the chart: its gap to the chart and its
// height (pixels).
constexpr double DensityGap = 4.0;
constexpr double DensityHeight = 10.0;
constexpr double RowHatchSpacing = 8.0; // pixels between "\" hatch lines
constexpr const char* AggregateKey = "merged narrow states or rows";
constexpr const char* MessageKey = "message";
constexpr const char* MergedMessagesKey = "messages merged in one pixel";
constexpr const char* DensityKey = "messages sent per pixel (top strip)";
constexpr std::size_t LegendMaxTypes = 24;
using MacroscopeChart::LegendRowHeight;
using MacroscopeChart::LegendSwatch;

std::string VertexName(vtkTree* tree, vtkIdType vertex)
{
  auto* names = vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::Name));
  return names ? names->GetValue(vertex) : "vertex " + std::to_string(vertex);
}

// Row names, made unique by the parent's name where they repeat (every
// process has a "Master thread").
std::vector<std::string> RowNames(vtkTree* tree, const std::vector<int64_t>& rowVertex)
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

using MacroscopeChart::Geometry;
using MacroscopeChart::NamedArray;
using MacroscopeChart::TypeLook;

// Room above the plot: half a row label, which is centred on its row, and
// the message density strip when messages are shown (whether it is drawn is
// known only after the layout, which the frame must precede).
double TopMargin(const MacroscopeChart::TextMeasure& measure, bool messages, bool title)
{
  const double label =
    0.5 * measure.Height(MacroscopeChart::ROW_LABEL) + 2.0 * MacroscopeChart::LabelGap;
  const double strip = messages ? std::max(label, DensityGap + DensityHeight + 1.0) : label;
  return title
    ? strip + measure.Height(MacroscopeChart::AXIS_TITLE) + 2.0 * MacroscopeChart::LabelGap
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
MacroscopeChart::Frame TimelineFrame(const int viewSize[2],
  const std::vector<std::string>& rowNames, const TypeLook& types,
  const std::vector<bool>& keepType, const MacroscopeChart::TextMeasure& measure, bool messages,
  bool title)
{
  std::vector<std::string> legendNames{ AggregateKey, MessageKey, MergedMessagesKey, DensityKey };
  for (std::size_t type = 0; type < types.Names.size(); ++type)
  {
    if (keepType.empty() || (type < keepType.size() && keepType[type]))
    {
      legendNames.push_back(types.Names[type]);
    }
  }
  return MacroscopeChart::FitFrame(viewSize,
    MacroscopeChart::RowLabelMargin(rowNames, measure, viewSize[0]),
    MacroscopeChart::LegendMarginFor(legendNames, measure, viewSize[0]),
    MacroscopeChart::TimeAxisMargin(measure), TopMargin(measure, messages, title));
}

void Hatch(Geometry& hatching, double x0, double y0, double x1, double y1, double z, double spacing,
  int slope)
{
  MacroscopeChart::Hatch(hatching, x0, y0, x1, y1, z, spacing, slope, HatchColor);
}

// Hatching of the aggregates: "/" over merged states, "\\" over merged rows.
void HatchSpans(Geometry& hatching, const std::vector<macroscope::TimelineHatchSpan>& spans)
{
  for (const macroscope::TimelineHatchSpan& span : spans)
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
}

// Every mark's time per type, whatever the style (a Mode cell keeps only
// its mode's): mark i (the "Mark" cell array) holds MarkTypeTime[k] seconds
// of type MarkTypeId[k] for k in [MarkTypeOffset[i], MarkTypeOffset[i + 1]).
void AddMarkTypeTimes(const macroscope::TimelineMarks& marks, vtkPolyData* output)
{
  auto typeOffsets = NamedArray<vtkTypeInt64Array>("MarkTypeOffset");
  typeOffsets->SetNumberOfValues(static_cast<vtkIdType>(marks.TypeOffset.size()));
  for (std::size_t i = 0; i < marks.TypeOffset.size(); ++i)
  {
    typeOffsets->SetValue(
      static_cast<vtkIdType>(i), static_cast<vtkTypeInt64>(marks.TypeOffset[i]));
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
  output->GetFieldData()->AddArray(typeOffsets);
  output->GetFieldData()->AddArray(markTypeIds);
  output->GetFieldData()->AddArray(markTypeTimes);
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

MACROSCOPE_RESOURCES_AND_TYPES(vtkMacroscopeTimelineLayout)

int vtkMacroscopeTimelineLayout::FillInputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkDataObject");
  info->Set(vtkAlgorithm::INPUT_IS_REPEATABLE(), 1);
  return 1;
}

// One run of RequestData: what its stages hand on to each other.
struct vtkMacroscopeTimelineLayout::Run
{
  vtkPolyData* Outputs[6] = {};
  macroscope::TypeColorOverrides TypeColors;
  MacroscopeTraceInputs Trace;
  double T0 = 0.0, T1 = 1.0;
  std::vector<int64_t> Parent;
  std::vector<int64_t> LeafIndex;
  std::vector<bool> KeepLeaf;
  std::vector<bool> KeepType;
  int DrawnRows[3] = { 0, 0, 0 };
  macroscope::TimelineRowPlan Rows;
  MacroscopeChart::TextMeasure Measure;
  MacroscopeChart::Frame Frame;
  bool Titled = false;
  std::vector<std::string> RowNames;
  TypeLook Types;
  macroscope::TimelineOptions Options;
  macroscope::TimelineLayout Layout;

  explicit Run(int fontSize)
    : Measure(fontSize)
  {
  }
  uint32_t Leaves() const { return static_cast<uint32_t>(this->Rows.RowOfLeaf.size()); }
  double XOf(double time) const { return (time - this->T0) * this->Layout.PixelsPerSecond; }
};

int vtkMacroscopeTimelineLayout::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  Run run(this->LabelFontSize);
  for (int port = 0; port < 6; ++port)
  {
    run.Outputs[port] = vtkPolyData::GetData(outputVector, port);
    run.Outputs[port]->Initialize();
  }
  // Properties first: every problem is reported before any work is done.
  if (!this->CheckProperties(run) || !this->ReadInputs(inputVector[0], run) || !this->PlanRows(run))
  {
    return 0;
  }
  this->UpdateProgress(0.05);
  Status status = this->UpdateIndex(run);
  if (status == Status::Done)
  {
    this->UpdateProgress(0.5);
    status = this->Layout(run);
  }
  if (status != Status::Done)
  {
    return status == Status::Failed ? 0 : this->Aborted(run);
  }
  this->UpdateProgress(0.8);

  const macroscope::TimelineBandGeometry bands(run.Layout, run.Frame.Height, this->Depth);
  macroscope::TimelineMarkDrawing drawing =
    macroscope::DrawTimelineMarks(run.Layout, bands, run.Rows.RowOfLeaf, run.T0, run.Frame.Width,
      this->MinMarkWidth, this->AggregateStyle == STACKED, run.Types.Names.size());
  this->EmitMarks(run, drawing);
  this->ShareMessageDensity(run);
  this->EmitMessages(run, bands);
  this->ShareTypeTimes(drawing.TimeOfType);

  const bool root = !this->Controller || this->Controller->GetLocalProcessId() == 0;
  MacroscopeChart::Labels labels;
  labels.Z = bands.LineZ() + 1.0;
  Geometry guides;
  if (root)
  {
    this->DrawGuides(run, bands, guides, labels);
  }
  guides.Into(run.Outputs[GUIDES]);
  run.Outputs[GUIDES]->GetCellData()->SetActiveScalars(schema::Color);
  Geometry hatching;
  HatchSpans(hatching, drawing.Spans);
  this->AddFieldData(run, bands);
  this->DrawLegend(run, drawing, hatching, labels);
  hatching.Into(run.Outputs[HATCHING]);
  run.Outputs[HATCHING]->GetCellData()->SetActiveScalars(schema::Color);
  labels.Fit(run.Measure, run.Frame); // no two labels overlap, all in the frame
  labels.Into(run.Outputs[LABELS]);
  this->UpdateProgress(1.0);
  return 1;
}

bool vtkMacroscopeTimelineLayout::CheckProperties(Run& run)
{
  if (this->ViewSize[0] < 1 || this->ViewSize[1] < 1)
  {
    vtkErrorMacro("ViewSize must be at least 1 x 1 pixels, not " << this->ViewSize[0] << " x "
                                                                 << this->ViewSize[1] << ".");
    return false;
  }
  if (!(this->MinMarkWidth >= 0.0) || !(this->MinRowHeight >= 0.0) ||
    !std::isfinite(this->MinMarkWidth) || !std::isfinite(this->MinRowHeight))
  {
    vtkErrorMacro("MinMarkWidth and MinRowHeight must be finite pixel sizes >= 0, not "
      << this->MinMarkWidth << " and " << this->MinRowHeight << ".");
    return false;
  }
  if (this->Depth < -1 || this->MaxMessagesPerPixel < 0 || this->GroupLevel < 0 ||
    (this->AggregateStyle != STACKED && this->AggregateStyle != MODE))
  {
    vtkErrorMacro("Depth must be >= -1, MaxMessagesPerPixel and GroupLevel >= 0 and "
                  "AggregateStyle 0 (stacked) or 1 (mode); got "
      << this->Depth << ", " << this->MaxMessagesPerPixel << ", " << this->GroupLevel << ", "
      << this->AggregateStyle << ".");
    return false;
  }
  std::string problem;
  if (!MacroscopeChart::ParseTypeColors(this->TypeColors, run.TypeColors, problem))
  {
    vtkErrorMacro("TypeColors: " << problem << ".");
    return false;
  }
  return true;
}

bool vtkMacroscopeTimelineLayout::ReadInputs(vtkInformationVector* input, Run& run)
{
  MacroscopeTraceInputs& trace = run.Trace;
  std::string problem;
  // The window: the trace's span where the property leaves it open.
  double span[2];
  if (!trace.CollectTraceAndWindow(
        this, "Timeline Layout", input, this->TimeWindow, this->Controller, span, problem))
  {
    vtkErrorMacro(<< problem);
    return false;
  }
  run.T0 = span[0];
  run.T1 = span[1];
  // The selection (linked views): rows of the selected resources only,
  // states of the selected types only. The Hierarchy and Types are whole on
  // every rank, so every rank fails alike on an unknown name.
  if (!MacroscopeHierarchyArrays(trace.Hierarchy, run.Parent, run.LeafIndex, problem) ||
    !MacroscopeModelPlan::SelectLeaves(
      trace.Hierarchy, run.Parent, run.LeafIndex, this->Resources, run.KeepLeaf, problem) ||
    !MacroscopeModelPlan::SelectTypes(trace.Types, this->Types, run.KeepType, problem))
  {
    vtkErrorMacro("Timeline Layout: " << problem << ".");
    return false;
  }
  return true;
}

bool vtkMacroscopeTimelineLayout::PlanRows(Run& run)
{
  // The frame (docs/labels.md): the plot and the margins its text needs
  // fill ViewSize; the rows share the plot's height.
  run.Titled = this->Title && *this->Title;
  run.Frame = MacroscopeChart::FitFrame(this->ViewSize, 0.0, 0.0,
    MacroscopeChart::TimeAxisMargin(run.Measure),
    TopMargin(run.Measure, this->ShowMessages != 0, run.Titled));
  try
  {
    macroscope::KeepTimelineRowWindow(
      run.Parent, run.LeafIndex, this->RowWindow, run.KeepLeaf, run.DrawnRows);
    run.Rows = macroscope::PlanTimelineRows(
      run.Parent, run.LeafIndex, run.Frame.Height, this->MinRowHeight, run.KeepLeaf);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Timeline Layout: the Hierarchy cannot be used: " << error.what());
    return false;
  }
  if (run.Leaves() == 0)
  {
    vtkErrorMacro("Timeline Layout: the Hierarchy has no locations.");
    return false;
  }
  return true;
}

int vtkMacroscopeTimelineLayout::Aborted(Run& run)
{
  for (vtkPolyData* output : run.Outputs)
  {
    output->Initialize(); // nothing of an earlier run
  }
  vtkWarningMacro("Timeline Layout aborted.");
  return 1;
}

bool vtkMacroscopeTimelineLayout::IndexIsCurrent(const Run& run) const
{
  vtkTable* messages = run.Trace.Messages;
  return this->Cache && this->Cache->States == run.Trace.States &&
    this->Cache->StatesTime == run.Trace.States->GetMTime() && this->Cache->Messages == messages &&
    (!messages || this->Cache->MessagesTime == messages->GetMTime()) &&
    this->Cache->Leaves == run.Leaves();
}

bool vtkMacroscopeTimelineLayout::ReadIndexColumns(const Run& run, IndexCache& cache)
{
  MacroscopeColumnStore& store = cache.Store;
  vtkTable* states = run.Trace.States;
  cache.StateRows = { store.Ids32(states, schema::Location), store.Ids32(states, schema::Type),
    store.Ids32(states, schema::Depth), store.Real(states, schema::Start),
    store.Real(states, schema::End), static_cast<std::size_t>(states->GetNumberOfRows()) };
  const auto& s = cache.StateRows;
  if (!s.Location || !s.Type || !s.Depth || !s.Start || !s.End)
  {
    vtkErrorMacro("Timeline Layout: the States table misses one of the columns Location, Type, "
                  "Depth, Start, End (see docs/architecture.md).");
    return false;
  }
  vtkTable* messages = run.Trace.Messages;
  if (!messages)
  {
    return true;
  }
  cache.MessageRows = { store.Ids32(messages, schema::Sender),
    store.Ids32(messages, schema::Receiver), store.Real(messages, schema::SendTime),
    store.Real(messages, schema::RecvTime), store.Real(messages, schema::Bytes),
    static_cast<std::size_t>(messages->GetNumberOfRows()) };
  const auto& m = cache.MessageRows;
  if (!m.Sender || !m.Receiver || !m.SendTime || !m.RecvTime)
  {
    vtkErrorMacro("Timeline Layout: the Messages table misses one of the columns Sender, "
                  "Receiver, SendTime, RecvTime (see docs/architecture.md).");
    return false;
  }
  return true;
}

vtkMacroscopeTimelineLayout::Status vtkMacroscopeTimelineLayout::UpdateIndex(const Run& run)
{
  // The window index, built once per trace (O(n log n)), then reused.
  if (this->IndexIsCurrent(run))
  {
    return Status::Done;
  }
  this->Cache.reset(new IndexCache);
  IndexCache& cache = *this->Cache;
  if (!this->ReadIndexColumns(run, cache))
  {
    this->Cache.reset();
    return Status::Failed;
  }
  try
  {
    cache.Index = macroscope::BuildTimelineIndex(
      cache.StateRows, cache.MessageRows, run.Leaves(),
      [this](double fraction)
      {
        this->UpdateProgress(0.05 + 0.45 * fraction);
        return !this->GetAbortExecute();
      },
      this->Threads());
  }
  catch (const macroscope::TimelineLayoutAborted&)
  {
    this->Cache.reset(); // half built
    return Status::Aborted;
  }
  catch (const std::exception& error)
  {
    this->Cache.reset();
    vtkErrorMacro("Timeline Layout: " << error.what());
    return Status::Failed;
  }
  cache.States = run.Trace.States;
  cache.StatesTime = run.Trace.States->GetMTime();
  cache.Messages = run.Trace.Messages;
  cache.MessagesTime = run.Trace.Messages ? run.Trace.Messages->GetMTime() : 0;
  cache.Leaves = run.Leaves();
  return Status::Done;
}

vtkMacroscopeTimelineLayout::Status vtkMacroscopeTimelineLayout::Layout(Run& run)
{
  run.RowNames = RowNames(run.Trace.Hierarchy, run.Rows.RowVertex);
  run.Types.Fill(run.Trace.Types, run.TypeColors);
  run.Frame = TimelineFrame(this->ViewSize, run.RowNames, run.Types, run.KeepType, run.Measure,
    this->ShowMessages != 0, run.Titled);
  macroscope::TimelineOptions& options = run.Options;
  options.WindowBegin = run.T0;
  options.WindowEnd = run.T1;
  options.ViewWidth = run.Frame.Width;
  options.MinMarkWidth = this->MinMarkWidth;
  options.ViewHeight = run.Frame.Height;
  options.MinRowHeight = this->MinRowHeight;
  options.RowOfLeaf = run.Rows.RowOfLeaf;
  options.KeepType = run.KeepType;
  options.Rows = static_cast<uint32_t>(run.Rows.RowVertex.size());
  options.Depth = this->Depth;
  options.MaxMessagesPerPixel = static_cast<uint32_t>(this->MaxMessagesPerPixel);
  // More lines than pixel columns would cover the states: a density instead.
  options.MaxMessageLines = static_cast<std::size_t>(std::max(1.0, run.Frame.Width));
  options.Messages = this->ShowMessages && run.Trace.Messages;
  options.Threads = this->Threads();
  options.Progress = [this](double fraction)
  {
    this->UpdateProgress(0.5 + 0.3 * fraction);
    return !this->GetAbortExecute(); // CheckAbort would make the pipeline run it again
  };
  try
  {
    run.Layout = macroscope::LayoutTimeline(
      this->Cache->Index, this->Cache->StateRows, this->Cache->MessageRows, options);
  }
  catch (const macroscope::TimelineLayoutAborted&)
  {
    return Status::Aborted;
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Timeline Layout: " << error.what());
    return Status::Failed;
  }
  return Status::Done;
}

void vtkMacroscopeTimelineLayout::EmitMarks(
  Run& run, const macroscope::TimelineMarkDrawing& drawing)
{
  const macroscope::TimelineMarks& marks = run.Layout.Marks;
  Geometry cells;
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
  for (const macroscope::TimelineMarkCell& cell : drawing.Cells)
  {
    const std::size_t i = cell.Mark;
    const RGB color = run.Types.Color(cell.Type);
    cells.Quad(cell.X0, cell.Y0, cell.X1, cell.Y1, cell.Z,
      cell.Shaded ? macroscope::TimelineModeShade(color, cell.Filled) : color);
    typeIds->InsertNextValue(static_cast<int>(cell.Type));
    markIds->InsertNextValue(static_cast<vtkTypeInt64>(i));
    bandIds->InsertNextValue(static_cast<int>(marks.Band[i]));
    depths->InsertNextValue(static_cast<int>(marks.Depth[i]));
    starts->InsertNextValue(marks.Start[i]);
    ends->InsertNextValue(marks.End[i]);
    durations->InsertNextValue(marks.End[i] - marks.Start[i]);
    counts->InsertNextValue(marks.StateCount[i]);
    flags->InsertNextValue(marks.Flags[i]);
    fractions->InsertNextValue(cell.Fraction);
    typeTimes->InsertNextValue(cell.Seconds);
  }
  cells.Into(run.Outputs[MARKS]);
  vtkCellData* markData = run.Outputs[MARKS]->GetCellData();
  for (vtkAbstractArray* array : std::initializer_list<vtkAbstractArray*>{ typeIds, markIds,
         bandIds, depths, starts, ends, durations, counts, flags, fractions, typeTimes })
  {
    markData->AddArray(array);
  }
  markData->SetActiveScalars(schema::Color);
  AddMarkTypeTimes(marks, run.Outputs[MARKS]);
}

void vtkMacroscopeTimelineLayout::ShareMessageDensity(Run& run)
{
  // MPI: the ranks agree on lines or density (the lines of every rank
  // against the budget), and the density strip is the sum of the ranks'
  // columns, drawn by the first rank. A line, merged or not, lies in one
  // pixel column (the column of its send time: messages group by it), so a
  // rank's lines count into the density exactly.
  const int ranks = this->Controller ? this->Controller->GetNumberOfProcesses() : 1;
  macroscope::TimelineLayout& layout = run.Layout;
  if (ranks < 2 || !run.Options.Messages)
  {
    return;
  }
  const double mine[2] = { layout.Density.Size() > 0 ? 1.0 : 0.0,
    static_cast<double>(layout.Lines.Size()) };
  double all[2] = { 0.0, 0.0 };
  this->Controller->AllReduce(mine, all, 2, vtkCommunicator::SUM_OP);
  if (!(all[0] > 0.0 || all[1] > static_cast<double>(run.Options.MaxMessageLines)))
  {
    return;
  }
  const std::vector<double> counts =
    macroscope::TimelineDensityColumns(layout, run.T0, run.Frame.Width);
  std::vector<double> sums(counts.size(), 0.0);
  this->Controller->Reduce(
    counts.data(), sums.data(), static_cast<vtkIdType>(counts.size()), vtkCommunicator::SUM_OP, 0);
  layout.Lines = macroscope::TimelineLines();
  layout.Density = this->Controller->GetLocalProcessId() == 0
    ? macroscope::TimelineDensityOfColumns(sums)
    : macroscope::TimelineDensity();
}

void vtkMacroscopeTimelineLayout::EmitMessages(
  Run& run, const macroscope::TimelineBandGeometry& bands)
{
  Geometry cells;
  const macroscope::TimelineLines& lines = run.Layout.Lines;
  const vtkIdType reserve = static_cast<vtkIdType>(lines.Size());
  auto sendTimes = NamedArray<vtkDoubleArray>(schema::SendTime, reserve);
  auto recvTimes = NamedArray<vtkDoubleArray>(schema::RecvTime, reserve);
  auto counts = NamedArray<vtkTypeInt64Array>("Count", reserve);
  auto bytes = NamedArray<vtkDoubleArray>(schema::Bytes, reserve);
  auto flags = NamedArray<vtkUnsignedCharArray>("Aggregate", reserve);
  const double z = bands.LineZ();
  const double width = run.Frame.Width;
  for (std::size_t i = 0; i < lines.Size(); ++i)
  {
    double x0 = run.XOf(lines.SendTime[i]);
    double y0 = bands.Middle(lines.SenderBand[i]);
    double x1 = run.XOf(lines.RecvTime[i]);
    double y1 = bands.Middle(lines.ReceiverBand[i]);
    if (!macroscope::ClipSegmentToWidth(x0, y0, x1, y1, width))
    {
      continue;
    }
    const bool merged = lines.Flags[i] & macroscope::TimelineMessageAggregate;
    cells.Line(x0, y0, x1, y1, z, merged ? MessageAggregateColor : MessageColor);
    sendTimes->InsertNextValue(lines.SendTime[i]);
    recvTimes->InsertNextValue(lines.RecvTime[i]);
    counts->InsertNextValue(lines.Count[i]);
    bytes->InsertNextValue(lines.Bytes[i]);
    flags->InsertNextValue(lines.Flags[i]);
  }
  // The density strip above the chart: a quad per pixel column holding
  // sends, darker with more (linear in the count, the fullest column
  // darkest). SendTime and RecvTime hold the column's time span there.
  const macroscope::TimelineDensity& density = run.Layout.Density;
  const double pps = run.Layout.PixelsPerSecond;
  const double height = run.Frame.Height;
  for (std::size_t c = 0; c < density.Size(); ++c)
  {
    const double x0 = static_cast<double>(density.Column[c]);
    const double x1 = std::min(width, x0 + 1.0);
    const double share = density.MaxCount ? double(density.Count[c]) / density.MaxCount : 0.0;
    const auto grey = macroscope::TimelineDensityGrey(share);
    cells.Quad(x0, height + DensityGap, x1, height + DensityGap + DensityHeight, z,
      RGB{ { grey, grey, grey } });
    sendTimes->InsertNextValue(run.T0 + x0 / pps);
    recvTimes->InsertNextValue(run.T0 + x1 / pps);
    counts->InsertNextValue(density.Count[c]);
    bytes->InsertNextValue(density.Bytes[c]);
    flags->InsertNextValue(MESSAGE_DENSITY);
  }
  cells.Into(run.Outputs[MESSAGES]);
  for (vtkAbstractArray* array :
    std::initializer_list<vtkAbstractArray*>{ sendTimes, recvTimes, counts, bytes, flags })
  {
    run.Outputs[MESSAGES]->GetCellData()->AddArray(array);
  }
  run.Outputs[MESSAGES]->GetCellData()->SetActiveScalars(schema::Color);
}

void vtkMacroscopeTimelineLayout::ShareTypeTimes(std::vector<double>& timeOfType)
{
  // The legend: every type drawn, over all ranks, most time first.
  if (!this->Controller || this->Controller->GetNumberOfProcesses() < 2)
  {
    return;
  }
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

void vtkMacroscopeTimelineLayout::DrawGuides(Run& run,
  const macroscope::TimelineBandGeometry& bands, Geometry& guides, MacroscopeChart::Labels& labels)
{
  const double width = run.Frame.Width;
  const uint32_t rowsPerBand = run.Layout.RowsPerBand;
  vtkTree* hierarchy = run.Trace.Hierarchy;
  if (this->GroupLevel > 0)
  {
    for (const macroscope::TimelineRowGroup& group :
      macroscope::TimelineRowGroups(run.Parent, run.Rows.RowVertex, this->GroupLevel))
    {
      const double top = bands.Top(static_cast<uint32_t>(group.FirstRow / rowsPerBand));
      guides.Line(0.0, top, width, top, 0.5, FrameColor);
      // Inside the chart, at the group's top left corner: row names
      // fill the margin, and text does not scale with the chart.
      labels.Add(4.0, top - 2.0, VertexName(hierarchy, group.Group), GROUP_LABEL);
    }
  }
  // Row labels: every band its name when they are tall enough for the
  // text, else the groups (ranks, nodes...) that are.
  std::vector<MacroscopeChart::LabelledRow> labelled;
  const macroscope::TimelineBands& layoutBands = run.Layout.Bands;
  for (std::size_t band = 0; band < layoutBands.FirstRow.size(); ++band)
  {
    const uint32_t first = layoutBands.FirstRow[band];
    const uint32_t count = layoutBands.RowCount[band];
    MacroscopeChart::LabelledRow row;
    row.Top = bands.Top(static_cast<uint32_t>(band));
    row.Bottom = row.Top - bands.BandHeight;
    row.Name = run.RowNames[first];
    if (count > 1)
    {
      row.Name += " \xE2\x80\xA6 " + run.RowNames[first + count - 1];
    }
    row.Ancestors = macroscope::TimelineBandAncestors(
      run.Parent, run.Rows.RowVertex[first], run.Rows.RowVertex[first + count - 1]);
    labelled.push_back(std::move(row));
  }
  MacroscopeChart::DrawGroupedRowLabels(
    labels, guides, labelled, [hierarchy](int64_t vertex) { return VertexName(hierarchy, vertex); },
    run.Frame, run.Measure, FrameColor);
  if (run.Titled)
  {
    labels.Add(0.5 * width, TitleY(run.Frame.Height, run.Frame),
      run.Measure.Elide(this->Title, AXIS_TITLE, MacroscopeChart::TitleRoom(run.Frame)),
      AXIS_TITLE);
  }
  // Frame, time axis and ticks.
  MacroscopeChart::DrawFrame(guides, width, run.Frame.Height, FrameColor);
  MacroscopeChart::DrawTimeAxis(guides, labels, run.T0, run.T1, run.Frame, run.Measure, TickColor);
}

void vtkMacroscopeTimelineLayout::DrawLegend(Run& run,
  const macroscope::TimelineMarkDrawing& drawing, Geometry& hatching,
  MacroscopeChart::Labels& labels)
{
  auto legendNames = NamedArray<vtkStringArray>("LegendName");
  auto legendColors = NamedArray<vtkUnsignedCharArray>("LegendColor");
  legendColors->SetNumberOfComponents(3);
  auto legendTimes = NamedArray<vtkDoubleArray>("LegendTime");
  std::vector<MacroscopeChart::LegendEntry> entries;
  for (uint32_t type : macroscope::TypesByTime(drawing.TimeOfType))
  {
    const RGB rgb = run.Types.Color(type);
    entries.push_back({ run.Types.Name(type), rgb });
    legendNames->InsertNextValue(entries.back().Name);
    legendColors->InsertNextTypedTuple(rgb.data());
    legendTimes->InsertNextValue(drawing.TimeOfType[type]);
  }
  // Drawn right of the chart by the first rank: a swatch per type (most
  // time first), then the aggregate marks' hatching when any rank drew an
  // aggregate.
  const macroscope::TimelineMarks& marks = run.Layout.Marks;
  int anyAggregate =
    std::any_of(marks.Flags.begin(), marks.Flags.end(), [](uint8_t flags) { return flags != 0; });
  const bool root = !this->Controller || this->Controller->GetLocalProcessId() == 0;
  if (this->Controller && this->Controller->GetNumberOfProcesses() > 1)
  {
    int mine = anyAggregate;
    this->Controller->Reduce(&mine, &anyAggregate, 1, vtkCommunicator::MAX_OP, 0);
  }
  Geometry legend;
  if (root)
  {
    this->DrawLegendKey(run, entries, anyAggregate != 0, legend, hatching, labels);
  }
  legend.Into(run.Outputs[LEGEND]);
  run.Outputs[LEGEND]->GetCellData()->SetActiveScalars(schema::Color);
  for (vtkAbstractArray* array :
    std::initializer_list<vtkAbstractArray*>{ legendNames, legendColors, legendTimes })
  {
    run.Outputs[LEGEND]->GetFieldData()->AddArray(array);
  }
}

void vtkMacroscopeTimelineLayout::AddFieldData(
  Run& run, const macroscope::TimelineBandGeometry& bands)
{
  // The window and the rows on every output.
  vtkNew<vtkDoubleArray> window;
  window->SetName("TimeWindow");
  window->SetNumberOfComponents(2);
  window->InsertNextTuple2(run.T0, run.T1);
  vtkNew<vtkIntArray> rowInfo;
  rowInfo->SetName("Rows");
  rowInfo->SetNumberOfComponents(4);
  const int rowTuple[4] = { static_cast<int>(run.Rows.RowVertex.size()), run.Rows.Level,
    static_cast<int>(run.Layout.Bands.FirstRow.size()), static_cast<int>(run.Layout.RowsPerBand) };
  rowInfo->InsertNextTypedTuple(rowTuple);
  // The zoom across rows: first and last location drawn, of how many.
  vtkNew<vtkIntArray> rowWindowInfo;
  rowWindowInfo->SetName("RowWindow");
  rowWindowInfo->SetNumberOfComponents(3);
  rowWindowInfo->InsertNextTypedTuple(run.DrawnRows);
  // The time axis for picking a range with the mouse (macroscope.links):
  // x of t0 and of t1 in chart pixels, then t0 and t1.
  vtkNew<vtkDoubleArray> axis;
  axis->SetName("TimeAxis");
  axis->SetNumberOfComponents(4);
  const double axisTuple[4] = { run.XOf(run.T0), run.XOf(run.T1), run.T0, run.T1 };
  axis->InsertNextTuple(axisTuple);
  for (vtkPolyData* output : run.Outputs)
  {
    output->GetFieldData()->AddArray(window);
    output->GetFieldData()->AddArray(rowInfo);
    output->GetFieldData()->AddArray(rowWindowInfo);
    output->GetFieldData()->AddArray(axis);
  }
  // Details on demand (docs/details-on-demand.md): which band each leaf is
  // drawn on, and where the bands lie, so that a mark or a message end can
  // be traced back to its locations and state rows.
  vtkNew<vtkIntArray> leafBand;
  leafBand->SetName("LeafBand");
  leafBand->SetNumberOfTuples(static_cast<vtkIdType>(run.Leaves()));
  const uint32_t rowCount = static_cast<uint32_t>(run.Rows.RowVertex.size());
  const uint32_t perBand = std::max<uint32_t>(run.Layout.RowsPerBand, 1);
  for (uint32_t leaf = 0; leaf < run.Leaves(); ++leaf)
  {
    const uint32_t row = run.Rows.RowOfLeaf[leaf];
    leafBand->SetValue(leaf, row < rowCount ? static_cast<int>(row / perBand) : -1);
  }
  vtkNew<vtkDoubleArray> bandGeometry; // y of the top of band 0, band height
  bandGeometry->SetName("BandGeometry");
  bandGeometry->SetNumberOfComponents(2);
  bandGeometry->InsertNextTuple2(bands.Height, bands.BandHeight);
  for (int port : { static_cast<int>(MARKS), static_cast<int>(MESSAGES) })
  {
    run.Outputs[port]->GetFieldData()->AddArray(leafBand);
    run.Outputs[port]->GetFieldData()->AddArray(bandGeometry);
  }
}

void vtkMacroscopeTimelineLayout::DrawLegendKey(const Run& run,
  const std::vector<MacroscopeChart::LegendEntry>& entries, bool anyAggregate, Geometry& legend,
  Geometry& hatching, MacroscopeChart::Labels& labels)
{
  const MacroscopeChart::Frame& frame = run.Frame;
  const MacroscopeChart::TextMeasure& measure = run.Measure;
  const bool messages = run.Options.Messages;
  // Rows of the marks' key go below the types, which give way to them.
  const std::size_t keyRows = (anyAggregate ? 1 : 0) + (messages ? 2 : 0);
  double y =
    MacroscopeChart::DrawLegend(legend, labels, entries, frame, measure, LegendMaxTypes, keyRows);
  const double x = MacroscopeChart::LegendSwatchX(frame.Width);
  const double room = MacroscopeChart::LegendTextRoom(frame);
  auto keyLabel = [&](const char* text)
  {
    labels.Add(MacroscopeChart::LegendTextX(frame.Width), y + 0.5 * LegendSwatch,
      measure.Elide(text, LEGEND_LABEL, room), LEGEND_LABEL);
  };
  if (MacroscopeChart::LegendRows(frame) < keyRows)
  {
    return;
  }
  if (anyAggregate)
  {
    Hatch(hatching, x, y, x + LegendSwatch, y + LegendSwatch, 0.5, 0.3 * LegendSwatch, +1);
    keyLabel(AggregateKey);
    y -= LegendRowHeight;
  }
  if (!messages)
  {
    return;
  }
  legend.Quad(x, y + 0.5 * LegendSwatch - 0.5, x + LegendSwatch, y + 0.5 * LegendSwatch + 0.5, 0.5,
    MessageColor);
  keyLabel(MessageKey);
  y -= LegendRowHeight;
  if (run.Layout.Density.Size() > 0)
  {
    // The density strip's entry: light to dark grey.
    for (int part = 0; part < 3; ++part)
    {
      const auto grey = macroscope::TimelineDensityGrey(0.5 * part);
      legend.Quad(x + part * LegendSwatch / 3.0, y, x + (part + 1) * LegendSwatch / 3.0,
        y + LegendSwatch, 0.5, RGB{ { grey, grey, grey } });
    }
    keyLabel(DensityKey);
  }
  else
  {
    legend.Quad(x, y + 0.5 * LegendSwatch - 1.0, x + LegendSwatch, y + 0.5 * LegendSwatch + 1.0,
      0.5, MessageAggregateColor);
    keyLabel(MergedMessagesKey);
  }
}

unsigned vtkMacroscopeTimelineLayout::Threads() const
{
  // The cores shared among the ranks of this machine (MPI ranks are assumed
  // to share one, as the OTF2 reader's threads do).
  const int processes =
    this->Controller ? std::max(1, this->Controller->GetNumberOfProcesses()) : 1;
  return std::max(
    1u, std::max(1u, std::thread::hardware_concurrency()) / static_cast<unsigned>(processes));
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
