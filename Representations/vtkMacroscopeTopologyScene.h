/**
 * @class vtkMacroscopeTopologyScene
 * @brief Triva's 3D topology-time scene of a trace as polydata (Schnorr
 * 2009 (Triva), ch. 3 and §5.4): a base in the horizontal plane placing every
 * process, time rising along z above it.
 *
 * Takes a trace reader's States and Hierarchy (plus, optionally, Messages
 * and Types) on one repeatable input. The base (BaseConfiguration) is
 * - COMMUNICATION_PATTERN: the processes linked by the messages of the time
 *   window, laid out by Boost.Graph's Fruchterman-Reingold, each edge as
 *   wide as its traffic (Schnorr 2009 (Triva) §3.5.1);
 * - NETWORK_TOPOLOGY: the GraphViz DOT graph of TopologyFile (read with
 *   boost::read_graphviz; "bandwidth" and "latency" link attributes are
 *   kept, "pos" honoured), each process placed on the host named like it or
 *   its nearest ancestor in the Hierarchy, processes sharing a host on a
 *   small grid, the communication pattern drawn over the links (§3.5.2);
 * - HIERARCHY_TREEMAP: the Hierarchy's squarified treemap, each process at
 *   the centre of its own rectangle inside its machine's (§3.5.3), sized by
 *   TreemapSize.
 * The base spans the unit square [0,1]² at z <= 0.
 *
 * Outputs:
 * - 0 States: a box per state drawn in the window, clipped to it, its
 *   square footprint of BoxSize centred on its process, from z(start) to
 *   z(end) with z(t) = Offset + Scale (t - window start). Cell arrays Color,
 *   Type, Location, Start, End, Duration and vtkOriginalCellIds (the States
 *   row: what a pick selects); field data TypeNames (by Type).
 * - 1 Messages: a line per message whose flight overlaps the window, from
 *   (sender, z(send)) to (receiver, z(recv)), clipped at the window's
 *   edges along the line; cell arrays Sender, Receiver, SendTime, RecvTime,
 *   Bytes, Clipped and vtkOriginalCellIds (the Messages row).
 * - 2 Base: the ground, the topology's nodes and links or the treemap's
 *   rectangles, the traffic edges and each process's footprint; cell
 *   arrays Color, Kind, Name, Traffic (a treemap rectangle's: its size),
 *   MessageCount, Bandwidth, Latency.
 * - 3 Guides: the time axis with its ticks and the outline of the window's
 *   start and end planes.
 * - 4 Labels: points with Label and LabelKind (tick times, the axis title,
 *   node names) for the chart representations' text.
 *
 * Resources and Types (the linked views' selection) keep the boxes and
 * messages of the selected processes and types; unknown names are errors.
 *
 * Under MPI each rank draws the boxes and messages of its own piece; the
 * communication graph is merged over the ranks so that all lay out the same
 * base, which rank 0 draws with the guides and labels.
 */
#ifndef vtkMacroscopeTopologyScene_h
#define vtkMacroscopeTopologyScene_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkPolyDataAlgorithm.h"

#include <functional> // for std::function
#include <string>     // for std::string
#include <vector>     // for std::vector

class vtkMultiProcessController;
#ifndef __VTK_WRAP__
namespace MacroscopeChart
{
struct Labels;
}
#endif

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeTopologyScene : public vtkPolyDataAlgorithm
{
public:
  static vtkMacroscopeTopologyScene* New();
  vtkTypeMacro(vtkMacroscopeTopologyScene, vtkPolyDataAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum OutputPorts
  {
    STATES = 0,
    MESSAGES = 1,
    BASE = 2,
    GUIDES = 3,
    LABELS = 4,
    NUMBER_OF_OUTPUTS = 5
  };

  enum BaseConfigurations
  {
    COMMUNICATION_PATTERN = 0,
    NETWORK_TOPOLOGY = 1,
    HIERARCHY_TREEMAP = 2
  };

  enum TreemapSizes
  {
    PROCESS_COUNT = 0, ///< every process the same area
    STATE_TIME = 1     ///< a process's area is its states' time in the window
  };

  ///@{
  /**
   * The base configuration (default COMMUNICATION_PATTERN).
   */
  vtkSetMacro(BaseConfiguration, int);
  vtkGetMacro(BaseConfiguration, int);
  ///@}

  ///@{
  /**
   * The GraphViz DOT file of the network topology (NETWORK_TOPOLOGY only).
   */
  vtkSetStdStringFromCharMacro(TopologyFile);
  vtkGetCharFromStdStringMacro(TopologyFile);
  ///@}

  ///@{
  /**
   * Start and end of the window drawn, in seconds since the trace start; an
   * end of 0 means the trace's end (default (0, 0): the whole trace). The
   * communication pattern is that of the window's messages.
   */
  vtkSetVector2Macro(TimeWindow, double);
  vtkGetVector2Macro(TimeWindow, double);
  ///@}

  ///@{
  /**
   * The resource selection of the linked views, named as Time Slicing's
   * Resources: only the boxes, messages, communication edges and footprints
   * of the processes below these hierarchy vertices are drawn. The base is
   * laid out from every process, so processes keep their place whatever
   * the selection. Empty (default): every process.
   */
  void AddResource(const char* name);
  void RemoveAllResources();
  ///@}

  ///@{
  /**
   * The type selection of the linked views: names of the Types whose state
   * boxes are drawn. The boxes are chosen by Depth first, then filtered, so
   * a hidden state leaves a gap rather than showing its caller (a state's
   * box does not depend on the selection). Empty (default): every type.
   */
  void AddType(const char* name);
  void RemoveAllTypes();
  ///@}

  ///@{
  /**
   * Height per second of trace time; 0 (default) fits the window into a
   * height of 1.5, one and a half times the base's side.
   */
  vtkSetMacro(Scale, double);
  vtkGetMacro(Scale, double);
  ///@}

  ///@{
  /**
   * Height of the window's start above the base (default 0.05).
   */
  vtkSetMacro(Offset, double);
  vtkGetMacro(Offset, double);
  ///@}

  ///@{
  /**
   * Side of a state box's square footprint; 0 (default) takes 0.6 times
   * the distance between the two closest processes (at most 0.08).
   */
  vtkSetMacro(BoxSize, double);
  vtkGetMacro(BoxSize, double);
  ///@}

  ///@{
  /**
   * Call depth drawn: -1 (default) shows at each moment the innermost state
   * of each process, so boxes never overlap; d shows the states of depth d.
   */
  vtkSetMacro(Depth, int);
  vtkGetMacro(Depth, int);
  ///@}

  ///@{
  /**
   * About how many ticks the time axis gets (default 6).
   */
  vtkSetMacro(Ticks, int);
  vtkGetMacro(Ticks, int);
  ///@}

  ///@{
  /**
   * Draw the messages (default on).
   */
  vtkSetMacro(ShowMessages, bool);
  vtkGetMacro(ShowMessages, bool);
  ///@}

  ///@{
  /**
   * Draw the communication pattern's edges over a topology or treemap base
   * (default on; the communication-pattern base always draws them).
   */
  vtkSetMacro(ShowCommunicationGraph, bool);
  vtkGetMacro(ShowCommunicationGraph, bool);
  ///@}

  ///@{
  /**
   * Width of the busiest communication edge; the others are as wide as
   * their share of its traffic. 0 (default) takes half a box's side.
   */
  vtkSetMacro(MaxEdgeWidth, double);
  vtkGetMacro(MaxEdgeWidth, double);
  ///@}

  ///@{
  /**
   * What the treemap base's areas measure (default PROCESS_COUNT).
   */
  vtkSetMacro(TreemapSize, int);
  vtkGetMacro(TreemapSize, int);
  ///@}

  /**
   * The region the scene occupies after an update (the base, the axis and
   * the window's height), the same on every rank.
   */
  void GetSceneBounds(double bounds[6]) const;

  ///@{
  /**
   * The controller over which the communication pattern is merged (default:
   * the global controller).
   */
  virtual void SetController(vtkMultiProcessController*);
  vtkGetObjectMacro(Controller, vtkMultiProcessController);
  ///@}

  ///@{
  /**
   * Colours chosen for some type names, replacing the colour their data
   * carries, as pairs: name, "#rrggbb", name, "#rrggbb"... (docs/colours.md).
   * Empty (the default) keeps the data's colours; a malformed list is an
   * error naming the entry.
   */
  void ClearTypeColors();
  void AddTypeColor(const char* entry);
  ///@}
#ifndef __VTK_WRAP__
  /// All the entries at once; marks the layout modified only if they change.
  void SetTypeColors(const std::vector<std::string>& entries);
#endif

protected:
  vtkMacroscopeTopologyScene();
  ~vtkMacroscopeTopologyScene() override;

  int FillInputPortInformation(int port, vtkInformation* info) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

private:
  vtkMacroscopeTopologyScene(const vtkMacroscopeTopologyScene&) = delete;
  void operator=(const vtkMacroscopeTopologyScene&) = delete;

  int BaseConfiguration = COMMUNICATION_PATTERN;
  std::string TopologyFile;
  double TimeWindow[2] = { 0.0, 0.0 };
  double Scale = 0.0;
  double Offset = 0.05;
  double BoxSize = 0.0;
  int Depth = -1;
  int Ticks = 6;
  bool ShowMessages = true;
  bool ShowCommunicationGraph = true;
  double MaxEdgeWidth = 0.0;
  int TreemapSize = PROCESS_COUNT;
  std::vector<std::string> Resources;
  std::vector<std::string> Types;
  double SceneBounds[6] = { 0.0, 1.0, 0.0, 1.0, 0.0, 1.0 };
  vtkMultiProcessController* Controller = nullptr;
  std::vector<std::string> TypeColors; ///< see AddTypeColor

#ifndef __VTK_WRAP__
  // The stages of RequestData (what one stage hands the next is in Run).
  struct Run;
  std::function<bool(double)> Progress(double lo, double hi);
  int Aborted(Run& run);
  bool CheckProperties(Run& run);
  bool ReadInputs(vtkInformationVector* input, Run& run);
  bool ReadStates(Run& run);
  bool ReadMessages(Run& run);
  bool MergeRanks(Run& run);
  bool PlaceOnNetwork(Run& run);
  bool PlaceBase(Run& run);
  bool BuildScene(Run& run);
  bool EmitBoxes(Run& run, std::vector<double>& typeTime);
  bool EmitSegments(Run& run);
  void ShareTypeTimes(std::vector<double>& typeTime);
  void DrawBase(Run& run, MacroscopeChart::Labels& labels);
#endif
};

#endif
