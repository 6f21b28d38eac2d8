// Pipeline requests shared by the filters that read the whole microscopic
// model (Time Slicing's Model output) and output one result on piece 0.
#ifndef MacroscopeModelInput_h
#define MacroscopeModelInput_h

class vtkInformation;
class vtkInformationVector;

namespace MacroscopeModelInput
{
/// Asks the model input (`port`, connection 0) for all of it: its whole
/// extent, as one piece, whatever piece the consumer was asked for.
void RequestWholeModel(vtkInformationVector** inputVector, int port = 0);

/// True when `outInfo` asks for a piece other than 0, which such filters
/// leave empty so that their result appears once.
bool IsLaterPiece(vtkInformation* outInfo);
}

#endif
