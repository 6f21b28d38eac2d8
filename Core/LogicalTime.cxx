// Logical time (LogicalTime.h): input checks, the communication events, the
// output rows and the metrics. The stages in between are LogicalPhases.cxx
// and LogicalSteps.cxx; docs/logical-time.md explains the choices.
#include "LogicalTime.h"
#include "LogicalTimeInternal.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

namespace macroscope::logical
{

const char* EventKindName(EventKind kind)
{
  switch (kind)
  {
    case EventKind::Aggregate:
      return "Aggregate";
    case EventKind::Send:
      return "Send";
    case EventKind::Receive:
      return "Receive";
    case EventKind::SendReceive:
      return "SendReceive";
    case EventKind::Collective:
      return "Collective";
  }
  return "Unknown";
}

const char* ExchangePatternName(ExchangePattern pattern)
{
  switch (pattern)
  {
    case ExchangePattern::None:
      return "None";
    case ExchangePattern::Alternating:
      return "Alternating";
    case ExchangePattern::SendsThenReceives:
      return "SendsThenReceives";
    case ExchangePattern::ReceivesWaitall:
      return "ReceivesWaitall";
  }
  return "Unknown";
}

std::pair<double, double> StepSpans::TimeOfSteps(int64_t first, int64_t last) const
{
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::pair<double, double> span{ nan, nan };
  first = std::max<int64_t>(first, 0);
  last = std::min<int64_t>(last, int64_t(this->Start.size()) - 1);
  for (int64_t s = first; s <= last; ++s)
  {
    if (std::isnan(this->Start[s]))
    {
      continue;
    }
    // fmin/fmax ignore the NaN the span starts with.
    span.first = std::fmin(span.first, this->Start[s]);
    span.second = std::fmax(span.second, this->End[s]);
  }
  return span;
}

std::pair<int64_t, int64_t> StepSpans::StepsOfTime(double begin, double end) const
{
  std::pair<int64_t, int64_t> steps{ 0, -1 };
  bool found = false;
  for (std::size_t s = 0; s < this->Start.size(); ++s)
  {
    // A NaN span compares false and is skipped.
    if (this->Start[s] <= end && this->End[s] >= begin)
    {
      steps.first = found ? steps.first : int64_t(s);
      steps.second = int64_t(s);
      found = true;
    }
  }
  return steps;
}

namespace detail
{

void CommGraph::CompactNodes()
{
  const std::size_t n = this->size();
  std::vector<int64_t> id(n, -1);
  int64_t count = 0;
  for (std::size_t e = 0; e < n; ++e)
  {
    int64_t& slot = id[this->Node[e]];
    if (slot < 0)
    {
      slot = count++;
    }
    this->Node[e] = slot;
  }
  this->MemberOffset.assign(std::size_t(count) + 1, 0);
  for (std::size_t e = 0; e < n; ++e)
  {
    ++this->MemberOffset[this->Node[e] + 1];
  }
  std::partial_sum(
    this->MemberOffset.begin(), this->MemberOffset.end(), this->MemberOffset.begin());
  this->Members.resize(n);
  std::vector<std::size_t> next(this->MemberOffset.begin(), this->MemberOffset.end() - 1);
  for (std::size_t e = 0; e < n; ++e)
  {
    this->Members[next[this->Node[e]]++] = int64_t(e);
  }
}

namespace
{

// Checks `ok`; builds the message only when it fails (the checks run per row).
template <typename Message>
void Require(bool ok, const Message& what)
{
  if (!ok)
  {
    throw std::invalid_argument(std::string(what()));
  }
}

std::string Row(const char* table, std::size_t row)
{
  return std::string(table) + " row " + std::to_string(row);
}

void Validate(const TraceInput& in, const Options& options)
{
  const std::size_t states = in.StateLocation.size();
  Require(in.StateType.size() == states && in.StateDepth.size() == states &&
      in.StateStart.size() == states && in.StateEnd.size() == states,
    [] { return "the state columns (location, type, depth, start, end) differ in length"; });
  const std::size_t messages = in.Sender.size();
  Require(in.Receiver.size() == messages && in.SendTime.size() == messages &&
      in.RecvTime.size() == messages,
    []
    { return "the message columns (sender, receiver, send and receive time) differ in length"; });
  Require(in.CollectiveTime.size() == in.CollectiveLocation.size() &&
      in.CollectiveCommunicator.size() == in.CollectiveLocation.size(),
    [] { return "the collective columns (location, time, communicator) differ in length"; });
  const auto location = [&](int32_t l) { return l >= 0 && uint32_t(l) < in.Locations; };
  const auto range = [&] { return " (there are " + std::to_string(in.Locations) + " locations)"; };
  for (std::size_t i = 0; i < states; ++i)
  {
    Require(location(in.StateLocation[i]),
      [&] {
        return Row("state", i) + " has location " + std::to_string(in.StateLocation[i]) + range();
      });
    Require(in.StateType[i] >= 0 && std::size_t(in.StateType[i]) < in.CommunicationType.size(),
      [&]
      {
        return Row("state", i) + " has type " + std::to_string(in.StateType[i]) +
          ", which CommunicationType (" + std::to_string(in.CommunicationType.size()) +
          " types) does not describe";
      });
    Require(std::isfinite(in.StateStart[i]) && std::isfinite(in.StateEnd[i]),
      [&] { return Row("state", i) + " has a non-finite start or end"; });
    Require(in.StateEnd[i] >= in.StateStart[i],
      [&]
      {
        return Row("state", i) + " ends (" + std::to_string(in.StateEnd[i]) +
          ") before it starts (" + std::to_string(in.StateStart[i]) + ")";
      });
  }
  for (std::size_t m = 0; m < messages; ++m)
  {
    Require(location(in.Sender[m]) && location(in.Receiver[m]),
      [&]
      {
        return Row("message", m) + " has sender " + std::to_string(in.Sender[m]) +
          " and receiver " + std::to_string(in.Receiver[m]) + range();
      });
    Require(std::isfinite(in.SendTime[m]) && std::isfinite(in.RecvTime[m]),
      [&] { return Row("message", m) + " has a non-finite send or receive time"; });
  }
  for (std::size_t c = 0; c < in.CollectiveLocation.size(); ++c)
  {
    Require(location(in.CollectiveLocation[c]),
      [&]
      {
        return Row("collective", c) + " has location " + std::to_string(in.CollectiveLocation[c]) +
          range();
      });
    Require(std::isfinite(in.CollectiveTime[c]),
      [&] { return Row("collective", c) + " has a non-finite time"; });
  }
  Require(in.IsendType.empty() || in.IsendType.size() == in.CommunicationType.size(),
    [&]
    {
      return "IsendType describes " + std::to_string(in.IsendType.size()) +
        " types, CommunicationType " + std::to_string(in.CommunicationType.size());
    });
  const std::vector<double>& b = options.PhaseBoundaries;
  for (std::size_t i = 0; i < b.size(); ++i)
  {
    Require(std::isfinite(b[i]),
      [&] { return "phase boundary " + std::to_string(i) + " is not finite"; });
    Require(i == 0 || b[i - 1] < b[i],
      [&] {
        return "the phase boundaries must increase strictly (boundary " + std::to_string(i) + ")";
      });
  }
}

struct RawEvent
{
  int32_t Location;
  double Enter;
  double Exit;
  int64_t Position; // in the forest, -1 for an instant
};

// Options::CoalesceIsends. Two raw events are consecutive when nothing of
// their location lies between them: no other raw event (they are adjacent in
// the location's time order) and no state but those nested in the first
// (the forest positions between them). Each run of consecutive candidates
// (non-blocking send calls holding sends only) folds into its first event,
// which then ends where the run's last call ends. Returns, per raw event,
// its index in the compacted `raw`.
std::vector<int64_t> CoalesceIsendRuns(const TraceInput& in, const StateForest& forest,
  std::vector<RawEvent>& raw, const std::vector<uint8_t>& sendOnly, Diagnostics& report)
{
  const std::size_t n = raw.size();
  const auto candidate = [&](int64_t r)
  {
    const int64_t p = raw[r].Position;
    return p >= 0 && sendOnly[r] && in.IsendType[in.StateType[forest.Order[p]]];
  };
  const auto nothingBetween = [&](int64_t a, int64_t b)
  {
    const int64_t pa = raw[a].Position, pb = raw[b].Position;
    for (int64_t q = pa + 1; q < pb; ++q)
    {
      if (forest.End[q] > forest.End[pa])
      {
        return false; // a call in the gap, or one enclosing the next Isend
      }
    }
    return pa < pb;
  };
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
    [&](int64_t a, int64_t b)
    {
      return std::tie(raw[a].Location, raw[a].Enter, raw[a].Exit, a) <
        std::tie(raw[b].Location, raw[b].Enter, raw[b].Exit, b);
    });
  std::vector<int64_t> leader(n);
  std::iota(leader.begin(), leader.end(), 0);
  for (std::size_t i = 1; i < n; ++i)
  {
    const int64_t a = order[i - 1], b = order[i];
    if (raw[a].Location == raw[b].Location && candidate(a) && candidate(b) && nothingBetween(a, b))
    {
      leader[b] = leader[a];
      raw[leader[b]].Exit = std::max(raw[leader[b]].Exit, raw[b].Exit);
      ++report.CoalescedIsends;
    }
  }
  std::vector<int64_t> moved(n, -1);
  std::size_t kept = 0;
  for (std::size_t r = 0; r < n; ++r)
  {
    if (leader[r] == int64_t(r))
    {
      raw[kept] = raw[r];
      moved[r] = int64_t(kept++);
    }
  }
  for (std::size_t r = 0; r < n; ++r)
  {
    moved[r] = moved[leader[r]];
  }
  raw.resize(kept);
  return moved;
}

} // namespace

CommGraph BuildCommGraph(
  const TraceInput& in, const Options& options, Diagnostics& report, const ProgressGate& gate)
{
  const StateForest forest(in, &gate);
  gate.At(0.05);
  const auto communication = [&](int64_t p)
  { return p >= 0 && in.CommunicationType[in.StateType[forest.Order[p]]]; };

  // Each endpoint to its event: the innermost communication state holding it.
  std::vector<RawEvent> raw;
  std::vector<int64_t> eventAt(forest.Order.size(), -1);
  const auto innermostCall = [&](int32_t location, double t, bool before)
  {
    int64_t p = forest.Innermost(location, t, before);
    while (p >= 0 && !communication(p))
    {
      p = forest.Parent[p];
    }
    return p;
  };
  // At a time t where one call ends and the next starts, the endpoint is in
  // the one starting (sends are written as their call enters) unless
  // `ending` says it is in the one ending: collective ends always (written
  // as their call leaves), receive completions when the ending call holds
  // no send (a blocking receive, not an Isend followed by a Waitall).
  std::vector<uint8_t> holdsSend(forest.Order.size(), 0);
  const auto eventFor = [&](int32_t location, double t, int ending) -> int64_t
  {
    int64_t p = innermostCall(location, t, false);
    if (ending)
    {
      // The innermost call started before t; it ends at t and is not an
      // ancestor of p (p would then be a call inside it, deeper).
      const int64_t earlier = innermostCall(location, t, true);
      if (earlier >= 0 && earlier != p && forest.End[earlier] == t &&
        (ending == 2 || !holdsSend[earlier]))
      {
        int64_t q = p;
        while (q >= 0 && q != earlier)
        {
          q = forest.Parent[q];
        }
        p = q == earlier ? p : earlier;
      }
    }
    if (p < 0)
    {
      ++report.InstantEndpoints;
      raw.push_back({ location, t, t, -1 });
      return int64_t(raw.size()) - 1;
    }
    if (eventAt[p] < 0)
    {
      eventAt[p] = int64_t(raw.size());
      raw.push_back({ location, forest.Start[p], forest.End[p], p });
    }
    return eventAt[p];
  };
  const std::size_t messages = in.Sender.size();
  const std::size_t records = in.CollectiveLocation.size();
  std::vector<int64_t> sendEvent(messages), recvEvent(messages), recordEvent(records);
  for (std::size_t m = 0; m < messages; ++m)
  {
    gate.Tick(m, messages, 0.05, 0.1);
    sendEvent[m] = eventFor(in.Sender[m], in.SendTime[m], 0);
    if (raw[sendEvent[m]].Position >= 0)
    {
      holdsSend[raw[sendEvent[m]].Position] = 1;
    }
  }
  for (std::size_t m = 0; m < messages; ++m)
  {
    gate.Tick(m, messages, 0.1, 0.15);
    recvEvent[m] = eventFor(in.Receiver[m], in.RecvTime[m], 1);
  }
  for (std::size_t c = 0; c < records; ++c)
  {
    recordEvent[c] = eventFor(in.CollectiveLocation[c], in.CollectiveTime[c], 2);
  }
  eventAt = {};
  if (options.CoalesceIsends && !in.IsendType.empty())
  {
    std::vector<uint8_t> sendOnly(raw.size(), 0);
    for (const int64_t e : sendEvent)
    {
      sendOnly[e] = 1;
    }
    for (const auto* others : { &recvEvent, &recordEvent })
    {
      for (const int64_t e : *others)
      {
        sendOnly[e] = 0;
      }
    }
    const std::vector<int64_t> moved = CoalesceIsendRuns(in, forest, raw, sendOnly, report);
    for (auto* endpoints : { &sendEvent, &recvEvent, &recordEvent })
    {
      for (int64_t& e : *endpoints)
      {
        e = moved[e];
      }
    }
  }

  // Events grouped by location, in time order.
  const std::size_t n = raw.size();
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
    [&](int64_t a, int64_t b)
    {
      const RawEvent& x = raw[a];
      const RawEvent& y = raw[b];
      if (x.Location != y.Location)
        return x.Location < y.Location;
      if (x.Enter != y.Enter)
        return x.Enter < y.Enter;
      if (x.Exit != y.Exit)
        return x.Exit < y.Exit;
      return a < b;
    });
  std::vector<int64_t> rank(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    rank[order[i]] = int64_t(i);
  }
  gate.At(0.2);

  CommGraph g;
  g.Locations = in.Locations;
  g.LocationOffset.assign(std::size_t(in.Locations) + 1, 0);
  g.Location.resize(n);
  g.Enter.resize(n);
  g.Exit.resize(n);
  g.State.resize(n);
  g.Type.resize(n);
  g.EnclosingCall.resize(n);
  g.Sends.assign(n, 0);
  g.Receives.assign(n, 0);
  g.Partner.assign(n, -1);
  g.Collective.assign(n, -1);
  g.Kind.resize(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    const RawEvent& r = raw[order[i]];
    g.Location[i] = r.Location;
    ++g.LocationOffset[r.Location + 1];
    g.Enter[i] = r.Enter;
    g.Exit[i] = r.Exit;
    g.State[i] = r.Position < 0 ? -1 : forest.Order[r.Position];
    g.Type[i] = r.Position < 0 ? -1 : in.StateType[g.State[i]];
    // The nearest enclosing non-communication state; main (depth 0) is no key.
    int64_t p = r.Position < 0 ? forest.Innermost(r.Location, r.Enter) : forest.Parent[r.Position];
    while (p >= 0 && communication(p))
    {
      p = forest.Parent[p];
    }
    g.EnclosingCall[i] = p >= 0 && in.StateDepth[forest.Order[p]] >= 1 ? forest.Order[p] : -1;
    gate.Tick(i, n, 0.2, 0.24);
  }
  gate.At(0.24);
  std::partial_sum(g.LocationOffset.begin(), g.LocationOffset.end(), g.LocationOffset.begin());
  raw = {};

  // Messages: counts, partner (the other end of the earliest endpoint).
  g.SendEvent.resize(messages);
  g.RecvEvent.resize(messages);
  g.Dropped.assign(messages, 0);
  std::vector<double> firstEndpoint(n, std::numeric_limits<double>::infinity());
  for (std::size_t m = 0; m < messages; ++m)
  {
    const int64_t s = rank[sendEvent[m]];
    const int64_t r = rank[recvEvent[m]];
    g.SendEvent[m] = s;
    g.RecvEvent[m] = r;
    ++g.Sends[s];
    ++g.Receives[r];
    // The earliest endpoint, ties to the lowest partner: independent of
    // the order of the message rows (which differs between MPI pieces).
    if (in.SendTime[m] < firstEndpoint[s] ||
      (in.SendTime[m] == firstEndpoint[s] && in.Receiver[m] < g.Partner[s]))
    {
      firstEndpoint[s] = in.SendTime[m];
      g.Partner[s] = in.Receiver[m];
    }
    if (in.RecvTime[m] < firstEndpoint[r] ||
      (in.RecvTime[m] == firstEndpoint[r] && in.Sender[m] < g.Partner[r]))
    {
      firstEndpoint[r] = in.RecvTime[m];
      g.Partner[r] = in.Sender[m];
    }
  }
  gate.At(0.26);
  const auto csr = [&](const std::vector<int64_t>& eventOf, std::vector<std::size_t>& offset,
                     std::vector<int64_t>& rows)
  {
    offset.assign(n + 1, 0);
    for (std::size_t m = 0; m < messages; ++m)
    {
      ++offset[eventOf[m] + 1];
    }
    std::partial_sum(offset.begin(), offset.end(), offset.begin());
    rows.resize(messages);
    std::vector<std::size_t> next(offset.begin(), offset.end() - 1);
    for (std::size_t m = 0; m < messages; ++m)
    {
      rows[next[eventOf[m]]++] = int64_t(m);
    }
  };
  csr(g.RecvEvent, g.InOffset, g.In);
  csr(g.SendEvent, g.OutOffset, g.Out);

  // Collectives: the k-th record of a communicator at each location meet.
  std::vector<int64_t> byChannel(records);
  std::iota(byChannel.begin(), byChannel.end(), 0);
  std::sort(byChannel.begin(), byChannel.end(),
    [&](int64_t a, int64_t b)
    {
      if (in.CollectiveCommunicator[a] != in.CollectiveCommunicator[b])
        return in.CollectiveCommunicator[a] < in.CollectiveCommunicator[b];
      if (in.CollectiveLocation[a] != in.CollectiveLocation[b])
        return in.CollectiveLocation[a] < in.CollectiveLocation[b];
      if (in.CollectiveTime[a] != in.CollectiveTime[b])
        return in.CollectiveTime[a] < in.CollectiveTime[b];
      return a < b;
    });
  std::vector<int64_t> ordinal(records);
  for (std::size_t i = 0; i < records; ++i)
  {
    const int64_t c = byChannel[i];
    const bool sameRun = i > 0 &&
      in.CollectiveCommunicator[byChannel[i - 1]] == in.CollectiveCommunicator[c] &&
      in.CollectiveLocation[byChannel[i - 1]] == in.CollectiveLocation[c];
    ordinal[c] = sameRun ? ordinal[byChannel[i - 1]] + 1 : 0;
  }
  std::sort(byChannel.begin(), byChannel.end(),
    [&](int64_t a, int64_t b)
    {
      if (in.CollectiveCommunicator[a] != in.CollectiveCommunicator[b])
        return in.CollectiveCommunicator[a] < in.CollectiveCommunicator[b];
      if (ordinal[a] != ordinal[b])
        return ordinal[a] < ordinal[b];
      return in.CollectiveLocation[a] < in.CollectiveLocation[b];
    });
  UnionFind contraction(n);
  int64_t operation = -1;
  std::vector<std::pair<int64_t, std::size_t>> operationSize; // (communicator, participants)
  for (std::size_t i = 0; i < records; ++i)
  {
    const int64_t c = byChannel[i];
    const int64_t e = rank[recordEvent[c]];
    const bool newOperation = i == 0 ||
      in.CollectiveCommunicator[byChannel[i - 1]] != in.CollectiveCommunicator[c] ||
      ordinal[byChannel[i - 1]] != ordinal[c];
    if (newOperation)
    {
      ++operation;
      operationSize.emplace_back(in.CollectiveCommunicator[c], 0);
    }
    else
    {
      contraction.Union(std::size_t(rank[recordEvent[byChannel[i - 1]]]), std::size_t(e));
    }
    ++operationSize.back().second;
    g.Collective[e] = g.Collective[e] < 0 ? operation : std::min(g.Collective[e], operation);
  }
  // Operations with fewer participants than the largest of their communicator.
  for (std::size_t i = 0; i < operationSize.size();)
  {
    std::size_t j = i, largest = 0;
    for (; j < operationSize.size() && operationSize[j].first == operationSize[i].first; ++j)
    {
      largest = std::max(largest, operationSize[j].second);
    }
    for (; i < j; ++i)
    {
      report.IncompleteCollectives += operationSize[i].second < largest ? 1 : 0;
    }
  }
  g.Node.resize(n);
  for (std::size_t e = 0; e < n; ++e)
  {
    g.Kind[e] = g.Collective[e] >= 0        ? EventKind::Collective
      : g.Sends[e] > 0 && g.Receives[e] > 0 ? EventKind::SendReceive
      : g.Sends[e] > 0                      ? EventKind::Send
                                            : EventKind::Receive;
  }
  ContractSendrecvExchanges(g, contraction, report);
  for (std::size_t e = 0; e < n; ++e)
  {
    g.Node[e] = int64_t(contraction.Find(e));
  }
  g.CompactNodes();
  SplitContradictedExchanges(g, in, report);
  gate.At(0.3);
  return g;
}

} // namespace detail

LogicalTrace BuildLogicalTrace(
  const TraceInput& input, const Options& options, const std::function<bool(double)>& progress)
{
  using namespace detail;
  Validate(input, options);
  const ProgressGate gate(progress);
  gate.At(0.0);

  LogicalTrace trace;
  CommGraph g = BuildCommGraph(input, options, trace.Report, gate);
  BreakCycles(g, input, trace.Report);
  PlanMerges(g, input, options);
  gate.At(0.4);
  const Phases phases = BuildPhases(g, options, trace.Report, gate);
  gate.At(0.5);
  const std::vector<int64_t> nodeStep = AssignSteps(g, phases, gate);
  gate.At(0.8);

  // Rows: before every communication event, the aggregate of the time since
  // the previous one (row 2e), then the event (row 2e + 1).
  const std::size_t n = g.size();
  std::vector<double> firstStart(input.Locations, std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < input.StateLocation.size(); ++i)
  {
    double& first = firstStart[input.StateLocation[i]];
    first = std::min(first, input.StateStart[i]);
  }
  LogicalEvents& ev = trace.Events;
  const std::size_t rows = 2 * n;
  ev.Location.resize(rows);
  ev.Step.resize(rows);
  ev.GlobalStep.resize(rows);
  ev.Phase.resize(rows);
  ev.Kind.resize(rows);
  ev.Enter.resize(rows);
  ev.Exit.resize(rows);
  ev.State.resize(rows);
  ev.Type.resize(rows);
  ev.Sends.resize(rows);
  ev.Receives.resize(rows);
  ev.Partner.resize(rows);
  ev.Collective.resize(rows);
  for (std::size_t e = 0; e < n; ++e)
  {
    const std::size_t a = 2 * e, c = 2 * e + 1;
    const int64_t previous = g.Previous(e);
    const int64_t step = nodeStep[g.Node[e]];
    const int32_t phase = phases.OfNode[g.Node[e]];
    double enter = previous >= 0 ? g.Exit[previous] : firstStart[g.Location[e]];
    enter = std::min(enter, g.Enter[e]); // nested or instant communication events
    ev.Location[a] = ev.Location[c] = g.Location[e];
    ev.Step[a] = ev.Step[c] = step;
    ev.GlobalStep[a] = 2 * step;
    ev.GlobalStep[c] = 2 * step + 1;
    ev.Phase[a] = ev.Phase[c] = phase;
    ev.Kind[a] = EventKind::Aggregate;
    ev.Kind[c] = g.Kind[e];
    ev.Enter[a] = enter;
    ev.Exit[a] = g.Enter[e];
    ev.Enter[c] = g.Enter[e];
    ev.Exit[c] = g.Exit[e];
    ev.State[a] = -1;
    ev.State[c] = g.State[e];
    ev.Type[a] = -1;
    ev.Type[c] = g.Type[e];
    ev.Sends[a] = ev.Receives[a] = 0;
    ev.Sends[c] = g.Sends[e];
    ev.Receives[c] = g.Receives[e];
    ev.Partner[a] = -1;
    ev.Partner[c] = g.Partner[e];
    ev.Collective[a] = -1;
    ev.Collective[c] = g.Collective[e];
    gate.Tick(e, n, 0.8, 0.86);
  }
  gate.At(0.86);

  // Lateness: exit minus the earliest exit of the global step (Isaacs et al. 2014 (Ravel) §3.2).
  int64_t globalSteps = 0;
  for (std::size_t r = 0; r < rows; ++r)
  {
    globalSteps = std::max(globalSteps, ev.GlobalStep[r] + 1);
  }
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> earliestExit(globalSteps, inf);
  StepSpans& spans = trace.Spans;
  spans.Start.assign(globalSteps, inf);
  spans.End.assign(globalSteps, -inf);
  for (std::size_t r = 0; r < rows; ++r)
  {
    const int64_t s = ev.GlobalStep[r];
    earliestExit[s] = std::min(earliestExit[s], ev.Exit[r]);
    spans.Start[s] = std::min(spans.Start[s], ev.Enter[r]);
    spans.End[s] = std::max(spans.End[s], ev.Exit[r]);
  }
  for (int64_t s = 0; s < globalSteps; ++s)
  {
    if (spans.Start[s] == inf)
    {
      spans.Start[s] = spans.End[s] = std::numeric_limits<double>::quiet_NaN();
    }
  }
  ev.Lateness.resize(rows);
  for (std::size_t r = 0; r < rows; ++r)
  {
    ev.Lateness[r] = ev.Exit[r] - earliestExit[ev.GlobalStep[r]];
  }
  gate.At(0.9);
  // Differential lateness: what the event adds to the lateness it inherits
  // from its predecessors (none: it inherits 0).
  ev.DifferentialLateness = DifferentialOf(g, ev.Lateness);
  // Ravel's per-phase lateness and its differential.
  ev.PhaseLateness = PhaseLatenessOf(ev);
  ev.PhaseDifferentialLateness = DifferentialOf(g, ev.PhaseLateness);
  gate.At(0.95);

  // Messages, in input order.
  LogicalMessages& msg = trace.Messages;
  const std::size_t messages = input.Sender.size();
  msg.Message.resize(messages);
  msg.SendEvent.resize(messages);
  msg.RecvEvent.resize(messages);
  msg.Dropped = g.Dropped;
  for (std::size_t m = 0; m < messages; ++m)
  {
    msg.Message[m] = int64_t(m);
    msg.SendEvent[m] = 2 * g.SendEvent[m] + 1;
    msg.RecvEvent[m] = 2 * g.RecvEvent[m] + 1;
  }

  // Phases.
  const std::vector<ExchangePattern> patterns = DetectExchanges(g, phases);
  gate.At(0.98);
  trace.Phases.resize(phases.Count);
  std::vector<int32_t> lastLocation(phases.Count, -1);
  for (int32_t p = 0; p < phases.Count; ++p)
  {
    PhaseInfo& info = trace.Phases[p];
    info.FirstGlobalStep = std::numeric_limits<int64_t>::max();
    info.LastGlobalStep = std::numeric_limits<int64_t>::min();
    info.Start = inf;
    info.End = -inf;
    info.Pattern = patterns[p];
  }
  for (std::size_t r = 0; r < rows; ++r)
  {
    PhaseInfo& info = trace.Phases[ev.Phase[r]];
    info.FirstGlobalStep = std::min(info.FirstGlobalStep, ev.GlobalStep[r]);
    info.LastGlobalStep = std::max(info.LastGlobalStep, ev.GlobalStep[r]);
    info.Start = std::min(info.Start, ev.Enter[r]);
    info.End = std::max(info.End, ev.Exit[r]);
    ++info.Events;
    // Rows are grouped by location: a new location shows as a change.
    if (lastLocation[ev.Phase[r]] != ev.Location[r])
    {
      lastLocation[ev.Phase[r]] = ev.Location[r];
      ++info.Locations;
    }
  }
  gate.At(1.0);
  return trace;
}

}
