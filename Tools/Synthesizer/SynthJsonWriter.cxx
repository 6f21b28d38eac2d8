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

void JsonWriter::Newline()
{
  this->Out << '\n' << std::string(2 * this->Levels.size(), ' ');
}

void JsonWriter::BeginValue()
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
    this->Newline();
  }
}

JsonWriter& JsonWriter::BeginObject()
{
  this->BeginValue();
  this->Out << '{';
  this->Levels.push_back({ false, 0 });
  return *this;
}

JsonWriter& JsonWriter::EndObject()
{
  const bool empty = this->Levels.back().Items == 0;
  this->Levels.pop_back();
  if (!empty)
  {
    this->Newline();
  }
  this->Out << '}';
  if (this->Levels.empty())
  {
    this->Out << '\n';
  }
  return *this;
}

JsonWriter& JsonWriter::BeginArray()
{
  this->BeginValue();
  this->Out << '[';
  this->Levels.push_back({ true, 0 });
  return *this;
}

JsonWriter& JsonWriter::EndArray()
{
  const bool empty = this->Levels.back().Items == 0;
  this->Levels.pop_back();
  if (!empty)
  {
    this->Newline();
  }
  this->Out << ']';
  return *this;
}

JsonWriter& JsonWriter::Key(const std::string& name)
{
  this->BeginValue();
  this->WriteQuoted(name);
  this->Out << ": ";
  this->AfterKey = true;
  return *this;
}

JsonWriter& JsonWriter::Value(const std::string& text)
{
  this->BeginValue();
  this->WriteQuoted(text);
  return *this;
}

void JsonWriter::WriteQuoted(const std::string& text)
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

JsonWriter& JsonWriter::Value(uint64_t number)
{
  this->BeginValue();
  this->Out << number;
  return *this;
}

JsonWriter& JsonWriter::Value(double number)
{
  this->BeginValue();
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

JsonWriter& JsonWriter::Value(bool flag)
{
  this->BeginValue();
  this->Out << (flag ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::Null()
{
  this->BeginValue();
  this->Out << "null";
  return *this;
}

JsonWriter& JsonWriter::Strings(const std::vector<std::string>& list)
{
  this->BeginValue();
  this->Out << '[';
  for (std::size_t i = 0; i < list.size(); ++i)
  {
    this->Out << (i > 0 ? ", " : "");
    this->WriteQuoted(list[i]);
  }
  this->Out << ']';
  return *this;
}

} // namespace macroscope::synth
