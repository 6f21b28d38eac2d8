// The base of Triva's 3D topology-time scene (Schnorr 2009 (Triva), sections 3.5 and
// 5.4.2): where each process stands on the horizontal plane. Two of the
// three base configurations live here: the application's communication
// pattern laid out as a force-directed graph (case 1), and the network
// topology read from a GraphViz DOT file with the processes placed on their
// hosts (case 2). The third, the hierarchy's treemap, is ResourceTreemap.h.
//
// Positions are normalised into the unit square [0,1]² (uniform scale, so
// the layout keeps its aspect, centred), which the scene then scales.
#pragma once

#include "Treemap.h"

#include <cstdint>
#include <string>
#include <vector>

namespace macroscope
{

/// One message of the trace, between processes given as indices into the
/// process list of BuildCommunicationGraph.
struct TopologyMessage
{
  int64_t Sender = 0;
  int64_t Receiver = 0;
  double Bytes = 0.0;
  double SendTime = 0.0;
  double RecvTime = 0.0;
};

/// Case 1: the undirected communication graph of a time window, laid out.
struct CommunicationGraph
{
  std::vector<double> X, Y;            ///< per process, in [0,1]
  std::vector<int64_t> Source, Target; ///< per edge, process indices, Source < Target
  std::vector<double> Traffic;         ///< per edge, bytes summed over both directions
  std::vector<double> Width;           ///< per edge, Traffic / largest Traffic (0 if all are 0)
  std::vector<int64_t> Messages;       ///< per edge, the number of messages

  std::size_t Edges() const { return this->Source.size(); }
};

/// The communication graph of `processes` processes for the messages whose
/// flight [min(send, recv), max(send, recv)] overlaps the window [t0, t1):
/// it starts before t1 and ends at or after t0. Messages of a process to
/// itself draw no edge. The layout is Boost's Fruchterman-Reingold, started
/// from a circle so that it is deterministic; every process is placed,
/// isolated ones too. Throws std::invalid_argument unless t0 < t1 are finite,
/// or for a message with an unknown process, a non-finite time or negative
/// or non-finite bytes.
CommunicationGraph BuildCommunicationGraph(
  std::size_t processes, const std::vector<TopologyMessage>& messages, double t0, double t1);

/// The edges of BuildCommunicationGraph alone (Source, Target, Traffic,
/// Messages; no widths, no layout): what each rank counts from its own
/// messages before the parts are merged. Same window rule and errors.
CommunicationGraph CommunicationEdges(
  std::size_t processes, const std::vector<TopologyMessage>& messages, double t0, double t1);

/// Merges edge lists pair by pair (traffic and message counts add up), sets
/// the widths and lays the graph out as BuildCommunicationGraph does, so
/// that ranks holding different messages reach the same drawing. Throws
/// std::invalid_argument for an edge naming an unknown process, a negative
/// or non-finite traffic, or arrays of different sizes. Without `layout`,
/// X and Y stay empty (a base that places the processes otherwise).
CommunicationGraph LayoutCommunicationGraph(
  std::size_t processes, const std::vector<CommunicationGraph>& parts, bool layout = true);

/// Case 2: a network topology described in GraphViz DOT.
struct NetworkTopology
{
  bool Directed = false;               ///< "digraph" rather than "graph"
  std::vector<std::string> Names;      ///< node ids, sorted (Boost's parser orders them)
  std::vector<std::string> Kinds;      ///< "kind" attribute, else "type", else ""
  std::vector<double> X, Y;            ///< per node, in [0,1]
  std::vector<int64_t> Source, Target; ///< per link, node indices
  std::vector<double> Bandwidth;       ///< per link, NaN when absent
  std::vector<double> Latency;         ///< per link, NaN when absent

  std::size_t Nodes() const { return this->Names.size(); }
  std::size_t Links() const { return this->Source.size(); }
};

/// Parses a DOT graph or digraph with boost::read_graphviz. The positions
/// are the nodes' "pos" attributes ("x,y", GraphViz's optional "!" allowed)
/// when every node has one, else a Fruchterman-Reingold layout started from
/// a circle. "bandwidth" and "latency" must be plain numbers. Throws
/// std::invalid_argument saying what is wrong for malformed DOT, an empty
/// graph, a bad number or position, or "pos" on only some nodes.
NetworkTopology ParseNetworkTopology(const std::string& dot);

/// The topology node of each process. `paths[p]` names the hierarchy nodes
/// from the root down to process p (the process itself last); the process
/// is placed on the topology node named like the nearest of them, itself
/// first. Throws std::invalid_argument naming the process and the names
/// tried when none matches.
std::vector<int64_t> PlaceProcesses(
  const std::vector<std::vector<std::string>>& paths, const NetworkTopology& topology);

/// Where each process stands relative to its host when several share one
/// (Schnorr 2009 (Triva) §5.4.2: the containers inside a node of the topology): the
/// processes of a host on a near-square grid of `spacing`, centred on the
/// host, in process order. Returns (dx, dy) pairs, flattened. Throws
/// std::invalid_argument for a negative or non-finite spacing.
std::vector<double> ProcessOffsets(const std::vector<int64_t>& host, double spacing);

/// Case 3: the hierarchy's squarified treemap over the unit square.
struct TreemapBase
{
  TreemapLayout Layout;     ///< a rectangle per hierarchy node
  std::vector<double> X, Y; ///< per process: the centre of its rectangle
};

/// Lays the hierarchy given by `parent` out as a squarified treemap of the
/// unit square (Triva's third base, Schnorr 2009 (Triva) §3.5.3 and §5.4.2): process p
/// is the leaf `processNode[p]` with area `processSize[p]`, inner nodes keep
/// `margin` free on each side, so every process stands inside its
/// machine's rectangle. Throws std::invalid_argument for a process that is
/// not a distinct leaf, or what LayoutTree rejects.
TreemapBase LayoutTreemapBase(const std::vector<int64_t>& parent,
  const std::vector<int64_t>& processNode, const std::vector<double>& processSize, double margin);

/// The labels of points (x[i], y[i]) of the base (unit square) to draw so
/// that none overlaps another: taken in order of `priority` (highest
/// first, ties by index), a label is kept when every label kept before lies
/// at least `width` away along x or `height` along y (a label is a box of
/// that size). Returns the kept indices, increasing. Throws
/// std::invalid_argument for columns of different lengths or a negative box.
std::vector<std::size_t> SpreadLabels(const std::vector<double>& x, const std::vector<double>& y,
  const std::vector<double>& priority, double width, double height);

}
