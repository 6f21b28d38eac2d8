// The states of each location as a forest (LogicalTimeInternal.h): the
// communication events (LogicalTime.cxx) find the call holding an endpoint
// in it, the caller merges (LogicalMerges.cxx) an event's enclosing calls.
#include "LogicalTimeInternal.h"

#include <algorithm>
#include <numeric>

namespace macroscope::logical::detail
{

StateForest::StateForest(const TraceInput& in, const ProgressGate* gate)
{
  // Counting sort of the rows by location, then a sort within each.
  const std::size_t n = in.StateLocation.size();
  this->Offset.assign(std::size_t(in.Locations) + 1, 0);
  for (std::size_t i = 0; i < n; ++i)
  {
    ++this->Offset[in.StateLocation[i] + 1];
  }
  std::partial_sum(this->Offset.begin(), this->Offset.end(), this->Offset.begin());
  this->Order.resize(n);
  std::vector<std::size_t> next(this->Offset.begin(), this->Offset.end() - 1);
  for (std::size_t i = 0; i < n; ++i)
  {
    this->Order[next[in.StateLocation[i]]++] = int64_t(i);
  }
  double reported = 0.0;
  for (uint32_t l = 0; l < in.Locations; ++l)
  {
    const double sorted = n ? double(this->Offset[l]) / double(n) : 1.0;
    if (gate && sorted >= reported + 0.01)
    {
      gate->At(0.045 * sorted);
      reported = sorted;
    }
    std::sort(this->Order.begin() + this->Offset[l], this->Order.begin() + this->Offset[l + 1],
      [&](int64_t a, int64_t b)
      {
        if (in.StateStart[a] != in.StateStart[b])
          return in.StateStart[a] < in.StateStart[b];
        if (in.StateEnd[a] != in.StateEnd[b])
          return in.StateEnd[a] > in.StateEnd[b];
        if (in.StateDepth[a] != in.StateDepth[b])
          return in.StateDepth[a] < in.StateDepth[b];
        return a < b;
      });
  }
  this->Start.resize(n);
  this->End.resize(n);
  this->Parent.assign(n, -1);
  std::vector<int64_t> stack;
  for (uint32_t l = 0; l < in.Locations; ++l)
  {
    stack.clear();
    for (std::size_t p = this->Offset[l]; p < this->Offset[l + 1]; ++p)
    {
      this->Start[p] = in.StateStart[this->Order[p]];
      this->End[p] = in.StateEnd[this->Order[p]];
      // The stack holds the chain of states that contain p's start.
      while (!stack.empty() && this->End[stack.back()] < this->End[p])
      {
        stack.pop_back();
      }
      this->Parent[p] = stack.empty() ? -1 : stack.back();
      stack.push_back(int64_t(p));
    }
  }
}

int64_t StateForest::Innermost(int32_t location, double t, bool before) const
{
  const auto begin = this->Start.begin() + this->Offset[location];
  const auto end = this->Start.begin() + this->Offset[location + 1];
  const auto it = before ? std::lower_bound(begin, end, t) : std::upper_bound(begin, end, t);
  int64_t p = int64_t(it - this->Start.begin()) - 1;
  if (it == begin)
  {
    return -1;
  }
  while (p >= 0 && this->End[p] < t)
  {
    p = this->Parent[p];
  }
  return p;
}

std::vector<int64_t> StateForest::Positions() const
{
  std::vector<int64_t> position(this->Order.size(), -1);
  for (std::size_t p = 0; p < this->Order.size(); ++p)
  {
    position[this->Order[p]] = int64_t(p);
  }
  return position;
}

}
