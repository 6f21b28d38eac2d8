#include "vtkMacroscopeClusteredTimelineLayout.h"

#include "ClusteredTimelineLayout.h"
#include "MacroscopeLogicalChart.h"
#include "ProgressSpan.h"

#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkIntArray.h"
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
  const int arcs = std::max(2, static_cast<int>(std::ceil((a1 - a0) / (Pi / 24.0))) + 1);
  std::vector<double> xy{ cx, cy };
  for (int k = 0; k < arcs; ++k)
  {
    const double a = a0 + (a1 - a0) * k / (arcs - 1);
    xy.push_back(cx + r * std::cos(a));
    xy.push_back(cy + r * std::sin(a));
  }
  Polygon(geometry, xy.data(), static_cast<int>(xy.size() / 2), z, rgb);
}

// A dashed segment: dashes of 4 pixels every 7.
void Dashed(MacroscopeChart::Geometry& lines, double x0, double y0, double x1, double y1)
{
  const double length = std::hypot(x1 - x0, y1 - y0);
  for (double s = 0.0; s < length; s += 7.0)
  {
    const double e = std::min(length, s + 4.0);
    lines.Line(x0 + (x1 - x0) * s / length, y0 + (y1 - y0) * s / length,
      x0 + (x1 - x0) * e / length, y0 + (y1 - y0) * e / length, 0.3, DashColor);
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
}

vtkMacroscopeClusteredTimelineLayout::vtkMacroscopeClusteredTimelineLayout() = default;

vtkMacroscopeClusteredTimelineLayout::~vtkMacroscopeClusteredTimelineLayout() = default;

void vtkMacroscopeClusteredTimelineLayout::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "FocusRadius: " << this->FocusRadius << "\n";
}

int vtkMacroscopeClusteredTimelineLayout::Draw(
  const Tables& tables, vtkPolyData* outputs[NUMBER_OF_OUTPUTS])
{
  namespace chart = MacroscopeLogicalChart;
  if (this->FocusRadius < 0)
  {
    vtkErrorMacro("FocusRadius must be >= 0 message hops, not " << this->FocusRadius << ".");
    return 0;
  }
  chart::Events events;
  std::string problem;
  // Reading the tables: up to 0.04 of the bar (a quarter of a small run's time).
  if (!chart::ReadEvents(tables.Events, events, problem,
        [this](double fraction) { this->UpdateProgress(0.04 * fraction); }))
  {
    vtkErrorMacro("Clustered Timeline Layout: " << problem << ".");
    return 0;
  }
  if (events.Phase.size() != events.Core.size() || events.Cluster.size() != events.Core.size())
  {
    vtkErrorMacro("Clustered Timeline Layout needs the Phase and Cluster columns of the "
                  "Logical Events (the clustering of Logical Time).");
    return 0;
  }
  macroscope::ClusteredTimelineInput input;
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
    return 0;
  }
  if (tables.Phases &&
    !(ReadColumn(tables.Phases, "Phase", input.PhaseId) &&
      ReadColumn(tables.Phases, "Pattern", input.PhasePattern)))
  {
    vtkErrorMacro("Clustered Timeline Layout: the Phases table needs Phase and Pattern columns.");
    return 0;
  }
  if (tables.Phases && !ReadColumn(tables.Phases, "MaxReceives", input.PhaseMaxReceives))
  {
    input.PhaseMaxReceives.assign(input.PhaseId.size(), 0); // then the events' largest Receives
  }
  // The frame (docs/labels.md): the plot and the margins its text needs
  // fill ViewSize.
  const MacroscopeChart::TextMeasure measure(this->LabelFontSize);
  const std::string focusKey =
    "focus: max and " + std::to_string(this->FocusRadius) + "-hop partners";
  const MacroscopeChart::Frame frame = chart::LogicalFrame(this->ViewSize, tables.Events,
    { GlyphKey, focusKey }, measure, { "phase 888, cluster 88 (8888)" }, " (max)");
  macroscope::ClusteredTimelineOptions options;
  options.Width = frame.Width;
  options.Height = frame.Height;
  options.FirstStep = this->StepWindow[0];
  options.LastStep = this->StepWindow[1];
  options.ShowAggregates = this->ShowAggregates;
  options.FocusRadius = this->FocusRadius;
  options.MaxMessages = this->MaxMessages;
  // The tables are read; the layout takes the bar to half, the drawing on.
  this->UpdateProgress(0.05);
  options.Progress = [this](double fraction) {
    this->UpdateProgress(0.05 + 0.45 * fraction);
    return !this->GetAbortExecute(); // CheckAbort would make the pipeline run it again
  };
  macroscope::ClusteredTimelineLayout layout;
  try
  {
    layout = macroscope::LayOutClusteredTimeline(input, options);
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
  this->UpdateProgress(0.5);

  const double width = options.Width;
  const double height = options.Height;
  MacroscopeChart::Geometry marks;
  auto markKinds = MacroscopeChart::NamedArray<vtkIntArray>("Mark");
  auto phases = MacroscopeChart::NamedArray<vtkIntArray>("Phase");
  auto clusters = MacroscopeChart::NamedArray<vtkIntArray>("Cluster");
  auto steps = MacroscopeChart::NamedArray<vtkIdTypeArray>("GlobalStep");
  auto metrics = MacroscopeChart::NamedArray<vtkDoubleArray>("Metric");
  auto fractions = MacroscopeChart::NamedArray<vtkDoubleArray>("Fraction");
  auto locations = MacroscopeChart::NamedArray<vtkIntArray>("Location");
  // Details on demand: a band's members by name (empty for other marks).
  auto memberNames = MacroscopeChart::NamedArray<vtkStringArray>("Members");
  auto members = macroscope::ClusterMembers(input);
  auto add = [&](int mark, int phase, int cluster, vtkIdType step, double metric, double fraction,
               int location = -1, const std::string& memberList = std::string()) {
    memberNames->InsertNextValue(memberList);
    locations->InsertNextValue(location);
    markKinds->InsertNextValue(mark);
    phases->InsertNextValue(phase);
    clusters->InsertNextValue(cluster);
    steps->InsertNextValue(step);
    metrics->InsertNextValue(metric);
    fractions->InsertNextValue(fraction);
  };
  MacroscopeChart::Geometry lines;
  MacroscopeChart::Geometry guides;
  MacroscopeChart::Labels labels;
  auto color = [&](double metric) { return chart::ColorOf(metric, layout.MetricRange); };

  // Bands, alternating per phase, with their names where they fit.
  std::vector<int> shade(layout.Bands.size());
  for (std::size_t b = 0; b < layout.Bands.size(); ++b)
  {
    const macroscope::ClusterBand& band = layout.Bands[b];
    shade[b] = b > 0 && layout.Bands[b - 1].Phase == band.Phase ? 1 - shade[b - 1] : 0;
    marks.Quad(band.X0, band.Y0, band.X1, band.Y1, -0.5, BandColors[shade[b]]);
    add(BAND, band.Phase, band.Cluster, -1, std::nan(""), band.Members, -1,
      MemberList(members[{ band.Phase, band.Cluster }], tables.Events));
    guides.Line(band.X0, band.Y0, band.X0, band.Y1, 0.5, RGB{ { 0, 0, 0 } });
    // In words, shorter where the room asks: left of the chart for the first
    // phase drawn, inside the band's top left corner for the others where
    // one fits.
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
  // Glyphs: sections, lines, pies, dashed placeholders.
  macroscope::ProgressSpan drawing(
    [this](double fraction) {
      this->UpdateProgress(fraction);
      return !this->GetAbortExecute();
    },
    0.5, 0.9, layout.Glyphs.size());
  for (std::size_t g = 0; g < layout.Glyphs.size(); ++g)
  {
    if (!drawing.At(g))
    {
      for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
      {
        outputs[port]->Initialize(); // nothing half drawn
      }
      vtkWarningMacro("Clustered Timeline Layout aborted.");
      return 1;
    }
    const macroscope::ClusterGlyph& glyph = layout.Glyphs[g];
    const macroscope::ClusterBand& band = layout.Bands[glyph.Band];
    for (const macroscope::GlyphSection& section : glyph.Sections)
    {
      if (section.Empty)
      {
        Dashed(lines, section.X0, section.Y0, section.X1, section.Y0);
        Dashed(lines, section.X1, section.Y0, section.X1, section.Y1);
        Dashed(lines, section.X1, section.Y1, section.X0, section.Y1);
        Dashed(lines, section.X0, section.Y1, section.X0, section.Y0);
        continue;
      }
      const int mark = section.Role == macroscope::GlyphSection::SENDS ? SENDS
        : section.Role == macroscope::GlyphSection::RECEIVES           ? RECEIVES
                                                                       : AGGREGATE;
      const double fraction = mark == SENDS ? glyph.SendFraction
        : mark == RECEIVES                  ? glyph.ReceiveFraction
                                            : glyph.AggregateFraction;
      marks.Quad(section.X0, section.Y0, section.X1, section.Y1, 0.0, color(section.Metric));
      add(mark, band.Phase, band.Cluster, glyph.Step, section.Metric, fraction);
    }
    for (const auto& quad : glyph.Lines)
    {
      const bool send = quad[1] > band.Y0; // a receive line starts at the band's bottom
      Polygon(marks, quad.data(), 4, 0.1, LineColor);
      add(send ? SEND_LINE : RECEIVE_LINE, band.Phase, band.Cluster, glyph.Step, std::nan(""),
        send ? glyph.SendFraction : glyph.ReceiveFraction);
    }
    if (glyph.HasPie)
    {
      const double receiveMetric = glyph.Sections.back().Metric;
      Sector(marks, glyph.PieCentreX, glyph.PieCentreY, glyph.PieRadius, -0.5 * Pi, 0.0, 0.05,
        PieBackground);
      add(PIE_BACKGROUND, band.Phase, band.Cluster, glyph.Step, std::nan(""), 1.0);
      if (glyph.PieFraction > 0.0)
      {
        Sector(marks, glyph.PieCentreX, glyph.PieCentreY, glyph.PieRadius, -0.5 * Pi,
          -0.5 * Pi + 0.5 * Pi * glyph.PieFraction, 0.1, color(receiveMetric));
        add(PIE, band.Phase, band.Cluster, glyph.Step, receiveMetric, glyph.PieFraction);
      }
      char text[32];
      std::snprintf(text, sizeof(text), "%.1f", glyph.AverageReceives);
      if (glyph.PieRadius >= 6.0)
      {
        labels.Add(glyph.PieCentreX + 0.5 * glyph.PieRadius, glyph.PieCentreY - glyph.PieRadius,
          text, MacroscopeChart::TICK_LABEL);
      }
    }
  }
  for (const auto& line : layout.PairLines)
  {
    lines.Line(line[0], line[1], line[2], line[3], 0.3, LineColor);
  }

  // Focus timelines: boxes, messages between them, stubs to the others.
  const macroscope::LogicalTimelineLayout& focus = layout.FocusTimeline;
  for (const macroscope::LogicalBox& box : focus.Boxes)
  {
    const double metric = events.Core.Metric[box.Event];
    marks.Quad(box.X0, box.Y0, box.X1, box.Y1, 0.0, color(metric));
    add(FOCUS_EVENT, events.Phase[box.Event], events.Cluster[box.Event],
      events.Core.GlobalStep[box.Event], metric, 1.0, events.Core.Location[box.Event]);
  }
  for (const macroscope::LogicalLine& line : focus.Messages)
  {
    lines.Line(line.X0, line.Y0, line.X1, line.Y1, 0.3, LineColor);
  }
  for (const auto& stub : layout.FocusStubs)
  {
    lines.Line(stub[0], stub[1], stub[2], stub[3], 0.3, LineColor);
  }
  if (!focus.RowLocation.empty() && focus.RowHeight > 0.0)
  {
    const double bottom = focus.RowTop(static_cast<int>(focus.RowLocation.size()));
    guides.Line(0.0, bottom, width, bottom, 0.5, RGB{ { 0, 0, 0 } });
    std::vector<std::string> rowNames;
    std::vector<double> rowCentres;
    for (int row = 0; row < static_cast<int>(focus.RowLocation.size()); ++row)
    {
      const int32_t location = focus.RowLocation[row];
      rowNames.push_back(chart::LocationName(tables.Events, location) +
        (location == layout.FocusCentre ? " (max)" : ""));
      rowCentres.push_back(focus.RowTop(row) - 0.5 * focus.RowHeight);
    }
    MacroscopeChart::DrawRowLabels(labels, rowNames, rowCentres, focus.RowHeight, frame, measure);
  }
  guides.Line(0.0, layout.ClusterTop, width, layout.ClusterTop, 0.5, RGB{ { 0, 0, 0 } });
  chart::DrawStepAxis(guides, labels, layout.Columns, frame, measure);
  guides.Line(0.0, 0.0, 0.0, height, 0.5, RGB{ { 0, 0, 0 } });
  guides.Line(width, 0.0, width, height, 0.5, RGB{ { 0, 0, 0 } });

  // Legend: the colour bar and the key of the glyphs.
  MacroscopeChart::Geometry legend;
  const double y = chart::DrawColorBar(legend, labels, chart::MetricName(tables.Events),
    layout.MetricRange, frame, measure);
  const double room = MacroscopeChart::LegendTextRoom(frame);
  labels.Add(MacroscopeChart::LegendTextX(width), y,
    measure.Elide(GlyphKey, MacroscopeChart::LEGEND_LABEL, room), MacroscopeChart::LEGEND_LABEL);
  labels.Add(MacroscopeChart::LegendTextX(width), y - MacroscopeChart::LegendRowHeight,
    measure.Elide(focusKey, MacroscopeChart::LEGEND_LABEL, room), MacroscopeChart::LEGEND_LABEL);

  marks.Into(outputs[MARKS]);
  SelectNoRow(outputs[MARKS]);
  for (vtkAbstractArray* array : std::initializer_list<vtkAbstractArray*>{
         markKinds, phases, clusters, steps, metrics, fractions, locations, memberNames })
  {
    outputs[MARKS]->GetCellData()->AddArray(array);
  }
  auto focusIds = MacroscopeChart::NamedArray<vtkIntArray>("Focus");
  for (int32_t location : layout.Focus)
  {
    focusIds->InsertNextValue(location);
  }
  outputs[MARKS]->GetFieldData()->AddArray(focusIds);
  auto centre = MacroscopeChart::NamedArray<vtkIntArray>("FocusCentre");
  centre->InsertNextValue(layout.FocusCentre);
  outputs[MARKS]->GetFieldData()->AddArray(centre);
  lines.Into(outputs[LINES]);
  guides.Into(outputs[GUIDES]);
  labels.Fit(measure, frame); // no two labels overlap, all in the frame
  labels.Into(outputs[LABELS]);
  legend.Into(outputs[LEGEND]);
  this->AddStepNavigation(outputs, layout.Columns.First, layout.Columns.Last,
    layout.Columns.Aggregates ? 1 : 2, layout.ColumnWidth);
  return 1;
}
