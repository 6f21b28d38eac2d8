// libFuzzer target for the Pajé parser: any input must either parse or
// throw ParseError; anything else (a crash, a sanitizer report, another
// exception, a hang) is a bug.
#include <MacroscopePaje.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
  try
  {
    macroscope::paje::ParseTrace(std::string_view(reinterpret_cast<const char*>(data), size));
  }
  catch (const macroscope::paje::ParseError&)
  {
  }
  return 0;
}
