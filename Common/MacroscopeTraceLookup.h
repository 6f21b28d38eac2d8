// Finding the whole trace from one of its tables: a filter or a
// representation given a reader's States finds the Hierarchy, Messages and
// Types beside it, so that users select the reader and apply (one input,
// one filter in the pipeline browser).
#ifndef MacroscopeTraceLookup_h
#define MacroscopeTraceLookup_h

#include "MacroscopeCommonModule.h" // for export macro

class vtkAlgorithm;
class vtkInformationVector;
class vtkTable;
class vtkTree;

/// The trace a table belongs to: the outputs of the algorithm that produced
/// it, or of the nearest algorithm upstream with several outputs (ParaView
/// puts pass-through filters between a reader's port and its displays),
/// appended to `found` as DATA_OBJECT informations. False when no producer
/// within a few hops holds States and a Hierarchy.
MACROSCOPECOMMON_EXPORT bool MacroscopeFindTrace(
  vtkAlgorithm* producer, vtkInformationVector* found);

/// The definitions (vtkMacroscopeTraceKeys::DEFINITIONS: the Hierarchy
/// tree and the Types table) a reader publishes during REQUEST_INFORMATION
/// on its Hierarchy and Types ports, looked up on the output informations of
/// `producer` or of the nearest algorithm upstream that has them. Members
/// not found are left as they are.
MACROSCOPECOMMON_EXPORT void MacroscopeFindDefinitions(
  vtkAlgorithm* producer, vtkTree*& hierarchy, vtkTable*& types);

#endif
