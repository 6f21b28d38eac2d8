// The microscopic model of a time window: each resource's value per type
// integrated over the slices the window overlaps (Triva's time-slice
// aggregation, Schnorr 2009 (Triva) §4.2). Shared by the filters that look at one
// window of a model (Hierarchical Aggregation, Resource Treemap).
#pragma once

#include "Aggregation.h"

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

namespace macroscope
{

/// The model's time axis: slice t covers [Origin + t Width, Origin + (t+1) Width).
struct SliceAxis
{
  double Origin = 0.0;
  double Width = 1.0;
};

struct WindowIntegral
{
  uint32_t Resources = 0;
  uint32_t Types = 0;
  /// Per resource and type, resource-major: Values[s * Types + u].
  std::vector<double> Values;
  /// The number of slices the window covers, partial ones counted by their
  /// overlapped fraction.
  double Covered = 0.0;

  double At(uint32_t resource, uint32_t type) const
  {
    return this->Values[static_cast<std::size_t>(resource) * this->Types + type];
  }
};

class WindowIntegrationAborted : public std::runtime_error
{
public:
  WindowIntegrationAborted()
    : std::runtime_error("window integration aborted")
  {
  }
};

/// Integrates `model` over [begin, end): every slice weighs the fraction of
/// it the window overlaps. Extensive values (durations, counts) are summed;
/// the others (rates, means, fractions) are divided by Covered, giving their
/// mean over the window. `progress` (optional) is called with the fraction
/// done; returning false throws WindowIntegrationAborted. Throws
/// std::invalid_argument when the window is empty, not finite, or does not
/// overlap the model's [Origin, Origin + Slices Width].
WindowIntegral IntegrateWindow(const ModelView& model, const SliceAxis& axis, double begin,
  double end, bool extensive, const std::function<bool(double)>& progress = {});

/// The integral as a one-slice model (Value(s, 0, u) at s + Resources * u),
/// the layout ModelView reads: Viva's time-integrated model.
std::vector<double> OneSliceModel(const WindowIntegral& integral);

}
