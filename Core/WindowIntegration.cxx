#include "WindowIntegration.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace macroscope
{

WindowIntegral IntegrateWindow(const ModelView& model, const SliceAxis& axis, double begin,
  double end, bool extensive, const std::function<bool(double)>& progress)
{
  const int slices = model.Slices;
  const double modelEnd = axis.Origin + slices * axis.Width;
  if (!(end > begin) || !std::isfinite(begin) || !std::isfinite(end) || end <= axis.Origin ||
    begin >= modelEnd)
  {
    std::ostringstream message;
    message << "the window [" << begin << ", " << end << "] s does not overlap the model's window ["
            << axis.Origin << ", " << modelEnd << "] s";
    throw std::invalid_argument(message.str());
  }
  if (!(axis.Width > 0.0))
  {
    throw std::invalid_argument("the model's slice width is not positive");
  }

  WindowIntegral result;
  result.Resources = model.Resources;
  result.Types = model.Types;
  result.Values.assign(static_cast<std::size_t>(model.Resources) * model.Types, 0.0);
  // Only the overlapped slices are read: a short window of a long model
  // costs its own slices.
  std::vector<double> weight(slices, 0.0);
  int first = slices;
  int last = -1;
  for (int t = 0; t < slices; ++t)
  {
    const double a = std::max(begin, axis.Origin + t * axis.Width);
    const double b = std::min(end, axis.Origin + (t + 1) * axis.Width);
    weight[t] = b > a ? (b - a) / axis.Width : 0.0;
    result.Covered += weight[t];
    if (weight[t] > 0.0)
    {
      first = std::min(first, t);
      last = t;
    }
  }
  for (uint32_t u = 0; u < model.Types; ++u)
  {
    for (uint32_t s = 0; s < model.Resources; ++s)
    {
      double sum = 0.0;
      for (int t = first; t <= last; ++t)
      {
        sum += weight[t] * model.At(s, t, u);
      }
      result.Values[static_cast<std::size_t>(s) * model.Types + u] =
        extensive ? sum : sum / result.Covered;
    }
    if (progress && !progress(double(u + 1) / model.Types))
    {
      throw WindowIntegrationAborted();
    }
  }
  return result;
}

std::vector<double> OneSliceModel(const WindowIntegral& integral)
{
  std::vector<double> values(integral.Values.size());
  for (uint32_t u = 0; u < integral.Types; ++u)
  {
    for (uint32_t s = 0; s < integral.Resources; ++s)
    {
      values[s + static_cast<std::size_t>(integral.Resources) * u] = integral.At(s, u);
    }
  }
  return values;
}

}
