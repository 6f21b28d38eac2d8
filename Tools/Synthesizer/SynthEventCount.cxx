// Exact event counts of a run, derived from the structure of the timing
// model without simulating it (see SynthSimulation.cxx for the sequences).
#include "MacroscopeSynthesizer.h"
#include "SynthSimulation.h"

#include <stdexcept>

namespace macroscope::synth
{

namespace
{
void Add(EventCounts& counts, EventKind kind, uint64_t value)
{
  counts[static_cast<std::size_t>(kind)] += value;
}
} // namespace

EventCounts PredictEventCounts(const SynthConfig& config, uint64_t iterations)
{
  const Platform platform(config);
  const uint64_t ranks = platform.RankCount();
  const uint64_t locations = platform.LocationCount();
  const bool threaded = platform.GetThreadsPerRank() > 1;
  EventCounts counts{};

  // Prologue and epilogue on the masters: main, MPI_Init, two MPI_Barriers
  // and MPI_Finalize.
  Add(counts, EventKind::ProgramBegin, ranks);
  Add(counts, EventKind::ProgramEnd, ranks);
  uint64_t enters = 5 * ranks;
  uint64_t collectives = 2 * ranks;

  // One iteration.
  EventCounts step{};
  uint64_t stepEnters = ranks; // "iteration"
  if (threaded)
  {
    stepEnters += 3 * locations; // parallel, compute, implicit barrier
    Add(step, EventKind::ThreadFork, ranks);
    Add(step, EventKind::ThreadJoin, ranks);
  }
  else
  {
    stepEnters += ranks; // compute
  }
  Add(step, EventKind::Metric, 2 * locations);
  uint64_t stepCollectives = 0;
  switch (config.CommunicationPattern)
  {
    case Pattern::Ring:
    case Pattern::Stencil3D:
    {
      const Neighbourhood neighbours(config.CommunicationPattern, platform.RankCount());
      uint64_t messages = 0;
      for (uint32_t rank = 0; rank < platform.RankCount(); ++rank)
      {
        messages += neighbours.NeighbourCount(rank);
      }
      stepEnters += 2 * ranks + 2 * messages; // exchange_halo, MPI_Waitall, MPI_Irecv, MPI_Isend
      Add(step, EventKind::MpiIrecvRequest, messages);
      Add(step, EventKind::MpiIsend, messages);
      Add(step, EventKind::MpiIsendComplete, messages);
      Add(step, EventKind::MpiIrecv, messages);
      break;
    }
    case Pattern::Tree:
    {
      const uint64_t edges = ranks - 1; // each carries one gather and one scatter message
      stepEnters += 2 * ranks + 4 * edges;
      Add(step, EventKind::MpiSend, 2 * edges);
      Add(step, EventKind::MpiRecv, 2 * edges);
      break;
    }
    case Pattern::Allreduce:
      stepEnters += 2 * ranks; // reduce_residual, MPI_Allreduce
      stepCollectives += ranks;
      break;
  }
  for (std::size_t kind = 0; kind < EventKindCount; ++kind)
  {
    counts[kind] += iterations * step[kind];
  }
  enters += iterations * stepEnters;
  collectives += iterations * stepCollectives;

  // Periodic residual checks of the point-to-point patterns.
  if (config.CommunicationPattern != Pattern::Allreduce)
  {
    const uint64_t checks = iterations / ModelCosts::ResidualInterval;
    enters += checks * 2 * ranks;
    collectives += checks * ranks;
  }

  Add(counts, EventKind::Enter, enters);
  Add(counts, EventKind::Leave, enters);
  Add(counts, EventKind::MpiCollectiveBegin, collectives);
  Add(counts, EventKind::MpiCollectiveEnd, collectives);
  return counts;
}

uint64_t ResolveIterations(const SynthConfig& config)
{
  if (!config.MinimumEvents)
  {
    return config.Iterations;
  }
  const uint64_t target = *config.MinimumEvents;
  // Counts grow monotonically with the iterations: bracket, then bisect.
  uint64_t low = 0;
  uint64_t high = 1;
  while (TotalOf(PredictEventCounts(config, high)) < target)
  {
    low = high;
    if (high > (uint64_t(1) << 40))
    {
      throw ConfigError("--events: the requested number of events is too large");
    }
    high *= 2;
  }
  while (high - low > 1)
  {
    const uint64_t middle = low + (high - low) / 2;
    if (TotalOf(PredictEventCounts(config, middle)) >= target)
    {
      high = middle;
    }
    else
    {
      low = middle;
    }
  }
  return high;
}

} // namespace macroscope::synth
