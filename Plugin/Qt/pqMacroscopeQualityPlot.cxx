#include "pqMacroscopeQualityPlot.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <utility>

namespace
{
// Okabe and Ito's blue and vermillion: told apart with any colour vision,
// and neither is the current p's (the palette's text colour). The Line
// Chart View the Compute button opens uses the same
// (pqMacroscopeQualityCurvesRequest).
const QColor GainColor(0, 114, 178);
const QColor LossColor(213, 94, 0);
// A click this close to a breakpoint tick (logical pixels) counts as on it.
constexpr double SnapPixels = 4.0;
// The plot's height in text lines: enough to tell the curves apart.
constexpr int PlotLines = 6;

int padding(const QFontMetrics& metrics)
{
  return std::max(3, metrics.height() / 3);
}
}

pqMacroscopeQualityPlot::pqMacroscopeQualityPlot(QWidget* parentObject)
  : Superclass(parentObject)
{
  this->setObjectName("MacroscopeQualityPlot");
  this->setFocusPolicy(Qt::StrongFocus);
  this->setMouseTracking(true);
  this->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  this->setToolTip(
    tr("Gain and loss of the optimal partition over p. Click to set p; near a "
       "breakpoint tick, p goes to the middle of the interval under the pointer "
       "(at a breakpoint two partitions tie). Left/Right: previous/next partition."));
}

void pqMacroscopeQualityPlot::setCurves(std::vector<double> starts, std::vector<double> gains,
  std::vector<double> losses, std::vector<double> parts)
{
  const std::size_t count = std::min({ starts.size(), gains.size(), losses.size() });
  starts.resize(count);
  gains.resize(count);
  losses.resize(count);
  this->Pick = macroscope::QualityCurvePick(std::move(starts));
  this->Gains = std::move(gains);
  this->Losses = std::move(losses);
  this->Parts = parts.size() == count ? std::move(parts) : std::vector<double>();
  // Normalised qualities are in [0, 1]: keep that scale; raw ones (bits)
  // get their own maximum.
  double top = 0.0;
  for (std::size_t k = 0; k < count; ++k)
  {
    top = std::max({ top, this->Gains[k], this->Losses[k] });
  }
  this->Top = top <= 1.0 + 1e-9 ? 1.0 : top;
  this->update();
}

void pqMacroscopeQualityPlot::setParameter(double p)
{
  if (p != this->Parameter)
  {
    this->Parameter = p;
    this->update();
  }
}

QRect pqMacroscopeQualityPlot::plotRect() const
{
  const QFontMetrics metrics = this->fontMetrics();
  const int pad = padding(metrics);
  const int line = metrics.height();
  const QString top = QString::number(this->Top, 'g', 3);
  const int left =
    pad + std::max(metrics.horizontalAdvance(top), metrics.horizontalAdvance("0")) + pad;
  // Room for the "1" label centred on the right end.
  const int right = this->width() - pad - metrics.horizontalAdvance("1");
  const int topEdge = pad + line + pad; // under the legend
  // Under the axis: the ticks, the p labels and the readout line.
  const int bottom = this->height() - (pad + line + pad + line + pad);
  return QRect(
    QPoint(left, topEdge), QPoint(std::max(left + 1, right), std::max(topEdge + 1, bottom)));
}

QSize pqMacroscopeQualityPlot::sizeHint() const
{
  const QFontMetrics metrics = this->fontMetrics();
  const int pad = padding(metrics);
  return QSize(30 * metrics.averageCharWidth(), 6 * pad + (3 + PlotLines) * metrics.height());
}

QSize pqMacroscopeQualityPlot::minimumSizeHint() const
{
  return QSize(16 * this->fontMetrics().averageCharWidth(), this->sizeHint().height());
}

double pqMacroscopeQualityPlot::pAt(double x) const
{
  const QRect area = this->plotRect();
  return std::min(1.0, std::max(0.0, (x - area.left()) / std::max(1, area.width() - 1)));
}

double pqMacroscopeQualityPlot::xAt(double p) const
{
  const QRect area = this->plotRect();
  return area.left() + p * (area.width() - 1);
}

double pqMacroscopeQualityPlot::yAt(double quality) const
{
  const QRect area = this->plotRect();
  // Inside the frame, with some room above the top: a curve at 0 or at the
  // top stays clear of the frame.
  const int headroom = padding(this->fontMetrics());
  return area.bottom() - 2 - quality / this->Top * (area.height() - 4 - headroom);
}

QString pqMacroscopeQualityPlot::readout(double p) const
{
  if (this->Pick.Count() == 0)
  {
    return tr("p %1").arg(p, 0, 'f', 3);
  }
  const std::size_t k = this->Pick.IntervalAt(p);
  QString text = tr("p %1: gain %2, loss %3")
                   .arg(p, 0, 'f', 3)
                   .arg(this->Gains[k], 0, 'g', 3)
                   .arg(this->Losses[k], 0, 'g', 3);
  if (!this->Parts.empty())
  {
    const int parts = static_cast<int>(this->Parts[k]);
    text += parts == 1 ? tr(", 1 part") : tr(", %1 parts").arg(parts);
  }
  return text;
}

void pqMacroscopeQualityPlot::drawAxes(QPainter& painter) const
{
  const QRect area = this->plotRect();
  const QFontMetrics metrics = this->fontMetrics();
  const int pad = padding(metrics);
  painter.fillRect(area, this->palette().base());
  painter.setPen(QPen(this->palette().mid().color(), 1));
  painter.drawRect(area.adjusted(0, 0, -1, -1));
  painter.setPen(this->palette().text().color());
  // y: 0 and the top; x: 0, 0.5 and 1 under the breakpoint ticks.
  // A faint line at mid-height, and the labels level with 0 and the top.
  painter.setPen(QPen(this->palette().midlight().color(), 1, Qt::DashLine));
  const double half = std::round(this->yAt(0.5 * this->Top));
  painter.drawLine(QPointF(area.left() + 1, half), QPointF(area.right() - 1, half));
  painter.setPen(this->palette().text().color());
  for (double quality : { 0.0, this->Top })
  {
    const int y = static_cast<int>(std::lround(this->yAt(quality)));
    painter.drawText(QRect(0, y - metrics.height() / 2, area.left() - pad, metrics.height()),
      Qt::AlignRight | Qt::AlignVCenter, QString::number(quality, 'g', 3));
  }
  const int labelsTop = area.bottom() + pad + 1;
  for (double p : { 0.0, 0.5, 1.0 })
  {
    const QString label = QString::number(p);
    const int width = metrics.horizontalAdvance(label);
    const int x = static_cast<int>(std::lround(this->xAt(p))) - width / 2;
    painter.drawText(QRect(x, labelsTop, width + 1, metrics.height()), Qt::AlignCenter, label);
  }
  // The legend, and the current p at its right.
  int x = area.left();
  const int middle = pad + metrics.height() / 2;
  for (auto entry :
    { std::make_pair(GainColor, tr("gain")), std::make_pair(LossColor, tr("loss")) })
  {
    painter.setPen(QPen(entry.first, 2));
    painter.drawLine(x, middle, x + 2 * pad, middle);
    x += 2 * pad + pad;
    painter.setPen(this->palette().text().color());
    painter.drawText(QPoint(x, pad + metrics.ascent()), entry.second);
    x += metrics.horizontalAdvance(entry.second) + 2 * pad;
  }
  const QRect current(x, pad, area.right() - x, metrics.height());
  painter.drawText(
    current, Qt::AlignRight | Qt::AlignVCenter, tr("p = %1").arg(this->Parameter, 0, 'f', 3));
  // The readout: under the pointer, else at the current p.
  const QRect readout(0, this->height() - pad - metrics.height(), this->width(), metrics.height());
  painter.drawText(readout, Qt::AlignLeft | Qt::AlignVCenter,
    metrics.elidedText(this->readoutText(), Qt::ElideRight, readout.width()));
}

void pqMacroscopeQualityPlot::drawCurves(QPainter& painter) const
{
  const std::size_t count = this->Pick.Count();
  for (auto curve :
    { std::make_pair(&this->Losses, LossColor), std::make_pair(&this->Gains, GainColor) })
  {
    QPainterPath steps;
    for (std::size_t k = 0; k < count; ++k)
    {
      const double y = this->yAt((*curve.first)[k]);
      const QPointF from(this->xAt(this->Pick.Start(k)), y);
      if (k == 0)
      {
        steps.moveTo(from);
      }
      else
      {
        steps.lineTo(from); // the vertical step at the breakpoint
      }
      steps.lineTo(this->xAt(this->Pick.End(k)), y);
    }
    QPen pen(curve.second, 2);
    pen.setJoinStyle(Qt::MiterJoin);
    painter.setPen(pen);
    painter.drawPath(steps);
  }
}

void pqMacroscopeQualityPlot::drawMarks(QPainter& painter) const
{
  const QRect area = this->plotRect();
  const int pad = padding(this->fontMetrics());
  // The breakpoints as ticks under the axis (there may be thousands: they
  // then merge into a band, which still shows where p changes a lot).
  painter.setPen(QPen(this->palette().text().color(), 1));
  for (std::size_t k = 1; k < this->Pick.Count(); ++k)
  {
    const double x = std::round(this->xAt(this->Pick.Start(k)));
    painter.drawLine(QPointF(x, area.bottom() + 1), QPointF(x, area.bottom() + pad));
  }
  // The current p as a vertical line through the plot.
  const double x = std::round(this->xAt(this->Parameter));
  painter.setPen(QPen(this->palette().text().color(), 2));
  painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
  if (this->Hover >= 0.0)
  {
    painter.setPen(QPen(this->palette().mid().color(), 1, Qt::DotLine));
    const double hover = std::round(this->xAt(this->Hover));
    painter.drawLine(QPointF(hover, area.top()), QPointF(hover, area.bottom()));
  }
}

void pqMacroscopeQualityPlot::paintEvent(QPaintEvent*)
{
  QPainter painter(this);
  this->drawAxes(painter);
  const QRect area = this->plotRect();
  if (this->Pick.Count() > 0)
  {
    // The current partition's interval, shaded: the p that give the same
    // partition as the current one.
    const std::size_t k = this->Pick.IntervalAt(this->Parameter);
    QColor shade = this->palette().highlight().color();
    shade.setAlpha(40);
    const double from = this->xAt(this->Pick.Start(k));
    painter.fillRect(QRectF(from, area.top() + 1,
                       std::max(1.0, this->xAt(this->Pick.End(k)) - from), area.height() - 2),
      shade);
    painter.save();
    painter.setClipRect(area);
    this->drawCurves(painter);
    painter.restore();
  }
  this->drawMarks(painter);
  if (this->hasFocus())
  {
    painter.setPen(QPen(this->palette().highlight().color(), 1, Qt::DotLine));
    painter.drawRect(this->rect().adjusted(0, 0, -1, -1));
  }
}

void pqMacroscopeQualityPlot::pick(double p)
{
  const double snap = SnapPixels / std::max(1, this->plotRect().width() - 1);
  const double picked = this->Pick.Pick(p, snap);
  this->setParameter(picked);
  Q_EMIT this->parameterPicked(picked);
}

void pqMacroscopeQualityPlot::mousePressEvent(QMouseEvent* event)
{
  if (event->button() != Qt::LeftButton)
  {
    this->Superclass::mousePressEvent(event);
    return;
  }
  this->setFocus(Qt::MouseFocusReason);
  this->pick(this->pAt(event->localPos().x()));
}

void pqMacroscopeQualityPlot::mouseMoveEvent(QMouseEvent* event)
{
  const double p = this->pAt(event->localPos().x());
  this->Hover = this->plotRect().adjusted(-2, 0, 2, 0).contains(event->pos()) ? p : -1.0;
  if (event->buttons() & Qt::LeftButton)
  {
    this->pick(p); // dragging scrubs p
  }
  this->update();
}

void pqMacroscopeQualityPlot::leaveEvent(QEvent* event)
{
  this->Hover = -1.0;
  this->update();
  this->Superclass::leaveEvent(event);
}

void pqMacroscopeQualityPlot::keyPressEvent(QKeyEvent* event)
{
  const int last = this->partitionCount() - 1;
  double p;
  switch (event->key())
  {
    case Qt::Key_Left:
      p = this->Pick.Step(this->Parameter, -1);
      break;
    case Qt::Key_Right:
      p = this->Pick.Step(this->Parameter, 1);
      break;
    case Qt::Key_PageDown:
      p = this->Pick.Step(this->Parameter, -10);
      break;
    case Qt::Key_PageUp:
      p = this->Pick.Step(this->Parameter, 10);
      break;
    case Qt::Key_Home:
      p = last >= 0 ? this->Pick.Middle(0) : 0.0;
      break;
    case Qt::Key_End:
      p = last >= 0 ? this->Pick.Middle(static_cast<std::size_t>(last)) : 1.0;
      break;
    default:
      this->Superclass::keyPressEvent(event);
      return;
  }
  this->setParameter(p);
  Q_EMIT this->parameterPicked(p);
}
