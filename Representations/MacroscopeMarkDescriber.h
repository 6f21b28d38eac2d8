// Details on demand: the mark of a Macroscope representation under a point
// of its chart, and what it stands for (docs/details-on-demand.md).
//
// Private to the Representations module.
#ifndef MacroscopeMarkDescriber_h
#define MacroscopeMarkDescriber_h

#include "vtkPVMacroscopeMarkInformation.h"

class vtkPVDataRepresentation;

/// The frontmost mark of `representation`'s layout (as this rank laid it
/// out) under the chart point (x, y), described; Found false when none.
vtkPVMacroscopeMarkInformation::Answer MacroscopeDescribeMark(
  vtkPVDataRepresentation* representation, double x, double y);

#endif
