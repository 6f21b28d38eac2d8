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
}

vtkMacroscopeLogicalTimelineLayout::vtkMacroscopeLogicalTimelineLayout() = default;

vtkMacroscopeLogicalTimelineLayout::~vtkMacroscopeLogicalTimelineLayout() = default;

void vtkMacroscopeLogicalTimelineLayout::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
}

int vtkMacroscopeLogicalTimelineLayout::Draw(
  const Tables& tables, vtkPolyData* outputs[NUMBER_OF_OUTPUTS])
{
  namespace chart = MacroscopeLogicalChart;
  chart::Events events;
  std::string problem;
  // Reading the tables: up to 0.04 of the bar (a quarter of a small run's time).
  if (!chart::ReadEvents(tables.Events, events, problem,
        [this](double fraction) { this->UpdateProgress(0.04 * fraction); }))
  {
    vtkErrorMacro("Logical Timeline Layout: " << problem << ".");
    return 0;
  }
  const macroscope::LogicalMessageColumns messages = chart::ReadMessages(tables.Messages);
  // The frame (docs/labels.md): the plot and the margins its text needs
  // fill ViewSize.
  const MacroscopeChart::TextMeasure measure(this->LabelFontSize);
  const MacroscopeChart::Frame frame = chart::LogicalFrame(this->ViewSize, tables.Events,
    { EventKey, AggregateKey, MessageKey, "888888888 messages not drawn (over the budget)" },
    measure);
  macroscope::LogicalTimelineOptions options;
  options.Width = frame.Width;
  options.Height = frame.Height;
  options.FirstStep = this->StepWindow[0];
  options.LastStep = this->StepWindow[1];
  options.ShowAggregates = this->ShowAggregates;
  options.MaxMessages = this->MaxMessages;
  // The tables are read; the layout takes the bar to half, the drawing on.
  this->UpdateProgress(0.05);
  options.Progress = [this](double fraction) {
    this->UpdateProgress(0.05 + 0.45 * fraction);
    return !this->GetAbortExecute(); // CheckAbort would make the pipeline run it again
  };
  macroscope::LogicalTimelineLayout layout;
  try
  {
    layout = macroscope::LayOutLogicalTimeline(events.Core, messages, options);
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
  this->UpdateProgress(0.5);

  const double width = options.Width;
  const double height = options.Height;
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
    [this](double fraction) {
      this->UpdateProgress(fraction);
      return !this->GetAbortExecute(); // CheckAbort would make the pipeline run it again
    },
    0.5, 0.8, boxes);
  for (std::size_t b = 0; b < boxes; ++b)
  {
    if (!span.At(b))
    {
      for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
      {
        outputs[port]->Initialize(); // nothing half drawn
      }
      vtkWarningMacro("Logical Timeline Layout aborted.");
      return 1;
    }
    const macroscope::LogicalBox& box = layout.Boxes[b];
    const double metric = events.Core.Metric[box.Event];
    marks.Quad(box.X0, box.Y0, box.X1, box.Y1, 0.0, chart::ColorOf(metric, layout.MetricRange));
    // Rows of the Logical Events given, whatever the selection drops.
    eventIds->InsertNextValue(this->EventRow(box.Event));
    pickIds->InsertNextValue(this->EventRow(box.Event));
    locations->InsertNextValue(events.Core.Location[box.Event]);
    steps->InsertNextValue(events.Core.GlobalStep[box.Event]);
    kinds->InsertNextValue(events.Core.Kind[box.Event]);
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
  this->UpdateProgress(0.8);

  // Guides and labels: frame, step axis, the rows' names where they fit.
  MacroscopeChart::Geometry guides;
  MacroscopeChart::Labels labels;
  MacroscopeChart::DrawFrame(guides, width, height, RGB{ { 0, 0, 0 } });
  chart::DrawStepAxis(guides, labels, layout.Columns, frame, measure);
  std::vector<std::string> rowNames;
  std::vector<double> rowCentres;
  for (std::size_t row = 0; row < layout.RowLocation.size(); ++row)
  {
    rowNames.push_back(chart::LocationName(tables.Events, layout.RowLocation[row]));
    rowCentres.push_back(layout.RowTop(static_cast<int>(row)) - 0.5 * layout.RowHeight);
  }
  MacroscopeChart::DrawRowLabels(labels, rowNames, rowCentres, layout.RowHeight, frame, measure);

  // Legend: the colour bar, then the key of the marks.
  MacroscopeChart::Geometry legend;
  double y = chart::DrawColorBar(legend, labels, chart::MetricName(tables.Events),
    layout.MetricRange, frame, measure);
  const double room = MacroscopeChart::LegendTextRoom(frame);
  auto key = [&](const std::string& text) {
    labels.Add(MacroscopeChart::LegendTextX(width), y + 0.5 * MacroscopeChart::LegendSwatch,
      measure.Elide(text, MacroscopeChart::LEGEND_LABEL, room), MacroscopeChart::LEGEND_LABEL);
  };
  const double x = MacroscopeChart::LegendSwatchX(width);
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

  marks.Into(outputs[MARKS]);
  for (vtkAbstractArray* array :
    std::initializer_list<vtkAbstractArray*>{ eventIds, pickIds, locations, steps, kinds, metrics })
  {
    outputs[MARKS]->GetCellData()->AddArray(array);
  }
  auto window = MacroscopeChart::NamedArray<vtkIdTypeArray>("StepWindow");
  window->SetNumberOfComponents(2);
  window->InsertNextTypedTuple(std::array<vtkIdType, 2>{ { static_cast<vtkIdType>(layout.Columns.First),
    static_cast<vtkIdType>(layout.Columns.Last) } }.data());
  outputs[MARKS]->GetFieldData()->AddArray(window);
  // The step axis for picking a range with the mouse (macroscope.links):
  // x of the first column's left and of the last column's right, their
  // global steps, and the steps per column (2 without aggregates).
  auto axis = MacroscopeChart::NamedArray<vtkDoubleArray>("StepAxis");
  axis->SetNumberOfComponents(5);
  const double axisTuple[5] = { 0.0,
    layout.ColumnLeft(layout.Columns.Count()), static_cast<double>(layout.Columns.First),
    static_cast<double>(layout.Columns.Last), layout.Columns.Aggregates ? 1.0 : 2.0 };
  axis->InsertNextTuple(axisTuple);
  outputs[MARKS]->GetFieldData()->AddArray(axis);
  auto range = MacroscopeChart::NamedArray<vtkDoubleArray>("MetricRange");
  range->SetNumberOfComponents(2);
  range->InsertNextTuple2(layout.MetricRange.first, layout.MetricRange.second);
  outputs[MARKS]->GetFieldData()->AddArray(range);
  lines.Into(outputs[LINES]);
  outputs[LINES]->GetCellData()->AddArray(messageIds);
  auto inWindow = MacroscopeChart::NamedArray<vtkIdTypeArray>("MessagesInWindow");
  inWindow->InsertNextValue(static_cast<vtkIdType>(layout.MessagesInWindow));
  outputs[LINES]->GetFieldData()->AddArray(inWindow);
  auto omitted = MacroscopeChart::NamedArray<vtkIntArray>("MessagesOmitted");
  omitted->InsertNextValue(layout.MessagesOmitted ? 1 : 0);
  outputs[LINES]->GetFieldData()->AddArray(omitted);
  guides.Into(outputs[GUIDES]);
  labels.Fit(measure, frame); // no two labels overlap, all in the frame
  labels.Into(outputs[LABELS]);
  legend.Into(outputs[LEGEND]);
  this->AddStepNavigation(outputs, layout.Columns.First, layout.Columns.Last,
    layout.Columns.Aggregates ? 1 : 2, layout.ColumnWidth);
  return 1;
}
