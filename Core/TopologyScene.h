// The geometry of Triva's 3D topology-time scene (Schnorr 2009 (Triva), sections 3.1,
// 3.6 and 5.4.3): the base (TopologyBase.h) lies in the horizontal plane and
// time rises along z. States are boxes stacked above their process from
// their start to their end; messages are segments from (sender, send time)
// to (receiver, receive time); the time axis has labelled ticks. Pure
// geometry: the VTK adapter turns it into polydata.
#pragma once

#include "TimeAxis.h"

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace macroscope
{

/// How time maps to height: z = Offset + Scale × (t − WindowStart), so the
/// window's start sits at the height Offset above the base (Triva's offset:
/// the tick just above the base reads the window's start).
struct SceneTimeAxis
{
  double Offset = 0.0;
  double Scale = 1.0;
  double WindowStart = 0.0;

  double Z(double t) const { return this->Offset + this->Scale * (t - this->WindowStart); }
};

struct SceneOptions
{
  double WindowStart = 0.0;
  double WindowEnd = 1.0;
  double Offset = 0.0;
  double Scale = 1.0;    ///< height per second, > 0
  double BoxSize = 0.02; ///< side of a state box's square footprint, >= 0
  int Ticks = 5;         ///< about how many axis ticks, >= 1
};

struct SceneState
{
  int64_t Process = 0; ///< index into the base positions
  int Type = 0;
  double Start = 0.0, End = 0.0;
};

struct SceneMessage
{
  int64_t Sender = 0, Receiver = 0; ///< indices into the base positions
  double SendTime = 0.0, RecvTime = 0.0;
};

struct SceneBox
{
  int64_t State = 0; ///< index into the states
  int64_t Process = 0;
  int Type = 0;
  std::array<double, 6> Bounds{}; ///< xmin, xmax, ymin, ymax, zmin, zmax
};

struct SceneSegment
{
  int64_t Message = 0;                ///< index into the messages
  std::array<double, 3> From{}, To{}; ///< sender end, receiver end
  bool Clipped = false;               ///< an end was cut at the window's edge
};

struct SceneTick
{
  double Time = 0.0, Z = 0.0;
  std::string Label;
};

struct TopologySceneGeometry
{
  SceneTimeAxis Axis;
  std::vector<SceneBox> Boxes;
  std::vector<SceneSegment> Segments;
  std::vector<SceneTick> Ticks;
};

/// The scene of the window [WindowStart, WindowEnd) over the base positions
/// (x[p], y[p]). A state drawing a box overlaps the window for a positive
/// time; its box is clipped to the window. A message's flight (its two
/// times, in time order) counts when it starts before the window's end and
/// ends at or after its start; an end beyond the window is moved along the
/// segment to the window's edge (linear interpolation in time), so the
/// segment keeps its slope. Ticks come from ComputeTimeTicks. Throws
/// std::invalid_argument for a bad window, scale, box size or tick count,
/// mismatched x/y, a process out of range, a non-finite time or a state
/// ending before it starts. `report` (optional) hears the fraction done,
/// and an empty scene is returned once it returns false.
TopologySceneGeometry BuildTopologyScene(const std::vector<double>& x, const std::vector<double>& y,
  const std::vector<SceneState>& states, const std::vector<SceneMessage>& messages,
  const SceneOptions& options, const std::function<bool(double)>& report = {});

/// A state as the trace has it: its row, process, type, call depth and times.
struct TracedState
{
  int64_t Row = 0;
  int64_t Process = 0;
  int Type = 0;
  int Depth = 0;
  double Start = 0.0, End = 0.0;
};

/// The states a scene stacks above each process, with `rows[i]` the row of
/// the traced state that drawn state i shows. Depth d >= 0 keeps the states
/// of call depth d as they are. Depth -1 shows at each moment the innermost
/// state: a state's time minus its callees' (the exclusive time of Time
/// Slicing), so the boxes above a process never overlap and each is
/// coloured by what the process was doing then; a caller interrupted by k
/// callees gives up to k + 1 pieces. Nesting is read from the times (a
/// state ending after its caller is cut at the caller's end), so a trace
/// with gaps in its depths still stacks. Throws std::invalid_argument for a
/// depth below -1. `report` (optional) hears the fraction done, and nothing
/// is returned once it returns false.
std::vector<SceneState> DrawnStates(std::vector<TracedState> states, int depth,
  std::vector<int64_t>& rows, const std::function<bool(double)>& report = {});

}
