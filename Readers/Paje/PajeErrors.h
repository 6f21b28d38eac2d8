// The exceptions of the Pajé parser.
#ifndef macroscope_paje_PajeErrors_h
#define macroscope_paje_PajeErrors_h

#include <cstdint>
#include <stdexcept>
#include <string>

namespace macroscope::paje
{

/// A trace that cannot be read: the message names the file and the problem.
class TraceError : public std::runtime_error
{
public:
  using std::runtime_error::runtime_error;
};

/// A problem on one line of the trace. what() reads "<source>:<line>: <problem>";
/// line() is 1-based.
class ParseError : public TraceError
{
public:
  ParseError(const std::string& source, uint64_t line, const std::string& problem);

  uint64_t line() const { return this->Line; }
  const std::string& problem() const { return this->Problem; }

private:
  uint64_t Line;
  std::string Problem;
};

/// Thrown when the progress callback returned false.
class ReadAborted : public std::runtime_error
{
public:
  ReadAborted();
};

} // namespace macroscope::paje

#endif
