// Bounded memory on deep hierarchies: the Pajé reader opens a
// 40,000-deep container nesting, then regroups it by a 100,000-deep
// HierarchyFile, in a child process whose peak RSS must stay under 200 MB
// (getrusage) and whose stack is limited to 1 MiB, so that neither a
// per-vertex path (memory in the square of the depth) nor a recursion on
// the depth can come back. Before the fix: 5.5 GB and 11.7 GB. The same
// for the filters that select or name resources by path (Time Slicing's
// Resources, Trace Statistics, Active Producers): 6.2 GB before.
#include "vtkMacroscopeActiveProducers.h"
#include "vtkMacroscopePajeReader.h"
#include "vtkMacroscopeTimeSlicing.h"
#include "vtkMacroscopeTraceStatistics.h"

#include "vtkAbstractArray.h"
#include "vtkDataArraySelection.h"
#include "vtkDataSetAttributes.h"
#include "vtkFieldData.h"
#include "vtkImageData.h"
#include "vtkNew.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTree.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace
{
namespace fs = std::filesystem;

constexpr int Depth = 40000;
constexpr int FileDepth = 100000;
constexpr long LimitKilobytes = 200 * 1024;

// A chain of Depth containers, each of its own type (a container's type must
// be a child of its parent's), with one state on the deepest: about 2.3 MB.
void writeDeepTrace(const std::string& path)
{
  std::ofstream out(path);
  out << "%EventDef PajeDefineContainerType 0\n% Alias string\n% Type string\n% Name string\n"
         "%EndEventDef\n%EventDef PajeDefineStateType 1\n% Alias string\n% Type string\n"
         "% Name string\n%EndEventDef\n%EventDef PajeCreateContainer 6\n% Time date\n"
         "% Alias string\n% Type string\n% Container string\n% Name string\n%EndEventDef\n"
         "%EventDef PajePushState 9\n% Time date\n% Type string\n% Container string\n"
         "% Value string\n%EndEventDef\n%EventDef PajePopState 10\n% Time date\n% Type string\n"
         "% Container string\n%EndEventDef\n";
  for (int d = 1; d <= Depth; ++d)
  {
    out << "0 t" << d << ' ' << (d == 1 ? std::string("0") : "t" + std::to_string(d - 1))
        << " Level" << d << '\n';
  }
  out << "1 s t" << Depth << " S\n";
  for (int d = 1; d <= Depth; ++d)
  {
    out << "6 0 c" << d << " t" << d << ' '
        << (d == 1 ? std::string("0") : "c" + std::to_string(d - 1)) << " n" << d << '\n';
  }
  out << "9 1 s c" << Depth << " run\n10 2 s c" << Depth << " \n";
}

// FileDepth nested groups whose innermost leaf names the trace's leaf.
void writeDeepHierarchy(const std::string& path)
{
  std::ofstream out(path);
  for (int d = 0; d < FileDepth; ++d)
  {
    out << "{\"name\":\"g" << d << "\",\"children\":[";
  }
  out << "{\"name\":\"n" << Depth << "\"}";
  for (int d = 0; d < FileDepth; ++d)
  {
    out << "]}";
  }
}

// What the child checks; returns the exit status (0: as expected).
int readBoth(const std::string& trace, const std::string& hierarchy)
{
  vtkNew<vtkMacroscopePajeReader> reader;
  reader->SetFileName(trace.c_str());
  reader->Update();
  vtkTree* tree = vtkTree::SafeDownCast(reader->GetOutputDataObject(4));
  vtkTable* states = vtkTable::SafeDownCast(reader->GetOutputDataObject(0));
  // The root, Depth containers; one leaf; one state.
  if (!tree || tree->GetNumberOfVertices() != Depth + 1 || reader->GetNumberOfLocations() != 1 ||
    !states || states->GetNumberOfRows() != 1)
  {
    return 10;
  }
  // Its Locations name: shortened, not Depth names long.
  const std::string path = reader->GetLocationSelection()->GetArrayName(0);
  if (path.size() > 1024 || path.rfind("n1/n2/", 0) != 0 ||
    path.find("/n" + std::to_string(Depth)) == std::string::npos)
  {
    std::fprintf(stderr, "path of %zu bytes: %.200s\n", path.size(), path.c_str());
    return 11;
  }
  reader->SetHierarchyFile(hierarchy.c_str());
  reader->Update();
  tree = vtkTree::SafeDownCast(reader->GetOutputDataObject(4));
  // FileDepth groups, the trace's leaf, and nothing unplaced.
  if (!tree || tree->GetNumberOfVertices() != FileDepth + 1 ||
    reader->GetLocationSelection()->GetNumberOfArrays() != 1)
  {
    std::fprintf(stderr, "%lld vertices after the hierarchy file\n",
      tree ? static_cast<long long>(tree->GetNumberOfVertices()) : -1LL);
    return 12;
  }
  return 0;
}
}

// The deepest container's path below the root, as Locations and Resources
// name it: "n1/n2/.../n<Depth>".
std::string deepestPath()
{
  std::string path;
  for (int d = 1; d <= Depth; ++d)
  {
    path += (d > 1 ? "/n" : "n") + std::to_string(d);
  }
  return path;
}

// The filters downstream of the reader on the deep nesting: Time Slicing
// on the deepest path, Trace Statistics and Active Producers, then Time
// Slicing on the path Active Producers gives. Returns the exit status.
int filterDeepTrace(const std::string& trace)
{
  vtkNew<vtkMacroscopePajeReader> reader;
  reader->SetFileName(trace.c_str());
  auto connect = [&reader](vtkAlgorithm* filter)
  {
    for (int port = 0; port < reader->GetNumberOfOutputPorts(); ++port)
    {
      filter->AddInputConnection(0, reader->GetOutputPort(port));
    }
  };
  const std::string deepest = deepestPath();
  vtkNew<vtkMacroscopeTimeSlicing> slicing;
  connect(slicing);
  slicing->SetSlices(4);
  slicing->AddResource(deepest.c_str());
  slicing->Update();
  auto* model = vtkImageData::SafeDownCast(slicing->GetOutputDataObject(0));
  if (!model || model->GetNumberOfPoints() == 0)
  {
    return 20;
  }

  vtkNew<vtkMacroscopeTraceStatistics> statistics;
  connect(statistics);
  statistics->Update();
  // Paths from the root: its name, then the containers'.
  auto* tree = vtkTree::SafeDownCast(reader->GetOutputDataObject(4));
  auto* vertexNames =
    tree ? vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray("Name")) : nullptr;
  if (!vertexNames || vertexNames->GetNumberOfValues() != Depth + 1)
  {
    return 24;
  }
  const std::string fromRoot = vertexNames->GetValue(0) + "/" + deepest;
  auto* producers = vtkTable::SafeDownCast(statistics->GetOutputDataObject(0));
  auto* statisticsPath =
    producers ? vtkStringArray::SafeDownCast(producers->GetColumnByName("Path")) : nullptr;
  if (!statisticsPath || statisticsPath->GetNumberOfValues() != 1 ||
    statisticsPath->GetValue(0) != fromRoot)
  {
    std::fprintf(stderr, "Trace Statistics: %lld paths, the first starting %.40s\n",
      statisticsPath ? static_cast<long long>(statisticsPath->GetNumberOfValues()) : -1LL,
      statisticsPath && statisticsPath->GetNumberOfValues() ? statisticsPath->GetValue(0).c_str()
                                                            : "");
    return 21;
  }

  vtkNew<vtkMacroscopeActiveProducers> active;
  connect(active);
  active->Update();
  auto* activeTable = vtkTable::SafeDownCast(active->GetOutputDataObject(0));
  auto* names = activeTable
    ? vtkStringArray::SafeDownCast(activeTable->GetFieldData()->GetAbstractArray("ResourceNames"))
    : nullptr;
  if (!names || names->GetNumberOfValues() != 1 || names->GetValue(0) != fromRoot)
  {
    return 22;
  }
  vtkNew<vtkMacroscopeTimeSlicing> fed;
  connect(fed);
  fed->SetSlices(4);
  fed->AddResource(names->GetValue(0).c_str());
  fed->Update();
  auto* fedModel = vtkImageData::SafeDownCast(fed->GetOutputDataObject(0));
  if (!fedModel || fedModel->GetNumberOfPoints() != model->GetNumberOfPoints())
  {
    return 23;
  }
  return 0;
}

// Runs `body` in a child with a 1 MiB stack; fails unless it exits with 0
// under LimitKilobytes of peak RSS.
template <typename Body>
void runBounded(const Body& body, const char* what)
{
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0)
  {
    // 1 MiB of stack: a recursion on the depth (100,000 frames) overflows it.
    const struct rlimit stack = { 1 << 20, 1 << 20 };
    ::setrlimit(RLIMIT_STACK, &stack);
    const int status = body();
    struct rusage usage;
    ::getrusage(RUSAGE_SELF, &usage);
    std::printf("peak RSS of %s: %ld MB\n", what, usage.ru_maxrss / 1024);
    std::fflush(stdout);
    ::_exit(status != 0 ? status : usage.ru_maxrss < LimitKilobytes ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << WTERMSIG(status)
                                 << " (a stack overflow is SIGSEGV)";
  EXPECT_EQ(WEXITSTATUS(status), 0)
    << "1: peak RSS over " << LimitKilobytes / 1024 << " MB; otherwise see the child's message";
}

TEST(PajeReaderDeepHierarchy, FiltersStayUnder200MB)
{
  // Before the paths of the resource selection were matched name by name,
  // this child peaked at 6.2 GB (every vertex's path, built by Time Slicing
  // and by Active Producers); 48 MB after.
  const fs::path dir =
    fs::temp_directory_path() / ("macroscope-deep-filters-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string trace = (dir / "deep.paje").string();
  writeDeepTrace(trace);
  runBounded([&trace] { return filterDeepTrace(trace); }, "the filters");
  fs::remove_all(dir);
}

TEST(PajeReaderDeepHierarchy, StaysUnder200MBWithoutDeepRecursion)
{
  const fs::path dir =
    fs::temp_directory_path() / ("macroscope-deep-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string trace = (dir / "deep.paje").string();
  const std::string hierarchy = (dir / "deep.json").string();
  writeDeepTrace(trace);
  writeDeepHierarchy(hierarchy);
  EXPECT_GT(fs::file_size(trace), 2000000u);
  runBounded([&trace, &hierarchy] { return readBoth(trace, hierarchy); }, "the reader");
  fs::remove_all(dir);
}
