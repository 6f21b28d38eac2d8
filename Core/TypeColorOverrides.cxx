#include "TypeColorOverrides.h"

#include <stdexcept>

namespace macroscope
{
namespace
{
int HexDigit(char c)
{
  if (c >= '0' && c <= '9')
  {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f')
  {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F')
  {
    return c - 'A' + 10;
  }
  return -1;
}
}

RGB TypeColorOverrides::ParseColor(std::string_view text)
{
  const auto invalid = [&]
  {
    return std::invalid_argument(
      "colour \"" + std::string(text) + "\" is not of the form #rrggbb (e.g. #ff8000)");
  };
  if (text.size() != 7 || text[0] != '#')
  {
    throw invalid();
  }
  RGB color{};
  for (int c = 0; c < 3; ++c)
  {
    const int high = HexDigit(text[1 + 2 * c]), low = HexDigit(text[2 + 2 * c]);
    if (high < 0 || low < 0)
    {
      throw invalid();
    }
    color[c] = static_cast<std::uint8_t>(16 * high + low);
  }
  return color;
}

std::string TypeColorOverrides::FormatColor(RGB color)
{
  static const char digits[] = "0123456789abcdef";
  std::string text = "#";
  for (std::uint8_t channel : color)
  {
    text += digits[channel >> 4];
    text += digits[channel & 15];
  }
  return text;
}

TypeColorOverrides TypeColorOverrides::Parse(const std::vector<std::string>& pairs)
{
  if (pairs.size() % 2 != 0)
  {
    throw std::invalid_argument("type colours come in pairs (type name, #rrggbb): the list has " +
      std::to_string(pairs.size()) + " entries, the last (\"" + pairs.back() + "\") has no colour");
  }
  TypeColorOverrides overrides;
  for (std::size_t i = 0; i < pairs.size(); i += 2)
  {
    const std::string& name = pairs[i];
    const std::string where = "type colour " + std::to_string(i / 2 + 1) + " (\"" + name + "\")";
    if (name.empty())
    {
      throw std::invalid_argument(where + ": the type name is empty");
    }
    RGB color;
    try
    {
      color = ParseColor(pairs[i + 1]);
    }
    catch (const std::invalid_argument& error)
    {
      throw std::invalid_argument(where + ": " + error.what());
    }
    if (!overrides.Colors.emplace(name, color).second)
    {
      throw std::invalid_argument(where + ": the type is given a colour twice");
    }
  }
  return overrides;
}

const RGB* TypeColorOverrides::Find(std::string_view name) const
{
  const auto it = this->Colors.find(name);
  return it == this->Colors.end() ? nullptr : &it->second;
}

RGB TypeColorOverrides::Resolve(std::string_view name, RGB fallback) const
{
  const RGB* chosen = this->Find(name);
  return chosen ? *chosen : fallback;
}

RGB TypeColorOverrides::Resolve(std::string_view name) const
{
  const RGB* chosen = this->Find(name);
  return chosen ? *chosen : TypePalette::ColorOf(name);
}
}
