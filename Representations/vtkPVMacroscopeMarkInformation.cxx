#include "vtkPVMacroscopeMarkInformation.h"

#include "MacroscopeMarkDescriber.h"

#include "vtkCamera.h"
#include "vtkClientServerStream.h"
#include "vtkCompositeRepresentation.h"
#include "vtkMultiProcessController.h"
#include "vtkMultiProcessStream.h"
#include "vtkObjectFactory.h"
#include "vtkPVDataRepresentation.h"
#include "vtkRenderer.h"

#include <cmath>

vtkStandardNewMacro(vtkPVMacroscopeMarkInformation);

vtkPVMacroscopeMarkInformation::vtkPVMacroscopeMarkInformation()
{
  this->RootOnly = 0; // every rank looks at the marks it laid out
}

vtkPVMacroscopeMarkInformation::~vtkPVMacroscopeMarkInformation() = default;

void vtkPVMacroscopeMarkInformation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Point: " << this->Point[0] << " " << this->Point[1] << "\n";
  os << indent << "Found: " << this->Found << " (" << this->Kind << ")\n";
  os << indent << "Text: " << this->Text << "\n";
  os << indent << "Rows: " << this->Rows.size() / 2 << " of " << this->RowTable << "\n";
}

bool vtkPVMacroscopeMarkInformation::DisplayToChart(
  vtkRenderer* renderer, double x, double y, double chart[2])
{
  if (!renderer || !renderer->GetActiveCamera())
  {
    return false;
  }
  // Two points of the line of sight through the pixel, met with z = 0.
  double ends[2][4];
  for (int i = 0; i < 2; ++i)
  {
    renderer->SetDisplayPoint(x, y, i == 0 ? 0.0 : 1.0);
    renderer->DisplayToWorld();
    renderer->GetWorldPoint(ends[i]);
    if (ends[i][3] == 0.0)
    {
      return false;
    }
    for (int c = 0; c < 3; ++c)
    {
      ends[i][c] /= ends[i][3];
    }
  }
  const double dz = ends[1][2] - ends[0][2];
  const double t = std::abs(dz) > 1e-12 ? -ends[0][2] / dz : 0.0;
  chart[0] = ends[0][0] + t * (ends[1][0] - ends[0][0]);
  chart[1] = ends[0][1] + t * (ends[1][1] - ends[0][1]);
  return std::isfinite(chart[0]) && std::isfinite(chart[1]);
}

void vtkPVMacroscopeMarkInformation::CopyFromObject(vtkObject* object)
{
  auto* representation = vtkPVDataRepresentation::SafeDownCast(object);
  if (auto* composite = vtkCompositeRepresentation::SafeDownCast(object))
  {
    representation = composite->GetActiveRepresentation();
  }
  this->Found = false;
  this->Rows.clear();
  this->RowsCut = false;
  if (!representation || !representation->GetVisibility())
  {
    return;
  }
  const Answer answer = MacroscopeDescribeMark(representation, this->Point[0], this->Point[1]);
  this->Found = answer.Found;
  this->Depth = answer.Depth;
  this->Text = answer.Text;
  this->Kind = answer.Kind;
  this->RowTable = answer.RowTable;
  auto* controller = vtkMultiProcessController::GetGlobalController();
  const long long rank = controller ? controller->GetLocalProcessId() : 0;
  for (long long row : answer.Rows)
  {
    if (static_cast<int>(this->Rows.size() / 2) >= MaxRows)
    {
      this->RowsCut = true;
      break;
    }
    this->Rows.push_back(rank);
    this->Rows.push_back(row);
  }
}

void vtkPVMacroscopeMarkInformation::AddInformation(vtkPVInformation* other)
{
  auto* that = vtkPVMacroscopeMarkInformation::SafeDownCast(other);
  if (that && that->Found && (!this->Found || that->Depth > this->Depth))
  {
    this->Found = true;
    this->Depth = that->Depth;
    this->Text = that->Text;
    this->Kind = that->Kind;
    this->RowTable = that->RowTable;
    this->Rows = that->Rows;
    this->RowsCut = that->RowsCut;
  }
}

void vtkPVMacroscopeMarkInformation::CopyToStream(vtkClientServerStream* stream)
{
  stream->Reset();
  *stream << vtkClientServerStream::Reply << (this->Found ? 1 : 0) << this->Depth
          << this->Text.c_str() << this->Kind.c_str() << this->RowTable.c_str()
          << (this->RowsCut ? 1 : 0) << static_cast<int>(this->Rows.size())
          << vtkClientServerStream::InsertArray(
               this->Rows.data(), static_cast<int>(this->Rows.size()))
          << vtkClientServerStream::End;
}

void vtkPVMacroscopeMarkInformation::CopyFromStream(const vtkClientServerStream* stream)
{
  int found = 0, cut = 0, size = 0;
  stream->GetArgument(0, 0, &found);
  stream->GetArgument(0, 1, &this->Depth);
  stream->GetArgument(0, 2, &this->Text);
  stream->GetArgument(0, 3, &this->Kind);
  stream->GetArgument(0, 4, &this->RowTable);
  stream->GetArgument(0, 5, &cut);
  stream->GetArgument(0, 6, &size);
  this->Found = found != 0;
  this->RowsCut = cut != 0;
  this->Rows.assign(static_cast<std::size_t>(size), 0);
  if (size > 0)
  {
    stream->GetArgument(0, 7, this->Rows.data(), static_cast<vtkTypeUInt32>(size));
  }
}

void vtkPVMacroscopeMarkInformation::CopyParametersToStream(vtkMultiProcessStream& stream)
{
  stream << this->Point[0] << this->Point[1];
}

void vtkPVMacroscopeMarkInformation::CopyParametersFromStream(vtkMultiProcessStream& stream)
{
  stream >> this->Point[0] >> this->Point[1];
}
