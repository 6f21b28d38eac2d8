// The data contract between Macroscope's readers, filters and representations:
// the names of the output blocks and of their columns. Every reader produces
// exactly these, whatever the trace format (see docs/architecture.md).
#pragma once

namespace macroscope::schema
{
// Output ports of every trace reader, in this order.
enum class TraceOutput : int
{
  States = 0,
  Messages = 1,
  Events = 2,
  Variables = 3,
  Hierarchy = 4,
  Types = 5,
};
constexpr int TraceOutputCount = 6;

// Columns shared by several tables.
constexpr const char* Location = "Location"; // leaf index in the hierarchy
constexpr const char* Type = "Type";         // row id in the Types table
constexpr const char* Time = "Time";         // seconds since the trace start

// States: one row per state interval.
constexpr const char* Depth = "Depth"; // call-stack depth, 0 = outermost
constexpr const char* Start = "Start";
constexpr const char* End = "End";

// Messages: one row per matched point-to-point message.
constexpr const char* Sender = "Sender";
constexpr const char* Receiver = "Receiver";
constexpr const char* SendTime = "SendTime";
constexpr const char* RecvTime = "RecvTime";
constexpr const char* Bytes = "Bytes";
constexpr const char* Tag = "Tag";
constexpr const char* Communicator = "Communicator";

// Variables: one row per sample.
constexpr const char* Variable = "Variable";
constexpr const char* Value = "Value";

// Hierarchy (vtkTree) vertex data and Types table columns.
constexpr const char* Id = "Id";
constexpr const char* Name = "Name";
constexpr const char* Kind = "Kind";
constexpr const char* LeafIndex = "LeafIndex"; // -1 for inner vertices
constexpr const char* Color = "Color";         // 3 unsigned chars

// Values of the Kind column of the Types table.
constexpr const char* StateKind = "state";
constexpr const char* EventKind = "event";
constexpr const char* VariableKind = "variable";
constexpr const char* LinkKind = "link";
}
