#include "TypeFamily.h"

#include <gtest/gtest.h>

using macroscope::TypeClassifier;
using macroscope::TypeFamily;
using macroscope::TypeShade;

namespace
{
struct Case
{
  const char* Name;
  const char* Paradigm;
  const char* Role;
  TypeShade Expected;
};

void check(const Case& c)
{
  const auto found = TypeClassifier::Classify(c.Name, c.Paradigm, c.Role);
  EXPECT_EQ(int(found.Shade), int(c.Expected))
    << c.Name << " (" << c.Paradigm << ", " << c.Role << ")";
  EXPECT_EQ(int(found.Family), int(TypeClassifier::FamilyOf(c.Expected))) << c.Name;
}
}

TEST(TypeFamily, MpiByNameWhateverTheParadigm)
{
  const Case cases[] = {
    // Score-P / the synthesizer: paradigm MPI, OTF2 roles.
    { "MPI_Waitall", "MPI", "point2point", TypeShade::MpiWait },
    { "MPI_Wait", "MPI", "point2point", TypeShade::MpiWait },
    { "MPI_Testsome", "MPI", "point2point", TypeShade::MpiWait },
    { "MPI_Recv", "MPI", "point2point", TypeShade::MpiRecv },
    { "MPI_Sendrecv", "MPI", "point2point", TypeShade::MpiRecv },
    { "MPI_Probe", "MPI", "point2point", TypeShade::MpiRecv },
    { "MPI_Send", "MPI", "point2point", TypeShade::MpiSend },
    { "MPI_Isend", "MPI", "point2point", TypeShade::MpiSend },
    { "MPI_Issend", "MPI", "point2point", TypeShade::MpiSend },
    { "MPI_Irecv", "MPI", "point2point", TypeShade::MpiPost },
    { "MPI_Startall", "MPI", "point2point", TypeShade::MpiPost },
    { "MPI_Allreduce", "MPI", "coll_all2all", TypeShade::MpiCollective },
    { "MPI_Ibcast", "MPI", "coll_one2all", TypeShade::MpiCollective },
    { "MPI_Reduce_scatter_block", "MPI", "coll_all2all", TypeShade::MpiCollective },
    { "MPI_Neighbor_alltoallv", "MPI", "coll_other", TypeShade::MpiCollective },
    { "MPI_Barrier", "MPI", "barrier", TypeShade::MpiBarrier },
    { "MPI_Init_thread", "MPI", "function", TypeShade::MpiInit },
    { "MPI_Finalize", "MPI", "function", TypeShade::MpiFinalize },
    { "MPI_Comm_split", "MPI", "function", TypeShade::MpiOther },
    { "MPI_Put", "MPI", "rma", TypeShade::MpiOther },
    // EZTrace marks MPI calls "user"; SimGrid's SMPI writes PMPI_* values
    // of the Pajé state type MPI_STATE; Fortran bindings are lower case
    // with a trailing underscore.
    { "MPI_Waitall", "user", "function", TypeShade::MpiWait },
    { "MPI_Recv", "user", "function", TypeShade::MpiRecv },
    { "PMPI_Waitall", "MPI_STATE", "", TypeShade::MpiWait },
    { "PMPI_Allreduce", "MPI_STATE", "", TypeShade::MpiCollective },
    { "PMPI_Irecv", "MPI_STATE", "", TypeShade::MpiPost },
    { "PMPI_Init", "MPI_STATE", "", TypeShade::MpiInit },
    { "mpi_send_", "", "", TypeShade::MpiSend },
    { "mpi_waitall__", "", "", TypeShade::MpiWait },
    // MPI-IO is I/O.
    { "MPI_File_read_at_all", "MPI", "file_io", TypeShade::IoRead },
    { "MPI_File_write", "MPI", "file_io", TypeShade::IoWrite },
    { "MPI_File_open", "MPI", "file_io_metadata", TypeShade::IoMeta },
  };
  for (const Case& c : cases)
  {
    check(c);
  }
}

TEST(TypeFamily, ThreadsGpuIoByName)
{
  const Case cases[] = {
    { "!$omp parallel", "OpenMP", "parallel", TypeShade::ThreadsParallel },
    { "!$omp implicit barrier", "OpenMP", "implicit_barrier", TypeShade::ThreadsWait },
    { "!$omp for", "", "", TypeShade::ThreadsWork },
    { "!$omp critical", "", "", TypeShade::ThreadsSync },
    { "GOMP_parallel", "", "", TypeShade::ThreadsParallel },
    { "GOMP_barrier", "", "", TypeShade::ThreadsWait },
    { "omp_set_lock", "", "", TypeShade::ThreadsSync },
    { "pthread_create", "", "", TypeShade::ThreadsParallel },
    { "pthread_join", "", "", TypeShade::ThreadsWait },
    { "pthread_cond_wait", "", "", TypeShade::ThreadsWait },
    { "pthread_mutex_lock", "", "", TypeShade::ThreadsSync },
    { "cudaMemcpyAsync", "", "", TypeShade::GpuCopy },
    { "cudaDeviceSynchronize", "", "", TypeShade::GpuSync },
    { "cudaLaunchKernel", "", "", TypeShade::GpuKernel },
    { "cuMemcpyHtoD", "", "", TypeShade::GpuCopy },
    { "clEnqueueNDRangeKernel", "", "", TypeShade::GpuKernel },
    { "hipStreamSynchronize", "", "", TypeShade::GpuSync },
    { "read", "", "", TypeShade::IoRead },
    { "fwrite", "", "", TypeShade::IoWrite },
    { "open64", "", "", TypeShade::IoMeta },
    { "__fopen", "", "", TypeShade::IoMeta },
    { "H5Dread", "", "", TypeShade::IoRead },
    { "nc_put_vara_double", "", "", TypeShade::IoWrite },
  };
  for (const Case& c : cases)
  {
    check(c);
  }
}

TEST(TypeFamily, ParadigmAndRoleWhereTheNameSaysNothing)
{
  const Case cases[] = {
    { "halo", "MPI", "coll_all2all", TypeShade::MpiCollective },
    { "halo", "SHMEM", "barrier", TypeShade::MpiBarrier },
    { "region", "OpenMP", "implicit_barrier", TypeShade::ThreadsWait },
    { "region", "pthread", "critical", TypeShade::ThreadsSync },
    { "region", "OpenMP", "loop", TypeShade::ThreadsWork },
    { "kernel_7", "CUDA", "function", TypeShade::GpuKernel },
    { "upload", "OpenCL", "data_transfer", TypeShade::GpuCopy },
    { "checkpoint", "user", "file_io", TypeShade::IoMeta },
    { "dump_read", "user", "file_io", TypeShade::IoRead },
    { "TRACE BUFFER FLUSH", "measurement", "artificial", TypeShade::Other },
    // User code and anything unrecognised.
    { "compute", "user", "function", TypeShade::User },
    { "main", "compiler", "function", TypeShade::User },
    { "iteration", "user", "loop", TypeShade::User },
    { "computing", "MPI_STATE", "", TypeShade::User }, // SMPI's time between MPI calls
    { "clear_buffers", "", "", TypeShade::User },      // "cl" but not OpenCL
    { "custom_step", "", "", TypeShade::User },        // "cu" but not CUDA
    { "mpiexec_wrapper", "", "", TypeShade::User },    // not "mpi_"
    { "Running", "STATE", "", TypeShade::User },
  };
  for (const Case& c : cases)
  {
    check(c);
  }
}

TEST(TypeFamily, CaseDoesNotMatter)
{
  for (const char* name : { "MPI_WAITALL", "mpi_waitall", "Mpi_WaitAll" })
  {
    EXPECT_EQ(int(TypeClassifier::Classify(name, "", "").Shade), int(TypeShade::MpiWait)) << name;
  }
  EXPECT_EQ(int(TypeClassifier::Classify("x", "openmp", "IMPLICIT_BARRIER").Shade),
    int(TypeShade::ThreadsWait));
  EXPECT_STREQ(TypeClassifier::FamilyName(TypeFamily::MPI), "MPI");
  EXPECT_STREQ(TypeClassifier::FamilyName(TypeFamily::User), "user code");
}
