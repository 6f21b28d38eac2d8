// Internal: a minimal streaming JSON writer for the side files (two-space
// indentation; arrays of numbers stay on one line).
#ifndef macroscope_synth_SynthJsonWriter_h
#define macroscope_synth_SynthJsonWriter_h

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace macroscope::synth
{

class JsonWriter
{
public:
  explicit JsonWriter(std::ostream& out);

  JsonWriter& beginObject();
  JsonWriter& endObject();
  JsonWriter& beginArray();
  JsonWriter& endArray();
  JsonWriter& key(const std::string& name);

  JsonWriter& value(const std::string& text);
  JsonWriter& value(const char* text) { return this->value(std::string(text)); }
  JsonWriter& value(uint64_t number);
  JsonWriter& value(uint32_t number) { return this->value(uint64_t(number)); }
  /// Non-finite numbers become null (JSON has no infinity).
  JsonWriter& value(double number);
  JsonWriter& value(bool flag);
  JsonWriter& null();
  template <typename Number>
  JsonWriter& numbers(const std::vector<Number>& list);
  JsonWriter& strings(const std::vector<std::string>& list);

private:
  void beginValue();
  void writeQuoted(const std::string& text);
  void newline();

  struct Level
  {
    bool IsArray;
    uint64_t Items;
  };
  std::ostream& Out;
  std::vector<Level> Levels;
  bool AfterKey = false;
};

template <typename Number>
JsonWriter& JsonWriter::numbers(const std::vector<Number>& list)
{
  this->beginValue();
  this->Out << '[';
  for (std::size_t i = 0; i < list.size(); ++i)
  {
    this->Out << (i > 0 ? ", " : "") << list[i];
  }
  this->Out << ']';
  return *this;
}

} // namespace macroscope::synth

#endif
