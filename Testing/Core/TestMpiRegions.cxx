// IsMpiCall: the paradigm decides when it says something, the name otherwise.
#include "MpiRegions.h"

#include <gtest/gtest.h>

using macroscope::IsMpiCall;

TEST(MpiRegions, TheMpiParadigmDecidesWhateverTheName)
{
  EXPECT_TRUE(IsMpiCall("MPI_Send", "MPI"));
  EXPECT_TRUE(IsMpiCall("halo exchange", "MPI")); // a Score-P MPI region renamed
  EXPECT_TRUE(IsMpiCall("MPI_Recv", "mpi"));
}

TEST(MpiRegions, AnotherNamedParadigmIsNeverMpi)
{
  EXPECT_FALSE(IsMpiCall("MPI_Send", "OpenMP"));
  EXPECT_FALSE(IsMpiCall("MPI_Send", "CUDA"));
  EXPECT_FALSE(IsMpiCall("MPI_Send", "pthread"));
}

TEST(MpiRegions, WithoutAParadigmTheNameDecides)
{
  // EZTrace 2.0 marks its MPI regions "user"; Pajé has no paradigm at all.
  for (const char* silent : { "", "user", "USER", "unknown", "compiler" })
  {
    EXPECT_TRUE(IsMpiCall("MPI_Isend", silent)) << silent;
    EXPECT_TRUE(IsMpiCall("MPI_WAITALL", silent)) << silent; // Fortran spelling
    EXPECT_TRUE(IsMpiCall("PMPI_Allreduce", silent)) << silent;
    EXPECT_FALSE(IsMpiCall("Working", silent)) << silent;
    EXPECT_FALSE(IsMpiCall("EZTrace finalize", silent)) << silent;
    EXPECT_FALSE(IsMpiCall("MPI_", silent)) << silent;
    EXPECT_FALSE(IsMpiCall("MPI_1", silent)) << silent;
    EXPECT_FALSE(IsMpiCall("my_MPI_wrapper", silent)) << silent;
    EXPECT_FALSE(IsMpiCall("mpi_send", silent)) << silent; // MPI names are capitalised
  }
}

TEST(MpiRegions, NonblockingSendsByName)
{
  using macroscope::IsNonblockingSend;
  for (const char* name :
    { "MPI_Isend", "MPI_ISEND", "PMPI_Isend", "MPI_Ibsend", "MPI_Issend", "MPI_Irsend" })
  {
    EXPECT_TRUE(IsNonblockingSend(name)) << name;
  }
  for (const char* name : { "MPI_Send", "MPI_Irecv", "MPI_Isendrecv", "MPI_Waitall", "Isend",
         "my_MPI_Isend", "MPI_Isend_init" })
  {
    EXPECT_FALSE(IsNonblockingSend(name)) << name;
  }
}
