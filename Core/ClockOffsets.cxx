// Unsynchronised clocks (ClockOffsets.h): detection, offset estimation by
// least squares over pairs of clocks, correction. docs/logical-time.md
// ("Unsynchronised clocks") explains the method and its limits.
#include "ClockOffsets.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace macroscope::logical
{
namespace
{

// The clock of every location and their number.
std::vector<int32_t> Clocks(
  const TraceInput& in, const std::vector<int32_t>& clockOf, int32_t& count)
{
  if (clockOf.empty())
  {
    std::vector<int32_t> identity(in.Locations);
    std::iota(identity.begin(), identity.end(), 0);
    count = int32_t(in.Locations);
    return identity;
  }
  if (clockOf.size() != in.Locations)
  {
    throw std::invalid_argument("clock offsets: " + std::to_string(clockOf.size()) +
      " clocks given for " + std::to_string(in.Locations) + " locations");
  }
  count = 0;
  for (int32_t c : clockOf)
  {
    if (c < 0)
    {
      throw std::invalid_argument("clock offsets: a location has a negative clock");
    }
    count = std::max(count, c + 1);
  }
  return clockOf;
}

// o[B] - o[A] (+ latency when Latency) = Value.
struct Equation
{
  int32_t A;
  int32_t B;
  double Value;
  bool Latency;
};

int32_t Root(std::vector<int32_t>& parent, int32_t c)
{
  while (parent[c] != c)
  {
    c = parent[c] = parent[parent[c]];
  }
  return c;
}

// Least squares over the equations, the lowest clock of every connected
// group fixed at 0; conjugate gradients on the normal equations (the
// unknowns are tied by pairs only, so each product costs one pass).
ClockEstimate Solve(int32_t clocks, const std::vector<Equation>& equations)
{
  ClockEstimate estimate;
  estimate.Offset.assign(clocks, 0.0);
  estimate.Pairs = equations.size();
  std::vector<int32_t> parent(clocks);
  std::iota(parent.begin(), parent.end(), 0);
  std::vector<uint8_t> used(clocks, 0);
  for (const Equation& e : equations)
  {
    used[e.A] = used[e.B] = 1;
    const int32_t a = Root(parent, e.A), b = Root(parent, e.B);
    parent[std::max(a, b)] = std::min(a, b); // roots stay the lowest clocks
  }
  // Unknowns: every used clock but the roots, then the latency if the
  // pairs close a cycle (more equations than a spanning forest needs).
  std::vector<int64_t> unknown(clocks, -1);
  int64_t n = 0, usedClocks = 0, groups = 0;
  for (int32_t c = 0; c < clocks; ++c)
  {
    estimate.Unconstrained += used[c] ? 0 : 1;
    usedClocks += used[c];
    groups += used[c] && Root(parent, c) == c ? 1 : 0;
    unknown[c] = used[c] && Root(parent, c) != c ? n++ : -1;
  }
  bool anyLatency = false;
  for (const Equation& e : equations)
  {
    anyLatency = anyLatency || e.Latency;
  }
  const int64_t latency = anyLatency && int64_t(equations.size()) > usedClocks - groups ? n++ : -1;
  if (n == 0)
  {
    return estimate;
  }
  const auto residuals = [&](const std::vector<double>& x, std::vector<double>& out)
  {
    // out = A^T (A x) with the equations' rows.
    std::fill(out.begin(), out.end(), 0.0);
    for (const Equation& e : equations)
    {
      double row = 0.0;
      row += unknown[e.B] >= 0 ? x[unknown[e.B]] : 0.0;
      row -= unknown[e.A] >= 0 ? x[unknown[e.A]] : 0.0;
      row += e.Latency && latency >= 0 ? x[latency] : 0.0;
      if (unknown[e.B] >= 0)
        out[unknown[e.B]] += row;
      if (unknown[e.A] >= 0)
        out[unknown[e.A]] -= row;
      if (e.Latency && latency >= 0)
        out[latency] += row;
    }
  };
  std::vector<double> b(n, 0.0);
  for (const Equation& e : equations)
  {
    if (unknown[e.B] >= 0)
      b[unknown[e.B]] += e.Value;
    if (unknown[e.A] >= 0)
      b[unknown[e.A]] -= e.Value;
    if (e.Latency && latency >= 0)
      b[latency] += e.Value;
  }
  std::vector<double> x(n, 0.0), r = b, p = b, q(n);
  const auto dot = [](const std::vector<double>& u, const std::vector<double>& v)
  { return std::inner_product(u.begin(), u.end(), v.begin(), 0.0); };
  double rr = dot(r, r);
  const double tolerance = 1e-28 * std::max(rr, 1e-300);
  for (int64_t iteration = 0; iteration < 4 * n + 100 && rr > tolerance; ++iteration)
  {
    residuals(p, q);
    const double alpha = rr / dot(p, q);
    for (int64_t i = 0; i < n; ++i)
    {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    const double next = dot(r, r);
    for (int64_t i = 0; i < n; ++i)
    {
      p[i] = r[i] + next / rr * p[i];
    }
    rr = next;
  }
  for (int32_t c = 0; c < clocks; ++c)
  {
    estimate.Offset[c] = unknown[c] >= 0 ? x[unknown[c]] : 0.0;
  }
  estimate.Latency = latency >= 0 ? x[latency] : 0.0;
  return estimate;
}

// Per ordered pair of clocks, the least delay of its messages.
std::vector<Equation> MessageEquations(const TraceInput& in, const std::vector<int32_t>& clock)
{
  std::map<std::pair<int32_t, int32_t>, double> least;
  for (std::size_t m = 0; m < in.Sender.size(); ++m)
  {
    const int32_t a = clock[in.Sender[m]], b = clock[in.Receiver[m]];
    if (a == b)
    {
      continue;
    }
    const double delay = in.RecvTime[m] - in.SendTime[m];
    const auto [it, fresh] = least.emplace(std::make_pair(a, b), delay);
    it->second = fresh ? delay : std::min(it->second, delay);
  }
  std::vector<Equation> equations;
  for (const auto& [pair, delay] : least)
  {
    equations.push_back({ pair.first, pair.second, delay, true });
  }
  return equations;
}

// Per pair (reference, other) of clocks meeting in collective operations,
// the median difference of their exits. Operations are matched as in
// BuildLogicalTrace: the k-th record of a communicator at every location.
std::vector<Equation> CollectiveEquations(const TraceInput& in, const std::vector<int32_t>& clock)
{
  const std::size_t records = in.CollectiveLocation.size();
  std::vector<std::size_t> order(records);
  std::iota(order.begin(), order.end(), 0);
  const auto& comm = in.CollectiveCommunicator;
  const auto& where = in.CollectiveLocation;
  std::sort(order.begin(), order.end(),
    [&](std::size_t a, std::size_t b)
    {
      return std::make_tuple(comm[a], where[a], in.CollectiveTime[a], a) <
        std::make_tuple(comm[b], where[b], in.CollectiveTime[b], b);
    });
  std::vector<uint64_t> ordinal(records, 0);
  for (std::size_t i = 1; i < records; ++i)
  {
    const std::size_t a = order[i - 1], c = order[i];
    ordinal[c] = comm[a] == comm[c] && where[a] == where[c] ? ordinal[a] + 1 : 0;
  }
  std::sort(order.begin(), order.end(),
    [&](std::size_t a, std::size_t b)
    {
      return std::make_tuple(comm[a], ordinal[a], clock[where[a]], a) <
        std::make_tuple(comm[b], ordinal[b], clock[where[b]], b);
    });
  std::map<std::pair<int32_t, int32_t>, std::vector<double>> samples;
  for (std::size_t i = 0; i < records;)
  {
    // One operation: [i, j); its first record has the lowest clock.
    std::size_t j = i + 1;
    while (
      j < records && comm[order[j]] == comm[order[i]] && ordinal[order[j]] == ordinal[order[i]])
    {
      const int32_t a = clock[where[order[i]]], b = clock[where[order[j]]];
      if (a != b)
      {
        samples[{ a, b }].push_back(in.CollectiveTime[order[j]] - in.CollectiveTime[order[i]]);
      }
      ++j;
    }
    i = j;
  }
  std::vector<Equation> equations;
  for (auto& [pair, values] : samples)
  {
    auto middle = values.begin() + values.size() / 2;
    std::nth_element(values.begin(), middle, values.end());
    equations.push_back({ pair.first, pair.second, *middle, false });
  }
  return equations;
}

// No message may be received before it is sent once corrected: o[B] - o[A]
// <= the least delay from A to B. The least-squares offsets can break this
// where delays are asymmetric (a busy receiver completes its receives late,
// which the model reads as offset); cyclic projections onto the violated
// constraints (each moves both clocks by half the excess) reach a point
// that satisfies them all, since the true offsets do. Groups are then
// shifted back so that their lowest clock stays at 0.
void KeepMessagesCausal(std::vector<double>& offset, const std::vector<Equation>& delays)
{
  // A nanosecond of margin: a delay corrected to exactly 0 would otherwise
  // come out a rounding error below it once subtracted from the times.
  constexpr double margin = 1e-9;
  bool moved = false;
  for (int sweep = 0; sweep < 1000; ++sweep)
  {
    double worst = 0.0;
    for (const Equation& e : delays)
    {
      const double excess = offset[e.B] - offset[e.A] - (e.Value - margin);
      if (excess > 0.0)
      {
        offset[e.B] -= 0.5 * excess;
        offset[e.A] += 0.5 * excess;
        worst = std::max(worst, excess);
        moved = true;
      }
    }
    if (worst <= 0.0)
    {
      break;
    }
  }
  if (!moved)
  {
    return;
  }
  std::vector<int32_t> parent(offset.size());
  std::iota(parent.begin(), parent.end(), 0);
  std::vector<uint8_t> involved(offset.size(), 0);
  for (const Equation& e : delays)
  {
    involved[e.A] = involved[e.B] = 1;
    const int32_t a = Root(parent, e.A), b = Root(parent, e.B);
    parent[std::max(a, b)] = std::min(a, b);
  }
  std::vector<double> shift(offset.size(), 0.0);
  for (std::size_t c = 0; c < offset.size(); ++c)
  {
    shift[c] = involved[c] ? offset[Root(parent, int32_t(c))] : 0.0;
  }
  for (std::size_t c = 0; c < offset.size(); ++c)
  {
    offset[c] -= shift[c];
  }
}

} // namespace

ClockReport CheckClocks(const TraceInput& in, const std::vector<int32_t>& clockOf)
{
  int32_t clocks = 0;
  const std::vector<int32_t> clock = Clocks(in, clockOf, clocks);
  ClockReport report;
  std::map<std::pair<int32_t, int32_t>, ClockPair> pairs;
  for (std::size_t m = 0; m < in.Sender.size(); ++m)
  {
    ++report.Messages;
    const double early = in.SendTime[m] - in.RecvTime[m];
    if (early <= 0.0)
    {
      continue;
    }
    ++report.Violations;
    report.Largest = std::max(report.Largest, early);
    ClockPair& pair = pairs[{ clock[in.Sender[m]], clock[in.Receiver[m]] }];
    pair.Sender = clock[in.Sender[m]];
    pair.Receiver = clock[in.Receiver[m]];
    ++pair.Violations;
    pair.Largest = std::max(pair.Largest, early);
  }
  for (std::size_t m = 0; m < in.Sender.size(); ++m)
  {
    const auto it = pairs.find({ clock[in.Sender[m]], clock[in.Receiver[m]] });
    if (it != pairs.end())
    {
      ++it->second.Messages;
    }
  }
  for (const auto& entry : pairs)
  {
    report.Pairs.push_back(entry.second);
  }
  std::stable_sort(report.Pairs.begin(), report.Pairs.end(),
    [](const ClockPair& a, const ClockPair& b) { return a.Violations > b.Violations; });
  return report;
}

ClockEstimate EstimateClockOffsets(
  const TraceInput& in, ClockSource source, const std::vector<int32_t>& clockOf)
{
  int32_t clocks = 0;
  const std::vector<int32_t> clock = Clocks(in, clockOf, clocks);
  const std::vector<Equation> delays = MessageEquations(in, clock);
  ClockEstimate estimate =
    Solve(clocks, source == ClockSource::Messages ? delays : CollectiveEquations(in, clock));
  KeepMessagesCausal(estimate.Offset, delays);
  return estimate;
}

void ApplyClockOffsets(
  TraceInput& in, const std::vector<double>& offset, const std::vector<int32_t>& clockOf)
{
  int32_t clocks = 0;
  const std::vector<int32_t> clock = Clocks(in, clockOf, clocks);
  if (offset.size() < std::size_t(clocks))
  {
    throw std::invalid_argument("clock offsets: " + std::to_string(offset.size()) +
      " offsets for " + std::to_string(clocks) + " clocks");
  }
  const auto of = [&](int32_t location)
  { return location >= 0 && uint32_t(location) < in.Locations ? offset[clock[location]] : 0.0; };
  for (std::size_t i = 0; i < in.StateLocation.size(); ++i)
  {
    in.StateStart[i] -= of(in.StateLocation[i]);
    in.StateEnd[i] -= of(in.StateLocation[i]);
  }
  for (std::size_t m = 0; m < in.Sender.size(); ++m)
  {
    in.SendTime[m] -= of(in.Sender[m]);
    in.RecvTime[m] -= of(in.Receiver[m]);
  }
  for (std::size_t c = 0; c < in.CollectiveLocation.size(); ++c)
  {
    in.CollectiveTime[c] -= of(in.CollectiveLocation[c]);
  }
}

}
