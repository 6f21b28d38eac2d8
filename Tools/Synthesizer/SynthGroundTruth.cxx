#include "SynthGroundTruth.h"

#include <algorithm>

namespace macroscope::synth
{

Perturbation::Perturbation(const PerturbationConfig& config, const Platform& platform)
  : Config(config)
  , RankAffected(platform.RankCount(), false)
{
  switch (config.Kind)
  {
    case PerturbationKind::SlowNode:
      this->AffectedRanks = platform.RanksOfNode(config.Target);
      break;
    case PerturbationKind::CongestedCluster:
      this->AffectedRanks = platform.RanksOfCluster(config.Target);
      break;
    case PerturbationKind::None:
      break;
  }
  for (uint32_t rank : this->AffectedRanks)
  {
    this->RankAffected[rank] = true;
  }
}

bool Perturbation::IsRankAffected(uint32_t rank) const
{
  return this->RankAffected[rank];
}

double Perturbation::ComputeEnd(uint32_t rank, double start, double work) const
{
  if (this->Config.Kind != PerturbationKind::SlowNode || !this->RankAffected[rank])
  {
    return start + work;
  }
  // Integrate the work over time: nominal speed outside the window,
  // 1 / Factor of it inside.
  double time = start;
  double remaining = work;
  if (time < this->Config.WindowBegin)
  {
    const double before = std::min(remaining, this->Config.WindowBegin - time);
    time += before;
    remaining -= before;
  }
  if (remaining > 0.0 && time < this->Config.WindowEnd)
  {
    const double capacity = (this->Config.WindowEnd - time) / this->Config.Factor;
    const double inside = std::min(remaining, capacity);
    time += inside * this->Config.Factor;
    remaining -= inside;
  }
  return time + remaining;
}

bool Perturbation::OverlapsWindow(double begin, double end) const
{
  return begin < this->Config.WindowEnd && end > this->Config.WindowBegin;
}

bool Perturbation::SlowsMessage(uint32_t sender, uint32_t receiver, double sendTime) const
{
  return this->Config.Kind == PerturbationKind::CongestedCluster &&
    (this->RankAffected[sender] || this->RankAffected[receiver]) &&
    sendTime >= this->Config.WindowBegin && sendTime < this->Config.WindowEnd;
}

GroundTruth DescribeGroundTruth(const SynthConfig& config, const Platform& platform)
{
  const PerturbationConfig& perturbation = config.Perturbation;
  GroundTruth truth;
  truth.Kind = perturbation.Kind;
  truth.CommunicationPattern = config.CommunicationPattern;
  if (perturbation.Kind == PerturbationKind::None)
  {
    truth.MessageCriterion = "none";
    return truth;
  }
  truth.Target = perturbation.Target;
  truth.WindowBegin = perturbation.WindowBegin;
  truth.WindowEnd = perturbation.WindowEnd;
  truth.Factor = perturbation.Factor;
  truth.AffectedRanks = Perturbation(perturbation, platform).GetAffectedRanks();

  if (perturbation.Kind == PerturbationKind::SlowNode)
  {
    truth.TargetName = Platform::NodeName(perturbation.Target);
    truth.AffectedNodes.push_back(truth.TargetName);
    // Every thread of the node's ranks computes slower.
    for (uint32_t rank : truth.AffectedRanks)
    {
      for (uint32_t thread = 0; thread < platform.GetThreadsPerRank(); ++thread)
      {
        truth.AffectedLocations.push_back(Platform::LocationId(rank, thread));
      }
    }
    truth.AffectedRegions = { "compute" };
    truth.MessageCriterion = "none";
  }
  else
  {
    truth.TargetName = Platform::ClusterName(perturbation.Target);
    truth.AffectedClusters.push_back(truth.TargetName);
    for (uint32_t node : platform.NodesOfCluster(perturbation.Target))
    {
      truth.AffectedNodes.push_back(Platform::NodeName(node));
    }
    // MPI calls happen on the master threads only.
    for (uint32_t rank : truth.AffectedRanks)
    {
      truth.AffectedLocations.push_back(Platform::LocationId(rank, 0));
    }
    // The regions in which a late message is waited for.
    if (config.CommunicationPattern == Pattern::Tree)
    {
      truth.AffectedRegions = { "MPI_Recv" };
    }
    else
    {
      truth.AffectedRegions = { "MPI_Waitall" };
    }
    truth.MessageCriterion = "point-to-point messages whose sender or receiver is one of the "
                             "affected ranks and whose send time lies in the window";
  }
  return truth;
}

} // namespace macroscope::synth
