// Ocelotl's information-theoretic aggregation of a microscopic model
// (Dosimont et al. 2015 (Ocelotl) §3.1-3.5; Pagano et al. 2013 (FrameSoC)
// §IV-B): the partition of the model that maximises pIC = p * gain - (1 - p) * loss among the
// partitions a constraint allows, for one p or for every p in [0, 1] at once.
//
// Three constraints, one class each:
// - TemporalAggregation: contiguous slice intervals over all resources;
// - SpatialAggregation: a cut of the resource hierarchy, over all slices;
// - SpatiotemporalAggregation: hierarchy node x slice interval rectangles.
// Each computes the qualities (gain, loss) of every allowed part once, in its
// constructor; Best(p) and AllPartitions() only reuse them. All three report
// progress and can be stopped through an AggregationProgress callback.
// See docs/aggregation.md for the definitions, recurrences and tie rules.
#pragma once

#include "TimeSlicing.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <thread>
#include <vector>

namespace macroscope
{

/// A read-only view of a model laid out as MicroscopicModel::Values:
/// Value(s, t, u) at t + Slices * (s + Resources * u).
struct ModelView
{
  const double* Values = nullptr;
  int Slices = 0;
  uint32_t Resources = 0;
  uint32_t Types = 0;

  static ModelView Of(const MicroscopicModel& model);
  double At(uint32_t resource, int slice, uint32_t type) const
  {
    return this->Values[static_cast<std::size_t>(slice) +
      static_cast<std::size_t>(this->Slices) * (resource + std::size_t(this->Resources) * type)];
  }
  /// Throws std::invalid_argument on empty dimensions, or on a negative,
  /// NaN or infinite value (naming its cell).
  void Validate() const;
};

/// The hierarchy above the resources as a parent array, the layout of
/// ResourceHierarchy::Parent: leaves 0..S-1 first, Parent[n] > n, the root
/// last with -1. Every inner node covers a contiguous range of leaves.
class AggregationHierarchy
{
public:
  /// Throws std::invalid_argument if `parent` is not such a tree over
  /// `leaves` leaves (a leaf with children, an inner node without, a parent
  /// index not above its child, several roots, a node with scattered leaves).
  AggregationHierarchy(const std::vector<int64_t>& parent, uint32_t leaves);

  std::size_t Nodes() const { return this->Parent.size(); }
  uint32_t Leaves() const { return this->LeafTotal; }
  int64_t Root() const { return static_cast<int64_t>(this->Parent.size()) - 1; }
  int64_t ParentOf(int64_t node) const { return this->Parent[node]; }
  const std::vector<int64_t>& Children(int64_t node) const { return this->ChildList[node]; }
  /// Leaves below `node` (itself for a leaf): [LeafBegin, LeafEnd).
  uint32_t LeafBegin(int64_t node) const { return this->Begin[node]; }
  uint32_t LeafEnd(int64_t node) const { return this->End[node]; }
  uint32_t LeafCount(int64_t node) const { return this->End[node] - this->Begin[node]; }

private:
  std::vector<int64_t> Parent;
  std::vector<std::vector<int64_t>> ChildList;
  std::vector<uint32_t> Begin;
  std::vector<uint32_t> End;
  uint32_t LeafTotal = 0;
};

/// The parent array of a one-level hierarchy: a root directly above `leaves`
/// leaves.
std::vector<int64_t> FlatHierarchy(uint32_t leaves);

/// One part: the resources below Node (all of them in temporal aggregation,
/// where Node is -1) over slices [FirstSlice, LastSlice].
struct AggregatePart
{
  int64_t Node = -1;
  int FirstSlice = 0;
  int LastSlice = 0;
  double Gain = 0.0; ///< normalised when the aggregation normalises
  double Loss = 0.0;

  bool SameArea(const AggregatePart& other) const
  {
    return this->Node == other.Node && this->FirstSlice == other.FirstSlice &&
      this->LastSlice == other.LastSlice;
  }
};

/// A partition: its parts sorted by (Node, FirstSlice), and the sums of
/// their qualities. pIC is linear in p: PIC(p) = -Loss + p * (Gain + Loss).
struct Partition
{
  std::vector<AggregatePart> Parts;
  double Gain = 0.0;
  double Loss = 0.0;

  double PIC(double p) const { return p * this->Gain - (1.0 - p) * this->Loss; }
  bool SameParts(const Partition& other) const;
};

/// Every distinct optimal partition over p in [0, 1], least aggregated first:
/// Partitions[k] is optimal on [PStart(k), PStart(k + 1)], where PStart(0) = 0
/// and PStart(k) = Breakpoints[k - 1]. These are Ocelotl's quality curves.
struct PartitionSweep
{
  std::vector<double> Breakpoints;
  std::vector<Partition> Partitions;
  /// How many DP runs (Best) the sweep took: 2 x Found - 1 at most, so the
  /// sweep costs about two single partitions per distinct partition.
  std::size_t Optimizations = 0;
  /// Envelope partitions found: Partitions plus those the upper-hull pass
  /// dropped (optimal at a single p only, rare).
  std::size_t Found = 0;

  double PStart(std::size_t k) const { return k == 0 ? 0.0 : this->Breakpoints[k - 1]; }
};

/// The qualities of the fully aggregated partition (raw).
struct Quality
{
  double Gain = 0.0;
  double Loss = 0.0;
};

/// Called with the fraction done (0..1) of the computation under way (the
/// qualities in a constructor, one Best(), or AllPartitions()); returning
/// false stops it with AggregationAborted. It is called only on the thread
/// that created the aggregation or last called SetProgress, never on a
/// worker thread, so it may update a user interface.
using AggregationProgress = std::function<bool(double)>;

/// Thrown when the progress callback asked to stop; nothing computed by the
/// aborted call is kept.
class AggregationAborted : public std::runtime_error
{
public:
  AggregationAborted()
    : std::runtime_error("aggregation aborted")
  {
  }
};

/// What the three constraints share: normalisation, validation of p and the
/// exact sweep over p. Subclasses compute qualities and the DP optimum.
class Aggregation
{
public:
  virtual ~Aggregation() = default;
  Aggregation(const Aggregation&) = delete;
  Aggregation& operator=(const Aggregation&) = delete;

  /// Divide gains and losses by those of the fully aggregated partition (when
  /// not zero), as Ocelotl does. On by default; switching it reuses the
  /// qualities.
  void SetNormalizeQualities(bool normalize) { this->Normalize = normalize; }
  bool GetNormalizeQualities() const { return this->Normalize; }

  /// Raw qualities of the partition with a single part.
  Quality FullAggregation() const { return this->Full; }

  /// The partition of highest pIC; ties go to fewer parts, then to the
  /// larger aggregate (docs/aggregation.md). Throws std::invalid_argument
  /// unless 0 <= p <= 1.
  Partition Best(double p) const;

  /// Every distinct optimal partition and the breakpoints between them.
  PartitionSweep AllPartitions() const;

  /// The callback of the next Best() or AllPartitions() (an empty one: no
  /// progress, no abort), reported on the calling thread.
  void SetProgress(AggregationProgress progress);

protected:
  explicit Aggregation(AggregationProgress progress = {});

  /// For the loops of the constructors and of Optimize: `fraction` of the
  /// current step is done. On the progress thread it reports it (inside a
  /// sweep, the sweep's own fraction instead); on any thread it returns
  /// false once the callback asked to stop: a worker then leaves its loop,
  /// and the calling thread throws (ThrowIfStopped, Checkpoint).
  bool Continue(double fraction) const;
  /// Throws AggregationAborted if the callback asked to stop.
  void ThrowIfStopped() const;
  /// Continue, throwing AggregationAborted when it says stop.
  void Checkpoint(double fraction) const
  {
    if (!this->Continue(fraction))
    {
      throw AggregationAborted();
    }
  }

  /// The parts of a partition maximising gainWeight * gain - lossWeight *
  /// loss (raw qualities), with their raw qualities, in any order.
  virtual std::vector<AggregatePart> Optimize(double gainWeight, double lossWeight) const = 0;

  Quality Full;
  unsigned Threads = 0;

private:
  bool Normalize = true;
  AggregationProgress Progress;
  std::thread::id ProgressThread;
  mutable std::atomic<bool> Stopped{ false };
  /// While AllPartitions runs: what Continue reports (the sweep's fraction).
  mutable std::atomic<bool> Sweeping{ false };
  mutable std::atomic<double> SweepFraction{ 0.0 };
};

/// Parts are contiguous slice intervals over all resources; a slice's entity
/// is its |S| x |U| sub-matrix (Pagano et al. 2013 (FrameSoC) eqs. 4-5).
class TemporalAggregation : public Aggregation
{
public:
  /// Computes the qualities of all intervals. `threads` 0: all cores.
  /// Throws std::invalid_argument on an invalid model.
  explicit TemporalAggregation(
    const ModelView& model, unsigned threads = 0, AggregationProgress progress = {});

  int Slices() const { return this->SliceCount; }
  /// Raw qualities of [first, last].
  Quality IntervalQuality(int first, int last) const;

protected:
  std::vector<AggregatePart> Optimize(double gainWeight, double lossWeight) const override;

private:
  std::size_t Index(int first, int last) const;
  int SliceCount = 0;
  std::vector<Quality> Qualities; ///< upper triangle, row by row
};

/// Viva's spatial aggregation: parts are the nodes of a cut of the hierarchy;
/// a resource's entity is its |U| values summed over all slices.
class SpatialAggregation : public Aggregation
{
public:
  SpatialAggregation(const ModelView& model, const AggregationHierarchy& hierarchy,
    AggregationProgress progress = {});

  Quality NodeQuality(int64_t node) const { return this->Qualities[node]; }

protected:
  std::vector<AggregatePart> Optimize(double gainWeight, double lossWeight) const override;

private:
  AggregationHierarchy Hierarchy;
  int SliceCount = 0;
  std::vector<Quality> Qualities; ///< per node
};

/// Parts are (hierarchy node x slice interval) rectangles that do not
/// overlap, the Cartesian-product constraint of Dosimont et al. 2015 (Ocelotl) §3.5.1; a cell's
/// entity is its |U| values. Memory: two doubles per node and interval.
class SpatiotemporalAggregation : public Aggregation
{
public:
  SpatiotemporalAggregation(const ModelView& model, const AggregationHierarchy& hierarchy,
    unsigned threads = 0, AggregationProgress progress = {});

  Quality AreaQuality(int64_t node, int first, int last) const;

protected:
  std::vector<AggregatePart> Optimize(double gainWeight, double lossWeight) const override;

private:
  std::size_t Index(int64_t node, int first, int last) const;
  AggregationHierarchy Hierarchy;
  int SliceCount = 0;
  std::size_t Intervals = 0;
  std::vector<Quality> Qualities; ///< node-major, then upper triangle
};

/// Q(T(i, j), u) of Dosimont et al. 2015 (Ocelotl) eq. 4 for every type u: the sum over all
/// resources and slices of the interval, divided by its number of slices.
std::vector<double> TemporalAmplitudes(const ModelView& model, int first, int last);

/// What the spatiotemporal overview draws for a part (Dosimont et al. 2015 (Ocelotl) eq. 5).
struct AreaSummary
{
  std::vector<double> Mean;    ///< per type: sum over the area / (slices x leaves)
  uint32_t Mode = 0;           ///< type of the largest mean (lowest index on ties)
  double ModeProportion = 0.0; ///< Mean[Mode] / sum of Mean; 0 when all are 0
};

AreaSummary SummarizeArea(
  const ModelView& model, const AggregationHierarchy& hierarchy, int64_t node, int first, int last);

}
