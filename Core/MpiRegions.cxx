#include "MpiRegions.h"

#include <cctype>

namespace macroscope
{

namespace
{
bool EqualsIgnoringCase(const std::string& text, const char* word)
{
  std::size_t i = 0;
  for (; i < text.size() && word[i] != '\0'; ++i)
  {
    if (std::tolower(static_cast<unsigned char>(text[i])) !=
      std::tolower(static_cast<unsigned char>(word[i])))
    {
      return false;
    }
  }
  return i == text.size() && word[i] == '\0';
}

bool HasMpiName(const std::string& name)
{
  const std::size_t prefix = name.rfind("MPI_", 0) == 0 ? 4 : name.rfind("PMPI_", 0) == 0 ? 5 : 0;
  return prefix > 0 && name.size() > prefix &&
    std::isalpha(static_cast<unsigned char>(name[prefix])) != 0;
}
}

bool IsMpiCall(const std::string& name, const std::string& paradigm)
{
  if (EqualsIgnoringCase(paradigm, "MPI"))
  {
    return true;
  }
  const bool silent = paradigm.empty() || EqualsIgnoringCase(paradigm, "unknown") ||
    EqualsIgnoringCase(paradigm, "user") || EqualsIgnoringCase(paradigm, "compiler");
  return silent && HasMpiName(name);
}

bool IsNonblockingSend(const std::string& name)
{
  if (!HasMpiName(name))
  {
    return false;
  }
  const std::string call = name.substr(name.find('_') + 1);
  for (const char* send : { "Isend", "Ibsend", "Issend", "Irsend" })
  {
    if (EqualsIgnoringCase(call, send))
    {
      return true;
    }
  }
  return false;
}

} // namespace macroscope
