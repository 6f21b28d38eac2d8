#include "vtkMacroscopeTraceReader.h"

#include "MacroscopeReaderOutputs.h"
#include "TraceSchema.h"
#include "vtkMacroscopeTraceKeys.h"

#include "vtkDataArraySelection.h"
#include "vtkDataObject.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkMultiProcessController.h"
#include "vtkObjectFactory.h"
#include "vtkTable.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <system_error>

vtkCxxSetObjectMacro(vtkMacroscopeTraceReader, Controller, vtkMultiProcessController);

vtkMacroscopeTraceReader::vtkMacroscopeTraceReader()
  : LocationSelection(vtkDataArraySelection::New())
  , RegionSelection(vtkDataArraySelection::New())
{
  this->SetNumberOfInputPorts(0);
  this->SetNumberOfOutputPorts(macroscope::schema::TraceOutputCount);
  this->SetController(vtkMultiProcessController::GetGlobalController());
}

vtkMacroscopeTraceReader::~vtkMacroscopeTraceReader()
{
  this->LocationSelection->Delete();
  this->RegionSelection->Delete();
  this->SetController(nullptr);
}

void vtkMacroscopeTraceReader::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "FileName: " << this->FileName << "\n";
  os << indent << "HierarchyFile: " << this->HierarchyFile << "\n";
  os << indent << "TimeWindow: " << this->TimeWindow[0] << " " << this->TimeWindow[1] << "\n";
  os << indent << "ClipStatesToWindow: " << this->ClipStatesToWindow << "\n";
  os << indent << "Locations enabled: " << this->LocationSelection->GetNumberOfArraysEnabled()
     << " of " << this->LocationSelection->GetNumberOfArrays() << "\n";
  os << indent << "Regions enabled: " << this->RegionSelection->GetNumberOfArraysEnabled() << " of "
     << this->RegionSelection->GetNumberOfArrays() << "\n";
  os << indent << "TimeBounds: " << this->TimeBounds[0] << " " << this->TimeBounds[1] << "\n";
  os << indent << "NumberOfEventRecords: " << this->NumberOfEventRecords << "\n";
  os << indent << "NumberOfLocations: " << this->NumberOfLocations << "\n";
  os << indent << "Controller: " << this->Controller << "\n";
}

int vtkMacroscopeTraceReader::GetNumberOfLocationArrays()
{
  return this->LocationSelection->GetNumberOfArrays();
}
const char* vtkMacroscopeTraceReader::GetLocationArrayName(int index)
{
  return this->LocationSelection->GetArrayName(index);
}
int vtkMacroscopeTraceReader::GetLocationArrayStatus(const char* name)
{
  return this->LocationSelection->ArrayIsEnabled(name);
}
void vtkMacroscopeTraceReader::SetLocationStatus(const char* name, int status)
{
  this->LocationSelection->SetArraySetting(name, status);
}

int vtkMacroscopeTraceReader::GetNumberOfRegionArrays()
{
  return this->RegionSelection->GetNumberOfArrays();
}
const char* vtkMacroscopeTraceReader::GetRegionArrayName(int index)
{
  return this->RegionSelection->GetArrayName(index);
}
int vtkMacroscopeTraceReader::GetRegionArrayStatus(const char* name)
{
  return this->RegionSelection->ArrayIsEnabled(name);
}
void vtkMacroscopeTraceReader::SetRegionStatus(const char* name, int status)
{
  this->RegionSelection->SetArraySetting(name, status);
}

vtkMTimeType vtkMacroscopeTraceReader::GetMTime()
{
  // Selections set through their own objects modify them, not the reader.
  return std::max({ this->Superclass::GetMTime(), this->LocationSelection->GetMTime(),
    this->RegionSelection->GetMTime() });
}

int vtkMacroscopeTraceReader::FillOutputPortInformation(int port, vtkInformation* info)
{
  info->Set(vtkDataObject::DATA_TYPE_NAME(),
    port == static_cast<int>(macroscope::schema::TraceOutput::Hierarchy) ? "vtkTree" : "vtkTable");
  return 1;
}

std::vector<std::string> vtkMacroscopeTraceReader::EnabledRegions() const
{
  std::vector<std::string> regions;
  if (this->RegionSelection->GetNumberOfArraysEnabled() <
    this->RegionSelection->GetNumberOfArrays())
  {
    for (int i = 0; i < this->RegionSelection->GetNumberOfArrays(); ++i)
    {
      if (this->RegionSelection->GetArraySetting(i))
      {
        regions.emplace_back(this->RegionSelection->GetArrayName(i));
      }
    }
  }
  return regions;
}

int vtkMacroscopeTraceReader::SliceWhileReading(macroscope::ModelStream&, int, int)
{
  vtkErrorMacro(<< this->GetClassName() << " cannot build a model while reading " << this->FileName
                << ".");
  return 0;
}

bool vtkMacroscopeTraceReader::WarnIfWindowEmpty(vtkInformationVector* outputVector, int pieces)
{
  const double begin = this->TimeWindow[0];
  const double end = this->TimeWindow[1];
  if (begin == 0.0 && end == 0.0)
  {
    return false; // the whole trace: an empty trace is the file's, not the window's
  }
  using Port = macroscope::schema::TraceOutput;
  vtkIdType rows = 0;
  for (Port port : { Port::States, Port::Messages, Port::Events, Port::Variables })
  {
    if (vtkTable* table = vtkTable::GetData(outputVector, static_cast<int>(port)))
    {
      rows += table->GetNumberOfRows();
    }
  }
  const double last = end == 0.0 ? this->TimeBounds[1] : end;
  const bool missesSpan = begin > this->TimeBounds[1] || last < this->TimeBounds[0];
  if (rows > 0 || (pieces > 1 && !missesSpan))
  {
    return false;
  }
  std::ostringstream text;
  text << "TimeWindow (" << begin << ", " << end << ") s holds nothing of " << this->FileName
       << ": no state, message, event or sample is read, so every filter downstream gets empty "
          "tables. The trace spans "
       << this->TimeBounds[0] << " s to " << this->TimeBounds[1] << " s"
       << (missesSpan ? "" : " (the Locations or Regions selection may leave nothing in it)")
       << "; TimeWindow is in seconds since the trace start, and (0, 0) reads it all.";
  vtkWarningMacro(<< text.str());
  return true;
}

bool vtkMacroscopeTraceReader::RunHierarchyFileStep(const std::function<std::string()>& apply)
{
  try
  {
    const std::string report = apply();
    if (!report.empty())
    {
      vtkWarningMacro(<< report);
    }
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro(<< error.what() << " (reading " << this->FileName << ")"
                  << MissingFileHint(this->HierarchyFile, "HierarchyFile"));
    return false;
  }
  return true;
}

void vtkMacroscopeTraceReader::FinishOutputs(
  vtkInformationVector* outputVector, int pieces, std::initializer_list<ReadCounter> counters)
{
  this->WarnIfWindowEmpty(outputVector, pieces);
  // The trace's name for filters' messages (Logical Time's clock warning).
  for (int port = 0; port < outputVector->GetNumberOfInformationObjects(); ++port)
  {
    outputVector->GetInformationObject(port)->Set(
      vtkMacroscopeTraceKeys::TRACE_FILE(), this->FileName.c_str());
  }
  using Port = macroscope::schema::TraceOutput;
  vtkFieldData* fields =
    vtkTable::GetData(outputVector, static_cast<int>(Port::States))->GetFieldData();
  for (const ReadCounter& counter : counters)
  {
    macroscope::readers::AddCounter(fields, counter.first, counter.second);
  }
}

std::string vtkMacroscopeTraceReader::MissingFileHint(const std::string& path, const char* property)
{
  namespace fs = std::filesystem;
  std::error_code error;
  if (path.empty() || fs::exists(path, error))
  {
    return std::string();
  }
  const fs::path folder = fs::path(path).parent_path();
  std::string where;
  if (!folder.empty())
  {
    where = fs::is_directory(folder, error)
      ? " (its directory " + folder.string() + " exists, without it)"
      : " (its directory " + folder.string() + " is gone too)";
  }
  return ". " + path + " does not exist" + where + ": if the trace moved, set " + property +
    " to its new place, or load the state file with the directory now holding the trace "
    "(pvpython: LoadState(state, data_directory=...); GUI: File > Load State, \"Search files "
    "under specified directory\"; docs/state-files.md)";
}
