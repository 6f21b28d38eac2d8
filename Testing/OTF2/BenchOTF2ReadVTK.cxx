// Measures the whole VTK reader, vtkMacroscopeOTF2Reader, reading an OTF2
// archive to its output tables; driven by Testing/Benchmarks/bench_otf2_read.sh
// next to macroscope-otf2-bench, whose bare loops it is compared with. A
// separate program, so that the bare loops run without VTK loaded.
//
//   macroscope-otf2-bench-vtk ANCHOR [REPETITIONS]
//
// Prints "mode=reader events=... seconds=... events_per_second=...
// peak_rss_kb=... table_bytes=..." on one line, like macroscope-otf2-bench;
// seconds is the best of the repetitions, each with a new reader, and
// table_bytes the size of the arrays of the four event tables.
#include "vtkMacroscopeOTF2Reader.h"

#include "vtkAbstractArray.h"
#include "vtkDataArray.h"
#include "vtkFieldData.h"
#include "vtkNew.h"
#include "vtkTable.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

namespace
{
// Ports 0 to 3: States, Messages, Events, Variables.
constexpr int EventTables = 4;

std::size_t TableBytes(vtkMacroscopeOTF2Reader* reader)
{
  std::size_t bytes = 0;
  for (int port = 0; port < EventTables; ++port)
  {
    vtkTable* table = vtkTable::SafeDownCast(reader->GetOutputDataObject(port));
    for (vtkIdType column = 0; table && column < table->GetNumberOfColumns(); ++column)
    {
      vtkAbstractArray* array = table->GetColumn(column);
      bytes += static_cast<std::size_t>(array->GetNumberOfValues()) *
        static_cast<std::size_t>(array->GetDataTypeSize());
    }
  }
  return bytes;
}
}

int main(int argc, char** argv)
{
  if (argc < 2)
  {
    std::cerr << "usage: " << argv[0] << " ANCHOR [REPETITIONS]\n";
    return 2;
  }
  const std::string anchor = argv[1];
  const int repetitions = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  double best = 1e300;
  vtkIdType events = 0;
  std::size_t tableBytes = 0;
  for (int repetition = 0; repetition < repetitions; ++repetition)
  {
    const auto start = std::chrono::steady_clock::now();
    vtkNew<vtkMacroscopeOTF2Reader> reader;
    reader->SetFileName(anchor.c_str());
    reader->Update();
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    best = std::min(best, elapsed.count());
    // The reader records what it read in the field data of its States table.
    vtkTable* states = vtkTable::SafeDownCast(reader->GetOutputDataObject(0));
    vtkDataArray* read = states ? states->GetFieldData()->GetArray("EventRecordsRead") : nullptr;
    if (read == nullptr)
    {
      std::cerr << "reading " << anchor << " failed\n";
      return 1;
    }
    events = static_cast<vtkIdType>(read->GetTuple1(0));
    tableBytes = TableBytes(reader);
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::cout << "mode=reader events=" << events << " seconds=" << best
            << " events_per_second=" << static_cast<long long>(static_cast<double>(events) / best)
            << " peak_rss_kb=" << usage.ru_maxrss << " table_bytes=" << tableBytes << "\n";
  return 0;
}
