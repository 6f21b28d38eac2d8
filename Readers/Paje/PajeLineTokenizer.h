// Splits a Pajé trace held in memory into lines of fields, without copying:
// fields are views into the buffer.
#ifndef macroscope_paje_PajeLineTokenizer_h
#define macroscope_paje_PajeLineTokenizer_h

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace macroscope::paje
{

/// One line of fields. A header line ("%EventDef ...", "% Time date") has
/// Header set and its leading '%' removed: "%EventDef A 1" gives the fields
/// EventDef, A, 1 and "%  Time date" gives Time, date.
struct PajeLine
{
  /// More fields than any Pajé event needs; a longer line is an error, which
  /// bounds the memory and the work spent on one line.
  static constexpr std::size_t MaxFields = 64;

  /// The longest line accepted, in bytes before its newline. Real Pajé
  /// lines hold a few hundred bytes (names of a few dozen); 1 MiB leaves
  /// room for any generated name while a corrupt or hostile file (one line
  /// of gigabytes) stops after 1 MiB instead of being read whole
  /// (docs/paje-parser.md, "Errors").
  static constexpr std::size_t MaxLineBytes = std::size_t(1) << 20;

  std::array<std::string_view, MaxFields> Fields;
  std::size_t Count = 0;
  uint64_t Number = 0;     ///< 1-based line number of the line's first byte
  bool Header = false;     ///< the line started with '%'
  bool Terminated = false; ///< ended by a newline (false: the last line, cut or not)

  std::string_view operator[](std::size_t i) const { return this->Fields[i]; }
};

/// The tokenizer. Fields are separated by spaces and tabs; a field in
/// double quotes may hold spaces (no escapes: a quoted field ends at the next
/// '"'). Blank lines and lines whose first non-blank byte is '#' are
/// skipped. A '\r' before the newline (CRLF files) is a separator. Bytes
/// below 0x20 other than tab, CR and LF, and 0x7F, are errors (binary data);
/// bytes from 0x80 up pass, so UTF-8 names are kept.
///
/// A line longer than PajeLine::MaxLineBytes is an error, found after at
/// most that many bytes. Errors throw ParseError with the line number.
class PajeLineTokenizer
{
public:
  PajeLineTokenizer(std::string_view text, std::string source);

  /// Reads the next line that holds fields into `line`; false at the end.
  bool Next(PajeLine& line);

  /// Bytes consumed so far (for progress).
  std::size_t Offset() const { return std::size_t(this->Cursor - this->Begin); }
  std::size_t size() const { return std::size_t(this->End - this->Begin); }
  const std::string& GetSource() const { return this->Source; }

  /// Throws ParseError for the given line.
  [[noreturn]] void Fail(uint64_t line, const std::string& problem) const;

private:
  [[noreturn]] void TooLong(const char* lineStart) const;

  const char* Begin;
  const char* Cursor;
  const char* End;
  uint64_t Line = 1; ///< number of the line at Cursor
  std::string Source;
};

} // namespace macroscope::paje

#endif
