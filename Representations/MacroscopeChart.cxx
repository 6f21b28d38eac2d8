#include "MacroscopeChart.h"

#include "TimeAxis.h"
#include "TraceSchema.h"
#include "TypePalette.h"

#include "vtkCellData.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkPointData.h"
#include "vtkPolyData.h"
#include "vtkTable.h"
#include "vtkTextProperty.h"
#include "vtkTextRenderer.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace MacroscopeChart
{

Geometry::Geometry(int colorComponents)
{
  this->Points->SetDataTypeToDouble();
  this->Colors->SetName(macroscope::schema::Color);
  this->Colors->SetNumberOfComponents(colorComponents);
}

void Geometry::Color(RGB rgb, unsigned char alpha)
{
  const unsigned char tuple[4] = { rgb[0], rgb[1], rgb[2], alpha };
  this->Colors->InsertNextTypedTuple(tuple);
}

void Geometry::Quad(
  double x0, double y0, double x1, double y1, double z, RGB rgb, unsigned char alpha)
{
  const vtkIdType ids[4] = { this->Point(x0, y0, z), this->Point(x1, y0, z), this->Point(x1, y1, z),
    this->Point(x0, y1, z) };
  this->Polys->InsertNextCell(4, ids);
  this->Color(rgb, alpha);
}

void Geometry::Line(
  double x0, double y0, double x1, double y1, double z, RGB rgb, unsigned char alpha)
{
  const vtkIdType ids[2] = { this->Point(x0, y0, z), this->Point(x1, y1, z) };
  this->Lines->InsertNextCell(2, ids);
  this->Color(rgb, alpha);
}

void Geometry::Into(vtkPolyData* output)
{
  output->SetPoints(this->Points);
  if (this->Verts->GetNumberOfCells())
  {
    output->SetVerts(this->Verts);
  }
  if (this->Lines->GetNumberOfCells())
  {
    output->SetLines(this->Lines);
  }
  if (this->Polys->GetNumberOfCells())
  {
    output->SetPolys(this->Polys);
  }
  output->GetCellData()->AddArray(this->Colors);
  output->GetCellData()->SetActiveScalars(macroscope::schema::Color);
}

void Labels::Add(double x, double y, const std::string& text, int kind)
{
  if (!text.empty()) // a name elided to nothing: no room for it
  {
    this->AddAt(x, y, this->Z, text, kind);
  }
}

void TypeLook::Fill(vtkTable* types, const macroscope::TypeColorOverrides& overrides)
{
  this->Overrides = overrides;
  auto* names = types
    ? vtkStringArray::SafeDownCast(types->GetColumnByName(macroscope::schema::Name))
    : nullptr;
  auto* colors = types
    ? vtkUnsignedCharArray::SafeDownCast(types->GetColumnByName(macroscope::schema::Color))
    : nullptr;
  if (colors && colors->GetNumberOfComponents() != 3)
  {
    colors = nullptr;
  }
  const vtkIdType rows = names ? names->GetNumberOfValues() : 0;
  for (vtkIdType i = 0; i < rows; ++i)
  {
    this->Names.push_back(names->GetValue(i));
    const std::string& name = this->Names.back();
    this->Colors.push_back(colors && i < colors->GetNumberOfTuples()
        ? overrides.Resolve(name,
            RGB{ { colors->GetValue(3 * i), colors->GetValue(3 * i + 1),
              colors->GetValue(3 * i + 2) } })
        : overrides.Resolve(name));
  }
}

std::string TypeLook::Name(uint32_t type) const
{
  return type < this->Names.size() ? this->Names[type] : "type " + std::to_string(type);
}

RGB TypeLook::Color(uint32_t type) const
{
  return type < this->Colors.size() ? this->Colors[type]
                                    : this->Overrides.Resolve(this->Name(type));
}

void Labels::AddAt(double x, double y, double z, const std::string& text, int kind)
{
  this->Entries.push_back({ x, y, z, text, kind, {} });
}

void Labels::Fit(const TextMeasure& measure, const Frame& frame)
{
  std::vector<macroscope::LabelCandidate> candidates;
  candidates.reserve(this->Entries.size());
  for (const Entry& entry : this->Entries)
  {
    macroscope::LabelCandidate candidate;
    candidate.X = entry.X;
    candidate.Y = entry.Y;
    candidate.Width = measure.Width(entry.Text, entry.Kind);
    candidate.Height = measure.Height(entry.Kind);
    candidate.Horizontal = HorizontalAlign(entry.Kind);
    candidate.Vertical = VerticalAlign(entry.Kind);
    candidate.Priority = LabelPriority(entry.Kind);
    candidates.push_back(candidate);
  }
  // The view's edge is a neighbour too: keep LabelGap from it.
  macroscope::LabelRect bounds = frame.Bounds();
  bounds.X0 += LabelGap;
  bounds.Y0 += LabelGap;
  bounds.X1 -= LabelGap;
  bounds.Y1 -= LabelGap;
  const std::vector<bool> kept = macroscope::PlaceLabels(candidates, bounds, LabelGap);
  std::vector<Entry> placed;
  for (std::size_t i = 0; i < this->Entries.size(); ++i)
  {
    if (kept[i])
    {
      placed.push_back(this->Entries[i]);
      placed.back().Box = macroscope::LabelBox(candidates[i]);
    }
  }
  this->Entries = std::move(placed);
  this->Fitted = true;
  this->ChartBounds = frame.Bounds();
  this->PlotWidth = frame.Width;
  this->PlotHeight = frame.Height;
  this->FontSize = measure.FontSize();
  this->Dpi = measure.Dpi();
}

void Labels::Into(vtkPolyData* output)
{
  Geometry anchors;
  vtkNew<vtkStringArray> text;
  text->SetName("Label");
  vtkNew<vtkIntArray> kinds;
  kinds->SetName("LabelKind");
  vtkNew<vtkDoubleArray> boxes;
  boxes->SetName("LabelBox");
  boxes->SetNumberOfComponents(4);
  for (const Entry& entry : this->Entries)
  {
    const vtkIdType id = anchors.Point(entry.X, entry.Y, entry.Z);
    anchors.Verts->InsertNextCell(1, &id);
    text->InsertNextValue(entry.Text);
    kinds->InsertNextValue(entry.Kind);
    const double box[4] = { entry.Box.X0, entry.Box.Y0, entry.Box.X1, entry.Box.Y1 };
    boxes->InsertNextTuple(box);
  }
  output->SetPoints(anchors.Points);
  output->SetVerts(anchors.Verts);
  output->GetPointData()->AddArray(text);
  output->GetPointData()->AddArray(kinds);
  if (this->Fitted)
  {
    output->GetPointData()->AddArray(boxes);
    vtkNew<vtkDoubleArray> bounds;
    bounds->SetName("ChartBounds");
    bounds->SetNumberOfComponents(4);
    const double tuple[4] = { this->ChartBounds.X0, this->ChartBounds.X1, this->ChartBounds.Y0,
      this->ChartBounds.Y1 };
    bounds->InsertNextTuple(tuple);
    output->GetFieldData()->AddArray(bounds);
    vtkNew<vtkDoubleArray> plot;
    plot->SetName("PlotSize"); // the plot's width and height, at the origin
    plot->SetNumberOfComponents(2);
    plot->InsertNextTuple2(this->PlotWidth, this->PlotHeight);
    output->GetFieldData()->AddArray(plot);
    vtkNew<vtkIntArray> font;
    font->SetName("LabelFont"); // font size and DPI the boxes were measured at
    font->SetNumberOfComponents(2);
    const int fontTuple[2] = { this->FontSize, this->Dpi };
    font->InsertNextTypedTuple(fontTuple);
    output->GetFieldData()->AddArray(font);
  }
}

macroscope::LabelAlign HorizontalAlign(int kind)
{
  return kind == ROW_LABEL                     ? macroscope::LabelAlign::End
    : kind == TICK_LABEL || kind == AXIS_TITLE ? macroscope::LabelAlign::Centre
                                               : macroscope::LabelAlign::Start;
}

macroscope::LabelAlign VerticalAlign(int kind)
{
  return kind == ROW_LABEL || kind == LEGEND_LABEL ? macroscope::LabelAlign::Centre
                                                   : macroscope::LabelAlign::End;
}

int LabelPriority(int kind)
{
  switch (kind)
  {
    case AXIS_TITLE:
      return 6;
    case LEGEND_LABEL:
      return 5;
    case TICK_LABEL:
      return 4;
    case GROUP_LABEL:
      return 3;
    case ROW_LABEL:
      return 2;
    default:
      return 1;
  }
}

TextMeasure::TextMeasure(int fontSize, int dpi)
  : Size(std::max(1, fontSize))
  , DotsPerInch(std::max(1, dpi))
{
  for (int kind = 0; kind < LabelKindCount; ++kind)
  {
    // As vtkMacroscopeChartRepresentation styles each kind.
    this->Properties[kind] = vtkSmartPointer<vtkTextProperty>::New();
    this->Properties[kind]->SetFontSize(this->Size);
    this->Properties[kind]->SetBold(kind == GROUP_LABEL);
    this->Properties[kind]->SetItalic(kind == AXIS_TITLE);
    this->Properties[kind]->SetShadow(false);
  }
  for (int kind = 0; kind < LabelKindCount; ++kind)
  {
    double width;
    this->Measure("Ag", kind, width, this->Heights[kind]);
  }
}

TextMeasure::~TextMeasure() = default;

void TextMeasure::Measure(const std::string& text, int kind, double& width, double& height) const
{
  vtkTextRenderer* renderer = vtkTextRenderer::GetInstance();
  int box[4] = { 0, 0, 0, 0 };
  const int k = kind >= 0 && kind < LabelKindCount ? kind : TICK_LABEL;
  if (!renderer || !renderer->GetBoundingBox(this->Properties[k], text, box, this->DotsPerInch))
  {
    // No text engine in this process (none is known to lack one): a
    // generous estimate, so that labels still never overlap.
    width = 0.65 * this->Size * this->DotsPerInch / 72.0 * static_cast<double>(text.size());
    height = 1.3 * this->Size * this->DotsPerInch / 72.0;
    return;
  }
  width = box[1] - box[0] + 1;
  height = box[3] - box[2] + 1;
}

double TextMeasure::Width(const std::string& text, int kind) const
{
  const int k = kind >= 0 && kind < LabelKindCount ? kind : TICK_LABEL;
  auto known = this->Widths[k].find(text);
  if (known != this->Widths[k].end())
  {
    return known->second;
  }
  double width, height;
  this->Measure(text, k, width, height);
  this->Widths[k].emplace(text, width);
  return width;
}

double TextMeasure::Height(int kind) const
{
  return this->Heights[kind >= 0 && kind < LabelKindCount ? kind : TICK_LABEL];
}

std::string TextMeasure::Elide(const std::string& text, int kind, double maxWidth) const
{
  if (this->Width(text, kind) <= maxWidth)
  {
    return text;
  }
  static const std::string ellipsis = "\xE2\x80\xA6";
  // Cut points at UTF-8 character starts only.
  std::vector<std::size_t> cuts;
  for (std::size_t i = 0; i < text.size(); ++i)
  {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
    {
      cuts.push_back(i);
    }
  }
  auto prefix = [&](std::size_t characters)
  { return text.substr(0, characters < cuts.size() ? cuts[characters] : text.size()); };
  // The most characters c (fewer than all) whose prefix and "…" fit.
  std::size_t low = 0, high = cuts.empty() ? 0 : cuts.size() - 1;
  while (low < high)
  {
    const std::size_t middle = (low + high + 1) / 2;
    if (this->Width(prefix(middle) + ellipsis, kind) <= maxWidth)
    {
      low = middle;
    }
    else
    {
      high = middle - 1;
    }
  }
  if (low == 0)
  {
    return this->Width(ellipsis, kind) <= maxWidth ? ellipsis : std::string();
  }
  return prefix(low) + ellipsis;
}

std::string TextMeasure::ElideMiddle(const std::string& text, int kind, double maxWidth) const
{
  if (this->Width(text, kind) <= maxWidth)
  {
    return text;
  }
  static const std::string ellipsis = "\xE2\x80\xA6";
  std::vector<std::size_t> cuts; // UTF-8 character starts
  for (std::size_t i = 0; i < text.size(); ++i)
  {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
    {
      cuts.push_back(i);
    }
  }
  cuts.push_back(text.size());
  const std::size_t characters = cuts.size() - 1;
  // `kept` characters: the first ceil(kept / 2) and the last floor(kept / 2).
  auto elided = [&](std::size_t kept)
  {
    const std::size_t head = (kept + 1) / 2, tail = kept / 2;
    return text.substr(0, cuts[head]) + ellipsis + text.substr(cuts[characters - tail]);
  };
  std::size_t low = 0, high = characters - 1;
  while (low < high)
  {
    const std::size_t middle = (low + high + 1) / 2;
    if (this->Width(elided(middle), kind) <= maxWidth)
    {
      low = middle;
    }
    else
    {
      high = middle - 1;
    }
  }
  if (low == 0)
  {
    return this->Width(ellipsis, kind) <= maxWidth ? ellipsis : std::string();
  }
  return elided(low);
}

Frame FitFrame(const int view[2], double left, double right, double bottom, double top)
{
  macroscope::ChartMargins wanted;
  wanted.Left = left;
  wanted.Right = right;
  wanted.Bottom = bottom;
  wanted.Top = top;
  const auto margins = macroscope::FitChartMargins(view[0], view[1], wanted, 0.5);
  Frame frame;
  frame.Width = margins.PlotWidth;
  frame.Height = margins.PlotHeight;
  frame.Left = margins.Left;
  frame.Right = margins.Right;
  frame.Bottom = margins.Bottom;
  frame.Top = margins.Top;
  return frame;
}

double AxisTitleY(const TextMeasure& measure)
{
  return -TickLength - 3.0 - measure.Height(TICK_LABEL) - 2.0 * LabelGap;
}

double TimeAxisMargin(const TextMeasure& measure)
{
  return -AxisTitleY(measure) + measure.Height(AXIS_TITLE) + 2.0 * LabelGap;
}

double RowLabelMargin(
  const std::vector<std::string>& names, const TextMeasure& measure, double viewWidth)
{
  double widest = 0.0;
  for (const std::string& name : names)
  {
    widest = std::max(widest, measure.Width(name, ROW_LABEL));
  }
  return std::min(widest + 6.0 + 2.0 * LabelGap, 0.3 * viewWidth);
}

double LegendMarginFor(
  const std::vector<std::string>& names, const TextMeasure& measure, double viewWidth)
{
  double widest = 0.0;
  for (const std::string& name : names)
  {
    widest = std::max(widest, measure.Width(name, LEGEND_LABEL));
  }
  const double room = std::max(0.25 * viewWidth, 100.0);
  return LegendTextX(0.0) + std::min(widest, room) + 2.0 * LabelGap;
}

double TitleRoom(const Frame& frame)
{
  return frame.Width + 2.0 * std::min(frame.Left, frame.Right) - 4.0 * LabelGap;
}

double RowLabelRoom(const Frame& frame)
{
  return frame.Left - 6.0 - 2.0 * LabelGap;
}

double LegendTextRoom(const Frame& frame)
{
  return frame.Width + frame.Right - LegendTextX(frame.Width) - 2.0 * LabelGap;
}

void DrawRowLabels(Labels& labels, const std::vector<std::string>& names,
  const std::vector<double>& centres, double pitch, const Frame& frame, const TextMeasure& measure)
{
  const std::size_t every =
    macroscope::RowLabelStride(pitch, measure.Height(ROW_LABEL), LabelGap, centres.size());
  const double room = RowLabelRoom(frame);
  const std::vector<std::string> shown = macroscope::DropCommonLeadingPath(names, " / ");
  // Names cut at their end, or in their middle when that tells more of the
  // labelled rows apart ("MPI Rank 10 / Mas…" and "MPI Rank 11 / Mas…", but
  // "Node 3 / Core …ad 0" and "Node 3 / Core …ad 1").
  std::vector<std::size_t> drawn;
  std::vector<std::string> atEnd, inMiddle;
  for (std::size_t row = 0; row < centres.size() && row < shown.size(); row += every)
  {
    drawn.push_back(row);
    atEnd.push_back(measure.Elide(shown[row], ROW_LABEL, room));
    inMiddle.push_back(measure.ElideMiddle(shown[row], ROW_LABEL, room));
  }
  auto distinct = [](std::vector<std::string> texts)
  {
    std::sort(texts.begin(), texts.end());
    return std::unique(texts.begin(), texts.end()) - texts.begin();
  };
  const std::vector<std::string>& texts = distinct(inMiddle) > distinct(atEnd) ? inMiddle : atEnd;
  for (std::size_t i = 0; i < drawn.size(); ++i)
  {
    labels.Add(-6.0, centres[drawn[i]], texts[i], ROW_LABEL);
  }
}

void DrawGroupedRowLabels(Labels& labels, Geometry& guides, const std::vector<LabelledRow>& rows,
  const std::function<std::string(int64_t)>& nodeName, const Frame& frame,
  const TextMeasure& measure, RGB color)
{
  std::vector<std::vector<int64_t>> ancestors;
  std::vector<double> heights;
  for (const LabelledRow& row : rows)
  {
    ancestors.push_back(row.Ancestors);
    heights.push_back(std::abs(row.Top - row.Bottom));
  }
  const double pitch = measure.Height(ROW_LABEL) + LabelGap;
  const std::vector<macroscope::RowGroup> groups =
    macroscope::GroupRowsForLabels(ancestors, heights, pitch);
  const bool ownNames =
    std::all_of(groups.begin(), groups.end(),
      [](const macroscope::RowGroup& group) { return group.First == group.Last; }) &&
    groups.size() == rows.size() && (rows.empty() || groups[0].Node == rows[0].Ancestors[0]);
  std::vector<std::string> names;
  std::vector<double> centres;
  for (const macroscope::RowGroup& group : groups)
  {
    names.push_back(ownNames ? rows[group.First].Name : nodeName(group.Node));
    centres.push_back(0.5 * (rows[group.First].Top + rows[group.Last].Bottom));
  }
  if (ownNames)
  {
    DrawRowLabels(labels, names, centres, pitch, frame, measure);
    return;
  }
  // Groups of one level that share a name ("MPI Rank 0" under two nodes)
  // are told apart by their parent's.
  std::map<std::string, int> uses;
  for (const std::string& name : names)
  {
    ++uses[name];
  }
  const double room = RowLabelRoom(frame) - 4.0;
  for (std::size_t g = 0; g < groups.size(); ++g)
  {
    const macroscope::RowGroup& group = groups[g];
    const std::vector<int64_t>& path = rows[group.First].Ancestors;
    const auto at = std::find(path.begin(), path.end(), group.Node);
    std::string text = names[g];
    if (uses[text] > 1 && at != path.end() && at + 1 != path.end() && *(at + 1) >= 0)
    {
      text = nodeName(*(at + 1)) + " / " + text;
    }
    labels.Add(-10.0, centres[g], measure.ElideMiddle(text, ROW_LABEL, room), ROW_LABEL);
    // The bracket: a line along the group's rows, a pixel short at each
    // end so that neighbouring groups stay apart.
    const double top = rows[group.First].Top - 1.0;
    const double bottom = rows[group.Last].Bottom + 1.0;
    guides.Line(-5.0, top, -5.0, bottom, 0.5, color);
    guides.Line(-5.0, top, -2.0, top, 0.5, color);
    guides.Line(-5.0, bottom, -2.0, bottom, 0.5, color);
  }
}

void Hatch(Geometry& hatching, double x0, double y0, double x1, double y1, double z, double spacing,
  int slope, RGB color, unsigned char alpha)
{
  const double height = y1 - y0;
  if (x1 <= x0 || height <= 0.0 || spacing <= 0.0)
  {
    return;
  }
  // Lines x = c + slope * (y - yRef), yRef the edge where the line starts.
  const double yRef = slope > 0 ? y0 : y1;
  for (double k = std::ceil((x0 - height) / spacing); k * spacing <= x1; k += 1.0)
  {
    const double c = k * spacing;
    // Along the line, x runs from c to c + height; keep the part in [x0, x1].
    const double from = std::max(0.0, x0 - c);
    const double to = std::min(height, x1 - c);
    if (to - from > 1e-9)
    {
      hatching.Line(c + from, yRef + slope * from, c + to, yRef + slope * to, z, color, alpha);
    }
  }
}

void DrawFrame(Geometry& guides, double width, double height, RGB color)
{
  guides.Line(0.0, height, width, height, 0.5, color);
  guides.Line(0.0, 0.0, 0.0, height, 0.5, color);
  guides.Line(width, 0.0, width, height, 0.5, color);
}

void DrawTimeAxis(Geometry& guides, Labels& labels, double t0, double t1, const Frame& frame,
  const TextMeasure& measure, RGB color)
{
  const double width = frame.Width;
  guides.Line(0.0, 0.0, width, 0.0, 0.5, color);
  // About one tick per 80 px, fewer while their labels would come closer
  // than TickLabelGap.
  int budget = std::max(3, static_cast<int>(width / 80.0));
  macroscope::TimeTicks ticks;
  std::vector<double> xs, widths;
  for (;;)
  {
    ticks = macroscope::ComputeTimeTicks(t0, t1, budget);
    xs.clear();
    widths.clear();
    double widest = 0.0;
    for (std::size_t k = 0; k < ticks.Times.size(); ++k)
    {
      xs.push_back((ticks.Times[k] - t0) / (t1 - t0) * width);
      widths.push_back(measure.Width(ticks.Labels[k], TICK_LABEL));
      widest = std::max(widest, widths.back());
    }
    if (budget <= 1 || macroscope::TickLabelsFit(xs, widths, TickLabelGap))
    {
      break;
    }
    budget = std::min(budget - 1, macroscope::TickLabelBudget(width, widest, TickLabelGap));
  }
  for (std::size_t k = 0; k < ticks.Times.size(); ++k)
  {
    guides.Line(xs[k], 0.0, xs[k], -TickLength, 0.5, color);
    labels.Add(xs[k], -TickLength - 3.0, ticks.Labels[k], TICK_LABEL);
  }
  const double step = ticks.Step / 100.0;
  const double magnitude = std::max(std::abs(t0), std::abs(t1));
  const std::string title = "time, " + macroscope::FormatSeconds(t0, step, magnitude) + " to " +
    macroscope::FormatSeconds(t1, step, magnitude);
  labels.Add(0.5 * width, AxisTitleY(measure), measure.Elide(title, AXIS_TITLE, TitleRoom(frame)),
    AXIS_TITLE);
}

std::size_t LegendRows(const Frame& frame)
{
  return static_cast<std::size_t>(std::max(0.0, std::floor(frame.Height / LegendRowHeight)));
}

double DrawLegend(Geometry& legend, Labels& labels, const std::vector<LegendEntry>& entries,
  const Frame& frame, const TextMeasure& measure, std::size_t maximum, std::size_t reserved)
{
  const double width = frame.Width;
  const double textRoom = LegendTextRoom(frame);
  const double itemExtra = LegendTextX(width) - LegendSwatchX(width);
  const std::size_t considered = std::min(entries.size(), maximum + 1);
  std::vector<double> items;
  for (std::size_t i = 0; i < considered; ++i)
  {
    items.push_back(itemExtra + std::min(textRoom, measure.Width(entries[i].Name, LEGEND_LABEL)));
  }
  const std::size_t rows = LegendRows(frame);
  const std::size_t typeRows = rows > reserved ? rows - reserved : 0;
  const std::string moreText = "+ " + std::to_string(entries.size()) + " more";
  macroscope::LegendFit fit =
    macroscope::FitLegend(items, itemExtra + measure.Width(moreText, LEGEND_LABEL), LegendRowHeight,
      frame.Right - LegendMargin, typeRows * LegendRowHeight, 8.0);
  std::size_t shown = std::min(fit.Shown, maximum);
  if (entries.size() > maximum && shown == maximum && fit.Columns * fit.Rows == shown)
  {
    shown = maximum - 1; // the "+ n more" line takes the last slot
  }
  const bool more = entries.size() > shown;
  const std::size_t perColumn = std::max<std::size_t>(fit.Rows, 1);
  const double columnStep = fit.ColumnWidth + 8.0;
  double lowest = frame.Height;
  auto slot = [&](std::size_t i, double& x, double& y)
  {
    x = LegendSwatchX(width) + static_cast<double>(i / perColumn) * columnStep;
    y = frame.Height - LegendRowHeight * static_cast<double>(i % perColumn + 1);
    lowest = std::min(lowest, y);
  };
  const double nameRoom = std::min(textRoom, fit.ColumnWidth - itemExtra);
  for (std::size_t i = 0; i < shown; ++i)
  {
    double x, y;
    slot(i, x, y);
    legend.Quad(x, y, x + LegendSwatch, y + LegendSwatch, 0.5, entries[i].Color, entries[i].Alpha);
    labels.Add(x + itemExtra, y + 0.5 * LegendSwatch,
      measure.Elide(entries[i].Name, LEGEND_LABEL, nameRoom), LEGEND_LABEL);
  }
  if (more && (fit.Rows > 0 || shown > 0))
  {
    double x, y;
    slot(shown, x, y);
    labels.Add(x + itemExtra, y + 0.5 * LegendSwatch,
      measure.Elide(
        "+ " + std::to_string(entries.size() - shown) + " more", LEGEND_LABEL, textRoom),
      LEGEND_LABEL);
  }
  // The caller's rows go below the longest column.
  return lowest - LegendRowHeight;
}

TypeStyles ReadTypeStyles(
  vtkFieldData* fields, int count, const macroscope::TypeColorOverrides& overrides)
{
  auto* names = vtkStringArray::SafeDownCast(fields->GetAbstractArray("TypeName"));
  auto* colors = vtkUnsignedCharArray::SafeDownCast(fields->GetAbstractArray("TypeColor"));
  if (colors && colors->GetNumberOfComponents() != 3)
  {
    colors = nullptr;
  }
  TypeStyles styles;
  for (int u = 0; u < count; ++u)
  {
    styles.Names.push_back(
      names && u < names->GetNumberOfValues() ? names->GetValue(u) : "type " + std::to_string(u));
    const std::string& name = styles.Names.back();
    styles.Colors.push_back(colors && u < colors->GetNumberOfTuples()
        ? overrides.Resolve(name,
            RGB{ { colors->GetValue(3 * u), colors->GetValue(3 * u + 1),
              colors->GetValue(3 * u + 2) } })
        : overrides.Resolve(name));
  }
  return styles;
}

bool ParseTypeColors(const std::vector<std::string>& entries,
  macroscope::TypeColorOverrides& overrides, std::string& problem)
{
  try
  {
    overrides = macroscope::TypeColorOverrides::Parse(entries);
    return true;
  }
  catch (const std::invalid_argument& error)
  {
    problem = error.what();
    return false;
  }
}
}
