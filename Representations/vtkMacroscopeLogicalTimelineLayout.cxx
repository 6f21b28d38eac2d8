#include "vtkMacroscopeLogicalTimelineLayout.h"

#include "MacroscopeLogicalChart.h"
#include "ProgressSpan.h"

#include "vtkCellData.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkIntArray.h"
#include "vtkObjectFactory.h"
#include "vtkPolyData.h"
#include "vtkTable.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <stdexcept>

vtkStandardNewMacro(vtkMacroscopeLogicalTimelineLayout);

namespace
{
using MacroscopeChart::RGB;
constexpr RGB MessageColor{ { 20, 20, 20 } };
constexpr RGB BorderColor{ { 70, 70, 70 } };
constexpr RGB KeyColor{ { 190, 190, 190 } };
constexpr const char* EventKey = "communication event";
constexpr const char* AggregateKey = "aggregate (computation before it)";
constexpr const char* MessageKey = "message";

// The Marks output's field data: the step window, the step axis for
// picking a range with the mouse (macroscope.links: x of the first
// column's left and of the last column's right, their global steps, and
// the steps per column, 2 without aggregates) and the metric's range.
void AddMarksFieldData(const macroscope::LogicalTimelineLayout& layout, vtkPolyData* output)
{
  auto window = MacroscopeChart::NamedArray<vtkIdTypeArray>("StepWindow");
  window->SetNumberOfComponents(2);
  window->InsertNextTypedTuple(std::array<vtkIdType, 2>{
    { static_cast<vtkIdType>(layout.Columns.First), static_cast<vtkIdType>(layout.Columns.Last) } }
                                 .data());
  output->GetFieldData()->AddArray(window);
  auto axis = MacroscopeChart::NamedArray<vtkDoubleArray>("StepAxis");
  axis->SetNumberOfComponents(5);
  const double axisTuple[5] = { 0.0, layout.ColumnLeft(layout.Columns.Count()),
    static_cast<double>(layout.Columns.First), static_cast<double>(layout.Columns.Last),
    layout.Columns.Aggregates ? 1.0 : 2.0 };
  axis->InsertNextTuple(axisTuple);
  output->GetFieldData()->AddArray(axis);
  auto range = MacroscopeChart::NamedArray<vtkDoubleArray>("MetricRange");
  range->SetNumberOfComponents(2);
  range->InsertNextTuple2(layout.MetricRange.first, layout.MetricRange.second);
  output->GetFieldData()->AddArray(range);
}
}

vtkMacroscopeLogicalTimelineLayout::vtkMacroscopeLogicalTimelineLayout() = default;

vtkMacroscopeLogicalTimelineLayout::~vtkMacroscopeLogicalTimelineLayout() = default;

void vtkMacroscopeLogicalTimelineLayout::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
}

// One call of Draw: the tables as read and the layout.
struct vtkMacroscopeLogicalTimelineLayout::Run
{
  const Tables* In = nullptr;
  vtkPolyData** Outputs = nullptr;
  MacroscopeLogicalChart::Events Events;
  MacroscopeChart::TextMeasure Measure;
  MacroscopeChart::Frame Frame;
  macroscope::LogicalTimelineLayout Layout;

  explicit Run(int fontSize)
    : Measure(fontSize)
  {
  }
};

int vtkMacroscopeLogicalTimelineLayout::Draw(
  const Tables& tables, vtkPolyData* outputs[NUMBER_OF_OUTPUTS])
{
  Run run(this->LabelFontSize);
  run.In = &tables;
  run.Outputs = outputs;
  const int laidOut = this->Layout(run);
  if (laidOut != 2)
  {
    return laidOut; // 0: failed, 1: aborted
  }
  this->UpdateProgress(0.5);
  if (!this->EmitMarks(run))
  {
    for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
    {
      outputs[port]->Initialize(); // nothing half drawn
    }
    vtkWarningMacro("Logical Timeline Layout aborted.");
    return 1;
  }
  this->UpdateProgress(0.8);
  // Guides and labels: frame, step axis, the rows' names where they fit.
  const macroscope::LogicalTimelineLayout& layout = run.Layout;
  MacroscopeChart::Geometry guides;
  MacroscopeChart::Labels labels;
  MacroscopeChart::DrawFrame(guides, run.Frame.Width, run.Frame.Height, RGB{ { 0, 0, 0 } });
  MacroscopeLogicalChart::DrawStepAxis(guides, labels, layout.Columns, run.Frame, run.Measure);
  std::vector<std::string> rowNames;
  std::vector<double> rowCentres;
  for (std::size_t row = 0; row < layout.RowLocation.size(); ++row)
  {
    rowNames.push_back(
      MacroscopeLogicalChart::LocationName(tables.Events, layout.RowLocation[row]));
    rowCentres.push_back(layout.RowTop(static_cast<int>(row)) - 0.5 * layout.RowHeight);
  }
  MacroscopeChart::DrawRowLabels(
    labels, rowNames, rowCentres, layout.RowHeight, run.Frame, run.Measure);
  this->DrawLegend(run, labels);
  guides.Into(outputs[GUIDES]);
  labels.Fit(run.Measure, run.Frame); // no two labels overlap, all in the frame
  labels.Into(outputs[LABELS]);
  this->AddStepNavigation(outputs, layout.Columns.First, layout.Columns.Last,
    layout.Columns.Aggregates ? 1 : 2, layout.ColumnWidth);
  return 1;
}

int vtkMacroscopeLogicalTimelineLayout::Layout(Run& run)
{
  namespace chart = MacroscopeLogicalChart;
  std::string problem;
  // Reading the tables: up to 0.04 of the bar (a quarter of a small run's time).
  if (!chart::ReadEvents(run.In->Events, run.Events, problem,
        [this](double fraction) { this->UpdateProgress(0.04 * fraction); }))
  {
    vtkErrorMacro("Logical Timeline Layout: " << problem << ".");
    return 0;
  }
  const macroscope::LogicalMessageColumns messages = chart::ReadMessages(run.In->Messages);
  // The frame (docs/labels.md): the plot and the margins its text needs
  // fill ViewSize.
  run.Frame = chart::LogicalFrame(this->ViewSize, run.In->Events,
    { EventKey, AggregateKey, MessageKey, "888888888 messages not drawn (over the budget)" },
    run.Measure);
  macroscope::LogicalTimelineOptions options;
  options.Width = run.Frame.Width;
  options.Height = run.Frame.Height;
  options.FirstStep = this->StepWindow[0];
  options.LastStep = this->StepWindow[1];
  options.ShowAggregates = this->ShowAggregates;
  options.MaxMessages = this->MaxMessages;
  // The tables are read; the layout takes the bar to half, the drawing on.
  this->UpdateProgress(0.05);
  options.Progress = [this](double fraction)
  {
    this->UpdateProgress(0.05 + 0.45 * fraction);
    return !this->GetAbortExecute(); // CheckAbort would make the pipeline run it again
  };
  try
  {
    run.Layout = macroscope::LayoutLogicalTimeline(run.Events.Core, messages, options);
  }
  catch (const macroscope::LogicalLayoutAborted&)
  {
    vtkWarningMacro("Logical Timeline Layout aborted.");
    return 1;
  }
  catch (const std::invalid_argument& error)
  {
    vtkErrorMacro("Logical Timeline Layout cannot lay these tables out: " << error.what() << ".");
    return 0;
  }
  return 2;
}

bool vtkMacroscopeLogicalTimelineLayout::EmitMarks(Run& run)
{
  const macroscope::LogicalTimelineLayout& layout = run.Layout;
  const macroscope::LogicalEventColumns& events = run.Events.Core;
  const std::size_t boxes = layout.Boxes.size();
  MacroscopeChart::Geometry marks;
  auto eventIds = MacroscopeChart::NamedArray<vtkIdTypeArray>("Event", boxes);
  // A pick reports this array: the picked boxes' rows of Logical Events.
  auto pickIds = MacroscopeChart::NamedArray<vtkIdTypeArray>("vtkOriginalCellIds", boxes);
  auto locations = MacroscopeChart::NamedArray<vtkIntArray>("Location", boxes);
  auto steps = MacroscopeChart::NamedArray<vtkIdTypeArray>("GlobalStep", boxes);
  auto kinds = MacroscopeChart::NamedArray<vtkIntArray>("Kind", boxes);
  auto metrics = MacroscopeChart::NamedArray<vtkDoubleArray>("Metric", boxes);
  MacroscopeChart::Geometry lines;
  auto messageIds = MacroscopeChart::NamedArray<vtkIdTypeArray>("Message");
  macroscope::ProgressSpan span(
    [this](double fraction)
    {
      this->UpdateProgress(fraction);
      return !this->GetAbortExecute(); // CheckAbort would make the pipeline run it again
    },
    0.5, 0.8, boxes);
  for (std::size_t b = 0; b < boxes; ++b)
  {
    if (!span.At(b))
    {
      return false;
    }
    const macroscope::LogicalBox& box = layout.Boxes[b];
    const double metric = events.Metric[box.Event];
    marks.Quad(box.X0, box.Y0, box.X1, box.Y1, 0.0,
      MacroscopeLogicalChart::ColorOf(metric, layout.MetricRange));
    // Rows of the Logical Events given, whatever the selection drops.
    eventIds->InsertNextValue(this->EventRow(box.Event));
    pickIds->InsertNextValue(this->EventRow(box.Event));
    locations->InsertNextValue(events.Location[box.Event]);
    steps->InsertNextValue(events.GlobalStep[box.Event]);
    kinds->InsertNextValue(events.Kind[box.Event]);
    metrics->InsertNextValue(metric);
    if (layout.Spaced)
    {
      lines.Line(box.X0, box.Y0, box.X1, box.Y0, 0.2, BorderColor);
      lines.Line(box.X1, box.Y0, box.X1, box.Y1, 0.2, BorderColor);
      lines.Line(box.X1, box.Y1, box.X0, box.Y1, 0.2, BorderColor);
      lines.Line(box.X0, box.Y1, box.X0, box.Y0, 0.2, BorderColor);
      for (int k = 0; k < 4; ++k)
      {
        messageIds->InsertNextValue(-1);
      }
    }
  }
  for (const macroscope::LogicalLine& line : layout.Messages)
  {
    lines.Line(line.X0, line.Y0, line.X1, line.Y1, 0.3, MessageColor);
    messageIds->InsertNextValue(this->MessageRow(line.Message));
  }
  vtkPolyData* output = run.Outputs[MARKS];
  marks.Into(output);
  for (vtkAbstractArray* array :
    std::initializer_list<vtkAbstractArray*>{ eventIds, pickIds, locations, steps, kinds, metrics })
  {
    output->GetCellData()->AddArray(array);
  }
  AddMarksFieldData(layout, output);
  lines.Into(run.Outputs[LINES]);
  run.Outputs[LINES]->GetCellData()->AddArray(messageIds);
  auto inWindow = MacroscopeChart::NamedArray<vtkIdTypeArray>("MessagesInWindow");
  inWindow->InsertNextValue(static_cast<vtkIdType>(layout.MessagesInWindow));
  run.Outputs[LINES]->GetFieldData()->AddArray(inWindow);
  auto omitted = MacroscopeChart::NamedArray<vtkIntArray>("MessagesOmitted");
  omitted->InsertNextValue(layout.MessagesOmitted ? 1 : 0);
  run.Outputs[LINES]->GetFieldData()->AddArray(omitted);
  return true;
}

void vtkMacroscopeLogicalTimelineLayout::DrawLegend(Run& run, MacroscopeChart::Labels& labels)
{
  // The colour bar, then the key of the marks.
  const macroscope::LogicalTimelineLayout& layout = run.Layout;
  const MacroscopeChart::Frame& frame = run.Frame;
  MacroscopeChart::Geometry legend;
  double y = MacroscopeLogicalChart::DrawColorBar(legend, labels,
    MacroscopeLogicalChart::MetricName(run.In->Events), layout.MetricRange, frame, run.Measure);
  const double room = MacroscopeChart::LegendTextRoom(frame);
  auto key = [&](const std::string& text)
  {
    labels.Add(MacroscopeChart::LegendTextX(frame.Width), y + 0.5 * MacroscopeChart::LegendSwatch,
      run.Measure.Elide(text, MacroscopeChart::LEGEND_LABEL, room), MacroscopeChart::LEGEND_LABEL);
  };
  const double x = MacroscopeChart::LegendSwatchX(frame.Width);
  const double swatch = MacroscopeChart::LegendSwatch;
  legend.Quad(x, y, x + swatch, y + swatch, 0.5, KeyColor);
  key(EventKey);
  y -= MacroscopeChart::LegendRowHeight;
  if (this->ShowAggregates)
  {
    legend.Quad(x, y + 0.25 * swatch, x + swatch, y + 0.75 * swatch, 0.5, KeyColor);
    key(AggregateKey);
    y -= MacroscopeChart::LegendRowHeight;
  }
  if (layout.MessagesOmitted)
  {
    key(std::to_string(layout.MessagesInWindow) + " messages not drawn (over the budget)");
  }
  else if (!layout.Messages.empty())
  {
    legend.Quad(x, y + 0.5 * swatch - 1.0, x + swatch, y + 0.5 * swatch + 1.0, 0.5, MessageColor);
    key(MessageKey);
  }
  legend.Into(run.Outputs[LEGEND]);
}
