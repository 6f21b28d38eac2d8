# Compiles an MPI program of this directory with smpicc and runs it under
# smpirun into a Pajé trace: the setup fixture of an SMPI cross-check test.
#   cmake -DSMPICC=... -DSMPIRUN=... -DSOURCE=prog.c -DWORKDIR=dir -DRANKS=n
#         -DPLATFORM=file.xml -DHOSTFILE=file -DTRACE=out.paje
#         [-DTRACE_PLATFORM=ON] "-DARGS=a;b" -P RunSMPI.cmake
foreach (var SMPICC SMPIRUN SOURCE WORKDIR RANKS PLATFORM HOSTFILE TRACE)
  if (NOT DEFINED ${var})
    message(FATAL_ERROR "RunSMPI.cmake: ${var} not set")
  endif ()
endforeach ()
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
get_filename_component(program "${SOURCE}" NAME_WE)
execute_process(
  COMMAND "${SMPICC}" -O1 "${SOURCE}" -o "${WORKDIR}/${program}"
  WORKING_DIRECTORY "${WORKDIR}"
  RESULT_VARIABLE result)
if (NOT result EQUAL 0)
  message(FATAL_ERROR "smpicc ${SOURCE} failed (${result})")
endif ()
set(options)
if (TRACE_PLATFORM)
  # Host and link variables (power, bandwidth and their use).
  list(APPEND options --cfg=tracing/platform:yes --cfg=tracing/uncategorized:yes)
endif ()
if (DEFINED PRECISION)
  list(APPEND options --cfg=tracing/precision:${PRECISION})
endif ()
execute_process(
  COMMAND "${SMPIRUN}" -np ${RANKS} -platform "${PLATFORM}" -hostfile "${HOSTFILE}"
    -trace -trace-file "${TRACE}" ${options} "${WORKDIR}/${program}" ${ARGS}
  WORKING_DIRECTORY "${WORKDIR}"
  RESULT_VARIABLE result)
if (NOT result EQUAL 0)
  message(FATAL_ERROR "smpirun ${program} failed (${result})")
endif ()
if (NOT EXISTS "${TRACE}")
  message(FATAL_ERROR "smpirun ${program} wrote no trace ${TRACE}")
endif ()
