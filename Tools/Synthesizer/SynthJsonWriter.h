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

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& Key(const std::string& name);

  JsonWriter& Value(const std::string& text);
  JsonWriter& Value(const char* text) { return this->Value(std::string(text)); }
  JsonWriter& Value(uint64_t number);
  JsonWriter& Value(uint32_t number) { return this->Value(uint64_t(number)); }
  /// Non-finite numbers become null (JSON has no infinity).
  JsonWriter& Value(double number);
  JsonWriter& Value(bool flag);
  JsonWriter& Null();
  template <typename Number>
  JsonWriter& Numbers(const std::vector<Number>& list);
  JsonWriter& Strings(const std::vector<std::string>& list);

private:
  void BeginValue();
  void WriteQuoted(const std::string& text);
  void Newline();

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
JsonWriter& JsonWriter::Numbers(const std::vector<Number>& list)
{
  this->BeginValue();
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
