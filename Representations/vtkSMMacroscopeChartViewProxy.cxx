#include "vtkSMMacroscopeChartViewProxy.h"

#include "TimeNavigation.h"
#include "vtkMacroscopeChartRepresentation.h"
#include "vtkMacroscopeChartView.h"

#include "vtkCallbackCommand.h"
#include "vtkCollection.h"
#include "vtkCommand.h"
#include "vtkCompositeRepresentation.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkRenderWindow.h"
#include "vtkRenderWindowInteractor.h"
#include "vtkSMPropertyHelper.h"
#include "vtkSMPropertyLink.h"
#include "vtkSMSessionProxyManager.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{
// One wheel step: a window 20 % narrower (forward) or 25 % wider (back),
// so that a step back undoes a step forward.
constexpr double WheelZoomIn = 0.8;
// A right drag zooms by this factor per pixel upwards.
constexpr double DragZoomPerPixel = 0.99;

constexpr unsigned long MouseEvents[] = { vtkCommand::MouseWheelForwardEvent,
  vtkCommand::MouseWheelBackwardEvent, vtkCommand::LeftButtonPressEvent,
  vtkCommand::LeftButtonReleaseEvent, vtkCommand::RightButtonPressEvent,
  vtkCommand::RightButtonReleaseEvent, vtkCommand::MouseMoveEvent };

vtkMacroscopeChartRepresentation* ChartOf(vtkSMProxy* display)
{
  vtkObjectBase* object = display->GetClientSideObject();
  if (auto* composite = vtkCompositeRepresentation::SafeDownCast(object))
  {
    return vtkMacroscopeChartRepresentation::SafeDownCast(composite->GetActiveRepresentation());
  }
  return vtkMacroscopeChartRepresentation::SafeDownCast(object);
}

bool IsVisible(vtkSMProxy* display)
{
  return vtkSMPropertyHelper(display, "Visibility", true).GetAsInt() != 0;
}

// The Time Slicing (or Streamed Time Slicing) upstream of an overview
// display: the proxy whose TimeWindow chooses the window the overview's
// model is sliced in. Null when there is none (e.g. a difference model).
vtkSMProxy* UpstreamSlicing(vtkSMProxy* display)
{
  vtkSMProxy* proxy =
    display->GetProperty("Input") ? vtkSMPropertyHelper(display, "Input").GetAsProxy(0) : nullptr;
  for (int depth = 0; proxy && depth < 32; ++depth)
  {
    const std::string vtkClass = proxy->GetVTKClassName() ? proxy->GetVTKClassName() : "";
    if (vtkClass == "vtkMacroscopeTimeSlicing" || vtkClass == "vtkMacroscopeStreamedTimeSlicing")
    {
      return proxy->GetProperty("TimeWindow") ? proxy : nullptr;
    }
    proxy =
      proxy->GetProperty("Input") ? vtkSMPropertyHelper(proxy, "Input").GetAsProxy(0) : nullptr;
  }
  return nullptr;
}

// The proxy whose TimeWindow a display along time draws: the display
// itself for a Timeline, the upstream Time Slicing for an overview.
vtkSMProxy* TimeWindowOwner(vtkSMProxy* display)
{
  const char* shown = display->GetProperty("Representation")
    ? vtkSMPropertyHelper(display, "Representation").GetAsString()
    : nullptr;
  const std::string type = shown ? shown : "";
  if (type == "Temporal Overview" || type == "Spatiotemporal Overview")
  {
    return UpstreamSlicing(display);
  }
  return display->GetProperty("TimeWindow") ? display : nullptr;
}

// A logical view that follows a shared time window draws that window's
// steps (its TimeWindow overrides its StepWindow): a zoom of its own steps
// sets its TimeWindow to (0, 0) with the links holding it paused, so that
// the views linked to it keep their window.
void FreeFromSharedWindow(vtkSMProxy* display, vtkSMSessionProxyManager* manager)
{
  if (!display->GetProperty("TimeWindow"))
  {
    return;
  }
  vtkSMPropertyHelper window(display, "TimeWindow");
  if (window.GetAsDouble(0) == 0.0 && window.GetAsDouble(1) == 0.0)
  {
    return;
  }
  std::vector<vtkSMLink*> paused;
  for (int i = 0; manager && i < manager->GetNumberOfLinks(); ++i)
  {
    auto* link =
      vtkSMPropertyLink::SafeDownCast(manager->GetRegisteredLink(manager->GetLinkName(i)));
    for (unsigned int k = 0; link && link->GetEnabled() && k < link->GetNumberOfLinkedObjects();
         ++k)
    {
      const char* name = link->GetLinkedPropertyName(static_cast<int>(k));
      if (link->GetLinkedProxy(static_cast<int>(k)) == display && name &&
        std::string(name) == "TimeWindow")
      {
        link->SetEnabled(false);
        paused.push_back(link);
        break;
      }
    }
  }
  const double whole[2] = { 0.0, 0.0 };
  window.Set(whole, 2);
  display->UpdateVTKObjects();
  for (vtkSMLink* link : paused)
  {
    link->SetEnabled(true);
  }
}
}

struct vtkSMMacroscopeChartViewProxy::Navigation
{
  macroscope::TimeAxisMap Axis;
  macroscope::TimeWindow Span;
  // The proxies whose TimeWindow the charts along time shown draw: the
  // Timeline displays, and the Time Slicing upstream of the overviews.
  std::vector<vtkSMProxy*> Targets;
};

// One index axis as drawn: a Timeline's rows (top to bottom) or a logical
// view's global steps (left to right), indices counted from 0.
struct vtkSMMacroscopeChartViewProxy::IndexAxis
{
  vtkSMProxy* Display = nullptr;
  const char* Property = nullptr; // "RowWindow" or "StepWindow"
  macroscope::IndexWindow Drawn;
  int64_t Total = 0;
  int64_t Base = 0;           // the property's value for index 0
  double Origin = 0.0;        // the chart coordinate where Drawn.First starts
  double UnitsPerIndex = 1.0; // chart units per index (negative for rows)

  double PositionAt(double chart) const
  {
    return static_cast<double>(this->Drawn.First) + (chart - this->Origin) / this->UnitsPerIndex;
  }

  void Write(const macroscope::IndexWindow& window) const
  {
    const macroscope::IndexWindow written = macroscope::AsProperty(window, this->Total);
    const bool all = written.Last < written.First;
    const vtkIdType first = all ? 0 : written.First + this->Base;
    const vtkIdType last = all ? -1 : written.Last + this->Base;
    vtkSMPropertyHelper property(this->Display, this->Property);
    if (property.GetAsIdType(0) != first || property.GetAsIdType(1) != last)
    {
      property.Set(0, first);
      property.Set(1, last);
      this->Display->UpdateVTKObjects();
    }
  }
};

struct vtkSMMacroscopeChartViewProxy::Drag
{
  bool Zoom = false; // right button: zoom; left: pan
  int Start[2] = { 0, 0 };
  double PivotTime = 0.0;
  double ChartStart[2] = { 0.0, 0.0 }; // the press in chart units
  Navigation AtPress;
  std::vector<IndexAxis> StepsAtPress;
  std::vector<IndexAxis> RowsAtPress;
};

vtkStandardNewMacro(vtkSMMacroscopeChartViewProxy);

vtkSMMacroscopeChartViewProxy::vtkSMMacroscopeChartViewProxy() = default;

vtkSMMacroscopeChartViewProxy::~vtkSMMacroscopeChartViewProxy()
{
  if (this->ObservedInteractor)
  {
    for (unsigned long tag : this->ObserverTags)
    {
      this->ObservedInteractor->RemoveObserver(tag);
    }
  }
}

void vtkSMMacroscopeChartViewProxy::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Dragging: " << (this->Dragging ? "yes" : "no") << "\n";
}

void vtkSMMacroscopeChartViewProxy::CreateVTKObjects()
{
  this->Superclass::CreateVTKObjects();
}

void vtkSMMacroscopeChartViewProxy::PushViewSize()
{
  if (!this->ObjectsCreated || !this->GetProperty("ViewSize") ||
    !this->GetProperty("Representations"))
  {
    return;
  }
  int size[2];
  vtkSMPropertyHelper(this, "ViewSize").Get(size, 2);
  // A screenshot larger than the window renders the view in tiles (the
  // window's tile scale) through the camera of the last plain render: the
  // layout stays the one that camera was fitted to, magnified.
  if (vtkRenderWindow* window = this->GetRenderWindow())
  {
    int scale[2];
    window->GetTileScale(scale);
    if (scale[0] > 1 || scale[1] > 1)
    {
      return;
    }
  }
  vtkSMPropertyHelper displays(this, "Representations");
  for (unsigned int i = 0; i < displays.GetNumberOfElements(); ++i)
  {
    vtkSMProxy* display = displays.GetAsProxy(i);
    if (!display || !display->GetProperty("ViewPixelSize"))
    {
      continue;
    }
    vtkSMPropertyHelper pushed(display, "ViewPixelSize");
    if (pushed.GetAsInt(0) != size[0] || pushed.GetAsInt(1) != size[1])
    {
      pushed.Set(size, 2);
      display->UpdateVTKObjects();
    }
  }
}

void vtkSMMacroscopeChartViewProxy::Update()
{
  this->PushViewSize();
  this->Superclass::Update();
}

bool vtkSMMacroscopeChartViewProxy::FindNavigation(Navigation& navigation)
{
  navigation.Targets.clear();
  if (!this->ObjectsCreated)
  {
    return false;
  }
  vtkSMPropertyHelper displays(this, "Representations");
  for (unsigned int i = 0; i < displays.GetNumberOfElements(); ++i)
  {
    vtkSMProxy* display = displays.GetAsProxy(i);
    vtkMacroscopeChartRepresentation* chart = display ? ChartOf(display) : nullptr;
    double axis[4], span[2];
    if (!chart || !IsVisible(display) || !chart->GetTimeNavigation(axis, span) ||
      !(span[1] > span[0]))
    {
      continue;
    }
    vtkSMProxy* target = TimeWindowOwner(display);
    if (!target)
    {
      continue;
    }
    if (navigation.Targets.empty())
    {
      navigation.Axis.X0 = axis[0];
      navigation.Axis.X1 = axis[1];
      navigation.Axis.Window = { axis[2], axis[3] };
      navigation.Span = { span[0], span[1] };
    }
    if (std::find(navigation.Targets.begin(), navigation.Targets.end(), target) ==
      navigation.Targets.end())
    {
      navigation.Targets.push_back(target);
    }
  }
  return !navigation.Targets.empty();
}

void vtkSMMacroscopeChartViewProxy::ApplyWindow(
  const Navigation& navigation, double start, double end)
{
  const macroscope::TimeWindow written =
    macroscope::AsProperty(macroscope::TimeWindow{ start, end }, navigation.Span);
  const double window[2] = { written.Start, written.End };
  for (vtkSMProxy* target : navigation.Targets)
  {
    vtkSMPropertyHelper(target, "TimeWindow").Set(window, 2);
    target->UpdateVTKObjects();
  }
}

std::vector<vtkSMMacroscopeChartViewProxy::IndexAxis> vtkSMMacroscopeChartViewProxy::FindIndexAxes(
  const char* property)
{
  std::vector<IndexAxis> axes;
  if (!this->ObjectsCreated)
  {
    return axes;
  }
  const bool rows = std::string(property) == "RowWindow";
  vtkSMPropertyHelper displays(this, "Representations");
  for (unsigned int i = 0; i < displays.GetNumberOfElements(); ++i)
  {
    vtkSMProxy* display = displays.GetAsProxy(i);
    vtkMacroscopeChartRepresentation* chart = display ? ChartOf(display) : nullptr;
    if (!chart || !display->GetProperty(property) || !IsVisible(display))
    {
      continue;
    }
    IndexAxis axis;
    axis.Display = display;
    axis.Property = property;
    int drawnRows[3];
    double plotHeight = 0.0;
    double steps[7];
    if (rows && chart->GetRowNavigation(drawnRows, plotHeight))
    {
      // Rows run from the plot's top (y = plotHeight) down to y = 0.
      axis.Drawn = { drawnRows[0], drawnRows[1] };
      axis.Total = drawnRows[2];
      axis.Origin = plotHeight;
      axis.UnitsPerIndex = -plotHeight / static_cast<double>(axis.Drawn.Count());
    }
    else if (!rows && chart->GetStepNavigation(steps))
    {
      // steps: x0, x1, first and last step drawn, steps per column, trace's first and last.
      axis.Base = static_cast<int64_t>(steps[5]);
      axis.Drawn = { static_cast<int64_t>(steps[2]) - axis.Base,
        static_cast<int64_t>(steps[3]) - axis.Base };
      axis.Total = static_cast<int64_t>(steps[6]) - axis.Base + 1;
      axis.Origin = steps[0];
      axis.UnitsPerIndex = (steps[1] - steps[0]) / (steps[3] - steps[2] + steps[4]);
    }
    else
    {
      continue;
    }
    axes.push_back(axis);
  }
  return axes;
}

bool vtkSMMacroscopeChartViewProxy::ZoomIndexAxes(
  const std::vector<IndexAxis>& axes, double factor, double pivot)
{
  for (const IndexAxis& axis : axes)
  {
    const double at = std::isnan(pivot)
      ? static_cast<double>(axis.Drawn.First) + 0.5 * static_cast<double>(axis.Drawn.Count())
      : axis.PositionAt(pivot);
    axis.Write(macroscope::ZoomIndices(axis.Drawn, axis.Total, factor, at));
  }
  return !axes.empty();
}

bool vtkSMMacroscopeChartViewProxy::PanIndexAxes(const std::vector<IndexAxis>& axes, double delta)
{
  for (const IndexAxis& axis : axes)
  {
    // The chart follows the pointer: the indices move against it.
    axis.Write(macroscope::PanIndices(axis.Drawn, axis.Total, -delta / axis.UnitsPerIndex));
  }
  return !axes.empty();
}

double vtkSMMacroscopeChartViewProxy::ChartXAt(double displayX)
{
  auto* view = vtkMacroscopeChartView::SafeDownCast(this->GetClientSideObject());
  int size[2];
  vtkSMPropertyHelper(this, "ViewSize").Get(size, 2);
  if (!view || size[0] < 1)
  {
    return displayX;
  }
  double region[6];
  view->GetFittedRegion(region);
  return region[0] + (displayX / size[0]) * (region[1] - region[0]);
}

double vtkSMMacroscopeChartViewProxy::ChartYAt(double displayY)
{
  auto* view = vtkMacroscopeChartView::SafeDownCast(this->GetClientSideObject());
  int size[2];
  vtkSMPropertyHelper(this, "ViewSize").Get(size, 2);
  if (!view || size[1] < 1)
  {
    return displayY;
  }
  double region[6];
  view->GetFittedRegion(region);
  return region[2] + (displayY / size[1]) * (region[3] - region[2]);
}

bool vtkSMMacroscopeChartViewProxy::ZoomRows(double factor, double displayY)
{
  if (!(factor > 0.0) || !std::isfinite(factor))
  {
    return false;
  }
  const double pivot =
    displayY < 0.0 ? std::numeric_limits<double>::quiet_NaN() : this->ChartYAt(displayY);
  return ZoomIndexAxes(this->FindIndexAxes("RowWindow"), factor, pivot);
}

bool vtkSMMacroscopeChartViewProxy::PanRows(double displayDy)
{
  return std::isfinite(displayDy) &&
    PanIndexAxes(this->FindIndexAxes("RowWindow"), this->ChartYAt(displayDy) - this->ChartYAt(0.0));
}

bool vtkSMMacroscopeChartViewProxy::ZoomSteps(double factor, double displayX)
{
  if (!(factor > 0.0) || !std::isfinite(factor))
  {
    return false;
  }
  const std::vector<IndexAxis> axes = this->FindIndexAxes("StepWindow");
  for (const IndexAxis& axis : axes)
  {
    FreeFromSharedWindow(axis.Display, this->GetSessionProxyManager());
  }
  const double pivot =
    displayX < 0.0 ? std::numeric_limits<double>::quiet_NaN() : this->ChartXAt(displayX);
  return ZoomIndexAxes(axes, factor, pivot);
}

bool vtkSMMacroscopeChartViewProxy::PanSteps(double displayDx)
{
  if (!std::isfinite(displayDx))
  {
    return false;
  }
  const std::vector<IndexAxis> axes = this->FindIndexAxes("StepWindow");
  for (const IndexAxis& axis : axes)
  {
    FreeFromSharedWindow(axis.Display, this->GetSessionProxyManager());
  }
  return PanIndexAxes(axes, this->ChartXAt(displayDx) - this->ChartXAt(0.0));
}

bool vtkSMMacroscopeChartViewProxy::ZoomTime(double factor, double displayX)
{
  Navigation navigation;
  if (!this->FindNavigation(navigation) || !(factor > 0.0) || !std::isfinite(factor))
  {
    return false;
  }
  const auto& window = navigation.Axis.Window;
  const double pivot = displayX < 0.0 ? 0.5 * (window.Start + window.End)
                                      : navigation.Axis.TimeAt(this->ChartXAt(displayX));
  const auto zoomed = macroscope::ZoomWindow(window, navigation.Span, factor, pivot);
  this->ApplyWindow(navigation, zoomed.Start, zoomed.End);
  return true;
}

bool vtkSMMacroscopeChartViewProxy::PanTime(double displayDx)
{
  Navigation navigation;
  if (!this->FindNavigation(navigation) || !std::isfinite(displayDx))
  {
    return false;
  }
  const double chartDx = this->ChartXAt(displayDx) - this->ChartXAt(0.0);
  const auto moved = macroscope::PanWindow(
    navigation.Axis.Window, navigation.Span, -chartDx / navigation.Axis.UnitsPerSecond());
  this->ApplyWindow(navigation, moved.Start, moved.End);
  return true;
}

bool vtkSMMacroscopeChartViewProxy::GetDrawnTimeWindow(double window[2])
{
  Navigation navigation;
  if (!this->FindNavigation(navigation))
  {
    return false;
  }
  window[0] = navigation.Axis.Window.Start;
  window[1] = navigation.Axis.Window.End;
  return true;
}

bool vtkSMMacroscopeChartViewProxy::GetTraceSpan(double span[2])
{
  Navigation navigation;
  if (!this->FindNavigation(navigation))
  {
    return false;
  }
  span[0] = navigation.Span.Start;
  span[1] = navigation.Span.End;
  return true;
}

void vtkSMMacroscopeChartViewProxy::SetupInteractor(vtkRenderWindowInteractor* iren)
{
  this->Superclass::SetupInteractor(iren);
  if (iren == this->ObservedInteractor || !iren)
  {
    return;
  }
  if (this->ObservedInteractor)
  {
    for (unsigned long tag : this->ObserverTags)
    {
      this->ObservedInteractor->RemoveObserver(tag);
    }
  }
  this->MouseCommand = vtkSmartPointer<vtkCallbackCommand>::New();
  this->MouseCommand->SetCallback(&vtkSMMacroscopeChartViewProxy::OnMouse);
  this->MouseCommand->SetClientData(this);
  // Before the interactor style (priority 0), which would move the camera.
  int slot = 0;
  for (unsigned long event : MouseEvents)
  {
    this->ObserverTags[slot++] = iren->AddObserver(event, this->MouseCommand, 10.0);
  }
  this->ObservedInteractor = iren;
}

void vtkSMMacroscopeChartViewProxy::OnMouse(vtkObject*, unsigned long event, void* self, void* data)
{
  (void)data;
  static_cast<vtkSMMacroscopeChartViewProxy*>(self)->HandleMouse(event);
}

void vtkSMMacroscopeChartViewProxy::HandleMouse(unsigned long event)
{
  auto* view = vtkPVRenderView::SafeDownCast(this->GetClientSideObject());
  vtkRenderWindowInteractor* iren = this->ObservedInteractor;
  if (!view || !iren || view->GetInteractionMode() != vtkPVRenderView::INTERACTION_MODE_2D)
  {
    return; // selection, zoom to box...: ParaView's own handling
  }
  int position[2];
  iren->GetEventPosition(position);
  bool handled = true;
  bool changed = false;
  switch (event)
  {
    case vtkCommand::MouseWheelForwardEvent:
    case vtkCommand::MouseWheelBackwardEvent:
    {
      const double factor =
        event == vtkCommand::MouseWheelForwardEvent ? WheelZoomIn : 1.0 / WheelZoomIn;
      // Ctrl + wheel: across rows; the wheel alone: along time, or steps.
      if (iren->GetControlKey())
      {
        changed = this->ZoomRows(factor, position[1]);
      }
      else
      {
        const bool time = this->ZoomTime(factor, position[0]);
        const bool steps = this->ZoomSteps(factor, position[0]);
        changed = time || steps;
      }
      break;
    }
    case vtkCommand::LeftButtonPressEvent:
    case vtkCommand::RightButtonPressEvent:
      this->StartDrag(event == vtkCommand::RightButtonPressEvent, position);
      break;
    case vtkCommand::MouseMoveEvent:
      if (!this->Dragging)
      {
        handled = false; // hover: for the others (tooltips)
        break;
      }
      this->MoveDrag(position);
      changed = true;
      break;
    case vtkCommand::LeftButtonReleaseEvent:
    case vtkCommand::RightButtonReleaseEvent:
      changed = this->Dragging != nullptr;
      this->Dragging.reset();
      break;
    default:
      handled = false;
  }
  if (changed)
  {
    this->RenderChangedViews();
  }
  if (handled)
  {
    // Keep the interactor style from moving the camera.
    this->MouseCommand->SetAbortFlag(1);
  }
}

void vtkSMMacroscopeChartViewProxy::StartDrag(bool zoom, const int position[2])
{
  auto drag = std::make_unique<Drag>();
  this->FindNavigation(drag->AtPress);
  drag->StepsAtPress = this->FindIndexAxes("StepWindow");
  // A right drag zooms along the horizontal axes only.
  if (!zoom)
  {
    drag->RowsAtPress = this->FindIndexAxes("RowWindow");
  }
  if (drag->AtPress.Targets.empty() && drag->StepsAtPress.empty() && drag->RowsAtPress.empty())
  {
    return;
  }
  for (const IndexAxis& axis : drag->StepsAtPress)
  {
    FreeFromSharedWindow(axis.Display, this->GetSessionProxyManager());
  }
  drag->Zoom = zoom;
  drag->Start[0] = position[0];
  drag->Start[1] = position[1];
  drag->ChartStart[0] = this->ChartXAt(position[0]);
  drag->ChartStart[1] = this->ChartYAt(position[1]);
  if (!drag->AtPress.Targets.empty())
  {
    drag->PivotTime = drag->AtPress.Axis.TimeAt(drag->ChartStart[0]);
  }
  this->Dragging = std::move(drag);
}

void vtkSMMacroscopeChartViewProxy::MoveDrag(const int position[2])
{
  const Drag& drag = *this->Dragging;
  const auto& at = drag.AtPress;
  const double dx = this->ChartXAt(position[0]) - drag.ChartStart[0];
  const double dy = this->ChartYAt(position[1]) - drag.ChartStart[1];
  if (drag.Zoom)
  {
    const double factor = std::pow(DragZoomPerPixel, position[1] - drag.Start[1]);
    if (!at.Targets.empty())
    {
      const auto window = macroscope::ZoomWindow(at.Axis.Window, at.Span, factor, drag.PivotTime);
      this->ApplyWindow(at, window.Start, window.End);
    }
    ZoomIndexAxes(drag.StepsAtPress, factor, drag.ChartStart[0]);
    return;
  }
  if (!at.Targets.empty())
  {
    const auto window =
      macroscope::PanWindow(at.Axis.Window, at.Span, -dx / at.Axis.UnitsPerSecond());
    this->ApplyWindow(at, window.Start, window.End);
  }
  PanIndexAxes(drag.StepsAtPress, dx);
  PanIndexAxes(drag.RowsAtPress, dy);
}

void vtkSMMacroscopeChartViewProxy::RenderChangedViews()
{
  this->StillRender();
  // Views linked to this one (macroscope.links) got the window through
  // their property links: render those that now need an update.
  vtkNew<vtkCollection> views;
  this->GetSessionProxyManager()->GetProxies("views", views);
  for (int i = 0; i < views->GetNumberOfItems(); ++i)
  {
    auto* view = vtkSMViewProxy::SafeDownCast(views->GetItemAsObject(i));
    if (view && view != this && view->GetNeedsUpdate())
    {
      view->StillRender();
    }
  }
}
