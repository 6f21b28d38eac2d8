#ifndef pqMacroscopeQualityPlot_h
#define pqMacroscopeQualityPlot_h

#include "QualityCurvePick.h"

#include <QRect>
#include <QWidget>

#include <vector>

/**
 * @class pqMacroscopeQualityPlot
 * @brief Ocelotl's gain and loss curves over p, drawn with QPainter, where a
 * click or the arrow keys choose p (docs/parameter-panel.md).
 *
 * Gain and loss of the optimal partition are step functions of p, constant
 * over the interval where a partition is optimal; they are drawn as steps,
 * the breakpoints as ticks under the axis, the current p as a vertical line
 * over its interval's shading. A line under the plot reads p, gain, loss
 * and part count under the pointer (or at the current p). Sizes come from
 * the font and logical pixels, so the plot reads the same on any screen
 * density; it is meant for the Properties panel's width (300-400 px).
 *
 * Clicking (or dragging) picks p by macroscope::QualityCurvePick: the
 * clicked p, or near a breakpoint tick the middle of the interval under the
 * pointer. Left/Right step to the previous/next partition, Page Up/Down by
 * ten, Home/End to the first/last.
 */
class pqMacroscopeQualityPlot : public QWidget
{
  Q_OBJECT
  typedef QWidget Superclass;
  // For tests and scripts: the value drawn, and where p = 0 and p = 1 are.
  Q_PROPERTY(double parameter READ parameter WRITE setParameter)
  Q_PROPERTY(QRect plotRect READ plotRect)
  Q_PROPERTY(int partitionCount READ partitionCount)
  // The line under the plot: p, gain, loss and parts under the pointer, or
  // at the current p.
  Q_PROPERTY(QString readoutText READ readoutText)

public:
  explicit pqMacroscopeQualityPlot(QWidget* parent = nullptr);

  /// One value per distinct optimal partition, as the Quality Curves rows
  /// (PStart, Gain, Loss, Parts); `parts` may be empty.
  void setCurves(std::vector<double> starts, std::vector<double> gains, std::vector<double> losses,
    std::vector<double> parts);
  int partitionCount() const { return static_cast<int>(this->Pick.Count()); }
  double parameter() const { return this->Parameter; }
  QString readoutText() const
  {
    return this->readout(this->Hover >= 0.0 ? this->Hover : this->Parameter);
  }
  /// The axes' rectangle: x = left is p = 0, x = right is p = 1.
  QRect plotRect() const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

public Q_SLOTS:
  void setParameter(double p);

Q_SIGNALS:
  /// The user chose p in the plot (click, drag or key).
  void parameterPicked(double p);

protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

private:
  double pAt(double x) const;
  double xAt(double p) const;
  double yAt(double quality) const;
  void pick(double p);
  QString readout(double p) const;
  void drawAxes(class QPainter& painter) const;
  void drawCurves(class QPainter& painter) const;
  void drawMarks(class QPainter& painter) const;

  macroscope::QualityCurvePick Pick{ {} };
  std::vector<double> Gains, Losses, Parts;
  double Top = 1.0; // the y axis' upper end
  double Parameter = 0.5;
  double Hover = -1.0; // p under the pointer, negative when outside
};

#endif
