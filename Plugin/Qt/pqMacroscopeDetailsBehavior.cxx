#include "pqMacroscopeDetailsBehavior.h"

#include "vtkPVMacroscopeMarkInformation.h"

#include "pqActiveObjects.h"
#include "pqApplicationCore.h"
#include "pqDataRepresentation.h"
#include "pqOutputPort.h"
#include "pqPipelineSource.h"
#include "pqRenderView.h"
#include "pqSelectionManager.h"
#include "pqServer.h"
#include "pqServerManagerModel.h"
#include "vtkNew.h"
#include "vtkPVSession.h"
#include "vtkSMPropertyHelper.h"
#include "vtkSMRenderViewProxy.h"
#include "vtkSMSelectionHelper.h"
#include "vtkSMSession.h"
#include "vtkSMSessionProxyManager.h"
#include "vtkSMSourceProxy.h"
#include "vtkSmartPointer.h"

#include <QEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QWidget>

#include <vector>

namespace
{
constexpr int RowField = 6; // vtkSelectionNode::ROW

/// Makes `info`'s rows the selection of the port that holds them.
void SelectRows(pqDataRepresentation* display, vtkPVMacroscopeMarkInformation* info)
{
  pqOutputPort* input = display->getInput() ? display->getOutputPortFromInput() : nullptr;
  if (!input || info->GetNumberOfRows() == 0)
  {
    return;
  }
  pqPipelineSource* source = input->getSource();
  int port = input->getPortNumber();
  const std::string table = info->GetRowTable();
  if (table == "States")
  {
    port = 0;
  }
  else if (table == "Messages")
  {
    port = 1;
  }
  std::vector<vtkIdType> ids;
  for (int i = 0; i < info->GetNumberOfRows(); ++i)
  {
    ids.push_back(static_cast<vtkIdType>(info->GetRowRank(i)));
    ids.push_back(static_cast<vtkIdType>(info->GetRow(i)));
  }
  vtkSMSessionProxyManager* pxm = source->getServer()->proxyManager();
  vtkSmartPointer<vtkSMProxy> selection;
  selection.TakeReference(pxm->NewProxy("sources", "IDSelectionSource"));
  vtkSMPropertyHelper(selection, "FieldType").Set(RowField);
  vtkSMPropertyHelper(selection, "IDs").Set(ids.data(), static_cast<unsigned int>(ids.size()));
  selection->UpdateVTKObjects();
  // As ParaView's own selections: inside an AppendSelections, which the
  // selection manager and the Find Data panel expect.
  vtkSmartPointer<vtkSMProxy> append;
  append.TakeReference(vtkSMSelectionHelper::NewAppendSelectionsFromSelectionSource(
    vtkSMSourceProxy::SafeDownCast(selection)));
  auto* sourceProxy = vtkSMSourceProxy::SafeDownCast(source->getProxy());
  sourceProxy->SetSelectionInput(
    static_cast<unsigned int>(port), vtkSMSourceProxy::SafeDownCast(append), 0);
  if (auto* manager = qobject_cast<pqSelectionManager*>(
        pqApplicationCore::instance()->manager("SELECTION_MANAGER")))
  {
    manager->select(source->getOutputPort(port));
  }
}
}

pqMacroscopeDetailsBehavior::pqMacroscopeDetailsBehavior(QObject* parent)
  : QObject(parent)
{
  this->HoverTimer.setSingleShot(true);
  this->HoverTimer.setInterval(600);
  connect(&this->HoverTimer, &QTimer::timeout, this, &pqMacroscopeDetailsBehavior::showHovered);
  pqServerManagerModel* model = pqApplicationCore::instance()->getServerManagerModel();
  connect(model, &pqServerManagerModel::viewAdded, this, &pqMacroscopeDetailsBehavior::watch);
  for (pqView* view : model->findItems<pqView*>())
  {
    this->watch(view);
  }
}

pqMacroscopeDetailsBehavior::~pqMacroscopeDetailsBehavior() = default;

void pqMacroscopeDetailsBehavior::watch(pqView* view)
{
  if (auto* renderView = qobject_cast<pqRenderView*>(view))
  {
    if (QWidget* widget = renderView->widget())
    {
      widget->setProperty("macroscopeRenderView", QVariant::fromValue<QObject*>(renderView));
      widget->installEventFilter(this);
      widget->setMouseTracking(true); // moves without a button: the hover rest
    }
  }
}

QString pqMacroscopeDetailsBehavior::describe(pqRenderView* view, const QPoint& pos, bool select)
{
  QWidget* widget = view ? view->widget() : nullptr;
  if (!widget)
  {
    return QString();
  }
  // Qt's pixels (top left, logical) to VTK's display pixels (bottom left).
  const double ratio = widget->devicePixelRatioF();
  const double x = pos.x() * ratio;
  const double y = (widget->height() - 1 - pos.y()) * ratio;
  double chart[2];
  if (!vtkPVMacroscopeMarkInformation::DisplayToChart(
        view->getRenderViewProxy()->GetRenderer(), x, y, chart))
  {
    return QString();
  }
  for (pqRepresentation* item : view->getRepresentations())
  {
    auto* display = qobject_cast<pqDataRepresentation*>(item);
    if (!display || !display->isVisible() ||
      QString(display->getProxy()->GetXMLName()) != "MacroscopeTraceRepresentation")
    {
      continue;
    }
    vtkNew<vtkPVMacroscopeMarkInformation> info;
    info->SetPoint(chart);
    display->getServer()->session()->GatherInformation(
      vtkPVSession::DATA_SERVER, info, display->getProxy()->GetGlobalID());
    if (info->GetFound())
    {
      if (select)
      {
        SelectRows(display, info);
      }
      return QString::fromUtf8(info->GetText());
    }
  }
  return QString();
}

bool pqMacroscopeDetailsBehavior::eventFilter(QObject* watched, QEvent* event)
{
  auto* widget = qobject_cast<QWidget*>(watched);
  auto* view = widget
    ? qobject_cast<pqRenderView*>(widget->property("macroscopeRenderView").value<QObject*>())
    : nullptr;
  if (!view)
  {
    return false;
  }
  if (event->type() == QEvent::ToolTip)
  {
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = describe(view, help->pos(), false);
    if (text.isEmpty())
    {
      QToolTip::hideText();
      return false;
    }
    QToolTip::showText(help->globalPos(), text, widget);
    return true;
  }
  if (event->type() == QEvent::MouseMove)
  {
    auto* mouse = static_cast<QMouseEvent*>(event);
    if (mouse->buttons() == Qt::NoButton)
    {
      this->HoverWidget = widget;
      this->HoverPosition = mouse->pos();
      this->HoverTimer.start();
    }
    else
    {
      this->HoverTimer.stop();
    }
  }
  else if (event->type() == QEvent::Leave)
  {
    this->HoverTimer.stop();
  }
  else if (event->type() == QEvent::MouseButtonPress)
  {
    this->HoverTimer.stop();
    this->PressPosition = static_cast<QMouseEvent*>(event)->pos();
  }
  else if (event->type() == QEvent::MouseButtonRelease)
  {
    auto* mouse = static_cast<QMouseEvent*>(event);
    // A click, not the end of a drag (pan, zoom or rubber band).
    if (mouse->button() == Qt::LeftButton &&
      (mouse->pos() - this->PressPosition).manhattanLength() <= 2)
    {
      const QString text = describe(view, mouse->pos(), true);
      if (!text.isEmpty())
      {
        // Shown once the click and the selection it made are handled: the
        // focus and repaint events they bring would hide it at once.
        const QPoint where = mouse->globalPos();
        QPointer<QWidget> target = widget;
        QTimer::singleShot(100, this,
          [where, text, target]()
          {
            if (target)
            {
              QToolTip::showText(where, text, target);
            }
          });
      }
    }
  }
  return false;
}

void pqMacroscopeDetailsBehavior::showHovered()
{
  QWidget* widget = this->HoverWidget;
  auto* view = widget
    ? qobject_cast<pqRenderView*>(widget->property("macroscopeRenderView").value<QObject*>())
    : nullptr;
  if (!view)
  {
    return;
  }
  const QString text = describe(view, this->HoverPosition, false);
  if (text.isEmpty())
  {
    QToolTip::hideText();
  }
  else
  {
    QToolTip::showText(widget->mapToGlobal(this->HoverPosition), text, widget);
  }
}

pqMacroscopeDetailsStarter::pqMacroscopeDetailsStarter(QObject* parent)
  : QObject(parent)
{
}

pqMacroscopeDetailsStarter::~pqMacroscopeDetailsStarter() = default;

void pqMacroscopeDetailsStarter::onStartup()
{
  this->Behavior = new pqMacroscopeDetailsBehavior(this);
}

void pqMacroscopeDetailsStarter::onShutdown()
{
  delete this->Behavior;
}
