#include "LogicalSelection.h"

#include <set>
#include <stdexcept>
#include <utility>

namespace macroscope
{
namespace
{
bool InMask(const std::vector<bool>& mask, int64_t index)
{
  return mask.empty() ||
    (index >= 0 && static_cast<std::size_t>(index) < mask.size() && mask[index]);
}
}

std::vector<bool> SelectLogicalEvents(const std::vector<int32_t>& location,
  const std::vector<int64_t>& globalStep, const std::vector<int32_t>& type,
  const std::vector<bool>& keepLeaf, const std::vector<bool>& keepType)
{
  const std::size_t n = location.size();
  if (globalStep.size() != n || type.size() != n)
  {
    throw std::invalid_argument("the Location, GlobalStep and Type columns of the logical "
                                "events differ in length");
  }
  std::vector<bool> keep(n, false);
  for (std::size_t e = 0; e < n; ++e)
  {
    keep[e] = InMask(keepLeaf, location[e]);
  }
  if (keepType.empty())
  {
    return keep;
  }
  // The communication events kept by type, as (location, global step), for
  // their aggregates to follow.
  std::set<std::pair<int32_t, int64_t>> keptCommunication;
  for (std::size_t e = 0; e < n; ++e)
  {
    if (type[e] >= 0 && InMask(keepType, type[e]))
    {
      keptCommunication.emplace(location[e], globalStep[e]);
    }
  }
  for (std::size_t e = 0; e < n; ++e)
  {
    if (keep[e])
    {
      keep[e] = type[e] >= 0 ? InMask(keepType, type[e])
                             : keptCommunication.count({ location[e], globalStep[e] + 1 }) > 0;
    }
  }
  return keep;
}

std::vector<bool> SelectLogicalMessages(const std::vector<int64_t>& sendEvent,
  const std::vector<int64_t>& recvEvent, const std::vector<bool>& keepEvent)
{
  if (sendEvent.size() != recvEvent.size())
  {
    throw std::invalid_argument("the SendEvent and RecvEvent columns of the logical messages "
                                "differ in length");
  }
  auto kept = [&keepEvent](int64_t e)
  { return e >= 0 && static_cast<std::size_t>(e) < keepEvent.size() && keepEvent[e]; };
  std::vector<bool> keep(sendEvent.size());
  for (std::size_t m = 0; m < keep.size(); ++m)
  {
    keep[m] = kept(sendEvent[m]) && kept(recvEvent[m]);
  }
  return keep;
}

}
