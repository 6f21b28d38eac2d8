#include "TopologyScene.h"

#include "ProgressSpan.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace macroscope
{

TopologySceneGeometry BuildTopologyScene(const std::vector<double>& x, const std::vector<double>& y,
  const std::vector<SceneState>& states, const std::vector<SceneMessage>& messages,
  const SceneOptions& options, const std::function<bool(double)>& report)
{
  const double t0 = options.WindowStart, t1 = options.WindowEnd;
  if (!std::isfinite(t0) || !std::isfinite(t1) || !(t0 < t1))
  {
    throw std::invalid_argument("topology scene: the window must be finite with start < end");
  }
  if (!std::isfinite(options.Scale) || !(options.Scale > 0.0) || !std::isfinite(options.Offset))
  {
    throw std::invalid_argument("topology scene: the time scale must be positive and finite, "
                                "the offset finite");
  }
  if (!std::isfinite(options.BoxSize) || options.BoxSize < 0.0)
  {
    throw std::invalid_argument("topology scene: the box size must be finite and >= 0");
  }
  if (options.Ticks < 1)
  {
    throw std::invalid_argument("topology scene: at least one axis tick is needed");
  }
  if (x.size() != y.size())
  {
    throw std::invalid_argument("topology scene: base x and y differ in size");
  }
  const auto processes = static_cast<int64_t>(x.size());
  // The message names the record ("state 12"): built only when thrown, as
  // millions of records are checked.
  auto checkProcess = [processes](int64_t p, const char* kind, std::size_t index)
  {
    if (p < 0 || p >= processes)
    {
      throw std::invalid_argument("topology scene: " + std::string(kind) + " " +
        std::to_string(index) + " names process " + std::to_string(p) + ", outside [0, " +
        std::to_string(processes) + ")");
    }
  };

  TopologySceneGeometry scene;
  scene.Axis = SceneTimeAxis{ options.Offset, options.Scale, t0 };
  const double half = options.BoxSize / 2.0;
  // Progress by records: the boxes, then the flights.
  const double boxShare =
    double(states.size()) / std::max<double>(1.0, double(states.size() + messages.size()));
  ProgressSpan span(report, 0.0, boxShare, states.size());
  ProgressSpan messageSpan(report, boxShare, 1.0, messages.size());
  for (std::size_t s = 0; s < states.size(); ++s)
  {
    if (!span.At(s))
    {
      return {};
    }
    const SceneState& state = states[s];
    checkProcess(state.Process, "state", s);
    if (!std::isfinite(state.Start) || !std::isfinite(state.End) || state.End < state.Start)
    {
      throw std::invalid_argument("topology scene: state " + std::to_string(s) +
        " has a non-finite time or ends before it starts");
    }
    const double start = std::max(state.Start, t0), end = std::min(state.End, t1);
    if (!(start < end))
    {
      continue;
    }
    const double px = x[state.Process], py = y[state.Process];
    scene.Boxes.push_back(SceneBox{ static_cast<int64_t>(s), state.Process, state.Type,
      { px - half, px + half, py - half, py + half, scene.Axis.Z(start), scene.Axis.Z(end) } });
  }

  for (std::size_t m = 0; m < messages.size(); ++m)
  {
    if (!messageSpan.At(m))
    {
      return {};
    }
    const SceneMessage& msg = messages[m];
    checkProcess(msg.Sender, "message", m);
    checkProcess(msg.Receiver, "message", m);
    if (!std::isfinite(msg.SendTime) || !std::isfinite(msg.RecvTime))
    {
      throw std::invalid_argument(
        "topology scene: message " + std::to_string(m) + " has a non-finite time");
    }
    const double first = std::min(msg.SendTime, msg.RecvTime);
    const double last = std::max(msg.SendTime, msg.RecvTime);
    if (!(first < t1 && last >= t0))
    {
      continue;
    }
    // The point of the flight at time t, linear from the send to the receive.
    const std::array<double, 2> a{ x[msg.Sender], y[msg.Sender] };
    const std::array<double, 2> b{ x[msg.Receiver], y[msg.Receiver] };
    const double flight = msg.RecvTime - msg.SendTime;
    auto at = [&](double t) -> std::array<double, 3>
    {
      const double u = flight != 0.0 ? (t - msg.SendTime) / flight : 0.0;
      return { a[0] + u * (b[0] - a[0]), a[1] + u * (b[1] - a[1]), scene.Axis.Z(t) };
    };
    const double from = std::clamp(msg.SendTime, t0, t1);
    const double to = std::clamp(msg.RecvTime, t0, t1);
    SceneSegment segment;
    segment.Message = static_cast<int64_t>(m);
    segment.From =
      from == msg.SendTime ? std::array<double, 3>{ a[0], a[1], scene.Axis.Z(from) } : at(from);
    segment.To =
      to == msg.RecvTime ? std::array<double, 3>{ b[0], b[1], scene.Axis.Z(to) } : at(to);
    segment.Clipped = from != msg.SendTime || to != msg.RecvTime;
    scene.Segments.push_back(segment);
  }

  const TimeTicks ticks = ComputeTimeTicks(t0, t1, options.Ticks);
  for (std::size_t i = 0; i < ticks.Times.size(); ++i)
  {
    scene.Ticks.push_back(
      SceneTick{ ticks.Times[i], scene.Axis.Z(ticks.Times[i]), ticks.Labels[i] });
  }
  return scene;
}

namespace
{

/// Groups the states by process (a counting sort, O(n)), keeping their order
/// within a process.
void SortByProcess(std::vector<TracedState>& states)
{
  int64_t processes = 0;
  for (const TracedState& s : states)
  {
    if (s.Process < 0)
    {
      throw std::invalid_argument("topology scene: state of row " + std::to_string(s.Row) +
        " names process " + std::to_string(s.Process));
    }
    processes = std::max(processes, s.Process + 1);
  }
  std::vector<std::size_t> begin(static_cast<std::size_t>(processes) + 1, 0);
  for (const TracedState& s : states)
  {
    ++begin[static_cast<std::size_t>(s.Process) + 1];
  }
  std::partial_sum(begin.begin(), begin.end(), begin.begin());
  std::vector<TracedState> grouped(states.size());
  for (const TracedState& s : states)
  {
    grouped[begin[static_cast<std::size_t>(s.Process)]++] = s;
  }
  states.swap(grouped);
}

}

std::vector<SceneState> DrawnStates(std::vector<TracedState> states, int depth,
  std::vector<int64_t>& rows, const std::function<bool(double)>& report)
{
  if (depth < -1)
  {
    throw std::invalid_argument("topology scene: the depth must be -1 (innermost) or >= 0");
  }
  std::vector<SceneState> drawn;
  rows.clear();
  auto emit = [&](const TracedState& s, double start, double end)
  {
    if (start < end)
    {
      drawn.push_back(SceneState{ s.Process, s.Type, start, end });
      rows.push_back(s.Row);
    }
  };
  if (depth >= 0)
  {
    for (const TracedState& s : states)
    {
      if (s.Depth == depth)
      {
        emit(s, s.Start, s.End);
      }
    }
    return drawn;
  }

  // Callers before their callees: by process, start, depth, longest first
  // (then by row, so that equal states keep one order). Grouped by process
  // first, then each process sorted: the sort reports between processes.
  SortByProcess(states);
  const auto key = [](const TracedState& a, const TracedState& b)
  {
    if (a.Start != b.Start)
      return a.Start < b.Start;
    if (a.Depth != b.Depth)
      return a.Depth < b.Depth;
    if (a.End != b.End)
      return a.End > b.End;
    return a.Row < b.Row;
  };
  ProgressSpan sortSpan(report, 0.0, 0.6, states.size());
  for (std::size_t first = 0; first < states.size();)
  {
    if (!sortSpan.At(first))
    {
      rows.clear();
      return {};
    }
    std::size_t last = first;
    while (last < states.size() && states[last].Process == states[first].Process)
    {
      ++last;
    }
    std::sort(states.begin() + first, states.begin() + last, key);
    first = last;
  }
  // The open callers, each with the time from which it shows again.
  struct Open
  {
    const TracedState* State;
    double ShowsFrom;
    double End;
  };
  std::vector<Open> stack;
  auto close = [&]()
  {
    const Open top = stack.back();
    stack.pop_back();
    emit(*top.State, top.ShowsFrom, top.End);
  };
  ProgressSpan sweepSpan(report, 0.6, 1.0, states.size());
  for (std::size_t i = 0; i < states.size(); ++i)
  {
    if (!sweepSpan.At(i))
    {
      rows.clear();
      return {};
    }
    const TracedState& s = states[i];
    if (i > 0 && states[i - 1].Process != s.Process)
    {
      while (!stack.empty())
      {
        close();
      }
    }
    while (!stack.empty() && stack.back().End <= s.Start)
    {
      close();
    }
    double end = s.End;
    if (!stack.empty())
    {
      Open& caller = stack.back();
      end = std::min(end, caller.End);
      emit(*caller.State, caller.ShowsFrom, std::min(s.Start, caller.End));
      caller.ShowsFrom = std::max(caller.ShowsFrom, end);
    }
    stack.push_back(Open{ &s, s.Start, end });
  }
  while (!stack.empty())
  {
    close();
  }
  return drawn;
}

}
