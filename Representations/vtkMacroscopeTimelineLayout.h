/**
 * @class vtkMacroscopeTimelineLayout
 * @brief The physical (Gantt) timeline of a trace as polydata, with honest
 * visual aggregation.
 *
 * Takes a trace reader's States and Hierarchy (plus, optionally, Messages
 * and Types) on one repeatable input and draws, for the time window
 * TimeWindow and a view of ViewSize pixels:
 *
 * - output 0, Marks: one rectangle per state wide enough to be seen, and
 *   one per aggregate of states narrower than MinMarkWidth pixels
 *   (Dosimont et al. 2014 (VPA) §II-C and §III-C, Dosimont et al. 2015
 *   (Ocelotl) §2). Aggregates are stacked by the time of each
 *   type they hold, or coloured by their mode type (AggregateStyle), and
 *   flagged in the "Aggregate" cell array; nothing is dropped. A cell's
 *   TypeTime is the seconds of its Type in the mark (Fraction: of the
 *   mark's time), so summing TypeTime by Type gives each type's time.
 * - output 1, Messages: one line per message, or per group of messages
 *   sharing a pixel column and pair of rows (flagged, drawn in red); when
 *   the window holds more lines than the view has pixel columns, a density
 *   strip above the chart instead (one quad per pixel column, darker with
 *   more messages sent there, flagged MESSAGE_DENSITY): lines never cover
 *   the states at full view, and come back when zoomed in.
 * - output 2, Hatching: the hatching of aggregates ("/" over merged states,
 *   "\" over merged rows).
 * - output 3, Guides: the chart frame, the time axis and its ticks, and the
 *   separators of the groups of GroupLevel (named at their top left corner).
 * - output 4, Labels: points with a "Label" string array (tick labels in
 *   seconds, row, group and legend names) and a "LabelKind" array.
 * - output 5, Legend: the categorical legend right of the chart, a swatch
 *   per type drawn (most time first) and the aggregate and message marks;
 *   its field data list the types (LegendName, LegendColor, LegendTime).
 *
 * Rows follow the hierarchy, one per location; when they do not fit in the
 * view at MinRowHeight pixels each, they are replaced by the deepest level
 * of the hierarchy that fits (Dosimont et al. 2014 (VPA) §III-C), and adjacent rows merge
 * into bands if even that does not fit. Coordinates are the pixels of the
 * ViewSize view: x from 0 to width along time, y from 0 (bottom) to height.
 * Every cell carries a "Color" array from the stable type palette, so the
 * output can be shown as it is (MapScalars off) or coloured by any array.
 * The rules are in docs/timeline.md.
 */
#ifndef vtkMacroscopeTimelineLayout_h
#define vtkMacroscopeTimelineLayout_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkPolyDataAlgorithm.h"

#include <string> // for std::string
#include <vector> // for std::vector

#include <memory> // for std::unique_ptr
#include <string> // for std::string
#include <vector> // for std::vector

class vtkMultiProcessController;
#ifndef __VTK_WRAP__
namespace macroscope
{
struct TimelineBandGeometry;
struct TimelineMarkDrawing;
}
namespace MacroscopeChart
{
struct Geometry;
struct Labels;
struct LegendEntry;
}
#endif

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeTimelineLayout : public vtkPolyDataAlgorithm
{
public:
  static vtkMacroscopeTimelineLayout* New();
  vtkTypeMacro(vtkMacroscopeTimelineLayout, vtkPolyDataAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum OutputPorts
  {
    MARKS = 0,
    MESSAGES = 1,
    HATCHING = 2,
    GUIDES = 3,
    LABELS = 4,
    LEGEND = 5
  };

  enum AggregateStyles
  {
    STACKED = 0, ///< an aggregate is split by the time of each type in it
    MODE = 1     ///< an aggregate takes the colour of its main type
  };

  /// Bits of the "Aggregate" cell array of Marks and Messages.
  enum AggregateFlags
  {
    TIME_AGGREGATE = 1,    ///< merges states narrower than MinMarkWidth
    ROW_AGGREGATE = 2,     ///< lies on a band of several locations
    MESSAGE_AGGREGATE = 4, ///< merges messages sharing a pixel column
    MESSAGE_DENSITY = 8    ///< a pixel column of the message density strip
  };

  /// Values of the "LabelKind" point array of the Labels output.
  enum LabelKinds
  {
    TICK_LABEL = 0,
    ROW_LABEL = 1,
    GROUP_LABEL = 2,
    AXIS_TITLE = 3,
    LEGEND_LABEL = 4
  };

  ///@{
  /**
   * Start and end, in seconds since the trace start, of the part drawn. An
   * end of 0 means the end of the trace; the default (0, 0) draws it all.
   */
  vtkSetVector2Macro(TimeWindow, double);
  vtkGetVector2Macro(TimeWindow, double);
  ///@}

  ///@{
  /**
   * The zoom across rows: the locations First..Last (0-based, top to bottom
   * among those the Resources selection keeps) get the whole plot, so that
   * fewer rows merge (docs/views.md). Last < First, the default (0, -1),
   * shows every location. The output's RowWindow field data gives the
   * window drawn and the number of locations it is taken from.
   */
  vtkSetVector2Macro(RowWindow, int);
  vtkGetVector2Macro(RowWindow, int);
  ///@}

  ///@{
  /**
   * Width and height, in pixels, of the view the budgets refer to (default
   * 1600 x 900); the chart is drawn in these units.
   */
  vtkSetVector2Macro(ViewSize, int);
  vtkGetVector2Macro(ViewSize, int);
  ///@}

  ///@{
  /**
   * Font size, in points, at which the labels are measured and placed so
   * that none overlap (default 12; the representation passes its
   * LabelFontSize). See docs/labels.md.
   */
  vtkSetClampMacro(LabelFontSize, int, 1, 512);
  vtkGetMacro(LabelFontSize, int);
  ///@}

  ///@{
  /**
   * Horizontal pixel budget (default 2): states narrower than this merge
   * into aggregates. 0 turns the aggregation off.
   */
  vtkSetMacro(MinMarkWidth, double);
  vtkGetMacro(MinMarkWidth, double);
  ///@}

  ///@{
  /**
   * Vertical pixel budget (default 3): rows thinner than this are replaced
   * by a coarser hierarchy level, or merged into bands. 0 keeps every row.
   */
  vtkSetMacro(MinRowHeight, double);
  vtkGetMacro(MinRowHeight, double);
  ///@}

  ///@{
  /**
   * Call depth drawn: -1 (default) every depth, nested; d >= 0 depth d only.
   */
  vtkSetMacro(Depth, int);
  vtkGetMacro(Depth, int);
  ///@}

  ///@{
  /**
   * Draw the messages (default on).
   */
  vtkSetMacro(ShowMessages, bool);
  vtkGetMacro(ShowMessages, bool);
  vtkBooleanMacro(ShowMessages, bool);
  ///@}

  ///@{
  /**
   * Messages sharing a send pixel column and a pair of rows stay separate
   * lines up to this many (default 1); more merge into one aggregated line.
   * 0 means no limit.
   */
  vtkSetMacro(MaxMessagesPerPixel, int);
  vtkGetMacro(MaxMessagesPerPixel, int);
  ///@}

  ///@{
  /**
   * Depth of the hierarchy level whose vertices group the rows into
   * separated, labelled bands (e.g. 2 for the nodes of a Score-P system tree); 0
   * (default) draws no groups.
   */
  vtkSetMacro(GroupLevel, int);
  vtkGetMacro(GroupLevel, int);
  ///@}

  ///@{
  /**
   * A title drawn centred above the chart (e.g. the run's name in a
   * comparison, "A: normal"); empty (default) draws none and leaves its
   * room to the plot.
   */
  vtkSetStringMacro(Title);
  vtkGetStringMacro(Title);
  ///@}

  ///@{
  /**
   * MODE (default: each aggregate shows the type that dominates it, lighter
   * the less it dominates) or STACKED, see AggregateStyles.
   */
  vtkSetMacro(AggregateStyle, int);
  vtkGetMacro(AggregateStyle, int);
  ///@}

  ///@{
  /**
   * The resource selection, as Time Slicing's Resources: names or paths of
   * hierarchy vertices whose locations get rows (the others, their states
   * and their messages are not drawn). None (default): every location. An
   * unknown name is an error naming it.
   */
  void AddResource(const char* name);
  void RemoveAllResources();
  ///@}

  ///@{
  /**
   * The type selection: names of the types whose states are drawn. None
   * (default): every type. An unknown name is an error naming it.
   */
  void AddType(const char* name);
  void RemoveAllTypes();
  ///@}

  ///@{
  /**
   * The processes sharing the trace (default: the global controller), to
   * agree on the trace's time span.
   */
  void SetController(vtkMultiProcessController* controller);
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
  vtkMacroscopeTimelineLayout();
  ~vtkMacroscopeTimelineLayout() override;

  int FillInputPortInformation(int port, vtkInformation* info) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

private:
  vtkMacroscopeTimelineLayout(const vtkMacroscopeTimelineLayout&) = delete;
  void operator=(const vtkMacroscopeTimelineLayout&) = delete;

  double TimeWindow[2] = { 0.0, 0.0 };
  int RowWindow[2] = { 0, -1 };
  int ViewSize[2] = { 1600, 900 };
  int LabelFontSize = 12;
  double MinMarkWidth = 2.0;
  double MinRowHeight = 3.0;
  int Depth = -1;
  bool ShowMessages = true;
  int MaxMessagesPerPixel = 1;
  int GroupLevel = 0;
  char* Title = nullptr;
  int AggregateStyle = MODE;
  std::vector<std::string> Resources;
  std::vector<std::string> Types;
  vtkMultiProcessController* Controller = nullptr;
  std::vector<std::string> TypeColors; ///< see AddTypeColor

  /// Threads for the index and the layout: the cores over the ranks.
  unsigned Threads() const;

#ifndef __VTK_WRAP__
  // The stages of RequestData (what one stage hands the next is in Run).
  struct Run;
  enum class Status
  {
    Done,
    Failed,
    Aborted
  };
  bool CheckProperties(Run& run);
  bool ReadInputs(vtkInformationVector* input, Run& run);
  bool PlanRows(Run& run);
  int Aborted(Run& run);
  Status UpdateIndex(const Run& run);
  Status Layout(Run& run);
  void EmitMarks(Run& run, const macroscope::TimelineMarkDrawing& drawing);
  void ShareMessageDensity(Run& run);
  void EmitMessages(Run& run, const macroscope::TimelineBandGeometry& bands);
  void ShareTypeTimes(std::vector<double>& timeOfType);
  void DrawGuides(Run& run, const macroscope::TimelineBandGeometry& bands,
    MacroscopeChart::Geometry& guides, MacroscopeChart::Labels& labels);
  void DrawLegend(Run& run, const macroscope::TimelineMarkDrawing& drawing,
    MacroscopeChart::Geometry& hatching, MacroscopeChart::Labels& labels);
  void DrawLegendKey(const Run& run, const std::vector<MacroscopeChart::LegendEntry>& entries,
    bool anyAggregate, MacroscopeChart::Geometry& legend, MacroscopeChart::Geometry& hatching,
    MacroscopeChart::Labels& labels);
  void AddFieldData(Run& run, const macroscope::TimelineBandGeometry& bands);
#endif

  // The window index of the last trace, rebuilt only when its tables change.
  struct IndexCache;
  std::unique_ptr<IndexCache> Cache;
#ifndef __VTK_WRAP__
  bool IndexIsCurrent(const Run& run) const;
  bool ReadIndexColumns(const Run& run, IndexCache& cache);
#endif
};

#endif
