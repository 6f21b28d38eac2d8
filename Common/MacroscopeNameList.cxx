#include "MacroscopeNameList.h"

void MacroscopeNameList::Add(std::vector<std::string>& names, const char* name)
{
  names.emplace_back(name ? name : "");
}

bool MacroscopeNameList::Clear(std::vector<std::string>& names)
{
  if (names.empty())
  {
    return false;
  }
  names.clear();
  return true;
}

void MacroscopeNameList::Print(
  std::ostream& os, vtkIndent indent, const char* label, const std::vector<std::string>& names)
{
  os << indent << label << ":";
  for (const std::string& name : names)
  {
    os << " \"" << name << "\"";
  }
  os << (names.empty() ? " (all)\n" : "\n");
}
