// Finding the whole trace from one of its tables: a representation shown on
// a reader's States finds the Hierarchy, Messages and Types beside it.
//
// Private to the Representations module.
#ifndef MacroscopeTraceLookup_h
#define MacroscopeTraceLookup_h

class vtkAlgorithm;
class vtkInformationVector;

/// The trace a table belongs to: the outputs of the algorithm that produced
/// it, or of the nearest algorithm upstream with several outputs (ParaView
/// puts pass-through filters between a reader's port and its displays),
/// appended to `found` as DATA_OBJECT informations. False when no producer
/// within a few hops holds States and a Hierarchy.
bool MacroscopeFindTrace(vtkAlgorithm* producer, vtkInformationVector* found);

#endif
