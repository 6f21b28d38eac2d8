// Representation types check their input: a Macroscope chart
// given data it cannot show says so, naming itself, what it needs and what
// it got, and draws nothing (docs/details-on-demand.md).
//
// Private to the Representations module.
#ifndef MacroscopeInputCheck_h
#define MacroscopeInputCheck_h

#include <string>

class vtkDataObject;
class vtkMacroscopeChartRepresentation;

/// What a table (or other data object) is, in a user's words: "the States
/// output of a trace reader (1234 rows; columns Location, Type, ...)".
std::string MacroscopeDescribeInput(vtkDataObject* input);

/// Why `representation` cannot show `input`; empty when it can (or when
/// the input is an empty piece, as the later ranks of a Partition get).
std::string MacroscopeInputProblem(
  vtkMacroscopeChartRepresentation* representation, vtkDataObject* input);

#endif
