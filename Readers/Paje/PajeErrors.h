// The exceptions of the Pajé parser.
#ifndef macroscope_paje_PajeErrors_h
#define macroscope_paje_PajeErrors_h

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace macroscope::paje
{

/// A trace that cannot be read: the message names the file and the problem.
class TraceError : public std::runtime_error
{
public:
  using std::runtime_error::runtime_error;
};

/// A problem on one line of the trace. what() reads "<source>:<line>: <problem>";
/// GetLine() is 1-based.
class ParseError : public TraceError
{
public:
  ParseError(const std::string& source, uint64_t line, const std::string& problem);

  uint64_t GetLine() const { return this->Line; }
  const std::string& GetProblem() const { return this->Problem; }

private:
  uint64_t Line;
  std::string Problem;
};

/// At most this many bytes of the input are quoted in an error message.
constexpr std::size_t ExcerptBytes = 64;

/// `text` quoted for an error message: whole and in double quotes when
/// short, else its first bytes (cut on a UTF-8 character boundary) followed
/// by "..." and its length, so that a message never carries a huge field.
std::string Excerpt(std::string_view text);

/// Thrown when the progress callback returned false.
class ReadAborted : public std::runtime_error
{
public:
  ReadAborted();
};

} // namespace macroscope::paje

#endif
