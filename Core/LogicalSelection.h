// The resource/type selection of the linked views applied to Ravel's
// logical views (docs/linked-views.md): which logical events and messages
// a view of the selection draws. The masks come from the one name-resolution
// path of the other views (MacroscopeModelPlan::SelectLeaves/SelectTypes).
#pragma once

#include <cstdint>
#include <vector>

namespace macroscope
{

/// Which logical events the selection keeps. `keepLeaf` (by leaf index) and
/// `keepType` (by Types row) are masks, empty for "everything". An event is
/// kept when its location is selected and its type is; an aggregate (type
/// -1: the computation before a communication event, GlobalStep 2 s) goes
/// with its communication event (same location, GlobalStep 2 s + 1), and is
/// dropped when there is none. A location or type outside its mask is not
/// selected. Throws std::invalid_argument for columns of different lengths.
std::vector<bool> SelectLogicalEvents(const std::vector<int32_t>& location,
  const std::vector<int64_t>& globalStep, const std::vector<int32_t>& type,
  const std::vector<bool>& keepLeaf, const std::vector<bool>& keepType);

/// Which messages the selection keeps: those whose send and receive events
/// (rows of the events, -1 or out of range for none) are both kept, so that
/// no line ends at a box that is not drawn. Throws std::invalid_argument
/// for columns of different lengths.
std::vector<bool> SelectLogicalMessages(const std::vector<int64_t>& sendEvent,
  const std::vector<int64_t>& recvEvent, const std::vector<bool>& keepEvent);

}
