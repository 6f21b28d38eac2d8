#include "SynthSimulation.h"

#include "SynthRandom.h"

#include <algorithm>
#include <cmath>

namespace macroscope::synth
{

namespace
{
// Purposes of random draws, so that independent quantities never share a stream.
enum RandomPurpose : uint64_t
{
  StartupDraw = 1,
  InitExitDraw,
  BiasDraw,
  NoiseDraw
};

/// Rounds of a recursive-doubling collective over `ranks` ranks.
uint32_t CollectiveRounds(uint32_t ranks)
{
  uint32_t rounds = 0;
  while ((uint64_t(1) << rounds) < ranks)
  {
    ++rounds;
  }
  return rounds;
}

enum TreeTag : uint32_t
{
  GatherTag = 100,
  ScatterTag = 101
};
} // namespace

Neighbourhood::Neighbourhood(Pattern pattern, uint32_t ranks)
{
  if (pattern == Pattern::Ring)
  {
    // Slot 0: left neighbour, slot 1: right neighbour, periodic.
    this->Slots = 2;
    this->Peers.assign(uint64_t(ranks) * 2, -1);
    if (ranks > 1)
    {
      for (uint32_t rank = 0; rank < ranks; ++rank)
      {
        this->Peers[uint64_t(rank) * 2 + 0] = (rank + ranks - 1) % ranks;
        this->Peers[uint64_t(rank) * 2 + 1] = (rank + 1) % ranks;
      }
    }
  }
  else if (pattern == Pattern::Stencil3D)
  {
    // Slots -x, +x, -y, +y, -z, +z on a non-periodic grid; x varies fastest.
    this->Slots = 6;
    this->Peers.assign(uint64_t(ranks) * 6, -1);
    const GridShape grid = FactorGrid(ranks);
    const uint32_t extent[3] = { grid.X, grid.Y, grid.Z };
    const int64_t stride[3] = { 1, int64_t(grid.X), int64_t(grid.X) * grid.Y };
    for (uint32_t rank = 0; rank < ranks; ++rank)
    {
      const uint32_t coordinate[3] = { rank % grid.X, (rank / grid.X) % grid.Y,
        rank / (grid.X * grid.Y) };
      for (int axis = 0; axis < 3; ++axis)
      {
        if (coordinate[axis] > 0)
        {
          this->Peers[uint64_t(rank) * 6 + 2 * axis] = int64_t(rank) - stride[axis];
        }
        if (coordinate[axis] + 1 < extent[axis])
        {
          this->Peers[uint64_t(rank) * 6 + 2 * axis + 1] = int64_t(rank) + stride[axis];
        }
      }
    }
  }
}

uint32_t Neighbourhood::NeighbourCount(uint32_t rank) const
{
  uint32_t count = 0;
  for (uint32_t slot = 0; slot < this->Slots; ++slot)
  {
    count += this->Peer(rank, slot) >= 0 ? 1 : 0;
  }
  return count;
}

Simulation::Simulation(const SynthConfig& config, const Platform& platform,
  const Perturbation& perturbation, TraceWriter& writer)
  : Config(config)
  , Machine(platform)
  , Anomaly(perturbation)
  , Writer(writer)
  , Neighbours(config.CommunicationPattern, platform.RankCount())
  , Clock(platform.RankCount(), 0.0)
  , Instructions(platform.LocationCount(), 0)
  , LocationBias(platform.LocationCount(), 0.0)
  , NextRequest(platform.RankCount(), 0)
{
  for (uint32_t rank = 0; rank < platform.RankCount(); ++rank)
  {
    for (uint32_t thread = 0; thread < platform.GetThreadsPerRank(); ++thread)
    {
      this->LocationBias[platform.LocationIndex(rank, thread)] =
        Symmetric(config.Seed, BiasDraw, rank, thread);
    }
  }
  const uint64_t slots = std::max<uint32_t>(this->Neighbours.GetSlots(), 1);
  this->SendTime.assign(uint64_t(platform.RankCount()) * slots, 0.0);
  this->SendRequest.assign(uint64_t(platform.RankCount()) * slots, 0);
  this->RecvRequest.assign(uint64_t(platform.RankCount()) * slots, 0);
}

void Simulation::RunPrologue()
{
  // Processes start with some skew; MPI_Init synchronises them loosely.
  double lastStart = 0.0;
  for (uint32_t rank = 0; rank < this->Machine.RankCount(); ++rank)
  {
    const double start = ModelCosts::StartupSkew * Uniform(this->Config.Seed, StartupDraw, rank);
    const uint64_t location = this->Master(rank);
    this->Writer.ProgramBegin(location, start);
    this->Writer.Enter(location, start, Region::Main);
    this->Writer.Enter(location, start, Region::MpiInit);
    this->Clock[rank] = start;
    lastStart = std::max(lastStart, start);
  }
  for (uint32_t rank = 0; rank < this->Machine.RankCount(); ++rank)
  {
    const double exit = lastStart + ModelCosts::InitDuration +
      ModelCosts::InitJitter * Uniform(this->Config.Seed, InitExitDraw, rank);
    this->Writer.Leave(this->Master(rank), exit, Region::MpiInit);
    this->Clock[rank] = exit;
  }
  this->RunCollective(Region::MpiBarrier, Collective::Barrier, 0);
}

void Simulation::RunIteration(uint64_t iteration)
{
  for (uint32_t rank = 0; rank < this->Machine.RankCount(); ++rank)
  {
    this->Writer.Enter(this->Master(rank), this->Clock[rank], Region::Iteration);
  }
  this->Compute(iteration);
  switch (this->Config.CommunicationPattern)
  {
    case Pattern::Ring:
    case Pattern::Stencil3D:
      this->ExchangeHalo();
      break;
    case Pattern::Tree:
      this->TreeGather();
      this->TreeScatter();
      break;
    case Pattern::Allreduce:
      this->ReduceResidual(this->Config.MessageBytes);
      break;
  }
  if (this->Config.CommunicationPattern != Pattern::Allreduce &&
    (iteration + 1) % ModelCosts::ResidualInterval == 0)
  {
    this->ReduceResidual(ModelCosts::ResidualBytes);
  }
  for (uint32_t rank = 0; rank < this->Machine.RankCount(); ++rank)
  {
    this->Writer.Leave(this->Master(rank), this->Clock[rank], Region::Iteration);
  }
}

void Simulation::RunEpilogue()
{
  this->RunCollective(Region::MpiBarrier, Collective::Barrier, 0);
  for (uint32_t rank = 0; rank < this->Machine.RankCount(); ++rank)
  {
    const uint64_t location = this->Master(rank);
    const double begin = this->Clock[rank];
    const double end = begin + ModelCosts::FinalizeDuration;
    this->Writer.Enter(location, begin, Region::MpiFinalize);
    this->Writer.Leave(location, end, Region::MpiFinalize);
    this->Writer.Leave(location, end, Region::Main);
    this->Writer.ProgramEnd(location, end);
    this->Clock[rank] = end;
  }
}

double Simulation::ComputeWork(uint32_t rank, uint32_t thread, uint64_t iteration) const
{
  const double bias = this->LocationBias[this->Machine.LocationIndex(rank, thread)];
  const double noise = Symmetric(this->Config.Seed, NoiseDraw, rank, thread, iteration);
  return this->Config.ComputeTime * (1.0 + this->Config.Imbalance * bias) *
    (1.0 + ModelCosts::ComputeNoise * noise);
}

void Simulation::ComputeState(
  uint32_t rank, uint32_t thread, double begin, double work, double& end)
{
  // Score-P samples the counters at every enter and leave of the region.
  const uint64_t location = this->Machine.LocationIndex(rank, thread);
  end = this->Anomaly.ComputeEnd(rank, begin, work);
  this->Writer.Metric(location, begin, this->Instructions[location]);
  this->Writer.Enter(location, begin, Region::Compute);
  // The work is a fixed number of instructions; a slow node retires them
  // over a longer time, i.e. at a lower rate.
  this->Instructions[location] += uint64_t(std::llround(work * ModelCosts::InstructionsPerSecond));
  this->Writer.Metric(location, end, this->Instructions[location]);
  this->Writer.Leave(location, end, Region::Compute);
  if (this->Anomaly.Kind() == PerturbationKind::SlowNode && this->Anomaly.IsRankAffected(rank) &&
    this->Anomaly.OverlapsWindow(begin, end))
  {
    ++this->AffectedComputeStates;
  }
}

void Simulation::Compute(uint64_t iteration)
{
  const uint32_t threads = this->Machine.GetThreadsPerRank();
  for (uint32_t rank = 0; rank < this->Machine.RankCount(); ++rank)
  {
    const double begin = this->Clock[rank];
    if (threads == 1)
    {
      double end = 0.0;
      this->ComputeState(rank, 0, begin, this->ComputeWork(rank, 0, iteration), end);
      this->Clock[rank] = end;
      continue;
    }
    // Fork-join: every thread computes its share, then waits in the
    // implicit barrier for the slowest one.
    const uint64_t masterLocation = this->Master(rank);
    this->Writer.ThreadFork(masterLocation, begin, threads);
    double slowest = begin;
    for (uint32_t thread = 0; thread < threads; ++thread)
    {
      const uint64_t location = this->Machine.LocationIndex(rank, thread);
      const double start = thread == 0 ? begin : begin + ModelCosts::ForkLatency;
      double end = 0.0;
      this->Writer.Enter(location, start, Region::OmpParallel);
      this->ComputeState(rank, thread, start, this->ComputeWork(rank, thread, iteration), end);
      this->Writer.Enter(location, end, Region::OmpImplicitBarrier);
      slowest = std::max(slowest, end);
    }
    const double release = slowest + ModelCosts::OmpBarrier;
    for (uint32_t thread = 0; thread < threads; ++thread)
    {
      const uint64_t location = this->Machine.LocationIndex(rank, thread);
      this->Writer.Leave(location, release, Region::OmpImplicitBarrier);
      this->Writer.Leave(location, release, Region::OmpParallel);
    }
    this->Writer.ThreadJoin(masterLocation, release);
    this->Clock[rank] = release;
  }
}

double Simulation::TransferTime(uint32_t sender, uint32_t receiver, double sendTime)
{
  const double nominal =
    this->Config.Latency + double(this->Config.MessageBytes) / this->Config.Bandwidth;
  if (this->Anomaly.SlowsMessage(sender, receiver, sendTime))
  {
    ++this->AffectedMessages;
    return nominal * this->Anomaly.Factor();
  }
  return nominal;
}

void Simulation::ExchangeHalo()
{
  const uint32_t slots = this->Neighbours.GetSlots();
  const uint64_t bytes = this->Config.MessageBytes;
  // Pass 1: every rank posts its receives and sends; send times are then
  // known for all ranks.
  for (uint32_t rank = 0; rank < this->Machine.RankCount(); ++rank)
  {
    const uint64_t location = this->Master(rank);
    double time = this->Clock[rank];
    this->Writer.Enter(location, time, Region::ExchangeHalo);
    for (uint32_t slot = 0; slot < slots; ++slot)
    {
      if (this->Neighbours.Peer(rank, slot) < 0)
      {
        continue;
      }
      const uint64_t request = this->NextRequest[rank]++;
      this->RecvRequest[uint64_t(rank) * slots + slot] = request;
      this->Writer.Enter(location, time, Region::MpiIrecv);
      this->Writer.MpiIrecvRequest(location, time, request);
      time += ModelCosts::MpiCall;
      this->Writer.Leave(location, time, Region::MpiIrecv);
    }
    for (uint32_t slot = 0; slot < slots; ++slot)
    {
      const int64_t peer = this->Neighbours.Peer(rank, slot);
      if (peer < 0)
      {
        continue;
      }
      const uint64_t request = this->NextRequest[rank]++;
      this->SendRequest[uint64_t(rank) * slots + slot] = request;
      this->SendTime[uint64_t(rank) * slots + slot] = time;
      this->Writer.Enter(location, time, Region::MpiIsend);
      this->Writer.MpiIsend(location, time, uint32_t(peer), slot, bytes, request);
      time += ModelCosts::MpiCall;
      this->Writer.Leave(location, time, Region::MpiIsend);
    }
    this->Writer.Enter(location, time, Region::MpiWaitall);
    this->Clock[rank] = time;
  }

  // Pass 2: MPI_Waitall completes each request when its data has left
  // (send) or arrived (receive), in the order of completion.
  struct Completion
  {
    double Time;
    bool IsReceive;
    uint32_t Slot;
    bool operator<(const Completion& other) const
    {
      if (this->Time != other.Time)
      {
        return this->Time < other.Time;
      }
      if (this->IsReceive != other.IsReceive)
      {
        return !this->IsReceive;
      }
      return this->Slot < other.Slot;
    }
  };
  std::vector<Completion> completions;
  completions.reserve(2 * slots);
  const double injection = double(bytes) / this->Config.Bandwidth;
  for (uint32_t rank = 0; rank < this->Machine.RankCount(); ++rank)
  {
    const uint64_t location = this->Master(rank);
    const double waitBegin = this->Clock[rank];
    completions.clear();
    for (uint32_t slot = 0; slot < slots; ++slot)
    {
      const int64_t peer = this->Neighbours.Peer(rank, slot);
      if (peer < 0)
      {
        continue;
      }
      const double sent = this->SendTime[uint64_t(peer) * slots + (slot ^ 1u)];
      const double arrival = sent + this->TransferTime(uint32_t(peer), rank, sent);
      completions.push_back({ std::max(waitBegin, arrival), true, slot });
      const double ownSend = this->SendTime[uint64_t(rank) * slots + slot];
      completions.push_back({ std::max(waitBegin, ownSend + injection), false, slot });
    }
    std::sort(completions.begin(), completions.end());
    double time = waitBegin;
    for (const Completion& completion : completions)
    {
      time = completion.Time;
      const uint64_t index = uint64_t(rank) * slots + completion.Slot;
      if (completion.IsReceive)
      {
        const uint32_t peer = uint32_t(this->Neighbours.Peer(rank, completion.Slot));
        this->Writer.MpiIrecv(
          location, time, peer, completion.Slot ^ 1u, bytes, this->RecvRequest[index]);
      }
      else
      {
        this->Writer.MpiIsendComplete(location, time, this->SendRequest[index]);
      }
    }
    time += ModelCosts::MpiCall;
    this->Writer.Leave(location, time, Region::MpiWaitall);
    this->Writer.Leave(location, time, Region::ExchangeHalo);
    this->Clock[rank] = time;
  }
}

void Simulation::TreeGather()
{
  // Children (2r+1, 2r+2) have larger ranks, so descending order sees every
  // child's send before its parent receives it. SendTime[r]: r's send up.
  const uint32_t ranks = this->Machine.RankCount();
  const uint64_t bytes = this->Config.MessageBytes;
  const double injection = double(bytes) / this->Config.Bandwidth;
  for (uint32_t rank = ranks; rank-- > 0;)
  {
    const uint64_t location = this->Master(rank);
    double time = this->Clock[rank];
    this->Writer.Enter(location, time, Region::TreeGather);
    for (uint64_t child = 2 * uint64_t(rank) + 1; child <= 2 * uint64_t(rank) + 2 && child < ranks;
         ++child)
    {
      const double sent = this->SendTime[child];
      const double arrival = sent + this->TransferTime(uint32_t(child), rank, sent);
      this->Writer.Enter(location, time, Region::MpiRecv);
      time = std::max(time + ModelCosts::MpiCall, arrival);
      this->Writer.MpiRecv(location, time, uint32_t(child), GatherTag, bytes);
      this->Writer.Leave(location, time, Region::MpiRecv);
    }
    if (rank > 0)
    {
      this->Writer.Enter(location, time, Region::MpiSend);
      this->Writer.MpiSend(location, time, (rank - 1) / 2, GatherTag, bytes);
      this->SendTime[rank] = time;
      time += ModelCosts::MpiCall + injection;
      this->Writer.Leave(location, time, Region::MpiSend);
    }
    this->Writer.Leave(location, time, Region::TreeGather);
    this->Clock[rank] = time;
  }
}

void Simulation::TreeScatter()
{
  // Ascending order: a parent sends before its children receive.
  // SendTime[c]: the parent's send to child c.
  const uint32_t ranks = this->Machine.RankCount();
  const uint64_t bytes = this->Config.MessageBytes;
  const double injection = double(bytes) / this->Config.Bandwidth;
  for (uint32_t rank = 0; rank < ranks; ++rank)
  {
    const uint64_t location = this->Master(rank);
    double time = this->Clock[rank];
    this->Writer.Enter(location, time, Region::TreeScatter);
    if (rank > 0)
    {
      const uint32_t parent = (rank - 1) / 2;
      const double sent = this->SendTime[rank];
      const double arrival = sent + this->TransferTime(parent, rank, sent);
      this->Writer.Enter(location, time, Region::MpiRecv);
      time = std::max(time + ModelCosts::MpiCall, arrival);
      this->Writer.MpiRecv(location, time, parent, ScatterTag, bytes);
      this->Writer.Leave(location, time, Region::MpiRecv);
    }
    for (uint64_t child = 2 * uint64_t(rank) + 1; child <= 2 * uint64_t(rank) + 2 && child < ranks;
         ++child)
    {
      this->Writer.Enter(location, time, Region::MpiSend);
      this->Writer.MpiSend(location, time, uint32_t(child), ScatterTag, bytes);
      this->SendTime[child] = time;
      time += ModelCosts::MpiCall + injection;
      this->Writer.Leave(location, time, Region::MpiSend);
    }
    this->Writer.Leave(location, time, Region::TreeScatter);
    this->Clock[rank] = time;
  }
}

void Simulation::RunCollective(Region region, Collective operation, uint64_t bytes)
{
  // Nobody leaves before the last rank has entered; then recursive doubling
  // costs two rounds of messages per tree level (reduce-scatter + allgather).
  double lastEntry = 0.0;
  for (uint32_t rank = 0; rank < this->Machine.RankCount(); ++rank)
  {
    const uint64_t location = this->Master(rank);
    this->Writer.Enter(location, this->Clock[rank], region);
    this->Writer.MpiCollectiveBegin(location, this->Clock[rank]);
    lastEntry = std::max(lastEntry, this->Clock[rank]);
  }
  const double cost = ModelCosts::MpiCall +
    2.0 * CollectiveRounds(this->Machine.RankCount()) *
      (this->Config.Latency + double(bytes) / this->Config.Bandwidth);
  const double exit = lastEntry + cost;
  for (uint32_t rank = 0; rank < this->Machine.RankCount(); ++rank)
  {
    const uint64_t location = this->Master(rank);
    this->Writer.MpiCollectiveEnd(location, exit, operation, bytes);
    this->Writer.Leave(location, exit, region);
    this->Clock[rank] = exit;
  }
}

void Simulation::ReduceResidual(uint64_t bytes)
{
  for (uint32_t rank = 0; rank < this->Machine.RankCount(); ++rank)
  {
    this->Writer.Enter(this->Master(rank), this->Clock[rank], Region::ReduceResidual);
  }
  this->RunCollective(Region::MpiAllreduce, Collective::Allreduce, bytes);
  for (uint32_t rank = 0; rank < this->Machine.RankCount(); ++rank)
  {
    this->Writer.Leave(this->Master(rank), this->Clock[rank], Region::ReduceResidual);
  }
}

} // namespace macroscope::synth
