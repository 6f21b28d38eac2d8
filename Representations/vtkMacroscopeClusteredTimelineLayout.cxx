#include "vtkMacroscopeClusteredTimelineLayout.h"

#include "ClusteredTimelineDrawing.h"
#include "ClusteredTimelineLayout.h"
#include "MacroscopeClusterMarkArrays.h"
#include "MacroscopeLogicalChart.h"
#include "ProgressSpan.h"

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

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <stdexcept>

vtkStandardNewMacro(vtkMacroscopeClusteredTimelineLayout);

namespace
{
using MacroscopeChart::RGB;
constexpr RGB BandColors[2] = { { { 228, 228, 228 } }, { { 246, 246, 246 } } };
constexpr RGB LineColor{ { 20, 20, 20 } };
constexpr RGB DashColor{ { 90, 90, 90 } };
constexpr RGB PieBackground{ { 205, 205, 205 } };
constexpr double Pi = 3.14159265358979323846;
constexpr const char* GlyphKey = "glyphs: top sends, bottom receives";

// A convex polygon of `count` points (x, y pairs).
void Polygon(MacroscopeChart::Geometry& geometry, const double* xy, int count, double z, RGB rgb)
{
  std::vector<vtkIdType> ids(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i)
  {
    ids[i] = geometry.Point(xy[2 * i], xy[2 * i + 1], z);
  }
  geometry.Polys->InsertNextCell(count, ids.data());
  geometry.Color(rgb);
}

// The sector of a disc from angle a0 to a1 (radians), as one polygon.
void Sector(MacroscopeChart::Geometry& geometry, double cx, double cy, double r, double a0,
  double a1, double z, RGB rgb)
{
  const std::vector<double> xy = macroscope::SectorPolygon(cx, cy, r, a0, a1);
  Polygon(geometry, xy.data(), static_cast<int>(xy.size() / 2), z, rgb);
}

// A dashed segment: dashes of 4 pixels every 7.
void Dashed(MacroscopeChart::Geometry& lines, double x0, double y0, double x1, double y1)
{
  for (const auto& dash : macroscope::DashSegments(x0, y0, x1, y1))
  {
    lines.Line(dash[0], dash[1], dash[2], dash[3], 0.3, DashColor);
  }
}

template <typename T>
bool ReadColumn(vtkTable* table, const char* name, std::vector<T>& values)
{
  auto* array = table ? vtkDataArray::SafeDownCast(table->GetColumnByName(name)) : nullptr;
  if (!array)
  {
    return false;
  }
  values.resize(static_cast<std::size_t>(array->GetNumberOfTuples()));
  for (vtkIdType i = 0; i < array->GetNumberOfTuples(); ++i)
  {
    values[i] = static_cast<T>(array->GetComponent(i, 0));
  }
  return true;
}

// The first of `names` (longest first) whose width fits `room`, else the last.
const std::string& FirstThatFits(const std::vector<std::string>& names,
  const MacroscopeChart::TextMeasure& measure, MacroscopeChart::LabelKind kind, double room)
{
  for (const std::string& name : names)
  {
    if (measure.Width(name, kind) <= room)
    {
      return name;
    }
  }
  return names.back();
}

// A band's members by name for details on demand: the first 24, then how
// many more (a cluster of a large run has thousands).
std::string MemberList(const std::vector<int32_t>& members, vtkTable* events)
{
  constexpr std::size_t Shown = 24;
  std::string list;
  for (std::size_t i = 0; i < members.size() && i < Shown; ++i)
  {
    list += (i ? ", " : "") + MacroscopeLogicalChart::LocationName(events, members[i]);
  }
  if (members.size() > Shown)
  {
    list += " and " + std::to_string(members.size() - Shown) + " more";
  }
  return list;
}

// A band's name, in words, shorter where the room asks: left of the chart
// for the first phase drawn, inside the band's top left corner for the
// others where one fits.
void NameBand(const macroscope::ClusterBand& band, const MacroscopeChart::Frame& frame,
  const MacroscopeChart::TextMeasure& measure, MacroscopeChart::Labels& labels)
{
  const std::vector<std::string> names = macroscope::ClusterBandNames(band);
  const double textHeight = measure.Height(MacroscopeChart::ROW_LABEL);
  if (band.Y1 - band.Y0 >= textHeight && band.X0 == 0.0)
  {
    const double room = MacroscopeChart::RowLabelRoom(frame);
    labels.Add(-6.0, 0.5 * (band.Y0 + band.Y1),
      measure.Elide(FirstThatFits(names, measure, MacroscopeChart::ROW_LABEL, room),
        MacroscopeChart::ROW_LABEL, room),
      MacroscopeChart::ROW_LABEL);
  }
  // Measured only where the shortest may fit (no glyph is narrower than
  // 0.3 em): a trace has thousands of bands, and measuring costs a
  // FreeType layout.
  else if (band.Y1 - band.Y0 >= textHeight &&
    band.X1 - band.X0 >= 0.3 * measure.FontSize() * static_cast<double>(names.back().size()))
  {
    const double room = band.X1 - band.X0 - 4.0;
    const std::string& name = FirstThatFits(names, measure, MacroscopeChart::NODE_LABEL, room);
    if (measure.Width(name, MacroscopeChart::NODE_LABEL) <= room)
    {
      labels.Add(band.X0 + 2.0, band.Y1 - 1.0, name, MacroscopeChart::NODE_LABEL);
    }
  }
}

}

vtkMacroscopeClusteredTimelineLayout::vtkMacroscopeClusteredTimelineLayout() = default;

vtkMacroscopeClusteredTimelineLayout::~vtkMacroscopeClusteredTimelineLayout() = default;

void vtkMacroscopeClusteredTimelineLayout::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "FocusRadius: " << this->FocusRadius << "\n";
}

// One call of Draw: the tables as read, the layout and what is drawn.
struct vtkMacroscopeClusteredTimelineLayout::Run
{
  const Tables* In = nullptr;
  vtkPolyData** Outputs = nullptr;
  MacroscopeLogicalChart::Events Events;
  macroscope::ClusteredTimelineInput Input;
  MacroscopeChart::TextMeasure Measure;
  MacroscopeChart::Frame Frame;
  std::string FocusKey;
  macroscope::ClusteredTimelineLayout Layout;
  MacroscopeChart::Geometry Marks;
  MacroscopeChart::Geometry Lines;
  MacroscopeChart::Geometry Guides;
  MacroscopeChart::Labels Labels;
  MacroscopeClusterMarkArrays Arrays;

  explicit Run(int fontSize)
    : Measure(fontSize)
  {
  }
  RGB Color(double metric) const
  {
    return MacroscopeLogicalChart::ColorOf(metric, this->Layout.MetricRange);
  }
};

int vtkMacroscopeClusteredTimelineLayout::Draw(
  const Tables& tables, vtkPolyData* outputs[NUMBER_OF_OUTPUTS])
{
  if (this->FocusRadius < 0)
  {
    vtkErrorMacro("FocusRadius must be >= 0 message hops, not " << this->FocusRadius << ".");
    return 0;
  }
  Run run(this->LabelFontSize);
  run.In = &tables;
  run.Outputs = outputs;
  if (!this->ReadTables(run))
  {
    return 0;
  }
  const int laidOut = this->Layout(run);
  if (laidOut != 2)
  {
    return laidOut; // 0: failed, 1: aborted
  }
  this->UpdateProgress(0.5);
  this->DrawBands(run);
  if (!this->DrawGlyphs(run))
  {
    for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
    {
      outputs[port]->Initialize(); // nothing half drawn
    }
    vtkWarningMacro("Clustered Timeline Layout aborted.");
    return 1;
  }
  this->DrawFocus(run);
  this->DrawGuidesAndLegend(run);
  const macroscope::ClusteredTimelineLayout& layout = run.Layout;
  run.Marks.Into(outputs[MARKS]);
  SelectNoRow(outputs[MARKS]);
  run.Arrays.Into(outputs[MARKS]->GetCellData());
  auto focusIds = MacroscopeChart::NamedArray<vtkIntArray>("Focus");
  for (int32_t location : layout.Focus)
  {
    focusIds->InsertNextValue(location);
  }
  outputs[MARKS]->GetFieldData()->AddArray(focusIds);
  auto centre = MacroscopeChart::NamedArray<vtkIntArray>("FocusCentre");
  centre->InsertNextValue(layout.FocusCentre);
  outputs[MARKS]->GetFieldData()->AddArray(centre);
  run.Lines.Into(outputs[LINES]);
  run.Guides.Into(outputs[GUIDES]);
  run.Labels.Fit(run.Measure, run.Frame); // no two labels overlap, all in the frame
  run.Labels.Into(outputs[LABELS]);
  this->AddStepNavigation(outputs, layout.Columns.First, layout.Columns.Last,
    layout.Columns.Aggregates ? 1 : 2, layout.ColumnWidth);
  return 1;
}

bool vtkMacroscopeClusteredTimelineLayout::ReadTables(Run& run)
{
  namespace chart = MacroscopeLogicalChart;
  const Tables& tables = *run.In;
  chart::Events& events = run.Events;
  std::string problem;
  // Reading the tables: up to 0.04 of the bar (a quarter of a small run's time).
  if (!chart::ReadEvents(tables.Events, events, problem,
        [this](double fraction) { this->UpdateProgress(0.04 * fraction); }))
  {
    vtkErrorMacro("Clustered Timeline Layout: " << problem << ".");
    return false;
  }
  if (events.Phase.size() != events.Core.size() || events.Cluster.size() != events.Core.size())
  {
    vtkErrorMacro("Clustered Timeline Layout needs the Phase and Cluster columns of the "
                  "Logical Events (the clustering of Logical Time).");
    return false;
  }
  macroscope::ClusteredTimelineInput& input = run.Input;
  input.Events = events.Core;
  input.Phase = events.Phase;
  input.Cluster = events.Cluster;
  input.Receives = events.Receives;
  input.Messages = chart::ReadMessages(tables.Messages);
  if (tables.Clusters &&
    !(ReadColumn(tables.Clusters, "Phase", input.MemberPhase) &&
      ReadColumn(tables.Clusters, "Location", input.MemberLocation) &&
      ReadColumn(tables.Clusters, "Cluster", input.MemberCluster)))
  {
    vtkErrorMacro("Clustered Timeline Layout: the Clusters table needs Phase, Location and "
                  "Cluster columns.");
    return false;
  }
  if (tables.Phases &&
    !(ReadColumn(tables.Phases, "Phase", input.PhaseId) &&
      ReadColumn(tables.Phases, "Pattern", input.PhasePattern)))
  {
    vtkErrorMacro("Clustered Timeline Layout: the Phases table needs Phase and Pattern columns.");
    return false;
  }
  if (tables.Phases && !ReadColumn(tables.Phases, "MaxReceives", input.PhaseMaxReceives))
  {
    input.PhaseMaxReceives.assign(input.PhaseId.size(), 0); // then the events' largest Receives
  }
  return true;
}

int vtkMacroscopeClusteredTimelineLayout::Layout(Run& run)
{
  // The frame (docs/labels.md): the plot and the margins its text needs
  // fill ViewSize.
  run.FocusKey = "focus: max and " + std::to_string(this->FocusRadius) + "-hop partners";
  run.Frame = MacroscopeLogicalChart::LogicalFrame(this->ViewSize, run.In->Events,
    { GlyphKey, run.FocusKey }, run.Measure, { "phase 888, cluster 88 (8888)" }, " (max)");
  macroscope::ClusteredTimelineOptions options;
  options.Width = run.Frame.Width;
  options.Height = run.Frame.Height;
  options.FirstStep = this->StepWindow[0];
  options.LastStep = this->StepWindow[1];
  options.ShowAggregates = this->ShowAggregates;
  options.FocusRadius = this->FocusRadius;
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
    run.Layout = macroscope::LayoutClusteredTimeline(run.Input, options);
  }
  catch (const macroscope::LogicalLayoutAborted&)
  {
    vtkWarningMacro("Clustered Timeline Layout aborted.");
    return 1;
  }
  catch (const std::invalid_argument& error)
  {
    vtkErrorMacro("Clustered Timeline Layout cannot lay these tables out: " << error.what() << ".");
    return 0;
  }
  return 2;
}

void vtkMacroscopeClusteredTimelineLayout::DrawBands(Run& run)
{
  // Bands, alternating per phase, with their names where they fit.
  auto members = macroscope::ClusterMembers(run.Input);
  const std::vector<macroscope::ClusterBand>& bands = run.Layout.Bands;
  const std::vector<int> shade = macroscope::ClusterBandShades(bands);
  for (std::size_t b = 0; b < bands.size(); ++b)
  {
    const macroscope::ClusterBand& band = bands[b];
    run.Marks.Quad(band.X0, band.Y0, band.X1, band.Y1, -0.5, BandColors[shade[b]]);
    run.Arrays.Add(BAND, band.Phase, band.Cluster, -1, std::nan(""), band.Members, -1,
      MemberList(members[{ band.Phase, band.Cluster }], run.In->Events));
    run.Guides.Line(band.X0, band.Y0, band.X0, band.Y1, 0.5, RGB{ { 0, 0, 0 } });
    NameBand(band, run.Frame, run.Measure, run.Labels);
  }
}

bool vtkMacroscopeClusteredTimelineLayout::DrawGlyphs(Run& run)
{
  // Sections, lines, pies, dashed placeholders.
  const macroscope::ClusteredTimelineLayout& layout = run.Layout;
  macroscope::ProgressSpan drawing(
    [this](double fraction)
    {
      this->UpdateProgress(fraction);
      return !this->GetAbortExecute();
    },
    0.5, 0.9, layout.Glyphs.size());
  for (std::size_t g = 0; g < layout.Glyphs.size(); ++g)
  {
    if (!drawing.At(g))
    {
      return false;
    }
    const macroscope::ClusterGlyph& glyph = layout.Glyphs[g];
    const macroscope::ClusterBand& band = layout.Bands[glyph.Band];
    for (const macroscope::GlyphSection& section : glyph.Sections)
    {
      if (section.Empty)
      {
        Dashed(run.Lines, section.X0, section.Y0, section.X1, section.Y0);
        Dashed(run.Lines, section.X1, section.Y0, section.X1, section.Y1);
        Dashed(run.Lines, section.X1, section.Y1, section.X0, section.Y1);
        Dashed(run.Lines, section.X0, section.Y1, section.X0, section.Y0);
        continue;
      }
      const int mark = section.Role == macroscope::GlyphSection::SENDS ? SENDS
        : section.Role == macroscope::GlyphSection::RECEIVES           ? RECEIVES
                                                                       : AGGREGATE;
      run.Marks.Quad(
        section.X0, section.Y0, section.X1, section.Y1, 0.0, run.Color(section.Metric));
      run.Arrays.Add(mark, band.Phase, band.Cluster, glyph.Step, section.Metric,
        macroscope::SectionFraction(glyph, section));
    }
    for (const auto& quad : glyph.Lines)
    {
      const bool send = quad[1] > band.Y0; // a receive line starts at the band's bottom
      Polygon(run.Marks, quad.data(), 4, 0.1, LineColor);
      run.Arrays.Add(send ? SEND_LINE : RECEIVE_LINE, band.Phase, band.Cluster, glyph.Step,
        std::nan(""), send ? glyph.SendFraction : glyph.ReceiveFraction);
    }
    if (glyph.HasPie)
    {
      this->DrawPie(run, glyph, band);
    }
  }
  for (const auto& line : layout.PairLines)
  {
    run.Lines.Line(line[0], line[1], line[2], line[3], 0.3, LineColor);
  }
  return true;
}

void vtkMacroscopeClusteredTimelineLayout::DrawPie(
  Run& run, const macroscope::ClusterGlyph& glyph, const macroscope::ClusterBand& band)
{
  const double receiveMetric = glyph.Sections.back().Metric;
  Sector(run.Marks, glyph.PieCentreX, glyph.PieCentreY, glyph.PieRadius, -0.5 * Pi, 0.0, 0.05,
    PieBackground);
  run.Arrays.Add(PIE_BACKGROUND, band.Phase, band.Cluster, glyph.Step, std::nan(""), 1.0);
  if (glyph.PieFraction > 0.0)
  {
    Sector(run.Marks, glyph.PieCentreX, glyph.PieCentreY, glyph.PieRadius, -0.5 * Pi,
      -0.5 * Pi + 0.5 * Pi * glyph.PieFraction, 0.1, run.Color(receiveMetric));
    run.Arrays.Add(PIE, band.Phase, band.Cluster, glyph.Step, receiveMetric, glyph.PieFraction);
  }
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f", glyph.AverageReceives);
  if (glyph.PieRadius >= 6.0)
  {
    run.Labels.Add(glyph.PieCentreX + 0.5 * glyph.PieRadius, glyph.PieCentreY - glyph.PieRadius,
      text, MacroscopeChart::TICK_LABEL);
  }
}

void vtkMacroscopeClusteredTimelineLayout::DrawFocus(Run& run)
{
  // Focus timelines: boxes, messages between them, stubs to the others.
  const macroscope::ClusteredTimelineLayout& layout = run.Layout;
  const macroscope::LogicalTimelineLayout& focus = layout.FocusTimeline;
  const MacroscopeLogicalChart::Events& events = run.Events;
  for (const macroscope::LogicalBox& box : focus.Boxes)
  {
    const double metric = events.Core.Metric[box.Event];
    run.Marks.Quad(box.X0, box.Y0, box.X1, box.Y1, 0.0, run.Color(metric));
    run.Arrays.Add(FOCUS_EVENT, events.Phase[box.Event], events.Cluster[box.Event],
      events.Core.GlobalStep[box.Event], metric, 1.0, events.Core.Location[box.Event]);
  }
  for (const macroscope::LogicalLine& line : focus.Messages)
  {
    run.Lines.Line(line.X0, line.Y0, line.X1, line.Y1, 0.3, LineColor);
  }
  for (const auto& stub : layout.FocusStubs)
  {
    run.Lines.Line(stub[0], stub[1], stub[2], stub[3], 0.3, LineColor);
  }
  if (focus.RowLocation.empty() || !(focus.RowHeight > 0.0))
  {
    return;
  }
  const double bottom = focus.RowTop(static_cast<int>(focus.RowLocation.size()));
  run.Guides.Line(0.0, bottom, run.Frame.Width, bottom, 0.5, RGB{ { 0, 0, 0 } });
  std::vector<std::string> rowNames;
  std::vector<double> rowCentres;
  for (int row = 0; row < static_cast<int>(focus.RowLocation.size()); ++row)
  {
    const int32_t location = focus.RowLocation[row];
    rowNames.push_back(MacroscopeLogicalChart::LocationName(run.In->Events, location) +
      (location == layout.FocusCentre ? " (max)" : ""));
    rowCentres.push_back(focus.RowTop(row) - 0.5 * focus.RowHeight);
  }
  MacroscopeChart::DrawRowLabels(
    run.Labels, rowNames, rowCentres, focus.RowHeight, run.Frame, run.Measure);
}

void vtkMacroscopeClusteredTimelineLayout::DrawGuidesAndLegend(Run& run)
{
  namespace chart = MacroscopeLogicalChart;
  const macroscope::ClusteredTimelineLayout& layout = run.Layout;
  const double width = run.Frame.Width, height = run.Frame.Height;
  run.Guides.Line(0.0, layout.ClusterTop, width, layout.ClusterTop, 0.5, RGB{ { 0, 0, 0 } });
  chart::DrawStepAxis(run.Guides, run.Labels, layout.Columns, run.Frame, run.Measure);
  run.Guides.Line(0.0, 0.0, 0.0, height, 0.5, RGB{ { 0, 0, 0 } });
  run.Guides.Line(width, 0.0, width, height, 0.5, RGB{ { 0, 0, 0 } });
  // Legend: the colour bar and the key of the glyphs.
  MacroscopeChart::Geometry legend;
  const double y = chart::DrawColorBar(legend, run.Labels, chart::MetricName(run.In->Events),
    layout.MetricRange, run.Frame, run.Measure);
  const double room = MacroscopeChart::LegendTextRoom(run.Frame);
  run.Labels.Add(MacroscopeChart::LegendTextX(width), y,
    run.Measure.Elide(GlyphKey, MacroscopeChart::LEGEND_LABEL, room),
    MacroscopeChart::LEGEND_LABEL);
  run.Labels.Add(MacroscopeChart::LegendTextX(width), y - MacroscopeChart::LegendRowHeight,
    run.Measure.Elide(run.FocusKey, MacroscopeChart::LEGEND_LABEL, room),
    MacroscopeChart::LEGEND_LABEL);
  legend.Into(run.Outputs[LEGEND]);
}
