#include "OTF2Archive.h"

#include "MacroscopeOTF2.h"

#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <system_error>

namespace macroscope::otf2
{

namespace
{
// OTF2 has one process-wide error callback. Ours is installed once and
// prints like OTF2's default handler on threads without an active capture.
thread_local int CaptureDepth = 0;
thread_local std::string CapturedMessages;

OTF2_ErrorCode OnOTF2Error(void* userData, const char* file, uint64_t line, const char* function,
  OTF2_ErrorCode code, const char* format, va_list arguments)
{
  (void)userData;
  (void)file;
  (void)line;
  if (CaptureDepth == 0)
  {
    std::fprintf(stderr, "[OTF2] %s: %s: ", function, OTF2_Error_GetDescription(code));
    std::vfprintf(stderr, format, arguments);
    std::fputc('\n', stderr);
    return code;
  }
  char text[512];
  std::vsnprintf(text, sizeof(text), format, arguments);
  if (!CapturedMessages.empty())
  {
    CapturedMessages += "; ";
  }
  // Keep the first messages: they name the cause, later ones its echoes.
  if (CapturedMessages.size() < 2048)
  {
    CapturedMessages += text;
  }
  return code;
}

void InstallErrorCallback()
{
  static std::once_flag once;
  std::call_once(once, [] { OTF2_Error_RegisterCallback(&OnOTF2Error, nullptr); });
}
}

OTF2MessageCapture::OTF2MessageCapture()
{
  InstallErrorCallback();
  if (CaptureDepth++ == 0)
  {
    CapturedMessages.clear();
  }
}

OTF2MessageCapture::~OTF2MessageCapture()
{
  --CaptureDepth;
}

std::string OTF2MessageCapture::Take()
{
  std::string messages;
  messages.swap(CapturedMessages);
  return messages;
}

Archive::Archive(const std::string& anchorFile)
  : Path(anchorFile)
{
  namespace fs = std::filesystem;
  if (anchorFile.empty())
  {
    throw TraceError("OTF2: no file name given");
  }
  std::error_code error;
  const fs::file_status status = fs::status(anchorFile, error);
  if (!fs::exists(status))
  {
    this->Fail("no such file");
  }
  if (fs::is_directory(status))
  {
    this->Fail("is a directory, not an OTF2 anchor file (the .otf2 file inside the archive)");
  }
  if (fs::file_size(anchorFile, error) == 0 && !error)
  {
    this->Fail("empty file, not an OTF2 anchor file");
  }
  OTF2MessageCapture capture;
  this->Reader = OTF2_Reader_Open(anchorFile.c_str());
  if (this->Reader == nullptr)
  {
    const std::string detail = OTF2MessageCapture::Take();
    this->Fail("not a readable OTF2 anchor file" + (detail.empty() ? "" : " (" + detail + ")"));
  }
  this->Check(OTF2_Reader_SetSerialCollectiveCallbacks(this->Reader), "setting up serial reading");
}

Archive::~Archive()
{
  if (this->Reader != nullptr)
  {
    OTF2MessageCapture quiet;
    OTF2_Reader_Close(this->Reader);
  }
}

void Archive::Check(OTF2_ErrorCode status, const std::string& what) const
{
  if (status == OTF2_SUCCESS)
  {
    return;
  }
  std::string message =
    what + ": " + OTF2_Error_GetName(status) + ": " + OTF2_Error_GetDescription(status);
  const std::string detail = OTF2MessageCapture::Take();
  if (!detail.empty())
  {
    message += " (" + detail + ")";
  }
  this->Fail(message);
}

void Archive::Fail(const std::string& problem) const
{
  throw TraceError("OTF2 archive '" + this->Path + "': " + problem);
}

ReadAborted::ReadAborted()
  : std::runtime_error("reading the OTF2 archive was aborted")
{
}

} // namespace macroscope::otf2
