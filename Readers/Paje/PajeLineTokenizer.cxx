#include "PajeLineTokenizer.h"

#include "PajeErrors.h"

#include <cstdio>

namespace macroscope::paje
{

namespace
{
// Byte classes, so that the inner loops test one table entry per byte.
enum : unsigned char
{
  Plain = 0,
  Blank = 1,   // space, tab, CR
  Newline = 2, // LF
  Quote = 3,
  Binary = 4, // control bytes and DEL
};

struct ByteClasses
{
  unsigned char Of[256];
  constexpr ByteClasses()
    : Of()
  {
    for (int c = 0; c < 256; ++c)
    {
      Of[c] = (c < 0x20 || c == 0x7F) ? Binary : Plain;
    }
    Of[int(' ')] = Blank;
    Of[int('\t')] = Blank;
    Of[int('\r')] = Blank;
    Of[int('\n')] = Newline;
    Of[int('"')] = Quote;
  }
};
constexpr ByteClasses Classes;

inline unsigned char ClassOf(char c)
{
  return Classes.Of[static_cast<unsigned char>(c)];
}

std::string DescribeByte(char c)
{
  char text[8];
  std::snprintf(text, sizeof text, "0x%02X", unsigned(static_cast<unsigned char>(c)));
  return text;
}
}

PajeLineTokenizer::PajeLineTokenizer(std::string_view text, std::string source)
  : Begin(text.data())
  , Cursor(text.data())
  , End(text.data() + text.size())
  , Source(std::move(source))
{
}

void PajeLineTokenizer::Fail(uint64_t line, const std::string& problem) const
{
  throw ParseError(this->Source, line, problem);
}

void PajeLineTokenizer::TooLong(const char* lineStart) const
{
  this->Fail(this->Line,
    "line longer than " + std::to_string(PajeLine::MaxLineBytes >> 20) +
      " MiB (the limit of a Pajé line; a corrupt file?), starting with " +
      Excerpt(std::string_view(lineStart, ExcerptBytes - 16)) + "...");
}

bool PajeLineTokenizer::Next(PajeLine& line)
{
  const char* p = this->Cursor;
  const char* const end = this->End;
  while (p < end)
  {
    line.Count = 0;
    line.Number = this->Line;
    line.Header = false;
    line.Terminated = false;
    bool first = true;
    // The scans of this line stop at `stop`: reaching it when `capped`
    // means more than MaxLineBytes bytes without a newline.
    const char* const lineStart = p;
    const bool capped = std::size_t(end - p) > PajeLine::MaxLineBytes;
    const char* const stop = capped ? p + PajeLine::MaxLineBytes + 1 : end;
    // One iteration per field, until the newline.
    while (true)
    {
      while (p < stop && ClassOf(*p) == Blank)
      {
        ++p;
      }
      if (p == stop)
      {
        if (capped)
        {
          this->TooLong(lineStart);
        }
        break;
      }
      const unsigned char kind = ClassOf(*p);
      if (kind == Newline)
      {
        line.Terminated = true;
        ++p;
        break;
      }
      if (kind == Binary)
      {
        this->Fail(this->Line, "non-text byte " + DescribeByte(*p) + " (binary data?)");
      }
      if (first && *p == '#')
      {
        // A comment: skip to the newline, still refusing binary bytes.
        while (p < stop && ClassOf(*p) != Newline)
        {
          if (ClassOf(*p) == Binary)
          {
            this->Fail(this->Line, "non-text byte " + DescribeByte(*p) + " (binary data?)");
          }
          ++p;
        }
        continue;
      }
      if (first && *p == '%')
      {
        line.Header = true;
        ++p;
        first = false;
        continue;
      }
      first = false;
      if (line.Count == PajeLine::MaxFields)
      {
        this->Fail(
          this->Line, "too many fields (more than " + std::to_string(PajeLine::MaxFields) + ")");
      }
      const char* start;
      if (kind == Quote)
      {
        start = ++p;
        while (p < stop && *p != '"')
        {
          const unsigned char inner = ClassOf(*p);
          if (inner == Newline)
          {
            break;
          }
          if (inner == Binary && *p != '\t' && *p != '\r')
          {
            this->Fail(this->Line, "non-text byte " + DescribeByte(*p) + " (binary data?)");
          }
          ++p;
        }
        if (p == stop && capped)
        {
          this->TooLong(lineStart);
        }
        if (p == stop || *p != '"')
        {
          this->Fail(this->Line,
            "unterminated quoted string " +
              Excerpt(std::string_view(start - 1, std::size_t(p - start + 1))));
        }
        line.Fields[line.Count++] = std::string_view(start, std::size_t(p - start));
        ++p;
        if (p < stop && ClassOf(*p) != Blank && ClassOf(*p) != Newline)
        {
          this->Fail(this->Line, "no separator after a closing quote");
        }
        continue;
      }
      // A '"' inside an unquoted field is kept as a plain byte.
      start = p;
      while (p < stop && (ClassOf(*p) == Plain || ClassOf(*p) == Quote))
      {
        ++p;
      }
      if (p < stop && ClassOf(*p) == Binary)
      {
        this->Fail(this->Line, "non-text byte " + DescribeByte(*p) + " (binary data?)");
      }
      line.Fields[line.Count++] = std::string_view(start, std::size_t(p - start));
    }
    if (line.Terminated)
    {
      ++this->Line;
    }
    if (line.Count > 0 || line.Header)
    {
      this->Cursor = p;
      return true;
    }
  }
  this->Cursor = p;
  return false;
}

} // namespace macroscope::paje
