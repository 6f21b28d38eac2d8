// Details on demand, per chart: which mark lies under a point, and what it
// stands for, from the layout's cell arrays and the trace tables
// (docs/details-on-demand.md). The wording is Core/MarkDetails.h's.
#include "MacroscopeMarkDescriber.h"

#include "MacroscopeTraceInputs.h"
#include "MacroscopeTraceLookup.h"
#include "MarkDetails.h"
#include "TraceSchema.h"
#include "vtkMacroscopeOverviewRepresentation.h"
#include "vtkMacroscopeTimelineRepresentation.h"

#include "vtkCell.h"
#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkNew.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTree.h"
#include "vtkVariant.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace
{
using Answer = vtkPVMacroscopeMarkInformation::Answer;
namespace schema = macroscope::schema;

constexpr double MessageTolerance = 2.0; // chart pixels from a message line

double Number(vtkDataSetAttributes* data, const char* name, vtkIdType cell, double fallback = 0.0)
{
  vtkDataArray* array = data ? data->GetArray(name) : nullptr;
  return array && cell < array->GetNumberOfTuples() ? array->GetComponent(cell, 0) : fallback;
}

double FieldNumber(vtkFieldData* data, const char* name, int component, double fallback = 0.0)
{
  vtkDataArray* array = data ? data->GetArray(name) : nullptr;
  return array && array->GetNumberOfTuples() > 0 && component < array->GetNumberOfComponents()
    ? array->GetComponent(0, component)
    : fallback;
}

std::string Text(vtkDataSetAttributes* data, const char* name, vtkIdType cell)
{
  vtkAbstractArray* array = data ? data->GetAbstractArray(name) : nullptr;
  return array && cell < array->GetNumberOfTuples() ? array->GetVariantValue(cell).ToString()
                                                    : std::string();
}

std::string Number4(double value)
{
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.4g", value);
  return buffer;
}

/// The frontmost cell of `marks` whose bounds hold (x, y); -1 if none.
vtkIdType CellUnder(vtkPolyData* marks, double x, double y, double& z)
{
  vtkIdType found = -1;
  if (!marks)
  {
    return found;
  }
  double bounds[6];
  for (vtkIdType cell = 0; cell < marks->GetNumberOfCells(); ++cell)
  {
    marks->GetCellBounds(cell, bounds);
    if (x >= bounds[0] && x <= bounds[1] && y >= bounds[2] && y <= bounds[3] &&
      (found < 0 || bounds[5] > z))
    {
      found = cell;
      z = bounds[5];
    }
  }
  return found;
}

/// The line of `lines` nearest to (x, y), within the tolerance; -1 if none.
vtkIdType LineNear(vtkPolyData* lines, double x, double y, double& z)
{
  vtkIdType found = -1;
  double best = MessageTolerance;
  if (!lines)
  {
    return found;
  }
  for (vtkIdType cell = 0; cell < lines->GetNumberOfCells(); ++cell)
  {
    vtkCell* line = lines->GetCell(cell);
    if (line->GetNumberOfPoints() < 2)
    {
      continue;
    }
    double a[3], b[3];
    line->GetPoints()->GetPoint(0, a);
    line->GetPoints()->GetPoint(1, b);
    const double dx = b[0] - a[0], dy = b[1] - a[1];
    const double length2 = dx * dx + dy * dy;
    const double t =
      length2 > 0.0 ? std::clamp(((x - a[0]) * dx + (y - a[1]) * dy) / length2, 0.0, 1.0) : 0.0;
    const double distance = std::hypot(a[0] + t * dx - x, a[1] + t * dy - y);
    if (distance <= best)
    {
      best = distance;
      found = cell;
      z = std::max(a[2], b[2]);
    }
  }
  return found;
}

/// The trace beside a Timeline's input, and the names it gives.
struct Trace
{
  MacroscopeTraceInputs Tables;
  vtkNew<vtkInformationVector> Found;
  std::vector<vtkIdType> VertexOfLeaf;

  bool Find(vtkAlgorithm* producer)
  {
    std::string problem;
    if (!producer || !MacroscopeFindTrace(producer, this->Found) ||
      !this->Tables.Collect(this->Found, problem) || !this->Tables.States ||
      !this->Tables.Hierarchy)
    {
      return false;
    }
    vtkTree* tree = this->Tables.Hierarchy;
    vtkDataArray* leafIndex = tree->GetVertexData()->GetArray(schema::LeafIndex);
    for (vtkIdType v = 0; leafIndex && v < tree->GetNumberOfVertices(); ++v)
    {
      const auto leaf = static_cast<long long>(leafIndex->GetComponent(v, 0));
      if (leaf >= 0)
      {
        if (static_cast<std::size_t>(leaf) >= this->VertexOfLeaf.size())
        {
          this->VertexOfLeaf.resize(static_cast<std::size_t>(leaf) + 1, -1);
        }
        this->VertexOfLeaf[static_cast<std::size_t>(leaf)] = v;
      }
    }
    return true;
  }

  /// "root/node0/P1/T0", the hierarchy's names from the top (the root
  /// left out when it is the only top: it names the whole trace).
  std::string ResourcePath(long long leaf) const
  {
    if (leaf < 0 || static_cast<std::size_t>(leaf) >= this->VertexOfLeaf.size() ||
      this->VertexOfLeaf[static_cast<std::size_t>(leaf)] < 0)
    {
      return "location " + std::to_string(leaf);
    }
    vtkTree* tree = this->Tables.Hierarchy;
    auto* names =
      vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::Name));
    std::vector<std::string> parts;
    for (vtkIdType v = this->VertexOfLeaf[static_cast<std::size_t>(leaf)];
         v >= 0 && v != tree->GetRoot(); v = tree->GetParent(v))
    {
      parts.push_back(names ? names->GetValue(v) : "vertex " + std::to_string(v));
    }
    std::string path;
    for (auto part = parts.rbegin(); part != parts.rend(); ++part)
    {
      path += (path.empty() ? "" : "/") + *part;
    }
    return path;
  }

  std::string TypeName(long long type) const
  {
    vtkTable* types = this->Tables.Types;
    vtkAbstractArray* names = types ? types->GetColumnByName(schema::Name) : nullptr;
    return names && type >= 0 && type < names->GetNumberOfTuples()
      ? names->GetVariantValue(type).ToString()
      : "type " + std::to_string(type);
  }
};

std::vector<long long> LeavesOfBand(vtkFieldData* field, long long band)
{
  std::vector<long long> leaves;
  vtkDataArray* leafBand = field ? field->GetArray("LeafBand") : nullptr;
  for (vtkIdType leaf = 0; leafBand && leaf < leafBand->GetNumberOfTuples(); ++leaf)
  {
    if (static_cast<long long>(leafBand->GetComponent(leaf, 0)) == band)
    {
      leaves.push_back(leaf);
    }
  }
  return leaves;
}

/// The band a chart y lies on, from the BandGeometry field data; -1 outside.
long long BandOfY(vtkFieldData* field, double y)
{
  const double top = FieldNumber(field, "BandGeometry", 0, -1.0);
  const double height = FieldNumber(field, "BandGeometry", 1, 0.0);
  if (height <= 0.0 || y > top || y < 0.0)
  {
    return -1;
  }
  return static_cast<long long>(std::floor((top - y) / height));
}

/// What a Timeline mark's cell says of it.
struct TimelineMark
{
  long long Band = 0;
  int Depth = 0;
  double Start = 0.0;
  double End = 0.0;
  int Flags = 0; ///< 0 plain, 1 narrow states, 2 merged rows
  long long Type = 0;
  long long StateCount = 1;

  TimelineMark(vtkCellData* data, vtkIdType cell)
    : Band(static_cast<long long>(Number(data, "Band", cell)))
    , Depth(static_cast<int>(Number(data, schema::Depth, cell)))
    , Start(Number(data, schema::Start, cell))
    , End(Number(data, schema::End, cell))
    , Flags(static_cast<int>(Number(data, "Aggregate", cell)))
    , Type(static_cast<long long>(Number(data, schema::Type, cell)))
    , StateCount(static_cast<long long>(Number(data, "StateCount", cell, 1)))
  {
  }
};

/// The States rows a mark holds: the states of its band's leaves at its
/// depth that lie in it as the core lays them out (overlapping its
/// interior, or an instant in it); for a plain mark, the one of its type
/// whose clipped extent is the mark's. Adds each type's clipped time.
std::vector<long long> StatesOfMark(vtkTable* states, const std::set<long long>& leaves,
  const TimelineMark& mark, std::map<long long, double>& timeOfType)
{
  std::vector<long long> rows;
  auto column = [&](const char* name)
  { return vtkArrayDownCast<vtkDataArray>(states->GetColumnByName(name)); };
  vtkDataArray* location = column(schema::Location);
  vtkDataArray* types = column(schema::Type);
  vtkDataArray* depths = column(schema::Depth);
  vtkDataArray* starts = column(schema::Start);
  vtkDataArray* ends = column(schema::End);
  if (!location || !types || !depths || !starts || !ends)
  {
    return rows;
  }
  for (vtkIdType row = 0; row < states->GetNumberOfRows(); ++row)
  {
    const double s = starts->GetComponent(row, 0), e = ends->GetComponent(row, 0);
    const bool inside =
      s == e ? (s >= mark.Start && s <= mark.End) : (s < mark.End && e > mark.Start);
    if (!inside || static_cast<int>(depths->GetComponent(row, 0)) != mark.Depth ||
      !leaves.count(static_cast<long long>(location->GetComponent(row, 0))))
    {
      continue;
    }
    const long long type = static_cast<long long>(types->GetComponent(row, 0));
    const double clippedStart = std::max(s, mark.Start), clippedEnd = std::min(e, mark.End);
    if (mark.Flags == 0 &&
      (type != mark.Type || clippedStart != mark.Start || clippedEnd != mark.End))
    {
      continue;
    }
    rows.push_back(row);
    timeOfType[type] += clippedEnd - clippedStart;
    if (mark.Flags == 0)
    {
      break; // a plain mark is one state
    }
  }
  return rows;
}

Answer DescribeTimelineMark(vtkPolyData* marks, vtkIdType cell, const Trace& trace)
{
  const TimelineMark mark(marks->GetCellData(), cell);
  const std::vector<long long> leaves = LeavesOfBand(marks->GetFieldData(), mark.Band);
  std::map<long long, double> timeOfType;
  vtkTable* states = trace.Tables.States;
  Answer answer;
  answer.Rows = StatesOfMark(states, { leaves.begin(), leaves.end() }, mark, timeOfType);
  answer.Found = true;
  answer.RowTable = "States";
  if (mark.Flags == 0)
  {
    macroscope::StateDetails state;
    state.Type = trace.TypeName(mark.Type);
    state.Resource = leaves.size() == 1 ? trace.ResourcePath(leaves[0]) : "?";
    state.Start = mark.Start;
    state.End = mark.End;
    if (!answer.Rows.empty())
    {
      // The state's own times, not clipped to the window.
      const vtkIdType row = answer.Rows[0];
      state.Start = states->GetValueByName(row, schema::Start).ToDouble();
      state.End = states->GetValueByName(row, schema::End).ToDouble();
    }
    state.Depth = mark.Depth;
    answer.Kind = "state";
    answer.Text = macroscope::DescribeState(state);
    return answer;
  }
  macroscope::AggregateDetails aggregate;
  aggregate.Start = mark.Start;
  aggregate.End = mark.End;
  aggregate.StateCount = mark.StateCount;
  aggregate.MergedStates = mark.Flags & 1;
  aggregate.MergedRows = mark.Flags & 2;
  for (long long leaf : leaves)
  {
    aggregate.Resources.push_back(trace.ResourcePath(leaf));
  }
  for (const auto& [type, seconds] : timeOfType)
  {
    aggregate.Types.push_back({ trace.TypeName(type), seconds });
  }
  answer.Kind = "aggregate";
  answer.Text = macroscope::DescribeAggregate(aggregate);
  if (static_cast<long long>(answer.Rows.size()) != mark.StateCount)
  {
    // A type selection hides some states; say what the rows hold.
    answer.Text += "\n(" + std::to_string(answer.Rows.size()) + " state rows in the trace)";
  }
  return answer;
}

/// A message line: its times, and its ends' bands where they are known.
struct TimelineLine
{
  double SendTime = 0.0;
  double RecvTime = 0.0;
  long long Count = 1;
  double Bytes = 0.0;
  long long SenderBand = -1;   ///< -1: the end is clipped
  long long ReceiverBand = -1; ///< -1: the end is clipped
  double T0 = 0.0;             ///< window start
  double PixelsPerSecond = 0.0;

  TimelineLine(vtkPolyData* lines, vtkIdType cell)
  {
    vtkCellData* data = lines->GetCellData();
    vtkFieldData* field = lines->GetFieldData();
    this->SendTime = Number(data, schema::SendTime, cell);
    this->RecvTime = Number(data, schema::RecvTime, cell);
    this->Count = static_cast<long long>(Number(data, "Count", cell, 1));
    this->Bytes = Number(data, schema::Bytes, cell);
    const double x0 = FieldNumber(field, "TimeAxis", 0), x1 = FieldNumber(field, "TimeAxis", 1);
    const double t0 = FieldNumber(field, "TimeAxis", 2), t1 = FieldNumber(field, "TimeAxis", 3);
    this->T0 = t0;
    this->PixelsPerSecond = t1 > t0 ? (x1 - x0) / (t1 - t0) : 0.0;
    // An end drawn where its time is (not clipped) lies on its band.
    double a[3], b[3];
    vtkCell* line = lines->GetCell(cell);
    line->GetPoints()->GetPoint(0, a);
    line->GetPoints()->GetPoint(1, b);
    auto drawnAt = [&](double x, double time)
    { return std::abs(x - (x0 + (time - t0) * this->PixelsPerSecond)) < 1e-6; };
    this->SenderBand = drawnAt(a[0], this->SendTime) ? BandOfY(field, a[1]) : -1;
    this->ReceiverBand = drawnAt(b[0], this->RecvTime) ? BandOfY(field, b[1]) : -1;
  }

  double Column(double send) const { return std::floor((send - this->T0) * this->PixelsPerSecond); }
};

/// The Messages rows a line stands for: the message with its times, or the
/// group merged in its pixel column between its pair of bands. Collects the
/// senders and receivers.
std::vector<long long> MessagesOfLine(vtkTable* messages, vtkDataArray* leafBand,
  const TimelineLine& line, std::set<long long>& senders, std::set<long long>& receivers)
{
  std::vector<long long> rows;
  auto get = [&](const char* name)
  { return messages ? vtkArrayDownCast<vtkDataArray>(messages->GetColumnByName(name)) : nullptr; };
  vtkDataArray* from = get(schema::Sender);
  vtkDataArray* to = get(schema::Receiver);
  vtkDataArray* sends = get(schema::SendTime);
  vtkDataArray* recvs = get(schema::RecvTime);
  if (!from || !to || !sends || !recvs)
  {
    return rows;
  }
  auto bandOf = [&](long long leaf)
  {
    return leafBand && leaf >= 0 && leaf < leafBand->GetNumberOfTuples()
      ? static_cast<long long>(leafBand->GetComponent(leaf, 0))
      : -2;
  };
  const bool single = line.Count <= 1;
  for (vtkIdType row = 0; row < messages->GetNumberOfRows(); ++row)
  {
    const double send = sends->GetComponent(row, 0), recv = recvs->GetComponent(row, 0);
    const auto sender = static_cast<long long>(from->GetComponent(row, 0));
    const auto receiver = static_cast<long long>(to->GetComponent(row, 0));
    const bool member = single
      ? send == line.SendTime && recv == line.RecvTime
      : line.Column(send) == line.Column(line.SendTime) && send >= line.SendTime &&
        recv <= line.RecvTime && (line.SenderBand < 0 || bandOf(sender) == line.SenderBand) &&
        (line.ReceiverBand < 0 || bandOf(receiver) == line.ReceiverBand);
    if (member)
    {
      rows.push_back(row);
      senders.insert(sender);
      receivers.insert(receiver);
      if (single)
      {
        break;
      }
    }
  }
  return rows;
}

Answer DescribeTimelineMessage(vtkPolyData* lines, vtkIdType cell, const Trace& trace)
{
  const TimelineLine line(lines, cell);
  std::set<long long> senders, receivers;
  Answer answer;
  answer.Rows = MessagesOfLine(
    trace.Tables.Messages, lines->GetFieldData()->GetArray("LeafBand"), line, senders, receivers);
  auto names = [&](const std::set<long long>& leaves)
  {
    std::vector<std::string> paths;
    for (long long leaf : leaves)
    {
      paths.push_back(trace.ResourcePath(leaf));
    }
    return paths.empty() ? std::string() : macroscope::ListNames(paths, 3);
  };
  macroscope::MessageDetails message;
  message.SendTime = line.SendTime;
  message.RecvTime = line.RecvTime;
  message.Count = line.Count;
  message.Bytes = line.Bytes;
  message.Sender = names(senders);
  message.Receiver = names(receivers);
  answer.Found = true;
  answer.Kind = "message";
  answer.RowTable = "Messages";
  answer.Text = macroscope::DescribeMessage(message);
  return answer;
}

Answer DescribeTimeline(vtkMacroscopeTimelineRepresentation* timeline, double x, double y)
{
  Answer answer;
  auto* marks = vtkPolyData::SafeDownCast(timeline->GetRenderedDataObject(0));
  auto* lines = vtkPolyData::SafeDownCast(timeline->GetRenderedDataObject(1));
  double markZ = 0.0, lineZ = 0.0;
  const vtkIdType mark = CellUnder(marks, x, y, markZ);
  const vtkIdType line = LineNear(lines, x, y, lineZ);
  if (mark < 0 && line < 0)
  {
    return answer;
  }
  Trace trace;
  if (!trace.Find(timeline->GetInputAlgorithm(0, 0)))
  {
    return answer;
  }
  // Messages are drawn in front of the states.
  answer = line >= 0 ? DescribeTimelineMessage(lines, line, trace)
                     : DescribeTimelineMark(marks, mark, trace);
  answer.Depth = line >= 0 ? lineZ : markZ;
  return answer;
}

/// The rows of a Partition table whose leaves and slices lie inside the
/// given ranges.
std::vector<long long> PartsInside(vtkTable* partition, long long firstLeaf, long long lastLeaf,
  long long firstSlice, long long lastSlice)
{
  std::vector<long long> rows;
  auto column = [&](const char* name) {
    return partition ? vtkArrayDownCast<vtkDataArray>(partition->GetColumnByName(name)) : nullptr;
  };
  vtkDataArray* leaf0 = column("FirstLeaf");
  vtkDataArray* leaf1 = column("LastLeaf");
  vtkDataArray* slice0 = column("FirstSlice");
  vtkDataArray* slice1 = column("LastSlice");
  if (!leaf0 || !leaf1 || !slice0 || !slice1)
  {
    return rows;
  }
  for (vtkIdType r = 0; r < partition->GetNumberOfRows(); ++r)
  {
    if (leaf0->GetComponent(r, 0) >= firstLeaf && leaf1->GetComponent(r, 0) <= lastLeaf &&
      slice0->GetComponent(r, 0) >= firstSlice && slice1->GetComponent(r, 0) <= lastSlice)
    {
      rows.push_back(r);
    }
  }
  return rows;
}

/// A spatiotemporal overview mark: a part, or a visual aggregate of parts
/// (then the Partition rows inside its leaves and slices).
void DescribeSpatiotemporalMark(vtkCellData* data, vtkIdType cell, vtkTable* partition,
  macroscope::OverviewPartDetails& part, Answer& answer)
{
  part.Title = "Spatiotemporal part";
  const long long first = static_cast<long long>(Number(data, "FirstLeaf", cell));
  const long long last = static_cast<long long>(Number(data, "LastLeaf", cell));
  const long long count = last - first + 1;
  part.Resources = Text(data, "NodeName", cell) + " (" + std::to_string(count) +
    (count == 1 ? " resource" : " resources") + ")";
  part.ModeType = Text(data, "TypeName", cell);
  part.ModeShare = Number(data, "ModeProportion", cell);
  part.Aggregate = static_cast<int>(Number(data, "VisualAggregate", cell));
  part.PartCount = static_cast<long long>(Number(data, "PartCount", cell, 1));
  part.Value = Number4(Number(data, schema::Value, cell)) + " (mean of the mode type)";
  answer.Kind = part.Aggregate ? "aggregate-part" : "part";
  const long long row = static_cast<long long>(Number(data, "Part", cell, -1));
  if (row >= 0)
  {
    answer.Rows.push_back(row);
    return;
  }
  answer.Rows =
    PartsInside(partition, first, last, static_cast<long long>(Number(data, "FirstSlice", cell)),
      static_cast<long long>(Number(data, "LastSlice", cell)));
}

/// A temporal overview layer: its part's mode is the part's tallest typed
/// layer; the layer pointed at is said with its share of the stack.
void DescribeTemporalLayer(
  vtkPolyData* marks, vtkIdType cell, macroscope::OverviewPartDetails& part, Answer& answer)
{
  vtkCellData* data = marks->GetCellData();
  const long long row = static_cast<long long>(Number(data, "Part", cell, -1));
  part.Title = "Temporal part";
  part.Resources = "all";
  double modeValue = -1.0, total = 0.0;
  for (vtkIdType other = 0; other < marks->GetNumberOfCells(); ++other)
  {
    if (static_cast<long long>(Number(data, "Part", other, -1)) != row)
    {
      continue;
    }
    const double value = Number(data, schema::Value, other);
    total += value;
    if (Number(data, schema::Type, other, -1) >= 0 && value > modeValue)
    {
      modeValue = value;
      part.ModeType = Text(data, "TypeName", other);
    }
  }
  part.ModeShare = total > 0.0 ? modeValue / total : 0.0;
  const std::string layer = Text(data, "TypeName", cell);
  const double value = Number(data, schema::Value, cell);
  part.Value = "layer " + (layer.empty() ? Text(data, "Contents", cell) : layer) + ", " +
    Number4(value) + " (" + Number4(total > 0.0 ? 100.0 * value / total : 0.0) + " % of the stack)";
  answer.Kind = "layer";
  if (row >= 0)
  {
    answer.Rows.push_back(row);
  }
}

Answer DescribeOverview(vtkMacroscopeOverviewRepresentation* overview, double x, double y)
{
  Answer answer;
  auto* marks = vtkPolyData::SafeDownCast(overview->GetRenderedDataObject(0));
  const vtkIdType cell = CellUnder(marks, x, y, answer.Depth);
  if (cell < 0)
  {
    return answer;
  }
  vtkCellData* data = marks->GetCellData();
  macroscope::OverviewPartDetails part;
  part.Start = Number(data, schema::Start, cell);
  part.End = Number(data, schema::End, cell);
  if (data->GetArray("ModeProportion"))
  {
    DescribeSpatiotemporalMark(
      data, cell, vtkTable::SafeDownCast(overview->GetInputDataObject(0, 0)), part, answer);
  }
  else
  {
    DescribeTemporalLayer(marks, cell, part, answer);
  }
  answer.Found = true;
  answer.RowTable = "Input";
  answer.Text = macroscope::DescribeOverviewPart(part);
  return answer;
}

/// Any other chart: the cell's arrays, named.
Answer DescribeCell(vtkPVDataRepresentation* representation, double x, double y)
{
  Answer answer;
  auto* marks = vtkPolyData::SafeDownCast(representation->GetRenderedDataObject(0));
  const vtkIdType cell = CellUnder(marks, x, y, answer.Depth);
  if (cell < 0)
  {
    return answer;
  }
  vtkCellData* data = marks->GetCellData();
  std::string title = representation->GetClassName();
  for (const char* prefix : { "vtkMacroscope", "Representation" })
  {
    const auto at = title.find(prefix);
    if (at != std::string::npos)
    {
      title.erase(at, std::string(prefix).size());
    }
  }
  macroscope::GenericDetails details{ title + " mark", {} };
  for (int i = 0; i < data->GetNumberOfArrays(); ++i)
  {
    vtkAbstractArray* array = data->GetAbstractArray(i);
    const std::string name = array && array->GetName() ? array->GetName() : "";
    if (name.empty() || name == schema::Color || name == "vtkOriginalCellIds")
    {
      continue;
    }
    vtkVariant value = array->GetVariantValue(cell * array->GetNumberOfComponents());
    details.Fields.emplace_back(
      name, value.IsNumeric() ? Number4(value.ToDouble()) : value.ToString());
  }
  answer.Found = true;
  answer.Kind = "cell";
  answer.RowTable = "Input";
  if (vtkDataArray* ids = data->GetArray("vtkOriginalCellIds"))
  {
    answer.Rows.push_back(static_cast<long long>(ids->GetComponent(cell, 0)));
  }
  answer.Text = macroscope::DescribeGeneric(details);
  return answer;
}
} // namespace

vtkPVMacroscopeMarkInformation::Answer MacroscopeDescribeMark(
  vtkPVDataRepresentation* representation, double x, double y)
{
  if (auto* timeline = vtkMacroscopeTimelineRepresentation::SafeDownCast(representation))
  {
    return DescribeTimeline(timeline, x, y);
  }
  if (auto* overview = vtkMacroscopeOverviewRepresentation::SafeDownCast(representation))
  {
    return DescribeOverview(overview, x, y);
  }
  return DescribeCell(representation, x, y);
}
