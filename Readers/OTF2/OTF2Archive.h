// An open OTF2 archive for reading: owns the OTF2_Reader, turns OTF2 error
// codes into TraceError messages that name the anchor file, and captures the
// detail OTF2 reports through its error callback (e.g. which file is bad).
#ifndef macroscope_otf2_OTF2Archive_h
#define macroscope_otf2_OTF2Archive_h

#include <otf2/otf2.h>

#include <string>

namespace macroscope::otf2
{

class Archive
{
public:
  /// Checks the path and opens the anchor file; throws TraceError.
  explicit Archive(const std::string& anchorFile);
  ~Archive();
  Archive(const Archive&) = delete;
  Archive& operator=(const Archive&) = delete;

  OTF2_Reader* GetReader() const { return this->Reader; }
  const std::string& GetPath() const { return this->Path; }

  /// Throws TraceError "<file>: <what>: <OTF2 error name>: <description> (<detail>)"
  /// unless status is OTF2_SUCCESS.
  void Check(OTF2_ErrorCode status, const std::string& what) const;
  [[noreturn]] void Fail(const std::string& problem) const;

private:
  std::string Path;
  OTF2_Reader* Reader = nullptr;
};

/// While alive, OTF2's error messages on this thread are collected instead
/// of printed; Archive::Check() appends them to its TraceError message.
class OTF2MessageCapture
{
public:
  OTF2MessageCapture();
  ~OTF2MessageCapture();
  OTF2MessageCapture(const OTF2MessageCapture&) = delete;
  OTF2MessageCapture& operator=(const OTF2MessageCapture&) = delete;

  /// The messages collected since the last call, joined by "; ".
  static std::string Take();
};

} // namespace macroscope::otf2

#endif
