#include "TypeFamily.h"

#include <initializer_list>
#include <string>

namespace macroscope
{
namespace
{
std::string Lowered(std::string_view text)
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

bool StartsWith(std::string_view text, std::string_view prefix)
{
  return text.substr(0, prefix.size()) == prefix;
}

bool ContainsAny(std::string_view text, std::initializer_list<std::string_view> parts)
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

bool IsAny(std::string_view text, std::initializer_list<std::string_view> words)
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

bool StartsWithAny(std::string_view text, std::initializer_list<std::string_view> prefixes)
{
  for (std::string_view prefix : prefixes)
  {
    if (StartsWith(text, prefix))
    {
      return true;
    }
  }
  return false;
}

TypeShade IoShade(std::string_view lower)
{
  if (ContainsAny(lower, { "read", "get", "scanf" }))
  {
    return TypeShade::IoRead;
  }
  if (ContainsAny(lower, { "write", "put", "printf", "flush", "sync" }))
  {
    return TypeShade::IoWrite;
  }
  return TypeShade::IoMeta;
}

// `call`: the lower-case MPI function without "mpi_"/"pmpi_" nor the
// trailing '_' of Fortran bindings.
TypeShade MpiShade(std::string_view call)
{
  if (StartsWithAny(call, { "wait", "test" }))
  {
    return TypeShade::MpiWait;
  }
  if (IsAny(call, { "recv", "mrecv", "probe", "mprobe" }) || StartsWith(call, "sendrecv"))
  {
    return TypeShade::MpiRecv;
  }
  if (StartsWithAny(call, { "irecv", "imrecv", "recv_init", "iprobe", "improbe", "start" }))
  {
    return TypeShade::MpiPost;
  }
  if (call.find("send") != std::string_view::npos)
  {
    return TypeShade::MpiSend;
  }
  if (IsAny(call, { "barrier", "ibarrier" }))
  {
    return TypeShade::MpiBarrier;
  }
  if (StartsWith(call, "init"))
  {
    return TypeShade::MpiInit;
  }
  if (StartsWith(call, "finalize"))
  {
    return TypeShade::MpiFinalize;
  }
  const std::string_view blocking = StartsWith(call, "i") ? call.substr(1) : call;
  if (StartsWithAny(blocking,
        { "allreduce", "reduce", "bcast", "gather", "allgather", "scatter", "alltoall", "scan",
          "exscan", "neighbor_" }))
  {
    return TypeShade::MpiCollective;
  }
  return TypeShade::MpiOther;
}

TypeShade MpiRoleShade(std::string_view role)
{
  if (StartsWith(role, "coll_"))
  {
    return TypeShade::MpiCollective;
  }
  if (IsAny(role, { "barrier", "implicit_barrier" }))
  {
    return TypeShade::MpiBarrier;
  }
  if (role == "point2point")
  {
    return TypeShade::MpiSend;
  }
  return TypeShade::MpiOther;
}

TypeShade ThreadShade(std::string_view lower, std::string_view role)
{
  if (ContainsAny(lower, { "barrier", "wait", "join" }) ||
    IsAny(role, { "barrier", "implicit_barrier", "task_wait", "thread_wait" }))
  {
    return TypeShade::ThreadsWait;
  }
  if (ContainsAny(
        lower, { "critical", "atomic", "lock", "ordered", "flush", "mutex", "cond_", "spin" }) ||
    IsAny(role,
      { "critical", "critical_sblock", "atomic", "flush", "ordered", "ordered_sblock",
        "single_sblock" }))
  {
    return TypeShade::ThreadsSync;
  }
  if (ContainsAny(lower, { "parallel", "create", "fork" }) ||
    IsAny(role, { "parallel", "thread_create" }))
  {
    return TypeShade::ThreadsParallel;
  }
  return TypeShade::ThreadsWork;
}

TypeShade GpuShade(std::string_view lower, std::string_view role)
{
  if (ContainsAny(lower, { "memcpy", "memset", "copy", "transfer", "prefetch" }) ||
    role == "data_transfer")
  {
    return TypeShade::GpuCopy;
  }
  if (ContainsAny(lower, { "sync", "wait", "event" }) ||
    IsAny(role, { "barrier", "implicit_barrier", "task_wait", "thread_wait" }))
  {
    return TypeShade::GpuSync;
  }
  return TypeShade::GpuKernel;
}

bool UpperAt(std::string_view name, std::size_t i)
{
  return i < name.size() && name[i] >= 'A' && name[i] <= 'Z';
}

bool IsGpuName(std::string_view name, std::string_view lower)
{
  return StartsWith(lower, "cuda") || (StartsWith(lower, "cu") && UpperAt(name, 2)) ||
    (StartsWith(lower, "cl") && UpperAt(name, 2)) ||
    (StartsWith(lower, "hip") && UpperAt(name, 3)) ||
    (StartsWith(lower, "nccl") && UpperAt(name, 4));
}

bool IsIoName(std::string_view lower)
{
  while (StartsWith(lower, "_"))
  {
    lower.remove_prefix(1);
  }
  return IsAny(lower,
           { "read", "write", "pread", "pwrite", "pread64", "pwrite64", "readv", "writev", "preadv",
             "pwritev", "fread", "fwrite", "fgets", "fputs", "fgetc", "fputc", "fprintf", "fscanf",
             "getline", "open", "open64", "openat", "creat", "close", "fopen", "fopen64", "fdopen",
             "fclose", "lseek", "lseek64", "fseek", "ftell", "fsync", "fdatasync", "fflush", "stat",
             "fstat", "lstat", "unlink", "rename", "truncate", "ftruncate", "aio_read",
             "aio_write" }) ||
    StartsWithAny(lower, { "h5", "nc_", "adios2_" });
}
}

TypeClass TypeClassifier::Classify(
  std::string_view name, std::string_view paradigm, std::string_view role)
{
  const std::string lower = Lowered(name);
  const std::string p = Lowered(paradigm);
  const std::string r = Lowered(role);

  for (std::string_view prefix : { "mpi_", "pmpi_" })
  {
    if (StartsWith(lower, prefix))
    {
      std::string_view call = std::string_view(lower).substr(prefix.size());
      while (!call.empty() && call.back() == '_')
      {
        call.remove_suffix(1);
      }
      if (StartsWith(call, "file_"))
      {
        return { TypeFamily::IO, IoShade(call.substr(5)) };
      }
      return { TypeFamily::MPI, MpiShade(call) };
    }
  }
  if (StartsWithAny(lower, { "!$omp", "omp_", "gomp_", "__kmpc_", "#pragma omp", "pthread_" }))
  {
    return { TypeFamily::Threads, ThreadShade(lower, r) };
  }
  if (IsGpuName(name, lower))
  {
    return { TypeFamily::GPU, GpuShade(lower, r) };
  }
  if (IsIoName(lower))
  {
    return { TypeFamily::IO, IoShade(lower) };
  }

  if (r == "file_io" || r == "file_io_metadata")
  {
    return { TypeFamily::IO, r == "file_io" ? IoShade(lower) : TypeShade::IoMeta };
  }
  if (IsAny(p, { "mpi", "shmem", "gaspi", "upc" }))
  {
    return { TypeFamily::MPI, MpiRoleShade(r) };
  }
  if (IsAny(p,
        { "openmp", "pthread", "ompss", "winthread", "qtthread", "ace thread", "tbb thread",
          "mtapi" }))
  {
    return { TypeFamily::Threads, ThreadShade(lower, r) };
  }
  if (IsAny(p, { "cuda", "opencl", "hip", "openacc", "hmpp", "kokkos" }))
  {
    return { TypeFamily::GPU, GpuShade(lower, r) };
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
    case TypeFamily::MPI:
      return "MPI";
    case TypeFamily::Threads:
      return "threads";
    case TypeFamily::IO:
      return "I/O";
    case TypeFamily::GPU:
      return "GPU";
    case TypeFamily::User:
      return "user code";
    default:
      return "other";
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
