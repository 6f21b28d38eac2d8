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

std::string MergedKey(double minLayerHeight)
{
  char budget[32];
  std::snprintf(budget, sizeof(budget), "%g", minLayerHeight);
  return std::string("visually aggregated: layers under ") + budget + " px";
}
}

vtkMacroscopeTemporalOverviewLayout::vtkMacroscopeTemporalOverviewLayout()
{
}

vtkMacroscopeTemporalOverviewLayout::~vtkMacroscopeTemporalOverviewLayout() = default;

void vtkMacroscopeTemporalOverviewLayout::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "MinLayerHeight: " << this->MinLayerHeight << "\n";
}

int vtkMacroscopeTemporalOverviewLayout::Draw(vtkTable* input, vtkPolyData* outputs[NUMBER_OF_OUTPUTS])
{
  if (!std::isfinite(this->MinLayerHeight) || !(this->MinLayerHeight >= 0.0))
  {
    vtkErrorMacro("MinLayerHeight must be a finite number of pixels >= 0, not "
      << this->MinLayerHeight << ".");
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
    return 0;
  }
  const std::string kind = constraint->GetValue(0);
  if (kind != "temporal")
  {
    vtkErrorMacro("Temporal Overview Layout draws temporal partitions, and this is a "
      << kind
      << " partition: draw it with the Spatiotemporal Overview (Spatiotemporal Overview "
         "Layout), or give this filter the Partition of Temporal Aggregation.");
    return 0;
  }

  // The types: names and colours from the model's description.
  const int types = amplitudes->GetNumberOfComponents();
  const MacroscopeChart::TypeStyles styles =
    MacroscopeChart::ReadTypeStyles(fields, types, this->GetTypeColorOverrides());
  const std::vector<std::string>& names = styles.Names;
  const std::vector<RGB>& colors = styles.Colors;

  macroscope::TemporalOverviewParts parts;
  parts.Types = static_cast<uint32_t>(types);
  const vtkIdType rows = input->GetNumberOfRows();
  for (vtkIdType row = 0; row < rows; ++row)
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
  const macroscope::AmplitudeAxis axis = macroscope::DescribeAmplitudeAxis(
    metric && metric->GetNumberOfValues() > 0 ? metric->GetValue(0) : std::string(),
    extensive && extensive->GetNumberOfTuples() > 0 && extensive->GetComponent(0, 0) != 0.0,
    sliceWidth && sliceWidth->GetNumberOfTuples() > 0 ? sliceWidth->GetComponent(0, 0) : 0.0);
  auto tickText = [&](const macroscope::TemporalOverview& laid, double value) {
    return macroscope::FormatAmplitude(value, laid.ValueStep, laid.MaxTotal, axis.Seconds);
  };

  // The frame (docs/labels.md): value labels at the left, the time axis
  // below, the axis title above, the legend of every type at the right.
  // The value ticks depend on the height only, so a first layout at the
  // final height gives the labels whose width sets the left margin.
  const MacroscopeChart::TextMeasure measure(this->LabelFontSize);
  const double below = MacroscopeChart::TimeAxisMargin(measure);
  // Two title lines: what is shown (p, parts), then the value axis.
  const double above =
    2.0 * measure.Height(MacroscopeChart::AXIS_TITLE) + 5.0 * MacroscopeChart::LabelGap;
  std::vector<std::string> keyNames = names;
  keyNames.push_back(MergedKey(this->MinLayerHeight));
  const double right = MacroscopeChart::LegendMarginFor(keyNames, measure, this->ViewSize[0]);
  MacroscopeChart::Frame frame = MacroscopeChart::FitFrame(this->ViewSize, 0.0, right, below, above);
  macroscope::TemporalOverviewOptions options;
  options.WindowBegin = window->GetComponent(0, 0);
  options.WindowEnd = window->GetComponent(0, 1);
  options.MinLayerHeight = this->MinLayerHeight;
  macroscope::TemporalOverview chart;
  try
  {
    for (int pass = 0; pass < 2; ++pass)
    {
      options.Width = frame.Width;
      options.Height = frame.Height;
      chart = macroscope::LayoutTemporalOverview(
        parts, options, std::max(2, static_cast<int>(frame.Height / 120.0)));
      std::vector<std::string> valueLabels;
      for (double value : chart.ValueTicks)
      {
        valueLabels.push_back(tickText(chart, value));
      }
      const double left =
        MacroscopeChart::RowLabelMargin(valueLabels, measure, this->ViewSize[0]) +
        MacroscopeChart::TickLength;
      frame = MacroscopeChart::FitFrame(this->ViewSize, left, right, below, above);
    }
  }
  catch (const std::invalid_argument& error)
  {
    vtkErrorMacro("Temporal Overview Layout cannot draw this partition: " << error.what() << ".");
    return 0;
  }
  const double width = frame.Width;
  const double height = frame.Height;
  this->UpdateProgress(0.5);

  // Marks: one quad per layer.
  const macroscope::TemporalOverviewLayers& layers = chart.Layers;
  const vtkIdType count = static_cast<vtkIdType>(layers.Size());
  MacroscopeChart::Geometry marks(4);
  MacroscopeChart::Geometry marking(4);
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
  auto markingParts = MacroscopeChart::NamedArray<vtkIntArray>("Part");
  bool anyMerged = false;
  for (std::size_t i = 0; i < layers.Size(); ++i)
  {
    const uint32_t part = layers.Part[i];
    const bool merged = (layers.Flags[i] & macroscope::TemporalLayerMerged) != 0;
    const int type = layers.Type[i];
    marks.Quad(layers.X0[i], layers.Y0[i], layers.X1[i], layers.Y1[i], 0.0,
      merged ? MergedColor : colors[static_cast<std::size_t>(type)]);
    partIds->InsertNextValue(static_cast<int>(part));
    typeIds->InsertNextValue(type);
    values->InsertNextValue(layers.Value[i]);
    aggregate->InsertNextValue(layers.Flags[i]);
    startCells->InsertNextValue(parts.Start[part]);
    endCells->InsertNextValue(parts.End[part]);
    totals->InsertNextValue(chart.StackTotal[part]);
    if (!merged)
    {
      typeNameCells->InsertNextValue(names[static_cast<std::size_t>(type)]);
      mergedCounts->InsertNextValue(0);
      contents->InsertNextValue(names[static_cast<std::size_t>(type)]);
      continue;
    }
    anyMerged = true;
    typeNameCells->InsertNextValue("visually aggregated");
    mergedCounts->InsertNextValue(
      static_cast<int>(layers.MergedOffset[i + 1] - layers.MergedOffset[i]));
    std::string list;
    for (std::size_t m = layers.MergedOffset[i]; m < layers.MergedOffset[i + 1]; ++m)
    {
      list += (list.empty() ? "" : ", ") + names[layers.MergedType[m]];
    }
    contents->InsertNextValue(list);
    // Marked so that it reads as an aggregate (seed 001 §III-C): hatched,
    // or, too thin for hatching to show, crossed by a line.
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
      markingParts->InsertNextValue(static_cast<int>(part));
    }
  }

  // Guides and labels: the frame, the time axis, the value axis.
  MacroscopeChart::Geometry guides(4);
  MacroscopeChart::Labels labels;
  MacroscopeChart::DrawFrame(guides, width, height, FrameColor);
  MacroscopeChart::DrawTimeAxis(
    guides, labels, options.WindowBegin, options.WindowEnd, frame, measure, TickColor);
  for (double value : chart.ValueTicks)
  {
    const double y = value * chart.Scale;
    guides.Line(0.0, y, -MacroscopeChart::TickLength, y, 0.5, TickColor);
    labels.Add(-MacroscopeChart::TickLength - 3.0, y, tickText(chart, value),
      MacroscopeChart::ROW_LABEL); // right-aligned and centred on the tick, as a row label
  }
  // Centred above the chart, two lines: what is shown (p, the parts), then
  // the value axis's title. Both within the plot's width, where they meet
  // no tick label (the top value tick sits left of the plot).
  const double titleHeight = measure.Height(MacroscopeChart::AXIS_TITLE);
  const double firstLine = height + frame.Top - MacroscopeChart::LabelGap;
  labels.Add(0.5 * width, firstLine,
    measure.Elide(PartitionTitleOf(input, false), MacroscopeChart::AXIS_TITLE, width),
    MacroscopeChart::AXIS_TITLE);
  labels.Add(0.5 * width, firstLine - titleHeight - 2.0 * MacroscopeChart::LabelGap,
    measure.Elide(macroscope::AmplitudeTitle(axis, chart.MaxTotal), MacroscopeChart::AXIS_TITLE,
      width),
    MacroscopeChart::AXIS_TITLE);

  // The legend: the types drawn as layers, largest area first, then the
  // merged layers.
  std::vector<MacroscopeChart::LegendEntry> entries;
  auto legendNames = MacroscopeChart::NamedArray<vtkStringArray>("LegendName");
  auto legendColors = MacroscopeChart::NamedArray<vtkUnsignedCharArray>("LegendColor");
  legendColors->SetNumberOfComponents(3);
  auto legendValues = MacroscopeChart::NamedArray<vtkDoubleArray>("LegendValue");
  for (uint32_t u : chart.TypeOrder)
  {
    if (!chart.TypeDrawn[u])
    {
      continue;
    }
    entries.push_back({ names[u], colors[u], 255 });
    legendNames->InsertNextValue(names[u]);
    const unsigned char rgb[3] = { colors[u][0], colors[u][1], colors[u][2] };
    legendColors->InsertNextTypedTuple(rgb);
    legendValues->InsertNextValue(chart.TypeArea[u]);
  }
  MacroscopeChart::Geometry legend(4);
  double y = MacroscopeChart::DrawLegend(
    legend, labels, entries, frame, measure, LegendMaxTypes, anyMerged ? 1 : 0);
  if (anyMerged && MacroscopeChart::LegendRows(frame) >= 1)
  {
    const double x = MacroscopeChart::LegendSwatchX(width);
    const double swatch = MacroscopeChart::LegendSwatch;
    legend.Quad(x, y, x + swatch, y + swatch, 0.5, MergedColor);
    // In front of the swatch (z 0.5) so that its hatching shows.
    const vtkIdType before = marking.Lines->GetNumberOfCells();
    MacroscopeChart::Hatch(marking, x, y, x + swatch, y + swatch, 0.6, 0.3 * swatch, +1, HatchColor);
    for (vtkIdType c = before; c < marking.Lines->GetNumberOfCells(); ++c)
    {
      markingParts->InsertNextValue(-1);
    }
    labels.Add(MacroscopeChart::LegendTextX(width), y + 0.5 * swatch,
      measure.Elide(MergedKey(this->MinLayerHeight), MacroscopeChart::LEGEND_LABEL,
        MacroscopeChart::LegendTextRoom(frame)),
      MacroscopeChart::LEGEND_LABEL);
  }

  marks.Into(outputs[MARKS]);
  for (vtkAbstractArray* array : std::initializer_list<vtkAbstractArray*>{ partIds, typeIds,
         typeNameCells, values, aggregate, mergedCounts, contents, startCells, endCells, totals })
  {
    outputs[MARKS]->GetCellData()->AddArray(array);
  }
  marking.Into(outputs[MARKING]);
  outputs[MARKING]->GetCellData()->AddArray(markingParts);
  guides.Into(outputs[GUIDES]);
  labels.Fit(measure, frame); // no two labels overlap, all in the frame
  labels.Into(outputs[LABELS]);
  legend.Into(outputs[LEGEND]);
  for (vtkAbstractArray* array :
    std::initializer_list<vtkAbstractArray*>{ legendNames, legendColors, legendValues })
  {
    outputs[LEGEND]->GetFieldData()->AddArray(array);
  }

  // Field data: what converts pixels back to data, on every output.
  vtkNew<vtkDoubleArray> timeWindow;
  timeWindow->SetName("TimeWindow");
  timeWindow->SetNumberOfComponents(2);
  timeWindow->InsertNextTuple2(options.WindowBegin, options.WindowEnd);
  vtkNew<vtkDoubleArray> scale;
  scale->SetName("AmplitudeScale");
  scale->InsertNextValue(chart.Scale);
  vtkNew<vtkDoubleArray> pixelsPerSecond;
  pixelsPerSecond->SetName("PixelsPerSecond");
  pixelsPerSecond->InsertNextValue(chart.PixelsPerSecond);
  for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
  {
    outputs[port]->GetFieldData()->AddArray(timeWindow);
    outputs[port]->GetFieldData()->AddArray(scale);
    outputs[port]->GetFieldData()->AddArray(pixelsPerSecond);
  }
  AddTimeNavigation(input, outputs, width, options.WindowBegin, options.WindowEnd);
  this->UpdateProgress(1.0);
  return 1;
}
