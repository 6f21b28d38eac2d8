#include "vtkPython.h" // first: Python.h must precede the standard headers

#include "pqMacroscopePythonAction.h"

#include "vtkPythonInterpreter.h"
#include "vtkSetGet.h"
#include "vtkSmartPyObject.h"

#include <QByteArray>

namespace
{
/// The Python value of one argument: str for strings, int for integers.
PyObject* toPython(const QVariant& value)
{
  if (value.type() == QVariant::String)
  {
    const QByteArray utf8 = value.toString().toUtf8();
    return PyUnicode_FromStringAndSize(utf8.constData(), utf8.size());
  }
  return PyLong_FromLongLong(value.toLongLong());
}

QString fromPython(PyObject* object)
{
  vtkSmartPyObject text(PyObject_Str(object));
  const char* utf8 = text ? PyUnicode_AsUTF8(text) : nullptr;
  return utf8 ? QString::fromUtf8(utf8) : QString("(no message)");
}

/// Calls macroscope.gui_actions.run_action(action, *args) and puts its
/// message in `text`; the caller holds the GIL.
bool callRunAction(const char* action, const QVariantList& args, QString& text)
{
  vtkSmartPyObject module(PyImport_ImportModule("macroscope.gui_actions"));
  vtkSmartPyObject runAction(module ? PyObject_GetAttrString(module, "run_action") : nullptr);
  if (!runAction)
  {
    // The package is registered when the plugin loads; failing here means a
    // broken installation, which the user must be told about.
    PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
    PyErr_Fetch(&type, &value, &traceback);
    text = QString("Macroscope: cannot reach the plugin's Python package "
                   "(macroscope.gui_actions): %1")
             .arg(value ? fromPython(value) : QString("unknown error"));
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
    return false;
  }
  vtkSmartPyObject call(PyTuple_New(args.size() + 1));
  PyTuple_SET_ITEM(call.GetPointer(), 0, PyUnicode_FromString(action));
  for (int i = 0; i < args.size(); ++i)
  {
    PyTuple_SET_ITEM(call.GetPointer(), i + 1, toPython(args[i]));
  }
  vtkSmartPyObject result(PyObject_Call(runAction, call, nullptr));
  if (!result || !PyTuple_Check(result) || PyTuple_Size(result) != 2)
  {
    PyErr_Clear();
    text = QString("Macroscope: the %1 action returned no result").arg(action);
    return false;
  }
  text = fromPython(PyTuple_GET_ITEM(result.GetPointer(), 1));
  return PyObject_IsTrue(PyTuple_GET_ITEM(result.GetPointer(), 0)) == 1;
}
}

bool pqMacroscopePythonAction::run(const char* action, const QVariantList& args, QString* message)
{
  QString text;
  bool ok = false;
  vtkPythonInterpreter::Initialize();
  {
    // As everywhere in ParaView, a no-op unless VTK's Python wrapping is
    // built thread-safe: the GUI's main thread, where actions run, holds the
    // GIL.
    vtkPythonScopeGilEnsurer gil;
    ok = callRunAction(action, args, text);
  }
  const QByteArray utf8 = (text + "\n").toUtf8();
  if (ok)
  {
    vtkOutputWindowDisplayText(utf8.constData());
  }
  else
  {
    vtkOutputWindowDisplayErrorText(utf8.constData());
  }
  if (message)
  {
    *message = text;
  }
  return ok;
}
