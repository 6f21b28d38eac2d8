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

std::string Excerpt(std::string_view text)
{
  if (text.size() <= ExcerptBytes)
  {
    return "\"" + std::string(text) + "\"";
  }
  std::size_t cut = ExcerptBytes - 16;
  // Back to the first byte of a UTF-8 character (continuation bytes are 10xxxxxx).
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
  {
    --cut;
  }
  return "\"" + std::string(text.substr(0, cut)) + "...\" (" + std::to_string(text.size()) +
    " bytes)";
}

ReadAborted::ReadAborted()
  : std::runtime_error("reading the Pajé trace was aborted")
{
}

} // namespace macroscope::paje
