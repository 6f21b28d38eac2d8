// What the topology-time scene draws on its base, before any VTK array is
// made (Schnorr 2009 (Triva), ch. 3 and §5.4; docs/topology-scene.md):
// processes sharing a host on a grid, the automatic box size, the selection
// of the states drawn, the treemap sizes by state time, the widths of the
// network links, the treemap rectangles drawn and named, and the process
// names that do not pile up on a communication pattern.
#pragma once

#include "TopologyBase.h"
#include "TopologyScene.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace macroscope
{

/// The distance between the two closest distinct points, or +inf.
double ClosestPairDistance(const std::vector<double>& x, const std::vector<double>& y);

/// The side of a state's box when the BoxSize property leaves it open:
/// 0.6 of the distance between the closest processes, at most 0.08.
double AutomaticBoxSize(const std::vector<double>& x, const std::vector<double>& y);

/// Processes on a network topology: each on its host (host[p], a node of
/// `topology`), those sharing a host on a grid that fills under half the
/// gap to the nearest other node (at most 0.25).
struct HostPlacement
{
  std::vector<double> X, Y; ///< per process
  double HostSide = 0.0;    ///< the side of a host's grid
};
HostPlacement PlaceOnHosts(const NetworkTopology& topology, const std::vector<int64_t>& host);

/// The time each of `processes` spends in the drawn states inside [t0, t1]
/// (a piece wholly outside the window adds nothing): the treemap's sizes
/// by state time.
std::vector<double> StateTimeOfProcesses(
  const std::vector<SceneState>& drawn, std::size_t processes, double t0, double t1);

/// Keeps the states of the processes `keepProcess` holds and of the types
/// `keepType` holds (an empty vector keeps all), and their rows alike.
void KeepSelectedStates(std::vector<SceneState>& drawn, std::vector<int64_t>& rows,
  const std::vector<bool>& keepProcess, const std::vector<bool>& keepType);

/// The width of every link of a network base: a thin line, widened by its
/// bandwidth up to half of `maxEdgeWidth` for the widest link.
std::vector<double> LinkWidths(const NetworkTopology& topology, double maxEdgeWidth);

/// A rectangle of the treemap base: a hierarchy node that is no process,
/// shaded by its depth, named unless it is the root or holds processes
/// (the names are the machines').
struct TreemapBaseCell
{
  std::size_t Node = 0;
  double Z = 0.0;
  uint8_t Shade = 0; ///< grey level; blue is Shade + 8 (at most 255)
  bool Named = false;
};
std::vector<TreemapBaseCell> TreemapBaseCells(const std::vector<int64_t>& parent,
  const std::vector<int64_t>& processNode, const TreemapLayout& layout);

/// The processes named on a communication pattern, most traffic first: the
/// selected ones (keepProcess, empty: all) whose names stay clear of the
/// busier ones' (boxes of 0.3 by 0.15 of the base, generous because the
/// base is seen tilted and in perspective).
std::vector<std::size_t> NamedProcesses(const std::vector<double>& x, const std::vector<double>& y,
  const std::vector<bool>& keepProcess, const CommunicationGraph& graph);

}
