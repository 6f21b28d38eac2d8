/**
 * @class vtkMacroscopeHierarchyLayout
 * @brief Draws a trace's resource hierarchy (vtkTree) as a node-link diagram.
 *
 * Leaves (locations) sit on consecutive columns in hierarchy order, each
 * inner vertex centred above its children, one row per depth with the root
 * on top. The output vtkPolyData has one vertex cell per tree vertex
 * followed by one line cell per edge; the tree's vertex data become point
 * data (Name, Kind, LeafIndex...) together with a "Depth" array, so the
 * drawing can be coloured, labelled and picked like any ParaView dataset.
 */
#ifndef vtkMacroscopeHierarchyLayout_h
#define vtkMacroscopeHierarchyLayout_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkPolyDataAlgorithm.h"

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeHierarchyLayout : public vtkPolyDataAlgorithm
{
public:
  static vtkMacroscopeHierarchyLayout* New();
  vtkTypeMacro(vtkMacroscopeHierarchyLayout, vtkPolyDataAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /**
   * Distance between two leaf columns (default 1). Must be positive.
   */
  vtkSetMacro(ColumnSpacing, double);
  vtkGetMacro(ColumnSpacing, double);
  ///@}

  ///@{
  /**
   * Distance between two depth rows. 0 (the default) chooses it so that
   * the drawing is about twice as wide as it is tall. Must not be negative.
   */
  vtkSetMacro(LevelSpacing, double);
  vtkGetMacro(LevelSpacing, double);
  ///@}

protected:
  vtkMacroscopeHierarchyLayout();
  ~vtkMacroscopeHierarchyLayout() override = default;

  int FillInputPortInformation(int port, vtkInformation* info) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

private:
  vtkMacroscopeHierarchyLayout(const vtkMacroscopeHierarchyLayout&) = delete;
  void operator=(const vtkMacroscopeHierarchyLayout&) = delete;

  double ColumnSpacing = 1.0;
  double LevelSpacing = 0.0;
};

#endif
