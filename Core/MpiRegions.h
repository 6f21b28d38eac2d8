// Which state types are MPI calls. Filters that need MPI calls (Logical
// Time's communication steps) ask here, so that every format and tracer is
// classified the same way.
#ifndef macroscope_MpiRegions_h
#define macroscope_MpiRegions_h

#include <string>

namespace macroscope
{

/// Whether a state type of this name and paradigm is an MPI call. The
/// paradigm decides when it names one ("MPI" yes; "OpenMP", "CUDA", ... no).
/// When it says nothing about the call - empty (formats without paradigms,
/// such as Pajé), "unknown", "user" (EZTrace marks its MPI regions so) or
/// "compiler" - the name decides: MPI's C and Fortran names, "MPI_" followed
/// by a letter ("MPI_Send", "MPI_ISEND"), or the profiling "PMPI_" ones.
/// Paradigms compare without case.
bool IsMpiCall(const std::string& name, const std::string& paradigm);

/// Whether a call of this name is a non-blocking point-to-point send:
/// MPI_Isend, MPI_Ibsend, MPI_Issend or MPI_Irsend, in C or Fortran case,
/// or their PMPI_ names. Logical Time coalesces runs of them (Ravel's Isend
/// coalescing); ask IsMpiCall first.
bool IsNonblockingSend(const std::string& name);

} // namespace macroscope

#endif
