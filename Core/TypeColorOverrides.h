// Colours chosen by the user for some type names, replacing the palette's.
//
// The charts draw a type in the colour its data carries (the Types table's
// Color, which readers take from TypePalette or from the trace file) unless
// the user named the type here. The overrides are given as a flat list of
// pairs (type name, "#rrggbb"), the form of the displays' TypeColors
// property, so that one list set on every display recolours every view.
#pragma once

#include "TypePalette.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope
{
class TypeColorOverrides
{
public:
  /// Parses name, colour, name, colour... An empty list is no override.
  /// Throws std::invalid_argument naming the entry on an odd-length list,
  /// an empty name, a name given twice or a colour that is not "#rrggbb".
  static TypeColorOverrides Parse(const std::vector<std::string>& pairs);

  /// "#rrggbb" (hexadecimal digits in either case) to RGB; throws
  /// std::invalid_argument naming the text otherwise.
  static RGB ParseColor(std::string_view text);

  /// RGB to "#rrggbb", lower case (the form ParseColor reads).
  static std::string FormatColor(RGB color);

  /// The colour chosen for `name`, or null when it has none.
  const RGB* Find(std::string_view name) const;

  /// The colour chosen for `name`, else `fallback` (the data's colour).
  RGB Resolve(std::string_view name, RGB fallback) const;

  /// The colour chosen for `name`, else the palette's.
  RGB Resolve(std::string_view name) const;

  bool Empty() const { return this->Colors.empty(); }
  std::size_t Size() const { return this->Colors.size(); }

private:
  std::map<std::string, RGB, std::less<>> Colors;
};
}
