# Synthesizes a trace, runs examples/read_otf2.py on it, and checks that the
# example printed a non-empty States table.
execute_process(COMMAND "${SYNTH}" --output "${WORK}" --force --quiet RESULT_VARIABLE status)
if (NOT status EQUAL 0)
  message(FATAL_ERROR "macroscope-synth failed (${status})")
endif ()
execute_process(COMMAND "${PVPYTHON}" "${SCRIPT}" "${WORK}/traces.otf2" --plugin "${PLUGIN}"
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if (NOT status EQUAL 0)
  message(FATAL_ERROR "read_otf2.py failed (${status}):\n${err}")
endif ()
if (NOT out MATCHES "States +[1-9][0-9]* rows")
  message(FATAL_ERROR "read_otf2.py printed no states")
endif ()
