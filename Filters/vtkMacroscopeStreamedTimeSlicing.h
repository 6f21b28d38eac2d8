/**
 * @class vtkMacroscopeStreamedTimeSlicing
 * @brief Time Slicing straight from a trace file: the microscopic model is
 * built while the trace is read, without its tables, and cached.
 *
 * The outputs, properties and field data of vtkMacroscopeTimeSlicing, from
 * a FileName instead of a reader's outputs: the source owns a trace reader
 * (OTF2 or Pajé, chosen by the file's contents) for the definitions, then
 * asks it to hand its rows to streaming slicers (SliceWhileReading), so
 * that memory is O(model), not O(trace) — for traces larger than memory.
 *
 * The model cache (Dosimont et al. 2015 (Ocelotl) §4.2.1; docs/model-cache.md): with
 * UseModelCache on, the first read also builds a fine model of every leaf
 * with CacheSlices slices over [0, trace end] and saves it beside the trace
 * (or in CacheDirectory). Later requests whose window lies inside are
 * rebuilt from it by summing slices (eq. 6) and sharing the fine slices a
 * new border cuts ("dirty" slices) by overlap (eqs. 7–8); with Exact on, a
 * request that would cut a fine slice reads the trace instead. The cache is
 * refused, and rewritten, when the trace's path, size, modification time or
 * definitions changed, or the metric, normalisation or depth differ.
 *
 * Under MPI every rank streams its share of the locations; the partial
 * models are summed (AllReduce), rank 0 alone reads and writes the cache
 * and broadcasts what it loaded, and every rank holds the whole model, as
 * Time Slicing does. See docs/streaming-model.md.
 */
#ifndef vtkMacroscopeStreamedTimeSlicing_h
#define vtkMacroscopeStreamedTimeSlicing_h

#include "MacroscopeFiltersModule.h" // for export macro
#include "vtkMacroscopeTimeSlicing.h"

#include <memory> // for std::unique_ptr
#include <string> // for std::string

namespace macroscope
{
struct CacheLookup;
struct MicroscopicModel;
}

class MACROSCOPEFILTERS_EXPORT vtkMacroscopeStreamedTimeSlicing : public vtkMacroscopeTimeSlicing
{
public:
  static vtkMacroscopeStreamedTimeSlicing* New();
  vtkTypeMacro(vtkMacroscopeStreamedTimeSlicing, vtkMacroscopeTimeSlicing);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /// The trace: an OTF2 anchor file or a Pajé file.
  vtkSetStdStringFromCharMacro(FileName);
  vtkGetCharFromStdStringMacro(FileName);
  ///@}

  ///@{
  /// A JSON hierarchy file regrouping the trace's leaves, as the readers'
  /// HierarchyFile (docs/hierarchy-file.md); empty keeps the trace's own.
  vtkSetStdStringFromCharMacro(HierarchyFile);
  vtkGetCharFromStdStringMacro(HierarchyFile);
  ///@}

  ///@{
  /// Keep a fine model of the trace in a cache file and rebuild later
  /// models from it (default on).
  vtkSetMacro(UseModelCache, bool);
  vtkGetMacro(UseModelCache, bool);
  vtkBooleanMacro(UseModelCache, bool);
  ///@}

  ///@{
  /// Where the cache files go: empty (the default) beside the trace, else
  /// this directory (created if missing).
  vtkSetStdStringFromCharMacro(CacheDirectory);
  vtkGetCharFromStdStringMacro(CacheDirectory);
  ///@}

  ///@{
  /// Slices of the cached fine model (default 1000).
  vtkSetMacro(CacheSlices, int);
  vtkGetMacro(CacheSlices, int);
  ///@}

  ///@{
  /// Read the trace again rather than share a cut fine slice by overlap
  /// (default off: the cached model is used, eqs. 7–8).
  vtkSetMacro(Exact, bool);
  vtkGetMacro(Exact, bool);
  vtkBooleanMacro(Exact, bool);
  ///@}

  ///@{
  /// Known after an update: the trace's time span (after the information
  /// pass), the number of times the trace was read, the locations this
  /// rank read the last time (its share under MPI), where the last model
  /// came from ("trace": sliced from the trace; "cache": rebuilt from the
  /// cache; "new cache": the trace was read into a new cache and the model
  /// rebuilt from it), the fine slices its rebuilding shared by overlap (0
  /// for "trace"), and the cache file.
  vtkGetVector2Macro(TimeBounds, double);
  vtkGetMacro(NumberOfTraceReads, int);
  vtkGetMacro(LocationsRead, int);
  const char* GetModelOrigin() { return this->ModelOrigin.c_str(); }
  vtkGetMacro(DirtySlices, int);
  const char* GetCacheFile() { return this->CacheFile.c_str(); }
  ///@}

protected:
  vtkMacroscopeStreamedTimeSlicing();
  ~vtkMacroscopeStreamedTimeSlicing() override;

  vtkTypeBool ProcessRequest(
    vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

private:
  vtkMacroscopeStreamedTimeSlicing(const vtkMacroscopeStreamedTimeSlicing&) = delete;
  void operator=(const vtkMacroscopeStreamedTimeSlicing&) = delete;

  // The definitions, from the reader's information pass.
  int ReadDefinitions(vtkInformationVector* outputVector);
  // The model: from the cache, or streamed from the trace.
  int BuildModel(vtkInformationVector* outputVector);
  // BuildModel's steps: the request from the properties, whether its
  // models fit in memory (on every rank), where the model comes from (rank
  // 0 decides), the read of the trace (1 done, 0 failed, -1 aborted), the
  // fine model saved.
  struct Request;
  bool PlanRequest(Request& request);
  bool ModelFits(const Request& request);
  macroscope::CacheLookup LookUpCache(Request& request);
  int ReadTrace(const Request& request, macroscope::CacheLookup& lookup);
  void WriteCache(const Request& request, const macroscope::MicroscopicModel& fine);

  std::string FileName;
  std::string HierarchyFile;
  bool UseModelCache = true;
  std::string CacheDirectory;
  int CacheSlices = 1000;
  bool Exact = false;

  double TimeBounds[2] = { 0.0, 0.0 };
  int NumberOfTraceReads = 0;
  int LocationsRead = 0;
  std::string ModelOrigin;
  int DirtySlices = 0;
  std::string CacheFile;

  struct Internals;
  std::unique_ptr<Internals> Internal;
};

#endif
