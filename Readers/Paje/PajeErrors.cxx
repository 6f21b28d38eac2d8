#include "PajeErrors.h"

namespace macroscope::paje
{

ParseError::ParseError(const std::string& source, uint64_t line, const std::string& problem)
  : TraceError((source.empty() ? std::string("line ") : source + ":") + std::to_string(line) +
      ": " + problem)
  , Line(line)
  , Problem(problem)
{
}

ReadAborted::ReadAborted()
  : std::runtime_error("reading the Pajé trace was aborted")
{
}

} // namespace macroscope::paje
