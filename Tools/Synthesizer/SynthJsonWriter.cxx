#include "SynthJsonWriter.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace macroscope::synth
{

JsonWriter::JsonWriter(std::ostream& out)
  : Out(out)
{
}

void JsonWriter::newline()
{
  this->Out << '\n' << std::string(2 * this->Levels.size(), ' ');
}

void JsonWriter::beginValue()
{
  if (this->AfterKey)
  {
    this->AfterKey = false;
    return;
  }
  if (!this->Levels.empty())
  {
    Level& level = this->Levels.back();
    this->Out << (level.Items++ > 0 ? "," : "");
    this->newline();
  }
}

JsonWriter& JsonWriter::beginObject()
{
  this->beginValue();
  this->Out << '{';
  this->Levels.push_back({ false, 0 });
  return *this;
}

JsonWriter& JsonWriter::endObject()
{
  const bool empty = this->Levels.back().Items == 0;
  this->Levels.pop_back();
  if (!empty)
  {
    this->newline();
  }
  this->Out << '}';
  if (this->Levels.empty())
  {
    this->Out << '\n';
  }
  return *this;
}

JsonWriter& JsonWriter::beginArray()
{
  this->beginValue();
  this->Out << '[';
  this->Levels.push_back({ true, 0 });
  return *this;
}

JsonWriter& JsonWriter::endArray()
{
  const bool empty = this->Levels.back().Items == 0;
  this->Levels.pop_back();
  if (!empty)
  {
    this->newline();
  }
  this->Out << ']';
  return *this;
}

JsonWriter& JsonWriter::key(const std::string& name)
{
  this->beginValue();
  this->writeQuoted(name);
  this->Out << ": ";
  this->AfterKey = true;
  return *this;
}

JsonWriter& JsonWriter::value(const std::string& text)
{
  this->beginValue();
  this->writeQuoted(text);
  return *this;
}

void JsonWriter::writeQuoted(const std::string& text)
{
  this->Out << '"';
  for (char c : text)
  {
    switch (c)
    {
      case '"':
        this->Out << "\\\"";
        break;
      case '\\':
        this->Out << "\\\\";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
        {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", static_cast<unsigned>(c));
          this->Out << escaped;
        }
        else
        {
          this->Out << c;
        }
    }
  }
  this->Out << '"';
}

JsonWriter& JsonWriter::value(uint64_t number)
{
  this->beginValue();
  this->Out << number;
  return *this;
}

JsonWriter& JsonWriter::value(double number)
{
  this->beginValue();
  if (!std::isfinite(number))
  {
    this->Out << "null";
    return *this;
  }
  // Shortest text that reads back as the same double.
  char text[32];
  for (int precision = 6; precision <= 17; ++precision)
  {
    std::snprintf(text, sizeof(text), "%.*g", precision, number);
    if (std::strtod(text, nullptr) == number)
    {
      break;
    }
  }
  this->Out << text;
  return *this;
}

JsonWriter& JsonWriter::value(bool flag)
{
  this->beginValue();
  this->Out << (flag ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::null()
{
  this->beginValue();
  this->Out << "null";
  return *this;
}

JsonWriter& JsonWriter::strings(const std::vector<std::string>& list)
{
  this->beginValue();
  this->Out << '[';
  for (std::size_t i = 0; i < list.size(); ++i)
  {
    this->Out << (i > 0 ? ", " : "");
    this->writeQuoted(list[i]);
  }
  this->Out << ']';
  return *this;
}

} // namespace macroscope::synth
