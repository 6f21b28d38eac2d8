#include "MacroscopeChart.h"

#include "TimeAxis.h"
#include "TraceSchema.h"
#include "TypePalette.h"

#include "vtkCellData.h"
#include "vtkFieldData.h"
#include "vtkPointData.h"
#include "vtkPolyData.h"
#include "vtkTable.h"

#include <algorithm>
#include <cmath>
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
  const vtkIdType ids[4] = { this->Point(x0, y0, z), this->Point(x1, y0, z),
    this->Point(x1, y1, z), this->Point(x0, y1, z) };
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

Labels::Labels()
{
  this->Text->SetName("Label");
  this->Kinds->SetName("LabelKind");
}

void Labels::Add(double x, double y, const std::string& text, int kind)
{
  this->AddAt(x, y, this->Z, text, kind);
}

void TypeLook::Fill(vtkTable* types, const macroscope::TypeColorOverrides& overrides)
{
  this->Overrides = overrides;
  auto* names = types ? vtkStringArray::SafeDownCast(types->GetColumnByName(macroscope::schema::Name))
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
            RGB{ { colors->GetValue(3 * i), colors->GetValue(3 * i + 1), colors->GetValue(3 * i + 2) } })
        : overrides.Resolve(name));
  }
}

std::string TypeLook::Name(uint32_t type) const
{
  return type < this->Names.size() ? this->Names[type] : "type " + std::to_string(type);
}

RGB TypeLook::Color(uint32_t type) const
{
  return type < this->Colors.size() ? this->Colors[type] : this->Overrides.Resolve(this->Name(type));
}

void Labels::AddAt(double x, double y, double z, const std::string& text, int kind)
{
  const vtkIdType id = this->Anchors.Point(x, y, z);
  this->Anchors.Verts->InsertNextCell(1, &id);
  this->Text->InsertNextValue(text);
  this->Kinds->InsertNextValue(kind);
}

void Labels::Into(vtkPolyData* output)
{
  output->SetPoints(this->Anchors.Points);
  output->SetVerts(this->Anchors.Verts);
  output->GetPointData()->AddArray(this->Text);
  output->GetPointData()->AddArray(this->Kinds);
}

void Hatch(Geometry& hatching, double x0, double y0, double x1, double y1, double z,
  double spacing, int slope, RGB color, unsigned char alpha)
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

void DrawTimeAxis(Geometry& guides, Labels& labels, double t0, double t1, double width, RGB color)
{
  guides.Line(0.0, 0.0, width, 0.0, 0.5, color);
  const auto ticks =
    macroscope::ComputeTimeTicks(t0, t1, std::max(2, static_cast<int>(width / 130.0)));
  for (std::size_t k = 0; k < ticks.Times.size(); ++k)
  {
    const double x = (ticks.Times[k] - t0) / (t1 - t0) * width;
    guides.Line(x, 0.0, x, -TickLength, 0.5, color);
    labels.Add(x, -TickLength - 3.0, ticks.Labels[k], TICK_LABEL);
  }
  const double step = ticks.Step / 100.0;
  const double magnitude = std::max(std::abs(t0), std::abs(t1));
  labels.Add(0.5 * width, -TickLength - 26.0,
    "time, " + macroscope::FormatSeconds(t0, step, magnitude) + " to " +
      macroscope::FormatSeconds(t1, step, magnitude),
    AXIS_TITLE);
}

double DrawLegend(Geometry& legend, Labels& labels, const std::vector<LegendEntry>& entries,
  double width, double height, std::size_t maximum)
{
  const std::size_t shown = std::min(entries.size(), maximum);
  double y = height - LegendRowHeight;
  const double x = LegendSwatchX(width);
  for (std::size_t i = 0; i < shown; ++i, y -= LegendRowHeight)
  {
    legend.Quad(x, y, x + LegendSwatch, y + LegendSwatch, 0.5, entries[i].Color, entries[i].Alpha);
    labels.Add(LegendTextX(width), y + 0.5 * LegendSwatch, entries[i].Name, LEGEND_LABEL);
  }
  if (entries.size() > shown)
  {
    labels.Add(LegendTextX(width), y + 0.5 * LegendSwatch,
      "+ " + std::to_string(entries.size() - shown) + " more types", LEGEND_LABEL);
    y -= LegendRowHeight;
  }
  return y;
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
    styles.Names.push_back(names && u < names->GetNumberOfValues() ? names->GetValue(u)
                                                                   : "type " + std::to_string(u));
    const std::string& name = styles.Names.back();
    styles.Colors.push_back(colors && u < colors->GetNumberOfTuples()
        ? overrides.Resolve(name,
            RGB{ { colors->GetValue(3 * u), colors->GetValue(3 * u + 1), colors->GetValue(3 * u + 2) } })
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
