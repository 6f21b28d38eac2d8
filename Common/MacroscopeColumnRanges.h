// The ranges of an output's columns, left where VTK caches them. After every
// update ParaView gathers its data information, which holds the range and
// the finite range of every array; VTK computes them at about 25 ns a value,
// seconds for the tens of millions of rows of a trace, during which the GUI
// is frozen and shows no progress (docs/progress.md). A plain loop over the
// values costs a few milliseconds for millions of them.
#ifndef MacroscopeColumnRanges_h
#define MacroscopeColumnRanges_h

#include "MacroscopeCommonModule.h" // for the export macro

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

class vtkDataArray;
class vtkDataObject;

/// Leaves `range` (the values' range without NaN) and `finite` (without any
/// non-finite value) where VTK caches the ranges of a one-component array
/// (vtkDataArray::GetRange, GetFiniteRange). ParaView asks every column for
/// both after each update (its data information), and VTK computes them at
/// about 25 ns a value: seconds on a trace's tens of millions of rows, with
/// the GUI frozen and no progress shown, after a read that reported its
/// progress evenly. A plain loop over the column, while it is at hand, costs
/// a fraction of that (docs/progress.md). The array must not be modified
/// afterwards (Modified() drops the cache, which is then computed again).
MACROSCOPECOMMON_EXPORT void MacroscopeSeedRanges(
  vtkDataArray* array, const double range[2], const double finite[2]);

/// The ranges MacroscopeSeedRanges() takes, of `count` values: {range, finite}; false
/// when no value counts (VTK's own computation then answers, at no cost).
template <typename T>
bool MacroscopeColumnRanges(const T* values, std::size_t count, double range[2], double finite[2])
{
  double low = std::numeric_limits<double>::infinity();
  double high = -low;
  double finiteLow = low;
  double finiteHigh = high;
  for (std::size_t i = 0; i < count; ++i)
  {
    const double value = static_cast<double>(values[i]);
    if constexpr (std::is_floating_point<T>::value)
    {
      if (std::isnan(value))
      {
        continue;
      }
      if (std::isfinite(value))
      {
        finiteLow = std::min(finiteLow, value);
        finiteHigh = std::max(finiteHigh, value);
      }
    }
    low = std::min(low, value);
    high = std::max(high, value);
  }
  if constexpr (!std::is_floating_point<T>::value)
  {
    finiteLow = low;
    finiteHigh = high;
  }
  range[0] = low;
  range[1] = high;
  finite[0] = finiteLow;
  finite[1] = finiteHigh;
  return low <= high && finiteLow <= finiteHigh;
}

/// Computes and caches the ranges of every one-component numeric array of
/// `data`'s rows (a table), points and cells (a data set), vertices and
/// edges (a graph); other arrays are left to VTK. Call it once the outputs
/// are complete.
MACROSCOPECOMMON_EXPORT void MacroscopeCacheRanges(vtkDataObject* data);

#endif
