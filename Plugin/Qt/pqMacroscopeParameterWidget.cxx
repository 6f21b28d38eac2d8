#include "pqMacroscopeParameterWidget.h"

#include "pqMacroscopeQualityCurvesRequest.h"
#include "pqMacroscopeQualityPlot.h"

#include "pqApplicationCore.h"
#include "pqDataRepresentation.h"
#include "pqDoubleRangeWidget.h"
#include "pqPipelineSource.h"
#include "pqServerManagerModel.h"
#include "vtkPVDataInformation.h"
#include "vtkSMDoubleRangeDomain.h"
#include "vtkSMProperty.h"
#include "vtkSMPropertyHelper.h"
#include "vtkSMSourceProxy.h"

#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace
{
// The slider's steps over [0, 1]: 0.001 in p, finer than a panel's pixels.
constexpr int SliderResolution = 1000;
// From about this many slices, sweeps found hundreds of distinct partitions
// on the benchmark and demo models (docs/aggregation.md, docs/performance.md).
constexpr int ManySlices = 50;

std::vector<double> information(vtkSMProxy* proxy, const char* name)
{
  return proxy->GetProperty(name) ? vtkSMPropertyHelper(proxy, name).GetDoubleArray()
                                  : std::vector<double>();
}
}

pqMacroscopeParameterWidget::pqMacroscopeParameterWidget(
  vtkSMProxy* smproxy, vtkSMProperty* smproperty, QWidget* parentObject)
  : Superclass(smproxy, parentObject)
  , Plot(new pqMacroscopeQualityPlot(this))
  , Slider(new pqDoubleRangeWidget(this))
  , ComputeBox(new QWidget(this))
  , ComputeButton(new QPushButton(tr("Compute quality curves"), this->ComputeBox))
  , ComputeNote(new QLabel(this->ComputeBox))
{
  this->setObjectName("MacroscopeParameterWidget");
  this->setProperty(smproperty);
  // The property's label as a title inside the widget, not in the panel's
  // label column: the plot and the slider then get the panel's whole width.
  this->setShowLabel(false);
  auto* title = new QLabel(QString("%1 (p)").arg(smproperty->GetXMLLabel()), this);
  title->setToolTip(pqPropertyWidget::getTooltip(smproperty));
  this->Slider->setToolTip(title->toolTip());
  auto* domain = smproperty->FindDomain<vtkSMDoubleRangeDomain>();
  int exists = 0;
  const double minimum = domain ? domain->GetMinimum(0, exists) : 0.0;
  this->Slider->setMinimum(exists ? minimum : 0.0);
  const double maximum = domain ? domain->GetMaximum(0, exists) : 1.0;
  this->Slider->setMaximum(exists ? maximum : 1.0);
  this->Slider->setResolution(SliderResolution);
  this->Slider->setObjectName("ParameterSlider");

  this->ComputeButton->setObjectName("ComputeQualityCurves");
  // Two short lines of its own, always two, not word wrap: the Properties
  // panel keeps the height a widget had when it was laid out, and would cut
  // a wrapped or longer text.
  this->ComputeNote->setWordWrap(false);
  this->ComputeNote->setMinimumHeight(2 * this->ComputeNote->fontMetrics().lineSpacing());
  this->ComputeNote->setObjectName("ComputeNote");
  auto* computeLayout = new QVBoxLayout(this->ComputeBox);
  computeLayout->setContentsMargins(0, 0, 0, 0);
  computeLayout->addWidget(this->ComputeButton);
  computeLayout->addWidget(this->ComputeNote);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(title);
  layout->addWidget(this->Plot);
  layout->addWidget(this->ComputeBox);
  layout->addWidget(this->Slider);

  this->setParameter(vtkSMPropertyHelper(smproperty).GetAsDouble());
  this->addPropertyLink(this, "parameter", SIGNAL(parameterEdited()), smproperty);
  QObject::connect(this->Slider, &pqDoubleRangeWidget::valueEdited, this,
    [this](double p)
    {
      this->Plot->setParameter(p);
      Q_EMIT this->parameterEdited();
    });
  QObject::connect(this->Plot, &pqMacroscopeQualityPlot::parameterPicked, this,
    &pqMacroscopeParameterWidget::onPicked);
  QObject::connect(
    this->ComputeButton, &QPushButton::clicked, this, &pqMacroscopeParameterWidget::computeCurves);

  // The curves change when the filter runs: after an Apply, when a view
  // shows one of its outputs, when the chart the button opened updates.
  this->Source =
    pqApplicationCore::instance()->getServerManagerModel()->findItem<pqPipelineSource*>(smproxy);
  if (this->Source)
  {
    QObject::connect(
      this->Source, SIGNAL(dataUpdated(pqPipelineSource*)), this, SLOT(refreshCurves()));
    QObject::connect(this->Source, &pqPipelineSource::representationAdded, this,
      [this](pqPipelineSource*, pqDataRepresentation* representation, int)
      {
        QObject::connect(representation, &pqDataRepresentation::dataUpdated, this,
          &pqMacroscopeParameterWidget::refreshCurves, Qt::UniqueConnection);
      });
    for (pqDataRepresentation* representation : this->Source->getRepresentations(nullptr))
    {
      QObject::connect(representation, &pqDataRepresentation::dataUpdated, this,
        &pqMacroscopeParameterWidget::refreshCurves, Qt::UniqueConnection);
    }
    QObject::connect(this->Source, &pqProxy::modifiedStateChanged, this,
      &pqMacroscopeParameterWidget::updateComputeState);
  }
  this->refreshCurves();
}

pqMacroscopeParameterWidget::~pqMacroscopeParameterWidget() = default;

double pqMacroscopeParameterWidget::parameter() const
{
  return this->Slider->value();
}

void pqMacroscopeParameterWidget::setParameter(double p)
{
  this->Slider->setValue(p);
  this->Plot->setParameter(p);
}

void pqMacroscopeParameterWidget::onPicked(double p)
{
  this->Slider->setValue(p);
  Q_EMIT this->parameterEdited();
}

void pqMacroscopeParameterWidget::refreshCurves()
{
  vtkSMProxy* smproxy = this->proxy();
  smproxy->UpdatePropertyInformation();
  std::vector<double> starts = information(smproxy, "QualityCurveStarts");
  const bool known = !starts.empty();
  this->Plot->setCurves(std::move(starts), information(smproxy, "QualityCurveGains"),
    information(smproxy, "QualityCurveLosses"), information(smproxy, "QualityCurveParts"));
  this->Plot->setVisible(known);
  this->ComputeBox->setVisible(!known);
  // Any update ends the wait (an aborted sweep too: the user may retry).
  this->Requested = false;
  this->updateComputeState();
}

void pqMacroscopeParameterWidget::updateComputeState(pqServerManagerModelItem*)
{
  // Before the first Apply the filter has not run: the sweep would use the
  // panel's defaults, not what the user is setting up.
  const bool applied = !this->Source || this->Source->modifiedState() != pqProxy::UNINITIALIZED;
  this->ComputeButton->setEnabled(applied);
  this->ComputeNote->setText(
    applied ? this->costNote() : tr("Apply first, then compute\nthe quality curves."));
  this->ComputeBox->setToolTip(this->costDetails());
}

QString pqMacroscopeParameterWidget::costNote() const
{
  if (this->Requested)
  {
    return tr("Computing every optimal partition\n(progress under the views)...");
  }
  vtkSMProxy* smproxy = this->proxy();
  const double seconds = smproxy->GetProperty("PartitionSeconds")
    ? vtkSMPropertyHelper(smproxy, "PartitionSeconds").GetAsDouble()
    : 0.0;
  // The sweep runs about two partition computations per distinct optimal
  // partition (docs/aggregation.md); how many partitions there are is known
  // only after it, so the note gives the cost of one, measured here.
  if (seconds <= 0.0)
  {
    return tr("Computes every optimal partition:\ncan take long on many slices.");
  }
  const QString each = seconds < 1.0 ? tr("%1 ms").arg(1000.0 * seconds, 0, 'g', 2)
                                     : tr("%1 s").arg(seconds, 0, 'g', 2);
  return tr("Computes every optimal partition,\n2 \u00d7 %1 each: long on many slices.").arg(each);
}

QString pqMacroscopeParameterWidget::costDetails() const
{
  QString details = tr("The quality curves need every distinct optimal partition over p in "
                       "[0, 1]. The sweep that finds them runs about two partition "
                       "computations per distinct partition, each as long as the one the "
                       "filter computes for Parameter.");
  vtkSMProxy* smproxy = this->proxy();
  auto* source = vtkSMSourceProxy::SafeDownCast(vtkSMPropertyHelper(smproxy, "Input").GetAsProxy());
  if (source)
  {
    const int port = vtkSMPropertyHelper(smproxy, "Input").GetOutputPort();
    const int* extent = source->GetDataInformation(port)->GetExtent();
    const int slices = extent[1] - extent[0] + 1;
    if (slices >= ManySlices)
    {
      details +=
        tr(" This model has %1 slices: expect hundreds of partitions or more.").arg(slices);
    }
  }
  return details + tr(" The Quality Plot output is shown in a Line Chart View.");
}

void pqMacroscopeParameterWidget::computeCurves()
{
  if (!this->Source)
  {
    return;
  }
  this->Requested = true;
  this->updateComputeState();
  if (!pqMacroscopeQualityCurvesRequest::show(this->Source))
  {
    this->Requested = false;
    this->updateComputeState();
    this->ComputeNote->setText(tr("Could not show the Quality Plot output in a Line Chart View."));
  }
}
