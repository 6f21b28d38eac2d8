#include "vtkMacroscopeMetricOverviewLayout.h"

#include "MacroscopeLogicalChart.h"

#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkIdTypeArray.h"
#include "vtkIntArray.h"
#include "vtkObjectFactory.h"
#include "vtkPolyData.h"
#include "vtkTable.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <limits>

vtkStandardNewMacro(vtkMacroscopeMetricOverviewLayout);

namespace
{
using MacroscopeChart::RGB;
constexpr RGB InsideColor{ { 49, 100, 170 } };
constexpr RGB OutsideColor{ { 150, 180, 210 } };
constexpr RGB WindowColor{ { 255, 236, 160 } };
}

vtkMacroscopeMetricOverviewLayout::vtkMacroscopeMetricOverviewLayout() = default;

vtkMacroscopeMetricOverviewLayout::~vtkMacroscopeMetricOverviewLayout() = default;

void vtkMacroscopeMetricOverviewLayout::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
}

int vtkMacroscopeMetricOverviewLayout::Draw(
  const Tables& tables, vtkPolyData* outputs[NUMBER_OF_OUTPUTS])
{
  namespace chart = MacroscopeLogicalChart;
  // The sum of every global step, from Steps or else from the events.
  std::vector<std::pair<int64_t, double>> sums;
  auto* stepColumn = tables.Steps
    ? vtkDataArray::SafeDownCast(tables.Steps->GetColumnByName("GlobalStep"))
    : nullptr;
  auto* sumColumn =
    tables.Steps ? vtkDataArray::SafeDownCast(tables.Steps->GetColumnByName("MetricSum")) : nullptr;
  if (tables.Steps && (!stepColumn || !sumColumn))
  {
    vtkErrorMacro("Metric Overview Layout: the Steps table needs numeric GlobalStep and "
                  "MetricSum columns.");
    return 0;
  }
  if (stepColumn)
  {
    for (vtkIdType r = 0; r < stepColumn->GetNumberOfTuples(); ++r)
    {
      sums.emplace_back(
        static_cast<int64_t>(stepColumn->GetComponent(r, 0)), sumColumn->GetComponent(r, 0));
    }
  }
  else
  {
    chart::Events events;
    std::string problem;
    if (!chart::ReadEvents(tables.Events, events, problem))
    {
      vtkErrorMacro("Metric Overview Layout: " << problem << ".");
      return 0;
    }
    for (std::size_t e = 0; e < events.Core.size(); ++e)
    {
      sums.emplace_back(events.Core.GlobalStep[e], events.Core.Metric[e]);
    }
  }
  int64_t first = std::numeric_limits<int64_t>::max();
  int64_t last = -1;
  for (const auto& entry : sums)
  {
    if (entry.first < 0)
    {
      vtkErrorMacro("Metric Overview Layout: a negative global step (" << entry.first << ").");
      return 0;
    }
    first = std::min(first, entry.first);
    last = std::max(last, entry.first);
  }
  std::vector<double> perStep;
  if (last >= 0)
  {
    first = 0; // the overview always starts at the trace's first step
    perStep.assign(static_cast<std::size_t>(last + 1), 0.0);
    for (const auto& entry : sums)
    {
      perStep[entry.first] += entry.second;
    }
  }
  // The window, clamped to the trace: every step when unset.
  int64_t from = 0;
  int64_t to = last;
  if (this->StepWindow[1] >= this->StepWindow[0])
  {
    from = std::max<int64_t>(0, this->StepWindow[0]);
    to = std::min<int64_t>(last, this->StepWindow[1]);
  }
  double largest = 0.0;
  for (double value : perStep)
  {
    largest = std::max(largest, std::isfinite(value) ? value : 0.0);
  }
  const std::string metric = chart::MetricName(tables.Events);
  const std::string largestText = chart::MetricValueText(metric, largest, largest);
  const std::string zeroText = chart::MetricValueText(metric, 0.0, largest);
  const std::vector<std::string> keys{ "sum of " + metric + " per step, in the window",
    "outside the window", "window: steps " + std::to_string(from) + " to " + std::to_string(to) };
  // The frame (docs/labels.md): the value range at the left, the step axis
  // below, the key at the right.
  const MacroscopeChart::TextMeasure measure(this->LabelFontSize);
  const MacroscopeChart::Frame frame = MacroscopeChart::FitFrame(this->ViewSize,
    MacroscopeChart::RowLabelMargin({ largestText, zeroText }, measure, this->ViewSize[0]),
    MacroscopeChart::LegendMarginFor(keys, measure, this->ViewSize[0]),
    MacroscopeChart::TimeAxisMargin(measure),
    0.5 * measure.Height(MacroscopeChart::ROW_LABEL) + 2.0 * MacroscopeChart::LabelGap);
  const double width = frame.Width;
  const double height = frame.Height;
  const std::vector<macroscope::MetricBar> bars =
    macroscope::LayoutMetricBars(perStep, 0, width, height);
  this->UpdateProgress(0.5);

  MacroscopeChart::Geometry marks;
  auto stepIds = MacroscopeChart::NamedArray<vtkIdTypeArray>("GlobalStep", bars.size() + 1);
  auto values = MacroscopeChart::NamedArray<vtkDoubleArray>("Value", bars.size() + 1);
  auto inWindow = MacroscopeChart::NamedArray<vtkIntArray>("InWindow", bars.size() + 1);
  if (!bars.empty() && from <= to)
  {
    marks.Quad(bars[from].X0, 0.0, bars[to].X1, height, -0.5, WindowColor);
    stepIds->InsertNextValue(-1);
    values->InsertNextValue(0.0);
    inWindow->InsertNextValue(1);
  }
  for (const macroscope::MetricBar& bar : bars)
  {
    if (!(bar.Height > 0.0))
    {
      continue;
    }
    const bool inside = bar.Step >= from && bar.Step <= to;
    marks.Quad(bar.X0, 0.0, bar.X1, bar.Height, 0.0, inside ? InsideColor : OutsideColor);
    stepIds->InsertNextValue(bar.Step);
    values->InsertNextValue(bar.Value);
    inWindow->InsertNextValue(inside ? 1 : 0);
  }

  MacroscopeChart::Geometry guides;
  MacroscopeChart::Labels labels;
  MacroscopeChart::DrawFrame(guides, width, height, RGB{ { 0, 0, 0 } });
  chart::DrawStepAxis(guides, labels, macroscope::StepColumns::Make(0, last, true), frame, measure);
  labels.Add(-6.0, height, largestText, MacroscopeChart::ROW_LABEL);
  labels.Add(-6.0, 0.0, zeroText, MacroscopeChart::ROW_LABEL);

  MacroscopeChart::Geometry legend;
  std::vector<MacroscopeChart::LegendEntry> entries{ { keys[0], InsideColor, 255 },
    { keys[1], OutsideColor, 255 }, { keys[2], WindowColor, 255 } };
  MacroscopeChart::DrawLegend(legend, labels, entries, frame, measure, entries.size());

  marks.Into(outputs[MARKS]);
  SelectNoRow(outputs[MARKS]);
  for (vtkAbstractArray* array :
    std::initializer_list<vtkAbstractArray*>{ stepIds, values, inWindow })
  {
    outputs[MARKS]->GetCellData()->AddArray(array);
  }
  guides.Into(outputs[GUIDES]);
  labels.Fit(measure, frame); // no two labels overlap, all in the frame
  labels.Into(outputs[LABELS]);
  legend.Into(outputs[LEGEND]);
  return 1;
}
