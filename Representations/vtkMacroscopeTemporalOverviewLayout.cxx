#include "vtkMacroscopeTemporalOverviewLayout.h"

#include "MacroscopeChart.h"
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
#include "vtkUnsignedCharArray.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeTemporalOverviewLayout);

namespace
{
using MacroscopeChart::RGB;

// Colours of what is not a type.
constexpr RGB MergedColor{ { 190, 190, 190 } }; // neutral: no type looks like it
constexpr RGB HatchColor{ { 70, 70, 70 } };
constexpr RGB FrameColor{ { 150, 150, 150 } };
constexpr RGB TickColor{ { 60, 60, 60 } };

constexpr double HatchSpacing = 5.0; // pixels between "/" hatch lines
constexpr double MarkingZ = 0.2;
constexpr std::size_t LegendMaxTypes = 24;

// Marked so that a merged layer reads as an aggregate (Dosimont et al.
// 2014 (VPA) §III-C): hatched, or, too thin for hatching to show, crossed
// by a line; each marking line names the layer's part.
void MarkMergedLayer(const macroscope::TemporalOverviewLayers& layers, std::size_t i,
  MacroscopeChart::Geometry& marking, vtkIntArray* markingParts)
{
  const vtkIdType before = marking.Lines->GetNumberOfCells();
  if (layers.Flags[i] & macroscope::TemporalLayerBelowBudget)
  {
    const double y = 0.5 * (layers.Y0[i] + layers.Y1[i]);
    marking.Line(layers.X0[i], y, layers.X1[i], y, MarkingZ, HatchColor);
  }
  else
  {
    MacroscopeChart::Hatch(marking, layers.X0[i], layers.Y0[i], layers.X1[i], layers.Y1[i],
      MarkingZ, HatchSpacing, +1, HatchColor);
  }
  for (vtkIdType c = before; c < marking.Lines->GetNumberOfCells(); ++c)
  {
    markingParts->InsertNextValue(static_cast<int>(layers.Part[i]));
  }
}
}

vtkMacroscopeTemporalOverviewLayout::vtkMacroscopeTemporalOverviewLayout() {}

vtkMacroscopeTemporalOverviewLayout::~vtkMacroscopeTemporalOverviewLayout() = default;

void vtkMacroscopeTemporalOverviewLayout::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "MinLayerHeight: " << this->MinLayerHeight << "\n";
}

// One call of Draw: the Partition as read, and its layout.
struct vtkMacroscopeTemporalOverviewLayout::Run
{
  vtkTable* Table = nullptr;
  vtkPolyData** Outputs = nullptr;
  MacroscopeChart::TypeStyles Styles;
  macroscope::TemporalOverviewParts Parts;
  macroscope::AmplitudeAxis Axis;
  MacroscopeChart::TextMeasure Measure;
  MacroscopeChart::Frame Frame;
  macroscope::TemporalOverviewOptions Options;
  macroscope::TemporalOverview Chart;

  explicit Run(int fontSize)
    : Measure(fontSize)
  {
  }
  std::string TickText(double value) const
  {
    return macroscope::FormatAmplitude(
      value, this->Chart.ValueStep, this->Chart.MaxTotal, this->Axis.Seconds);
  }
};

int vtkMacroscopeTemporalOverviewLayout::Draw(
  vtkTable* input, vtkPolyData* outputs[NUMBER_OF_OUTPUTS])
{
  if (!std::isfinite(this->MinLayerHeight) || !(this->MinLayerHeight >= 0.0))
  {
    vtkErrorMacro(
      "MinLayerHeight must be a finite number of pixels >= 0, not " << this->MinLayerHeight << ".");
    return 0;
  }
  if (!input)
  {
    vtkErrorMacro("Temporal Overview Layout needs a table: the Partition output of Temporal "
                  "Aggregation.");
    return 0;
  }
  if (input->GetNumberOfColumns() == 0 && input->GetNumberOfRows() == 0)
  {
    // Under MPI the partition filter fills piece 0 only: nothing to draw here.
    this->UpdateProgress(1.0);
    return 1;
  }
  Run run(this->LabelFontSize);
  run.Table = input;
  run.Outputs = outputs;
  if (!this->ReadPartition(run) || !this->Layout(run))
  {
    return 0;
  }
  this->UpdateProgress(0.5);
  MacroscopeChart::Geometry marking(4);
  auto markingParts = MacroscopeChart::NamedArray<vtkIntArray>("Part");
  const bool anyMerged = this->EmitLayers(run, marking, markingParts);
  MacroscopeChart::Labels labels;
  this->DrawAxes(run, labels);
  this->DrawLegend(run, anyMerged, marking, markingParts, labels);
  marking.Into(outputs[MARKING]);
  outputs[MARKING]->GetCellData()->AddArray(markingParts);
  labels.Fit(run.Measure, run.Frame); // no two labels overlap, all in the frame
  labels.Into(outputs[LABELS]);

  // Field data: what converts pixels back to data, on every output.
  vtkNew<vtkDoubleArray> timeWindow;
  timeWindow->SetName("TimeWindow");
  timeWindow->SetNumberOfComponents(2);
  timeWindow->InsertNextTuple2(run.Options.WindowBegin, run.Options.WindowEnd);
  vtkNew<vtkDoubleArray> scale;
  scale->SetName("AmplitudeScale");
  scale->InsertNextValue(run.Chart.Scale);
  vtkNew<vtkDoubleArray> pixelsPerSecond;
  pixelsPerSecond->SetName("PixelsPerSecond");
  pixelsPerSecond->InsertNextValue(run.Chart.PixelsPerSecond);
  for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
  {
    outputs[port]->GetFieldData()->AddArray(timeWindow);
    outputs[port]->GetFieldData()->AddArray(scale);
    outputs[port]->GetFieldData()->AddArray(pixelsPerSecond);
  }
  AddTimeNavigation(
    input, outputs, run.Frame.Width, run.Options.WindowBegin, run.Options.WindowEnd);
  this->UpdateProgress(1.0);
  return 1;
}

bool vtkMacroscopeTemporalOverviewLayout::ReadPartition(Run& run)
{
  vtkTable* input = run.Table;
  vtkFieldData* fields = input->GetFieldData();
  auto* constraint = vtkStringArray::SafeDownCast(fields->GetAbstractArray("Constraint"));
  auto* window = vtkDataArray::SafeDownCast(fields->GetAbstractArray("TimeWindow"));
  auto* starts = vtkDataArray::SafeDownCast(input->GetColumnByName("Start"));
  auto* ends = vtkDataArray::SafeDownCast(input->GetColumnByName("End"));
  auto* amplitudes = vtkDataArray::SafeDownCast(input->GetColumnByName("Amplitude"));
  if (!constraint || constraint->GetNumberOfValues() < 1 || !window ||
    window->GetNumberOfComponents() != 2 || window->GetNumberOfTuples() < 1 || !starts || !ends ||
    !amplitudes)
  {
    vtkErrorMacro("Temporal Overview Layout needs the Partition output of Temporal Aggregation: "
                  "a table with the columns Start, End and Amplitude and the field data "
                  "Constraint and TimeWindow (one of them is missing).");
    return false;
  }
  const std::string kind = constraint->GetValue(0);
  if (kind != "temporal")
  {
    vtkErrorMacro("Temporal Overview Layout draws temporal partitions, and this is a "
      << kind
      << " partition: draw it with the Spatiotemporal Overview (Spatiotemporal Overview "
         "Layout), or give this filter the Partition of Temporal Aggregation.");
    return false;
  }
  // The types: names and colours from the model's description.
  const int types = amplitudes->GetNumberOfComponents();
  run.Styles = MacroscopeChart::ReadTypeStyles(fields, types, this->GetTypeColorOverrides());
  macroscope::TemporalOverviewParts& parts = run.Parts;
  parts.Types = static_cast<uint32_t>(types);
  for (vtkIdType row = 0; row < input->GetNumberOfRows(); ++row)
  {
    parts.Start.push_back(starts->GetComponent(row, 0));
    parts.End.push_back(ends->GetComponent(row, 0));
    for (int u = 0; u < types; ++u)
    {
      parts.Amplitude.push_back(amplitudes->GetComponent(row, u));
    }
  }
  auto* metric = vtkStringArray::SafeDownCast(fields->GetAbstractArray("Metric"));
  auto* extensive = vtkDataArray::SafeDownCast(fields->GetAbstractArray("Extensive"));
  auto* sliceWidth = vtkDataArray::SafeDownCast(fields->GetAbstractArray("SliceWidth"));
  run.Axis = macroscope::DescribeAmplitudeAxis(
    metric && metric->GetNumberOfValues() > 0 ? metric->GetValue(0) : std::string(),
    extensive && extensive->GetNumberOfTuples() > 0 && extensive->GetComponent(0, 0) != 0.0,
    sliceWidth && sliceWidth->GetNumberOfTuples() > 0 ? sliceWidth->GetComponent(0, 0) : 0.0);
  run.Options.WindowBegin = window->GetComponent(0, 0);
  run.Options.WindowEnd = window->GetComponent(0, 1);
  run.Options.MinLayerHeight = this->MinLayerHeight;
  return true;
}

bool vtkMacroscopeTemporalOverviewLayout::Layout(Run& run)
{
  // The frame (docs/labels.md): value labels at the left, the time axis
  // below, the axis title above, the legend of every type at the right.
  // The value ticks depend on the height only, so a first layout at the
  // final height gives the labels whose width sets the left margin.
  const MacroscopeChart::TextMeasure& measure = run.Measure;
  const double below = MacroscopeChart::TimeAxisMargin(measure);
  // Two title lines: what is shown (p, parts), then the value axis.
  const double above =
    2.0 * measure.Height(MacroscopeChart::AXIS_TITLE) + 5.0 * MacroscopeChart::LabelGap;
  std::vector<std::string> keyNames = run.Styles.Names;
  keyNames.push_back(macroscope::MergedLayersKey(this->MinLayerHeight));
  const double right = MacroscopeChart::LegendMarginFor(keyNames, measure, this->ViewSize[0]);
  run.Frame = MacroscopeChart::FitFrame(this->ViewSize, 0.0, right, below, above);
  try
  {
    for (int pass = 0; pass < 2; ++pass)
    {
      run.Options.Width = run.Frame.Width;
      run.Options.Height = run.Frame.Height;
      run.Chart = macroscope::LayoutTemporalOverview(
        run.Parts, run.Options, std::max(2, static_cast<int>(run.Frame.Height / 120.0)));
      std::vector<std::string> valueLabels;
      for (double value : run.Chart.ValueTicks)
      {
        valueLabels.push_back(run.TickText(value));
      }
      const double left = MacroscopeChart::RowLabelMargin(valueLabels, measure, this->ViewSize[0]) +
        MacroscopeChart::TickLength;
      run.Frame = MacroscopeChart::FitFrame(this->ViewSize, left, right, below, above);
    }
  }
  catch (const std::invalid_argument& error)
  {
    vtkErrorMacro("Temporal Overview Layout cannot draw this partition: " << error.what() << ".");
    return false;
  }
  return true;
}

bool vtkMacroscopeTemporalOverviewLayout::EmitLayers(
  Run& run, MacroscopeChart::Geometry& marking, vtkIntArray* markingParts)
{
  // One quad per layer.
  const macroscope::TemporalOverviewLayers& layers = run.Chart.Layers;
  const std::vector<std::string>& names = run.Styles.Names;
  const vtkIdType count = static_cast<vtkIdType>(layers.Size());
  MacroscopeChart::Geometry marks(4);
  auto partIds = MacroscopeChart::NamedArray<vtkIntArray>("Part", count);
  auto typeIds = MacroscopeChart::NamedArray<vtkIntArray>("Type", count);
  auto typeNameCells = MacroscopeChart::NamedArray<vtkStringArray>("TypeName", count);
  auto values = MacroscopeChart::NamedArray<vtkDoubleArray>("Value", count);
  auto aggregate = MacroscopeChart::NamedArray<vtkUnsignedCharArray>("VisualAggregate", count);
  auto mergedCounts = MacroscopeChart::NamedArray<vtkIntArray>("MergedTypes", count);
  auto contents = MacroscopeChart::NamedArray<vtkStringArray>("Contents", count);
  auto startCells = MacroscopeChart::NamedArray<vtkDoubleArray>("Start", count);
  auto endCells = MacroscopeChart::NamedArray<vtkDoubleArray>("End", count);
  auto totals = MacroscopeChart::NamedArray<vtkDoubleArray>("StackTotal", count);
  bool anyMerged = false;
  for (std::size_t i = 0; i < layers.Size(); ++i)
  {
    const uint32_t part = layers.Part[i];
    const bool merged = (layers.Flags[i] & macroscope::TemporalLayerMerged) != 0;
    const int type = layers.Type[i];
    marks.Quad(layers.X0[i], layers.Y0[i], layers.X1[i], layers.Y1[i], 0.0,
      merged ? MergedColor : run.Styles.Colors[static_cast<std::size_t>(type)]);
    partIds->InsertNextValue(static_cast<int>(part));
    typeIds->InsertNextValue(type);
    values->InsertNextValue(layers.Value[i]);
    aggregate->InsertNextValue(layers.Flags[i]);
    startCells->InsertNextValue(run.Parts.Start[part]);
    endCells->InsertNextValue(run.Parts.End[part]);
    totals->InsertNextValue(run.Chart.StackTotal[part]);
    typeNameCells->InsertNextValue(
      merged ? std::string("visually aggregated") : names[static_cast<std::size_t>(type)]);
    mergedCounts->InsertNextValue(
      merged ? static_cast<int>(layers.MergedOffset[i + 1] - layers.MergedOffset[i]) : 0);
    contents->InsertNextValue(macroscope::TemporalLayerContents(layers, i, names));
    if (merged)
    {
      anyMerged = true;
      MarkMergedLayer(layers, i, marking, markingParts);
    }
  }
  marks.Into(run.Outputs[MARKS]);
  for (vtkAbstractArray* array : std::initializer_list<vtkAbstractArray*>{ partIds, typeIds,
         typeNameCells, values, aggregate, mergedCounts, contents, startCells, endCells, totals })
  {
    run.Outputs[MARKS]->GetCellData()->AddArray(array);
  }
  return anyMerged;
}

void vtkMacroscopeTemporalOverviewLayout::DrawAxes(Run& run, MacroscopeChart::Labels& labels)
{
  // The frame, the time axis, the value axis.
  const MacroscopeChart::Frame& frame = run.Frame;
  const MacroscopeChart::TextMeasure& measure = run.Measure;
  const double width = frame.Width, height = frame.Height;
  MacroscopeChart::Geometry guides(4);
  MacroscopeChart::DrawFrame(guides, width, height, FrameColor);
  MacroscopeChart::DrawTimeAxis(
    guides, labels, run.Options.WindowBegin, run.Options.WindowEnd, frame, measure, TickColor);
  for (double value : run.Chart.ValueTicks)
  {
    const double y = value * run.Chart.Scale;
    guides.Line(0.0, y, -MacroscopeChart::TickLength, y, 0.5, TickColor);
    labels.Add(-MacroscopeChart::TickLength - 3.0, y, run.TickText(value),
      MacroscopeChart::ROW_LABEL); // right-aligned and centred on the tick, as a row label
  }
  // Centred above the chart, two lines: what is shown (p, the parts), then
  // the value axis's title. Both within the plot's width, where they meet
  // no tick label (the top value tick sits left of the plot).
  const double titleHeight = measure.Height(MacroscopeChart::AXIS_TITLE);
  const double firstLine = height + frame.Top - MacroscopeChart::LabelGap;
  labels.Add(0.5 * width, firstLine,
    measure.Elide(PartitionTitleOf(run.Table, false), MacroscopeChart::AXIS_TITLE, width),
    MacroscopeChart::AXIS_TITLE);
  labels.Add(0.5 * width, firstLine - titleHeight - 2.0 * MacroscopeChart::LabelGap,
    measure.Elide(
      macroscope::AmplitudeTitle(run.Axis, run.Chart.MaxTotal), MacroscopeChart::AXIS_TITLE, width),
    MacroscopeChart::AXIS_TITLE);
  guides.Into(run.Outputs[GUIDES]);
}

void vtkMacroscopeTemporalOverviewLayout::DrawLegend(Run& run, bool anyMerged,
  MacroscopeChart::Geometry& marking, vtkIntArray* markingParts, MacroscopeChart::Labels& labels)
{
  // The types drawn as layers, largest area first, then the merged layers.
  const macroscope::TemporalOverview& chart = run.Chart;
  std::vector<MacroscopeChart::LegendEntry> entries;
  auto legendNames = MacroscopeChart::NamedArray<vtkStringArray>("LegendName");
  auto legendColors = MacroscopeChart::NamedArray<vtkUnsignedCharArray>("LegendColor");
  legendColors->SetNumberOfComponents(3);
  auto legendValues = MacroscopeChart::NamedArray<vtkDoubleArray>("LegendValue");
  for (uint32_t u : chart.TypeOrder)
  {
    if (chart.TypeDrawn[u])
    {
      entries.push_back({ run.Styles.Names[u], run.Styles.Colors[u], 255 });
      legendNames->InsertNextValue(run.Styles.Names[u]);
      legendColors->InsertNextTypedTuple(run.Styles.Colors[u].data());
      legendValues->InsertNextValue(chart.TypeArea[u]);
    }
  }
  const MacroscopeChart::Frame& frame = run.Frame;
  MacroscopeChart::Geometry legend(4);
  const double y = MacroscopeChart::DrawLegend(
    legend, labels, entries, frame, run.Measure, LegendMaxTypes, anyMerged ? 1 : 0);
  if (anyMerged && MacroscopeChart::LegendRows(frame) >= 1)
  {
    const double x = MacroscopeChart::LegendSwatchX(frame.Width);
    const double swatch = MacroscopeChart::LegendSwatch;
    legend.Quad(x, y, x + swatch, y + swatch, 0.5, MergedColor);
    // In front of the swatch (z 0.5) so that its hatching shows.
    const vtkIdType before = marking.Lines->GetNumberOfCells();
    MacroscopeChart::Hatch(
      marking, x, y, x + swatch, y + swatch, 0.6, 0.3 * swatch, +1, HatchColor);
    for (vtkIdType c = before; c < marking.Lines->GetNumberOfCells(); ++c)
    {
      markingParts->InsertNextValue(-1);
    }
    labels.Add(MacroscopeChart::LegendTextX(frame.Width), y + 0.5 * swatch,
      run.Measure.Elide(macroscope::MergedLayersKey(this->MinLayerHeight),
        MacroscopeChart::LEGEND_LABEL, MacroscopeChart::LegendTextRoom(frame)),
      MacroscopeChart::LEGEND_LABEL);
  }
  legend.Into(run.Outputs[LEGEND]);
  for (vtkAbstractArray* array :
    std::initializer_list<vtkAbstractArray*>{ legendNames, legendColors, legendValues })
  {
    run.Outputs[LEGEND]->GetFieldData()->AddArray(array);
  }
}
