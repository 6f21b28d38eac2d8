#ifndef pqMacroscopeParameterWidget_h
#define pqMacroscopeParameterWidget_h

#include "pqPropertyWidget.h"

#include <QPointer>

class QLabel;
class QPushButton;
class pqDoubleRangeWidget;
class pqMacroscopeQualityPlot;
class pqPipelineSource;
class pqServerManagerModelItem;

/**
 * @class pqMacroscopeParameterWidget
 * @brief The aggregations' `Parameter` in the Properties panel, chosen as in
 * Ocelotl: the gain and loss curves over p above the usual slider and
 * number field (XML: panel_widget="macroscope_parameter";
 * docs/parameter-panel.md).
 *
 * p is linked to the property like any double: Apply / auto-apply, Reset,
 * undo and state files see a plain value. The curves come from the
 * filter's information properties QualityCurveStarts, -Gains, -Losses and
 * -Parts, pulled each time the filter's data are updated; they exist only
 * once a sweep ran. Until then a "Compute quality curves" button shows the
 * Quality Plot output in a Line Chart View (pqMacroscopeQualityCurvesRequest),
 * which makes the filter sweep, with a note on what that costs.
 */
class pqMacroscopeParameterWidget : public pqPropertyWidget
{
  Q_OBJECT
  typedef pqPropertyWidget Superclass;
  // The linked value (pqPropertyLinks reads and writes this property).
  Q_PROPERTY(double parameter READ parameter WRITE setParameter)

public:
  pqMacroscopeParameterWidget(
    vtkSMProxy* proxy, vtkSMProperty* property, QWidget* parent = nullptr);
  ~pqMacroscopeParameterWidget() override;

  double parameter() const;

public Q_SLOTS:
  void setParameter(double p);
  /// Pulls the curves from the server and shows them, or the button.
  void refreshCurves();

Q_SIGNALS:
  /// The user moved p (slider, number field, plot): the link's signal.
  void parameterEdited();

private Q_SLOTS:
  void computeCurves();
  void onPicked(double p);
  void updateComputeState(pqServerManagerModelItem* item = nullptr);

private:
  /// One or two lines under the button: the cost of one partition here.
  QString costNote() const;
  /// The tooltip: why the sweep costs what it does, for this model.
  QString costDetails() const;

  pqMacroscopeQualityPlot* Plot;
  pqDoubleRangeWidget* Slider;
  QWidget* ComputeBox;
  QPushButton* ComputeButton;
  QLabel* ComputeNote;
  QPointer<pqPipelineSource> Source;
  bool Requested = false; // the button was pressed: the note says it computes
};

#endif
