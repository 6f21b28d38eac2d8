// The family and shade of a trace type, from its name, paradigm and region
// role (VTK-free): what the type palette colours by (docs/colours.md).
//
// A family groups the types of one programming paradigm (MPI, threads, I/O,
// GPU, user code); a shade says what the type does within it (waiting,
// collective, point-to-point...). Names decide first where they are
// unambiguous (MPI_*, PMPI_*, !$omp, omp_*, GOMP_*, pthread_*, cuda*, cu*/cl*
// with an upper-case letter, POSIX and C I/O calls), because some formats
// have no paradigm (Pajé) or a misleading one (EZTrace marks MPI calls
// "user"); then the paradigm and role the OTF2 reader found in the region
// definitions; anything else is user code.
#pragma once

#include <string_view>

namespace macroscope
{
enum class TypeFamily
{
  MPI,
  Threads,
  IO,
  GPU,
  User,
  Other
};

enum class TypeShade
{
  MpiWait,       ///< MPI_Wait*, MPI_Test*: waiting for requests
  MpiRecv,       ///< blocking receives and probes: MPI_Recv, MPI_Probe, MPI_Sendrecv
  MpiSend,       ///< sends: MPI_Send, MPI_Isend, MPI_Bsend...
  MpiPost,       ///< posted receives and starts: MPI_Irecv, MPI_Start...
  MpiCollective, ///< MPI_Allreduce, MPI_Bcast, MPI_Gather... (and their I* forms)
  MpiBarrier,    ///< MPI_Barrier, MPI_Ibarrier
  MpiInit,       ///< MPI_Init, MPI_Init_thread
  MpiFinalize,   ///< MPI_Finalize
  MpiOther,      ///< communicators, datatypes, one-sided, queries...
  ThreadsParallel,
  ThreadsWork,
  ThreadsWait, ///< barriers, task waits, joins
  ThreadsSync, ///< critical sections, locks, atomics
  IoRead,
  IoWrite,
  IoMeta, ///< open, close, seek, stat...
  GpuKernel,
  GpuCopy,
  GpuSync,
  User,
  Other
};

struct TypeClass
{
  TypeFamily Family = TypeFamily::User;
  TypeShade Shade = TypeShade::User;
};

class TypeClassifier
{
public:
  // The class of the type `name` of `paradigm` and `role` (the Types
  // table's columns, "" when the format has none); case does not matter.
  static TypeClass Classify(
    std::string_view name, std::string_view paradigm, std::string_view role);

  // "MPI", "threads", "I/O", "GPU", "user code", "other".
  static const char* FamilyName(TypeFamily family);
  static TypeFamily FamilyOf(TypeShade shade);
};
}
