#include "AggregationText.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

namespace macroscope
{

namespace
{

/// Reads one line and splits it into whitespace-separated tokens.
class LineReader
{
public:
  explicit LineReader(std::istream& in)
    : In(in)
  {
  }

  std::vector<std::string> Next(const char* what)
  {
    std::string line;
    if (!std::getline(this->In, line))
    {
      this->Fail(this->Number + 1, std::string("missing (expected ") + what + ")");
    }
    ++this->Number;
    std::istringstream words(line);
    std::vector<std::string> tokens;
    for (std::string token; words >> token;)
    {
      tokens.push_back(token);
    }
    return tokens;
  }

  [[noreturn]] void Fail(std::size_t line, const std::string& why) const
  {
    throw std::invalid_argument("model text, line " + std::to_string(line) + ": " + why);
  }

  long long Integer(const std::string& token) const
  {
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(token.c_str(), &end, 10);
    if (errno != 0 || end == token.c_str() || *end != '\0')
    {
      this->Fail(this->Number, "'" + token + "' is not an integer");
    }
    return value;
  }

  double Value(const std::string& token) const
  {
    char* end = nullptr;
    const double value = std::strtod(token.c_str(), &end);
    if (end == token.c_str() || *end != '\0')
    {
      this->Fail(this->Number, "'" + token + "' is not a number");
    }
    if (!(value >= 0.0) || std::isinf(value))
    {
      this->Fail(this->Number, "value '" + token + "' is not a finite non-negative number");
    }
    return value;
  }

  std::size_t Line() const { return this->Number; }

private:
  std::istream& In;
  std::size_t Number = 0;
};

}

DenseModelText ReadDenseModelText(std::istream& in)
{
  LineReader lines(in);
  const auto header = lines.Next("T S U H");
  if (header.size() != 4)
  {
    lines.Fail(1, "expected 4 integers T S U H, got " + std::to_string(header.size()) + " fields");
  }
  long long dims[4];
  for (int k = 0; k < 4; ++k)
  {
    dims[k] = lines.Integer(header[k]);
  }
  const long long slices = dims[0], resources = dims[1], types = dims[2], nodes = dims[3];
  const long long limit = std::numeric_limits<int>::max();
  if (slices < 1 || resources < 1 || types < 1 || nodes < resources || slices > limit ||
    resources > limit || types > limit || nodes > limit)
  {
    lines.Fail(1, "need T, S, U >= 1 and H >= S");
  }
  if (slices * resources * types > (1LL << 31))
  {
    lines.Fail(1, "model too large");
  }

  DenseModelText text;
  const auto parents = lines.Next("H parent indexes");
  if (static_cast<long long>(parents.size()) != nodes)
  {
    lines.Fail(2,
      "expected " + std::to_string(nodes) + " parent indexes, got " +
        std::to_string(parents.size()));
  }
  for (const auto& token : parents)
  {
    text.Parent.push_back(lines.Integer(token));
  }

  MicroscopicModel& model = text.Model;
  model.Grid.Slices = static_cast<int>(slices);
  model.Resources = static_cast<uint32_t>(resources);
  model.Types = static_cast<uint32_t>(types);
  model.Values.resize(static_cast<std::size_t>(slices * resources * types));
  for (uint32_t s = 0; s < model.Resources; ++s)
  {
    for (uint32_t u = 0; u < model.Types; ++u)
    {
      const auto values = lines.Next("T values");
      if (static_cast<long long>(values.size()) != slices)
      {
        lines.Fail(lines.Line(),
          "expected " + std::to_string(slices) + " values (leaf " + std::to_string(s) + ", type " +
            std::to_string(u) + "), got " + std::to_string(values.size()));
      }
      for (int t = 0; t < model.Grid.Slices; ++t)
      {
        model.At(s, t, u) = lines.Value(values[t]);
      }
    }
  }
  for (std::string rest; std::getline(in, rest);)
  {
    if (rest.find_first_not_of(" \t\r") != std::string::npos)
    {
      lines.Fail(lines.Line() + 1, "unexpected data after the model");
    }
  }
  return text;
}

}
