#include "TypeFamily.h"

#include <initializer_list>
#include <string>

namespace macroscope
{
namespace
{
std::string lowered(std::string_view text)
{
  std::string out(text);
  for (char& c : out)
  {
    if (c >= 'A' && c <= 'Z')
    {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return out;
}

bool startsWith(std::string_view text, std::string_view prefix)
{
  return text.substr(0, prefix.size()) == prefix;
}

bool containsAny(std::string_view text, std::initializer_list<std::string_view> parts)
{
  for (std::string_view part : parts)
  {
    if (text.find(part) != std::string_view::npos)
    {
      return true;
    }
  }
  return false;
}

bool isAny(std::string_view text, std::initializer_list<std::string_view> words)
{
  for (std::string_view word : words)
  {
    if (text == word)
    {
      return true;
    }
  }
  return false;
}

bool startsWithAny(std::string_view text, std::initializer_list<std::string_view> prefixes)
{
  for (std::string_view prefix : prefixes)
  {
    if (startsWith(text, prefix))
    {
      return true;
    }
  }
  return false;
}

TypeShade ioShade(std::string_view lower)
{
  if (containsAny(lower, { "read", "get", "scanf" }))
  {
    return TypeShade::IoRead;
  }
  if (containsAny(lower, { "write", "put", "printf", "flush", "sync" }))
  {
    return TypeShade::IoWrite;
  }
  return TypeShade::IoMeta;
}

// `call`: the lower-case MPI function without "mpi_"/"pmpi_" nor the
// trailing '_' of Fortran bindings.
TypeShade mpiShade(std::string_view call)
{
  if (startsWithAny(call, { "wait", "test" }))
  {
    return TypeShade::MpiWait;
  }
  if (isAny(call, { "recv", "mrecv", "probe", "mprobe" }) || startsWith(call, "sendrecv"))
  {
    return TypeShade::MpiRecv;
  }
  if (startsWithAny(call, { "irecv", "imrecv", "recv_init", "iprobe", "improbe", "start" }))
  {
    return TypeShade::MpiPost;
  }
  if (call.find("send") != std::string_view::npos)
  {
    return TypeShade::MpiSend;
  }
  if (isAny(call, { "barrier", "ibarrier" }))
  {
    return TypeShade::MpiBarrier;
  }
  if (startsWith(call, "init"))
  {
    return TypeShade::MpiInit;
  }
  if (startsWith(call, "finalize"))
  {
    return TypeShade::MpiFinalize;
  }
  const std::string_view blocking = startsWith(call, "i") ? call.substr(1) : call;
  if (startsWithAny(blocking,
        { "allreduce", "reduce", "bcast", "gather", "allgather", "scatter", "alltoall", "scan",
          "exscan", "neighbor_" }))
  {
    return TypeShade::MpiCollective;
  }
  return TypeShade::MpiOther;
}

TypeShade mpiRoleShade(std::string_view role)
{
  if (startsWith(role, "coll_"))
  {
    return TypeShade::MpiCollective;
  }
  if (isAny(role, { "barrier", "implicit_barrier" }))
  {
    return TypeShade::MpiBarrier;
  }
  if (role == "point2point")
  {
    return TypeShade::MpiSend;
  }
  return TypeShade::MpiOther;
}

TypeShade threadShade(std::string_view lower, std::string_view role)
{
  if (containsAny(lower, { "barrier", "wait", "join" }) ||
    isAny(role, { "barrier", "implicit_barrier", "task_wait", "thread_wait" }))
  {
    return TypeShade::ThreadsWait;
  }
  if (containsAny(lower, { "critical", "atomic", "lock", "ordered", "flush", "mutex", "cond_",
        "spin" }) ||
    isAny(role, { "critical", "critical_sblock", "atomic", "flush", "ordered", "ordered_sblock",
                  "single_sblock" }))
  {
    return TypeShade::ThreadsSync;
  }
  if (containsAny(lower, { "parallel", "create", "fork" }) ||
    isAny(role, { "parallel", "thread_create" }))
  {
    return TypeShade::ThreadsParallel;
  }
  return TypeShade::ThreadsWork;
}

TypeShade gpuShade(std::string_view lower, std::string_view role)
{
  if (containsAny(lower, { "memcpy", "memset", "copy", "transfer", "prefetch" }) ||
    role == "data_transfer")
  {
    return TypeShade::GpuCopy;
  }
  if (containsAny(lower, { "sync", "wait", "event" }) ||
    isAny(role, { "barrier", "implicit_barrier", "task_wait", "thread_wait" }))
  {
    return TypeShade::GpuSync;
  }
  return TypeShade::GpuKernel;
}

bool upperAt(std::string_view name, std::size_t i)
{
  return i < name.size() && name[i] >= 'A' && name[i] <= 'Z';
}

bool isGpuName(std::string_view name, std::string_view lower)
{
  return startsWith(lower, "cuda") || (startsWith(lower, "cu") && upperAt(name, 2)) ||
    (startsWith(lower, "cl") && upperAt(name, 2)) ||
    (startsWith(lower, "hip") && upperAt(name, 3)) ||
    (startsWith(lower, "nccl") && upperAt(name, 4));
}

bool isIoName(std::string_view lower)
{
  while (startsWith(lower, "_"))
  {
    lower.remove_prefix(1);
  }
  return isAny(lower,
           { "read", "write", "pread", "pwrite", "pread64", "pwrite64", "readv", "writev",
             "preadv", "pwritev", "fread", "fwrite", "fgets", "fputs", "fgetc", "fputc",
             "fprintf", "fscanf", "getline", "open", "open64", "openat", "creat", "close",
             "fopen", "fopen64", "fdopen", "fclose", "lseek", "lseek64", "fseek", "ftell",
             "fsync", "fdatasync", "fflush", "stat", "fstat", "lstat", "unlink", "rename",
             "truncate", "ftruncate", "aio_read", "aio_write" }) ||
    startsWithAny(lower, { "h5", "nc_", "adios2_" });
}
}

TypeClass TypeClassifier::Classify(
  std::string_view name, std::string_view paradigm, std::string_view role)
{
  const std::string lower = lowered(name);
  const std::string p = lowered(paradigm);
  const std::string r = lowered(role);

  for (std::string_view prefix : { "mpi_", "pmpi_" })
  {
    if (startsWith(lower, prefix))
    {
      std::string_view call = std::string_view(lower).substr(prefix.size());
      while (!call.empty() && call.back() == '_')
      {
        call.remove_suffix(1);
      }
      if (startsWith(call, "file_"))
      {
        return { TypeFamily::IO, ioShade(call.substr(5)) };
      }
      return { TypeFamily::MPI, mpiShade(call) };
    }
  }
  if (startsWithAny(lower, { "!$omp", "omp_", "gomp_", "__kmpc_", "#pragma omp", "pthread_" }))
  {
    return { TypeFamily::Threads, threadShade(lower, r) };
  }
  if (isGpuName(name, lower))
  {
    return { TypeFamily::GPU, gpuShade(lower, r) };
  }
  if (isIoName(lower))
  {
    return { TypeFamily::IO, ioShade(lower) };
  }

  if (r == "file_io" || r == "file_io_metadata")
  {
    return { TypeFamily::IO, r == "file_io" ? ioShade(lower) : TypeShade::IoMeta };
  }
  if (isAny(p, { "mpi", "shmem", "gaspi", "upc" }))
  {
    return { TypeFamily::MPI, mpiRoleShade(r) };
  }
  if (isAny(p, { "openmp", "pthread", "ompss", "winthread", "qtthread", "ace thread",
                 "tbb thread", "mtapi" }))
  {
    return { TypeFamily::Threads, threadShade(lower, r) };
  }
  if (isAny(p, { "cuda", "opencl", "hip", "openacc", "hmpp", "kokkos" }))
  {
    return { TypeFamily::GPU, gpuShade(lower, r) };
  }
  if (p == "measurement" || r == "artificial")
  {
    return { TypeFamily::Other, TypeShade::Other };
  }
  return { TypeFamily::User, TypeShade::User };
}

const char* TypeClassifier::FamilyName(TypeFamily family)
{
  switch (family)
  {
    case TypeFamily::MPI: return "MPI";
    case TypeFamily::Threads: return "threads";
    case TypeFamily::IO: return "I/O";
    case TypeFamily::GPU: return "GPU";
    case TypeFamily::User: return "user code";
    default: return "other";
  }
}

TypeFamily TypeClassifier::FamilyOf(TypeShade shade)
{
  if (shade <= TypeShade::MpiOther)
  {
    return TypeFamily::MPI;
  }
  if (shade <= TypeShade::ThreadsSync)
  {
    return TypeFamily::Threads;
  }
  if (shade <= TypeShade::IoMeta)
  {
    return TypeFamily::IO;
  }
  if (shade <= TypeShade::GpuSync)
  {
    return TypeFamily::GPU;
  }
  return shade == TypeShade::User ? TypeFamily::User : TypeFamily::Other;
}
}
