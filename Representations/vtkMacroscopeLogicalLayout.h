/**
 * @class vtkMacroscopeLogicalLayout
 * @brief Base of the layouts of Ravel's logical views (Isaacs et al. 2014
 * (Ravel) §4): the outputs of Logical Time in, a chart of ViewSize pixels
 * out, on the five outputs a chart display draws.
 *
 * Takes the tables of the Logical Time filter on one repeatable input port
 * and recognises each by its columns: Logical Events (GlobalStep, Kind,
 * Metric; required), Logical Messages (SendEvent, RecvGlobalStep), Clusters
 * (ClaraCluster), Steps (MetricSum) and Phases (Pattern, FirstGlobalStep).
 * It owns what the three views share: the ports, the chart size, the window
 * of global steps (or of time, mapped to steps), the message budget and the
 * resource/type selection of the linked views (Resources, Types: the events
 * and messages of the selection only; docs/linked-views.md). An empty
 * Logical Events table (a
 * rank other than the first under MPI, where Logical Time gathers its
 * result) draws nothing.
 */
#ifndef vtkMacroscopeLogicalLayout_h
#define vtkMacroscopeLogicalLayout_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkPolyDataAlgorithm.h"
#include "vtkSmartPointer.h" // for vtkSmartPointer

#include <string> // for std::string
#include <vector> // for std::vector

class vtkTable;
class vtkTree;

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeLogicalLayout : public vtkPolyDataAlgorithm
{
public:
  vtkTypeMacro(vtkMacroscopeLogicalLayout, vtkPolyDataAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum OutputPorts
  {
    MARKS = 0,  ///< boxes, glyphs, bars: quads with a Color
    LINES = 1,  ///< messages, borders, send and receive lines
    GUIDES = 2, ///< frame, axis, separators (drawn in the label colour)
    LABELS = 3,
    LEGEND = 4,
    NUMBER_OF_OUTPUTS = 5
  };

  /// The Logical Time tables this layout found among its inputs.
  struct Tables
  {
    vtkTable* Events = nullptr;
    vtkTable* Messages = nullptr;
    vtkTable* Clusters = nullptr;
    vtkTable* Steps = nullptr;
    vtkTable* Phases = nullptr;
    vtkTree* Hierarchy = nullptr; ///< Logical Time's Hierarchy (for Resources)
  };

  /// Sorts `inputs` (tables) by their columns, and takes a tree with a
  /// LeafIndex vertex array as the Hierarchy (other trees, such as the
  /// Dendrogram, are passed over); false, with `problem` set, when a table
  /// is none of the above or a kind comes twice.
  static bool FindTables(vtkInformationVector* inputs, Tables& tables, std::string& problem);

  ///@{
  /**
   * Width and height, in pixels, of the chart (default 1600 x 900); the
   * pixel budgets refer to this size.
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
   * First and last global step drawn (the Metric Overview highlights
   * them). A last step below the first (default 0, -1) means every step.
   */
  vtkSetVector2Macro(StepWindow, vtkIdType);
  vtkGetVector2Macro(StepWindow, vtkIdType);
  ///@}

  ///@{
  /**
   * A window of physical time, in seconds since the trace start, with the
   * convention of the Timeline's TimeWindow: an end of 0 means the trace
   * end, and the default (0, 0), the whole trace, leaves StepWindow in
   * charge. Any other window overrides StepWindow: the steps drawn are the
   * first to the last global step of the Logical Events (Enter, Exit) in
   * [start, end) (macroscope::StepsOfTimeWindow); none when no event is.
   * The steps used are in the MARKS output's field data StepsOfTimeWindow.
   */
  vtkSetVector2Macro(TimeWindow, double);
  vtkGetVector2Macro(TimeWindow, double);
  ///@}

  ///@{
  /**
   * Draw the aggregates, the non-communication events (even global steps),
   * as columns of their own (default on); off, only communication steps.
   */
  vtkSetMacro(ShowAggregates, bool);
  vtkGetMacro(ShowAggregates, bool);
  vtkBooleanMacro(ShowAggregates, bool);
  ///@}

  ///@{
  /**
   * Message lines are drawn when at most this many meet the window (default
   * 5000; 0 draws none) and rows are at least 2 pixels tall.
   */
  vtkSetMacro(MaxMessages, vtkIdType);
  vtkGetMacro(MaxMessages, vtkIdType);
  ///@}

  ///@{
  /**
   * The resource selection, as Time Slicing's Resources (names or paths of
   * hierarchy vertices, resolved against Logical Time's Hierarchy output,
   * which must then be among the inputs): only the events of the locations
   * below them, hence only their rows, are drawn. Empty (default): all.
   */
  void AddResource(const char* name);
  void RemoveAllResources();
  ///@}

  ///@{
  /**
   * The type selection: names of the reader's types (the Logical Events'
   * TypeNames field data, written by Logical Time). Only the communication
   * events of those types are drawn, each with its aggregate (the
   * computation before it). Empty (default): all. With either selection,
   * messages are drawn when both their events are, the Metric Overview sums
   * the selected events (not the Steps table) and the colour range is that
   * of the selected events. Unknown names are errors naming them.
   */
  void AddType(const char* name);
  void RemoveAllTypes();
  ///@}

protected:
  vtkMacroscopeLogicalLayout();
  ~vtkMacroscopeLogicalLayout() override;

  /// Gives `marks` a vtkOriginalCellIds cell array of -1: the display picks
  /// this layer for the Logical Timeline, whose boxes are rows of Logical
  /// Events; marks that stand for no row then select nothing.
  static void SelectNoRow(vtkPolyData* marks);

  /// Draws `tables` into the cleared `outputs`; ViewSize, StepWindow and
  /// MaxMessages have been checked and Events is there. Returns 0 after
  /// reporting an error.
  virtual int Draw(const Tables& tables, vtkPolyData* outputs[NUMBER_OF_OUTPUTS]) = 0;

  /// The zoom along steps (docs/views.md): puts on every output the
  /// "StepNavigation" field data the mouse reads — x of the first column's
  /// left and of the last column's right, the first and last global step
  /// drawn, the steps per column (1, or 2 without aggregates) and the
  /// trace's first and last global step.
  void AddStepNavigation(vtkPolyData* outputs[NUMBER_OF_OUTPUTS], int64_t firstStep,
    int64_t lastStep, int stride, double columnWidth) const;

  /// TraceSteps from the GlobalStep column of `events`.
  void FindTraceSteps(vtkTable* events);

  /// The row of Logical Events (resp. Logical Messages) that row `row` of
  /// the tables given to Draw is: they differ when a selection is active.
  vtkIdType EventRow(vtkIdType row) const;
  vtkIdType MessageRow(vtkIdType row) const;

  int FillInputPortInformation(int port, vtkInformation* info) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

  int ViewSize[2] = { 1600, 900 };
  int LabelFontSize = 12;
  vtkIdType StepWindow[2] = { 0, -1 };
  double TimeWindow[2] = { 0.0, 0.0 };
  bool ShowAggregates = true;
  vtkIdType MaxMessages = 5000;
  std::vector<std::string> Resources;
  std::vector<std::string> Types;
  /// First and last global step of every event, selected or not (set
  /// before Draw).
  double TraceSteps[2] = { 0.0, -1.0 };

private:
  /// Tables holding the rows of the selection, into `selected` (which keeps
  /// them alive through `held`); false after reporting an error (an unknown
  /// name, no Hierarchy or TypeNames to resolve names against).
  bool Select(const Tables& tables, Tables& selected, std::vector<vtkSmartPointer<vtkTable>>& held);

  std::vector<vtkIdType> EventRows;   ///< empty: the identity
  std::vector<vtkIdType> MessageRows; ///< empty: the identity

  /// The steps of TimeWindow among the events, into `steps`; false after
  /// reporting an error (bad window, missing Enter or Exit).
  bool StepsOfTime(vtkTable* events, vtkIdType steps[2]);

  vtkMacroscopeLogicalLayout(const vtkMacroscopeLogicalLayout&) = delete;
  void operator=(const vtkMacroscopeLogicalLayout&) = delete;
};

#endif
