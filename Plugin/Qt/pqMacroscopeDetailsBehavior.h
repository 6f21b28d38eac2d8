#ifndef pqMacroscopeDetailsBehavior_h
#define pqMacroscopeDetailsBehavior_h

#include <QObject>
#include <QPoint>
#include <QPointer>
#include <QTimer>

class pqRenderView;
class pqView;

/**
 * @class pqMacroscopeDetailsBehavior
 * @brief Details on demand in the GUI (docs/details-on-demand.md): a
 * tooltip over the marks of Macroscope charts in render views, and a click
 * that selects the rows of the mark clicked.
 *
 * Started with the plugin (an auto-start interface). It watches every
 * render view's widget: on Qt's tooltip event (the pointer rests) and on a
 * left click without drag, it turns the pointer into chart coordinates with
 * the view's camera and gathers a vtkPVMacroscopeMarkInformation from the
 * data server (builtin or remote, every rank), then shows its text; a click
 * also makes the mark's rows ParaView's selection (the spreadsheet shows
 * them).
 */
class pqMacroscopeDetailsBehavior : public QObject
{
  Q_OBJECT
public:
  explicit pqMacroscopeDetailsBehavior(QObject* parent = nullptr);
  ~pqMacroscopeDetailsBehavior() override;

  /// The text of the mark under `pos` (widget coordinates, origin at the
  /// top left) of `view`; empty when there is none. With `select`, the
  /// mark's rows become the selection.
  static QString describe(pqRenderView* view, const QPoint& pos, bool select);

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

private Q_SLOTS:
  void watch(pqView* view);

  void showHovered();

private:
  QPoint PressPosition;
  // Qt sends tooltip events only to active windows: a rest of the pointer
  // (no move for HoverDelay ms) shows the details too.
  QTimer HoverTimer;
  QPointer<QWidget> HoverWidget;
  QPoint HoverPosition;
};

/// The auto-start interface's class: creates the behaviour.
class pqMacroscopeDetailsStarter : public QObject
{
  Q_OBJECT
public:
  explicit pqMacroscopeDetailsStarter(QObject* parent = nullptr);
  ~pqMacroscopeDetailsStarter() override;
  void onStartup();
  void onShutdown();

private:
  QPointer<pqMacroscopeDetailsBehavior> Behavior;
};

#endif
