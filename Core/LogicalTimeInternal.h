// Internal stages of BuildLogicalTrace (LogicalTime.h), shared by
// LogicalTime.cxx (communication events, output), LogicalPhases.cxx (cycles,
// phases, exchange patterns), LogicalSteps.cxx (send-aligned steps),
// LogicalMerges.cxx (phase options) and LogicalStateForest.cxx.
// Not part of the public interface.
#pragma once

#include "LogicalTime.h"

#include <boost/pending/disjoint_sets.hpp>
#include <boost/property_map/property_map.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace macroscope::logical::detail
{

/// Forwards progress and turns a refusal into LogicalTimeAborted.
class ProgressGate
{
public:
  explicit ProgressGate(const std::function<bool(double)>& callback)
    : Callback(callback)
  {
  }
  void At(double fraction) const
  {
    if (this->Callback && !this->Callback(fraction))
    {
      throw LogicalTimeAborted();
    }
  }
  /// In a loop of n iterations covering [lo, hi]: reports every 2^16 iterations.
  void Tick(std::size_t i, std::size_t n, double lo, double hi) const
  {
    if (i != 0 && (i & 0xFFFF) == 0)
    {
      this->At(lo + (hi - lo) * double(i) / double(n));
    }
  }

private:
  const std::function<bool(double)>& Callback;
};

/// The states of each location as a forest (LogicalStateForest.cxx): sorted
/// by start (longer first on ties, then shallower), each pointing to the
/// state that encloses it. Both the communication events (stage 1) and the
/// caller merges (stage 2b) search it.
struct StateForest
{
  std::vector<std::size_t> Offset; ///< per location, into Order
  std::vector<int64_t> Order;      ///< state rows, by position
  std::vector<double> Start;       ///< Start of Order[p]
  std::vector<double> End;         ///< End of Order[p]
  std::vector<int64_t> Parent;     ///< position of the enclosing state, -1

  /// With a `gate`, reports [0, 0.045] of it while it sorts, location by
  /// location: on millions of states the sort is a long silence otherwise.
  explicit StateForest(const TraceInput& in, const ProgressGate* gate = nullptr);

  /// Position of the innermost state of `location` containing t, -1 if none:
  /// the last state starting at or before t (strictly before: `before`), or
  /// one of its ancestors.
  int64_t Innermost(int32_t location, double t, bool before = false) const;

  /// Per state row, its position (the inverse of Order).
  std::vector<int64_t> Positions() const;
};

/// Boost's disjoint sets over 0..n-1, with their storage.
class UnionFind
{
  using Map =
    boost::iterator_property_map<std::vector<std::size_t>::iterator, boost::identity_property_map>;

public:
  explicit UnionFind(std::size_t n)
    : Rank(n)
    , Parent(n)
    , Sets(Map(this->Rank.begin()), Map(this->Parent.begin()))
  {
    for (std::size_t i = 0; i < n; ++i)
    {
      this->Sets.make_set(i);
    }
  }
  void Union(std::size_t a, std::size_t b) { this->Sets.union_set(a, b); }
  std::size_t Find(std::size_t a) { return this->Sets.find_set(a); }

private:
  std::vector<std::size_t> Rank;
  std::vector<std::size_t> Parent;
  boost::disjoint_sets<Map, Map> Sets;
};

/// The communication events of a trace (grouped by location, in time order
/// within a location) and the happened-before graph over them. Members of a
/// collective operation are contracted into one node.
struct CommGraph
{
  uint32_t Locations = 0;
  std::vector<std::size_t>
    LocationOffset; // events of l: [LocationOffset[l], LocationOffset[l + 1])

  // Per event.
  std::vector<int32_t> Location;
  std::vector<double> Enter;
  std::vector<double> Exit;
  std::vector<int64_t> State;
  std::vector<int32_t> Type;
  std::vector<int32_t> Sends;
  std::vector<int32_t> Receives;
  std::vector<int32_t> Partner;
  std::vector<int64_t> Collective;
  std::vector<EventKind> Kind;
  /// Row of the nearest enclosing non-communication state when its depth is
  /// at least 1 (the MergeByEnclosingCall key), else -1.
  std::vector<int64_t> EnclosingCall;

  // Per input message.
  std::vector<int64_t> SendEvent;
  std::vector<int64_t> RecvEvent;
  std::vector<uint8_t> Dropped; // ignored to break a happened-before cycle

  // Messages received (In) and sent (Out) by each event, CSR over message rows.
  std::vector<std::size_t> InOffset;
  std::vector<int64_t> In;
  std::vector<std::size_t> OutOffset;
  std::vector<int64_t> Out;

  /// Pairs of events the phase options (Options::MergeByCaller, MergeDepth,
  /// CollectiveBoundaries) put in one phase; filled by PlanMerges.
  std::vector<std::pair<int64_t, int64_t>> OptionMerges;

  // Contraction: the node of each event and the members of each node (CSR).
  std::vector<int64_t> Node;
  std::vector<std::size_t> MemberOffset;
  std::vector<int64_t> Members;

  std::size_t size() const { return this->Location.size(); }
  std::size_t NodeCount() const
  {
    return this->MemberOffset.empty() ? 0 : this->MemberOffset.size() - 1;
  }
  /// The event before / after e on its location, -1 if none.
  int64_t Previous(std::size_t e) const
  {
    return e > this->LocationOffset[this->Location[e]] ? int64_t(e) - 1 : -1;
  }
  int64_t Next(std::size_t e) const
  {
    return e + 1 < this->LocationOffset[this->Location[e] + 1] ? int64_t(e) + 1 : -1;
  }
  /// Renumbers Node densely (in order of first event) and rebuilds Members.
  void CompactNodes();
};

/// Phases of the nodes, numbered in a topological order of the phase DAG.
struct Phases
{
  int32_t Count = 0;
  std::vector<int32_t> OfNode;
  std::vector<std::vector<int32_t>> Predecessors; // DAG predecessors of each phase
};

/// Stage 1 (LogicalTime.cxx): events from the endpoints (consecutive Isends
/// coalesced when options say so), contracted collectives and Sendrecv
/// exchanges.
CommGraph BuildCommGraph(
  const TraceInput& input, const Options& options, Diagnostics& report, const ProgressGate& gate);

/// Stage 1 (LogicalSendrecv.cxx): joins in `contraction` every group of
/// SendReceive events on distinct locations whose messages among them form
/// a cycle (both partners of an MPI_Sendrecv exchange), so that they share
/// one step; needs g.Kind, g.Collective and the messages.
void ContractSendrecvExchanges(CommGraph& g, UnionFind& contraction, Diagnostics& report);

/// Stage 1 (LogicalSendrecv.cxx), on the contracted nodes: steps apart again
/// the exchanges that lie on a happened-before cycle of the node graph
/// without messages received before they were sent (sharing a step then
/// contradicts another path); the cycles left are BreakCycles' business.
void SplitContradictedExchanges(CommGraph& g, const TraceInput& input, Diagnostics& report);

/// Stage 2 (LogicalPhases.cxx): makes the node graph acyclic, dropping message
/// edges (skewed ones first) and, as a last resort, splitting collectives.
void BreakCycles(CommGraph& graph, const TraceInput& input, Diagnostics& report);

/// Stage 3 (LogicalPhases.cxx): phases, cycle merge, topological numbering.
Phases BuildPhases(
  const CommGraph& graph, const Options& options, Diagnostics& report, const ProgressGate& gate);

/// Exchange flavour of every phase (Isaacs et al. 2014 (Ravel) sections 3.3.2, 4.2.1).
std::vector<ExchangePattern> DetectExchanges(const CommGraph& graph, const Phases& phases);

/// Stage 2b (LogicalMerges.cxx): the OptionMerges of Ravel's phase options.
void PlanMerges(CommGraph& graph, const TraceInput& input, const Options& options);

/// Metrics (LogicalLateness.cxx): max(0, lateness - the largest lateness of
/// the event's predecessors), per row of the events (rows 2e, 2e + 1).
std::vector<double> DifferentialOf(const CommGraph& graph, const std::vector<double>& lateness);
/// Exit minus the earliest exit among the rows of its global step and phase.
std::vector<double> PhaseLatenessOf(const LogicalEvents& events);

/// Stage 4 (LogicalSteps.cxx): the global logical step of every node.
std::vector<int64_t> AssignSteps(
  const CommGraph& graph, const Phases& phases, const ProgressGate& gate);

}
