// Reads an archive's global definitions and resolves them into what the
// event decoder needs on its hot path: dense tables from OTF2 references to
// type ids and leaf indexes.
#ifndef macroscope_otf2_OTF2Definitions_h
#define macroscope_otf2_OTF2Definitions_h

#include "OTF2TraceTables.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace macroscope::otf2
{

class Archive;

/// Maps OTF2 references to dense indexes (or other values): a flat vector
/// when the references are compact (the usual case), a hash map otherwise.
class RefIndex
{
public:
  /// `refs[i]` gets index i; later duplicates are ignored.
  void assign(const std::vector<uint64_t>& refs);
  /// `refs[i]` gets values[i] (non-negative); later duplicates are ignored.
  void assign(const std::vector<uint64_t>& refs, const std::vector<uint64_t>& values);
  /// The index (value) of `ref`, or -1.
  int64_t find(uint64_t ref) const
  {
    if (this->UseDense)
    {
      return ref < this->Dense.size() ? this->Dense[ref] : -1;
    }
    const auto found = this->Sparse.find(ref);
    return found == this->Sparse.end() ? -1 : int64_t(found->second);
  }

private:
  bool UseDense = true;
  std::vector<int64_t> Dense;
  std::unordered_map<uint64_t, uint64_t> Sparse;
};

/// A communicator's ranks as leaf indexes.
struct CommPeers
{
  std::vector<int64_t> LeafOfRank; ///< -1 where the member is not a known location
  bool IsSelf = false;             ///< MPI_COMM_SELF-like: rank 0 is the caller
};

struct Definitions
{
  TraceInfo Info;

  std::vector<uint32_t> RegionType; ///< region index -> type id
  RefIndex RegionTypes;             ///< region reference -> type id

  RefIndex Metrics; ///< MetricClass and MetricInstance references
  /// metric index -> the variable type of each member, in record order.
  std::vector<std::vector<uint32_t>> MetricVariables;

  RefIndex Comms;
  std::vector<CommPeers> Peers; ///< comm index -> ranks

  uint32_t FirstInstantType = 0; ///< type id of RecordKind::ProgramBegin

  uint32_t InstantType(RecordKind kind) const
  {
    return this->FirstInstantType + uint32_t(std::size_t(kind) - FirstInstantKind);
  }
};

/// Reads and resolves the global definitions; throws TraceError when they
/// are missing, unreadable or inconsistent (no clock, no locations, cycles).
Definitions ReadDefinitions(const Archive& archive);

} // namespace macroscope::otf2

#endif
