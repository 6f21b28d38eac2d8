#include "Aggregation.h"

#include "AggregationKernels.h"

#include <stdexcept>

namespace macroscope
{

using aggregation::Score;

TemporalAggregation::TemporalAggregation(const ModelView& model, unsigned threads)
{
  model.Validate();
  this->Threads = threads;
  const int slices = model.Slices;
  const std::size_t components = std::size_t(model.Resources) * model.Types;
  this->SliceCount = slices;

  // Slice-major copy: a slice's sub-matrix is contiguous for the row sums.
  std::vector<double> bySlice(components * slices);
  std::vector<double> sliceXLogX(slices, 0.0);
  std::vector<double> sliceTotal(slices, 0.0);
  for (int t = 0; t < slices; ++t)
  {
    for (std::size_t c = 0; c < components; ++c)
    {
      const double v = model.Values[t + std::size_t(slices) * c];
      bySlice[t * components + c] = v;
      sliceXLogX[t] += aggregation::XLog2X(v);
      sliceTotal[t] += v;
    }
  }
  // changes[t]: slices that differ from their successor among the first t;
  // an interval is uniform (zero loss) when it holds no such change.
  std::vector<int> changes(slices, 0);
  for (int t = 0; t + 1 < slices; ++t)
  {
    const double* a = &bySlice[t * components];
    const double* b = a + components;
    changes[t + 1] = changes[t] + (std::equal(a, a + components, b) ? 0 : 1);
  }

  this->Qualities.resize(std::size_t(slices) * (slices + 1) / 2);
  aggregation::ParallelFor(std::size_t(slices), threads, [&](std::size_t row) {
    const int first = static_cast<int>(row);
    std::vector<double> sums(components, 0.0);
    double entityXLogX = 0.0;
    double total = 0.0;
    for (int last = first; last < slices; ++last)
    {
      const double* slice = &bySlice[last * components];
      double sumXLogX = 0.0;
      for (std::size_t c = 0; c < components; ++c)
      {
        sums[c] += slice[c];
        sumXLogX += aggregation::XLog2X(sums[c]);
      }
      entityXLogX += sliceXLogX[last];
      total += sliceTotal[last];
      const bool uniform = changes[last] == changes[first];
      this->Qualities[this->Index(first, last)] = aggregation::PartQuality(
        sumXLogX, entityXLogX, total, double(last - first + 1), uniform);
    }
  });
  this->Full = this->Qualities[this->Index(0, slices - 1)];
}

std::size_t TemporalAggregation::Index(int first, int last) const
{
  const std::size_t t = this->SliceCount;
  const std::size_t i = first;
  return i * (2 * t - i + 1) / 2 + (last - first); // row i starts after rows of t, t-1, ...
}

Quality TemporalAggregation::IntervalQuality(int first, int last) const
{
  if (first < 0 || last < first || last >= this->SliceCount)
  {
    throw std::invalid_argument("temporal aggregation: bad slice interval");
  }
  return this->Qualities[this->Index(first, last)];
}

std::vector<AggregatePart> TemporalAggregation::Optimize(double gainWeight, double lossWeight) const
{
  // best[j]: best partition of slices [0, j); its last part starts at
  // start[j]. Candidates are tried longest last part first.
  const int slices = this->SliceCount;
  std::vector<Score> best(slices + 1);
  std::vector<int> start(slices + 1, 0);
  for (int end = 1; end <= slices; ++end)
  {
    Score chosen;
    for (int first = 0; first < end; ++first)
    {
      const Quality& q = this->Qualities[this->Index(first, end - 1)];
      Score candidate{ best[first].Value + (gainWeight * q.Gain - lossWeight * q.Loss),
        best[first].Parts + 1 };
      if (first == 0 || candidate.Beats(chosen))
      {
        chosen = candidate;
        start[end] = first;
      }
    }
    best[end] = chosen;
  }
  std::vector<AggregatePart> parts;
  for (int end = slices; end > 0; end = start[end])
  {
    const Quality& q = this->Qualities[this->Index(start[end], end - 1)];
    parts.push_back(AggregatePart{ -1, start[end], end - 1, q.Gain, q.Loss });
  }
  return parts;
}

}
