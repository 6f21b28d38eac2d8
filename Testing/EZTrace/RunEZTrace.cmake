# Compiles an MPI program of examples/eztrace/ and runs it under EZTrace into an
# OTF2 archive: the setup fixture of an EZTrace cross-check.
#   cmake -DMPICC=... -DMPIRUN=... -DEZTRACE=... [-DEZTRACE_CC=...]
#         -DSOURCE=prog.c -DWORKDIR=dir -DRANKS=n "-DMODULES=openmpi"
#         [-DTHREADS=n] "-DMPIRUN_FLAGS=a;b" "-DARGS=a;b" -P RunEZTrace.cmake
# The archive is WORKDIR/<program>_trace/eztrace_log.otf2 (EZTrace's
# default place, under the working directory).
foreach (var MPICC MPIRUN EZTRACE SOURCE WORKDIR RANKS MODULES)
  if (NOT DEFINED ${var})
    message(FATAL_ERROR "RunEZTrace.cmake: ${var} not set")
  endif ()
endforeach ()
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
get_filename_component(program "${SOURCE}" NAME_WE)
set(compile "${MPICC}" -O1 "${SOURCE}" -o "${WORKDIR}/${program}")
if (DEFINED THREADS)
  # OpenMP: opari2 (through eztrace_cc) rewrites the constructs into calls
  # EZTrace's openmp module records; without it the module sees nothing.
  if (NOT EZTRACE_CC)
    message(FATAL_ERROR "RunEZTrace.cmake: an OpenMP program needs eztrace_cc")
  endif ()
  set(compile "${EZTRACE_CC}" "${MPICC}" -O1 -fopenmp "${SOURCE}" -o "${WORKDIR}/${program}")
endif ()
execute_process(COMMAND ${compile} WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE result)
if (NOT result EQUAL 0)
  message(FATAL_ERROR "compiling ${SOURCE} failed (${result}): ${compile}")
endif ()
set(environment)
if (DEFINED THREADS)
  set(ENV{OMP_NUM_THREADS} ${THREADS})
  set(environment -x OMP_NUM_THREADS)
endif ()
set(command "${MPIRUN}" ${MPIRUN_FLAGS} -np ${RANKS} ${environment}
  "${EZTRACE}" -t "${MODULES}" "./${program}" ${ARGS})
execute_process(COMMAND ${command} WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE result)
if (NOT result EQUAL 0)
  string(REPLACE ";" " " shown "${command}")
  message(FATAL_ERROR "${shown} failed (${result})")
endif ()
set(archive "${WORKDIR}/${program}_trace/eztrace_log.otf2")
if (NOT EXISTS "${archive}")
  message(FATAL_ERROR "EZTrace wrote no archive ${archive}")
endif ()
message(STATUS "EZTrace archive: ${archive}")
