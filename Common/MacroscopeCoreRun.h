// Runs a call into the VTK-free core from a filter: the core throws on an
// abort and on bad data, the filter answers with a status the executive
// and the other ranks understand.
#ifndef MacroscopeCoreRun_h
#define MacroscopeCoreRun_h

#include "MacroscopeTraceInputs.h"

#include "vtkObject.h"
#include "vtkSetGet.h"

#include <exception>

/// Runs `core` for `self`: 1 when it returns, -1 when it throws `Aborted`
/// (warning `aborted` when it is not null: a filter that reports the abort
/// through its outputs passes null), 0 when it throws anything else (the
/// error "`failure`: what", or what alone when `failure` is null). Whatever `core` throws stays in
/// here, so that a rank that fails alone still meets the others in MacroscopeAgree.
template <typename Aborted, typename Core>
int MacroscopeRunCore(vtkObject* self, const char* failure, const char* aborted, Core&& core)
{
  try
  {
    core();
    return 1;
  }
  catch (const Aborted&)
  {
    if (aborted)
    {
      vtkWarningWithObjectMacro(self, << aborted);
    }
    return -1;
  }
  catch (const std::exception& error)
  {
    if (failure)
    {
      vtkErrorWithObjectMacro(self, << failure << ": " << error.what());
    }
    else
    {
      vtkErrorWithObjectMacro(self, << error.what());
    }
    return 0;
  }
}

/// MacroscopeRunCore, then the worst status of every rank when `parallel`
/// (every rank of `controller` must call it; a rank that was given
/// `status` != 1 does not run `core` but still agrees).
template <typename Aborted, typename Core>
int MacroscopeRunCoreOnRanks(vtkObject* self, const char* failure, const char* aborted,
  vtkMultiProcessController* controller, bool parallel, int status, Core&& core)
{
  if (status == 1)
  {
    status = MacroscopeRunCore<Aborted>(self, failure, aborted, core);
  }
  return MacroscopeTraceInputs::AgreeOnStatus(status, controller, parallel);
}

#endif
