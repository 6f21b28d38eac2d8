#include "vtkSMMacroscopeChartViewProxy.h"

#include "TimeNavigation.h"
#include "vtkMacroscopeChartRepresentation.h"
#include "vtkMacroscopeChartView.h"

#include "vtkCallbackCommand.h"
#include "vtkNew.h"
#include "vtkCollection.h"
#include "vtkCommand.h"
#include "vtkCompositeRepresentation.h"
#include "vtkObjectFactory.h"
#include "vtkRenderWindow.h"
#include "vtkRenderWindowInteractor.h"
#include "vtkSMPropertyHelper.h"
#include "vtkSMSessionProxyManager.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
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
}

struct vtkSMMacroscopeChartViewProxy::Navigation
{
  macroscope::TimeAxisMap Axis;
  macroscope::TimeWindow Span;
  std::vector<vtkSMProxy*> Displays; // the charts along time shown
};

struct vtkSMMacroscopeChartViewProxy::Drag
{
  bool Zoom = false; // right button: zoom; left: pan
  int Start[2] = { 0, 0 };
  double PivotTime = 0.0;
  Navigation AtPress;
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
  navigation.Displays.clear();
  if (!this->ObjectsCreated)
  {
    return false;
  }
  vtkSMPropertyHelper displays(this, "Representations");
  for (unsigned int i = 0; i < displays.GetNumberOfElements(); ++i)
  {
    vtkSMProxy* display = displays.GetAsProxy(i);
    if (!display || !display->GetProperty("TimeWindow") ||
      vtkSMPropertyHelper(display, "Visibility", true).GetAsInt() == 0)
    {
      continue;
    }
    vtkMacroscopeChartRepresentation* chart = ChartOf(display);
    double axis[4], span[2];
    if (!chart || !chart->GetTimeNavigation(axis, span) || !(span[1] > span[0]))
    {
      continue;
    }
    if (navigation.Displays.empty())
    {
      navigation.Axis.X0 = axis[0];
      navigation.Axis.X1 = axis[1];
      navigation.Axis.Window = { axis[2], axis[3] };
      navigation.Span = { span[0], span[1] };
    }
    navigation.Displays.push_back(display);
  }
  return !navigation.Displays.empty();
}

void vtkSMMacroscopeChartViewProxy::ApplyWindow(
  const Navigation& navigation, double start, double end)
{
  const macroscope::TimeWindow written =
    macroscope::AsProperty(macroscope::TimeWindow{ start, end }, navigation.Span);
  const double window[2] = { written.Start, written.End };
  for (vtkSMProxy* display : navigation.Displays)
  {
    vtkSMPropertyHelper(display, "TimeWindow").Set(window, 2);
    display->UpdateVTKObjects();
  }
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
  if (!(factor > 0.0) || !std::isfinite(factor) || !this->ObjectsCreated)
  {
    return false;
  }
  vtkSMPropertyHelper displays(this, "Representations");
  bool changed = false;
  for (unsigned int i = 0; i < displays.GetNumberOfElements(); ++i)
  {
    vtkSMProxy* display = displays.GetAsProxy(i);
    vtkMacroscopeChartRepresentation* chart = display ? ChartOf(display) : nullptr;
    int rows[3];
    double plotHeight = 0.0;
    if (!chart || !display->GetProperty("RowWindow") ||
      vtkSMPropertyHelper(display, "Visibility", true).GetAsInt() == 0 ||
      !chart->GetRowNavigation(rows, plotHeight))
    {
      continue;
    }
    // Rows run from the plot's top (y = plotHeight) down to y = 0.
    const macroscope::RowWindow drawn{ rows[0], rows[1] };
    const double y = displayY < 0.0 ? 0.5 * plotHeight : this->ChartYAt(displayY);
    const double share = std::min(std::max(1.0 - y / plotHeight, 0.0), 1.0);
    const double pivot = drawn.First + share * drawn.Count();
    const macroscope::RowWindow zoomed = macroscope::AsProperty(
      macroscope::ZoomRows(drawn, rows[2], factor, pivot), rows[2]);
    const int window[2] = { zoomed.First, zoomed.Last };
    vtkSMPropertyHelper(display, "RowWindow").Set(window, 2);
    display->UpdateVTKObjects();
    changed = true;
  }
  return changed;
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

void vtkSMMacroscopeChartViewProxy::OnMouse(
  vtkObject*, unsigned long event, void* self, void* data)
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
      // Ctrl + wheel: across rows; the wheel alone: along time.
      changed = iren->GetControlKey() ? this->ZoomRows(factor, position[1])
                                      : this->ZoomTime(factor, position[0]);
      break;
    }
    case vtkCommand::LeftButtonPressEvent:
    case vtkCommand::RightButtonPressEvent:
    {
      auto drag = std::make_unique<Drag>();
      if (this->FindNavigation(drag->AtPress))
      {
        drag->Zoom = event == vtkCommand::RightButtonPressEvent;
        drag->Start[0] = position[0];
        drag->Start[1] = position[1];
        drag->PivotTime = drag->AtPress.Axis.TimeAt(this->ChartXAt(position[0]));
        this->Dragging = std::move(drag);
      }
      break;
    }
    case vtkCommand::MouseMoveEvent:
      if (!this->Dragging)
      {
        handled = false; // hover: for the others (tooltips)
        break;
      }
      else
      {
        const Drag& drag = *this->Dragging;
        const auto& at = drag.AtPress;
        const auto window = drag.Zoom
          ? macroscope::ZoomWindow(at.Axis.Window, at.Span,
              std::pow(DragZoomPerPixel, position[1] - drag.Start[1]), drag.PivotTime)
          : macroscope::PanWindow(at.Axis.Window, at.Span,
              -(this->ChartXAt(position[0]) - this->ChartXAt(drag.Start[0])) /
                at.Axis.UnitsPerSecond());
        this->ApplyWindow(at, window.Start, window.End);
        changed = true;
      }
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
