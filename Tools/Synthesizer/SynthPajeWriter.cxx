#include "SynthPajeWriter.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <queue>
#include <stdexcept>

namespace macroscope::synth
{

namespace
{

// Event ids of the header. Not in Pajé's usual order, and the field orders
// below differ between definitions, so that a reader must follow the header.
enum EventId : int
{
  DefineContainerType = 0,
  DefineStateType = 3,
  DefineEventType = 1,
  DefineVariableType = 7,
  DefineLinkType = 2,
  DefineEntityValue = 5,
  CreateContainer = 4,
  DestroyContainer = 6,
  PushState = 10,
  PopState = 11,
  NewEvent = 12,
  SetVariable = 20,
  StartLink = 21,
  EndLink = 22
};

/// The header: one %EventDef per kind, with its fields in writing order.
/// writeLine() callers follow these orders. NewEvent carries an extra field
/// (Operation) that Pajé readers skip; StartLink carries Size.
constexpr const char* Header =
  "%EventDef PajeDefineContainerType 0\n"
  "% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
  "%EventDef PajeDefineEventType 1\n"
  "% Type string\n% Alias string\n% Name string\n%EndEventDef\n"
  "%EventDef PajeDefineLinkType 2\n"
  "% Alias string\n% Type string\n% StartContainerType string\n"
  "% EndContainerType string\n% Name string\n%EndEventDef\n"
  "%EventDef PajeDefineStateType 3\n"
  "% Name string\n% Type string\n% Alias string\n%EndEventDef\n"
  "%EventDef PajeCreateContainer 4\n"
  "% Time date\n% Alias string\n% Type string\n% Container string\n% Name string\n"
  "%EndEventDef\n"
  "%EventDef PajeDefineEntityValue 5\n"
  "% Alias string\n% Type string\n% Name string\n% Color color\n%EndEventDef\n"
  "%EventDef PajeDestroyContainer 6\n"
  "% Time date\n% Type string\n% Name string\n%EndEventDef\n"
  "%EventDef PajeDefineVariableType 7\n"
  "% Alias string\n% Name string\n% Type string\n% Color color\n%EndEventDef\n"
  "%EventDef PajePushState 10\n"
  "% Time date\n% Container string\n% Type string\n% Value string\n%EndEventDef\n"
  "%EventDef PajePopState 11\n"
  "% Time date\n% Type string\n% Container string\n%EndEventDef\n"
  "%EventDef PajeNewEvent 12\n"
  "% Time date\n% Type string\n% Container string\n% Value string\n"
  "% Operation string\n%EndEventDef\n"
  "%EventDef PajeSetVariable 20\n"
  "% Time date\n% Container string\n% Type string\n% Value double\n%EndEventDef\n"
  "%EventDef PajeStartLink 21\n"
  "% Time date\n% Type string\n% Container string\n% Value string\n"
  "% StartContainer string\n% Key string\n% Size int\n%EndEventDef\n"
  "%EventDef PajeEndLink 22\n"
  "% Key string\n% Time date\n% Type string\n% Container string\n% Value string\n"
  "% EndContainer string\n%EndEventDef\n";

/// Colours of the state values, by family ("r g b" in [0, 1]).
const char* RegionColor(Region region)
{
  switch (region)
  {
    case Region::Main:
      return "0.6 0.6 0.6";
    case Region::Iteration:
      return "0.8 0.8 0.8";
    case Region::Compute:
      return "0.2 0.4 0.8";
    case Region::ExchangeHalo:
    case Region::TreeGather:
    case Region::TreeScatter:
    case Region::ReduceResidual:
      return "0.4 0.6 1";
    case Region::OmpParallel:
      return "0.2 0.7 0.3";
    case Region::OmpImplicitBarrier:
      return "0.5 0.9 0.5";
    case Region::MpiAllreduce:
    case Region::MpiBarrier:
      return "0.9 0.5 0.1";
    default:
      return "0.85 0.15 0.15"; // the other MPI calls
  }
}

/// The instant events, named like the OTF2 records they stand for.
constexpr const char* InstantNames[] = { "ProgramBegin", "ProgramEnd", "ThreadFork", "ThreadJoin",
  "MpiCollectiveBegin", "MpiCollectiveEnd" };

/// Pajé fields are separated by blanks; a name with blanks is quoted.
std::string Field(const std::string& text)
{
  return text.find_first_of(" \t") == std::string::npos && !text.empty() ? text : '"' + text + '"';
}

void AppendNumber(std::string& out, double value)
{
  char text[32];
  // Shortest representation that reads back as the same double.
  const auto result = std::to_chars(text, text + sizeof(text), value);
  out.append(text, result.ptr);
}

void AppendNumber(std::string& out, uint64_t value)
{
  char text[24];
  const auto result = std::to_chars(text, text + sizeof(text), value);
  out.append(text, result.ptr);
}

std::string ContainerTypeLine(const char* alias, const char* parent, const char* name)
{
  return std::to_string(DefineContainerType) + " " + alias + " " + parent + " " + name + "\n";
}

} // namespace

PajeWriter::PajeWriter(std::string path, const Platform& platform, uint64_t timerResolution)
  : Path(std::move(path))
  , Machine(platform)
  , TimerResolution(timerResolution)
  , Buffers(platform.LocationCount())
{
  // Fail before the simulation runs, not after.
  std::ofstream probe(this->Path, std::ios::binary | std::ios::trunc);
  if (!probe)
  {
    throw std::runtime_error("cannot write the Pajé trace '" + this->Path + "'");
  }
}

double PajeWriter::Seconds(double time) const
{
  // TraceWriter::Timestamp() minus the global offset, converted back the
  // way the OTF2 decoder converts ticks (ClockInfo::Seconds).
  const int64_t ticks = int64_t(std::llround(time * double(this->TimerResolution)));
  return double(ticks) / double(this->TimerResolution);
}

std::string& PajeWriter::BeginLine(uint64_t location, double time, int eventId)
{
  Buffer& buffer = this->Buffers[location];
  const double at = this->Seconds(time);
  this->LastTime = std::max(this->LastTime, at);
  buffer.Times.push_back(at);
  std::string& text = buffer.Text;
  AppendNumber(text, uint64_t(eventId));
  text += ' ';
  if (eventId != EndLink) // EndLink starts with its Key, see the header
  {
    AppendNumber(text, at);
  }
  return text;
}

void PajeWriter::EndLine(uint64_t location)
{
  Buffer& buffer = this->Buffers[location];
  buffer.Text += '\n';
  buffer.Ends.push_back(buffer.Text.size());
}

std::string PajeWriter::ThreadAlias(uint64_t location) const
{
  const uint64_t threads = this->Machine.GetThreadsPerRank();
  return "t" + std::to_string(location / threads) + "_" + std::to_string(location % threads);
}

std::string PajeWriter::LinkKey(
  uint32_t sender, uint32_t receiver, uint32_t tag, uint64_t sequence) const
{
  return "m" + std::to_string(sender) + "_" + std::to_string(receiver) + "_" + std::to_string(tag) +
    "_" + std::to_string(sequence);
}

void PajeWriter::ProgramBegin(uint64_t location, double time)
{
  this->Instant(location, time, InstantNames[0], "-");
}

void PajeWriter::ProgramEnd(uint64_t location, double time)
{
  this->Instant(location, time, InstantNames[1], "-");
}

void PajeWriter::ThreadFork(uint64_t location, double time)
{
  this->Instant(location, time, InstantNames[2], "-");
}

void PajeWriter::ThreadJoin(uint64_t location, double time)
{
  this->Instant(location, time, InstantNames[3], "-");
}

void PajeWriter::CollectiveBegin(uint64_t location, double time)
{
  // The operation is only known at the end (as in OTF2): "-" here.
  this->Instant(location, time, InstantNames[4], "-");
}

void PajeWriter::CollectiveEnd(uint64_t location, double time, Collective operation)
{
  this->Instant(
    location, time, InstantNames[5], operation == Collective::Barrier ? "Barrier" : "Allreduce");
}

void PajeWriter::Instant(uint64_t location, double time, const char* value, const char* operation)
{
  std::string& text = this->BeginLine(location, time, NewEvent);
  text += " E ";
  text += this->ThreadAlias(location);
  text += " e";
  text += value;
  text += ' ';
  text += operation;
  this->EndLine(location);
}

void PajeWriter::Enter(uint64_t location, double time, Region region)
{
  std::string& text = this->BeginLine(location, time, PushState);
  text += ' ';
  text += this->ThreadAlias(location);
  text += " S s";
  AppendNumber(text, uint64_t(region));
  this->EndLine(location);
}

void PajeWriter::Leave(uint64_t location, double time)
{
  std::string& text = this->BeginLine(location, time, PopState);
  text += " S ";
  text += this->ThreadAlias(location);
  this->EndLine(location);
}

void PajeWriter::Metric(uint64_t location, double time, uint64_t instructions)
{
  std::string& text = this->BeginLine(location, time, SetVariable);
  text += ' ';
  text += this->ThreadAlias(location);
  text += " INS ";
  AppendNumber(text, instructions);
  this->EndLine(location);
}

void PajeWriter::Send(
  uint64_t location, double time, uint32_t receiver, uint32_t tag, uint64_t bytes)
{
  const uint32_t sender = uint32_t(location / this->Machine.GetThreadsPerRank());
  const uint64_t sequence = this->Channels[{ sender, receiver, tag }].first++;
  std::string& text = this->BeginLine(location, time, StartLink);
  text += " L 0 p2p ";
  text += this->ThreadAlias(location);
  text += ' ';
  text += this->LinkKey(sender, receiver, tag, sequence);
  text += ' ';
  AppendNumber(text, bytes);
  this->EndLine(location);
}

void PajeWriter::Receive(uint64_t location, double time, uint32_t sender, uint32_t tag)
{
  const uint32_t receiver = uint32_t(location / this->Machine.GetThreadsPerRank());
  const uint64_t sequence = this->Channels[{ sender, receiver, tag }].second++;
  std::string& text = this->BeginLine(location, time, EndLink);
  text += this->LinkKey(sender, receiver, tag, sequence);
  text += ' ';
  AppendNumber(text, this->Buffers[location].Times.back());
  text += " L 0 p2p ";
  text += this->ThreadAlias(location);
  this->EndLine(location);
}

uint64_t PajeWriter::Finish()
{
  std::ofstream out(this->Path, std::ios::binary | std::ios::trunc);
  if (!out)
  {
    throw std::runtime_error("cannot write the Pajé trace '" + this->Path + "'");
  }
  uint64_t lines = 0;
  std::string text = "# Pajé trace of a macroscope-synth run (docs/synthesizer.md); times in\n"
                     "# seconds since the trace start, as the OTF2 reader gives them.\n";
  text += Header;
  auto line = [&](const std::string& content)
  {
    text += content;
    ++lines;
  };
  // Types. The container types have the names of the OTF2 hierarchy kinds.
  line(ContainerTypeLine("MACHINE", "0", "machine"));
  line(ContainerTypeLine("CLUSTER", "MACHINE", "cluster"));
  line(ContainerTypeLine("NODE", "CLUSTER", "node"));
  line(ContainerTypeLine("PROCESS", "NODE", "process"));
  line(ContainerTypeLine("THREAD", "PROCESS", "thread"));
  line(std::to_string(DefineStateType) + " Region THREAD S\n");
  line(std::to_string(DefineEventType) + " THREAD E Event\n");
  line(std::to_string(DefineVariableType) + " INS PAPI_TOT_INS THREAD \"0.9 0.6 0\"\n");
  line(std::to_string(DefineLinkType) + " L 0 THREAD THREAD \"MPI point-to-point\"\n");
  for (uint32_t region = 0; region < uint32_t(Region::Count); ++region)
  {
    line(std::to_string(DefineEntityValue) + " s" + std::to_string(region) + " S " +
      Field(RegionName(Region(region))) + " \"" + RegionColor(Region(region)) + "\"\n");
  }
  for (const char* name : InstantNames)
  {
    line(std::to_string(DefineEntityValue) + " e" + name + " E " + name + " \"0.3 0.3 0.3\"\n");
  }
  line(std::to_string(DefineEntityValue) + " p2p L message \"0 0 0\"\n");

  // Containers, at time 0, following the platform: machine, clusters,
  // nodes, ranks, threads (depth first, as the OTF2 system tree).
  const Platform& platform = this->Machine;
  const std::string create = std::to_string(CreateContainer) + " 0 ";
  line(create + "m MACHINE 0 " + Field(Platform::MachineName()) + "\n");
  for (uint32_t cluster = 0; cluster < platform.ClusterCount(); ++cluster)
  {
    line(create + "c" + std::to_string(cluster) + " CLUSTER m " +
      Field(Platform::ClusterName(cluster)) + "\n");
    for (uint32_t node : platform.NodesOfCluster(cluster))
    {
      line(create + "n" + std::to_string(node) + " NODE c" + std::to_string(cluster) + " " +
        Field(Platform::NodeName(node)) + "\n");
      for (uint32_t rank : platform.RanksOfNode(node))
      {
        line(create + "r" + std::to_string(rank) + " PROCESS n" + std::to_string(node) + " " +
          Field(Platform::RankName(rank)) + "\n");
        for (uint32_t thread = 0; thread < platform.GetThreadsPerRank(); ++thread)
        {
          line(create + this->ThreadAlias(platform.LocationIndex(rank, thread)) + " THREAD r" +
            std::to_string(rank) + " " + Field(Platform::ThreadName(thread)) + "\n");
        }
      }
    }
  }
  out << text;

  // Events: a k-way merge of the per-location buffers by time; ties keep
  // location order, and each location's own order.
  using Cursor = std::pair<double, uint64_t>; // (time, location)
  std::priority_queue<Cursor, std::vector<Cursor>, std::greater<Cursor>> heap;
  std::vector<std::size_t> next(this->Buffers.size(), 0);
  for (uint64_t location = 0; location < this->Buffers.size(); ++location)
  {
    if (!this->Buffers[location].Times.empty())
    {
      heap.emplace(this->Buffers[location].Times[0], location);
    }
  }
  while (!heap.empty())
  {
    const uint64_t location = heap.top().second;
    heap.pop();
    Buffer& buffer = this->Buffers[location];
    // Copy the run of lines that stay ahead of every other location.
    const double limit = heap.empty() ? HUGE_VAL : heap.top().first;
    const uint64_t limitLocation = heap.empty() ? 0 : heap.top().second;
    std::size_t& row = next[location];
    const std::size_t first = row;
    while (row < buffer.Times.size() &&
      (buffer.Times[row] < limit || (buffer.Times[row] == limit && location < limitLocation)))
    {
      ++row;
    }
    const std::size_t begin = first == 0 ? 0 : buffer.Ends[first - 1];
    out.write(buffer.Text.data() + begin, std::streamsize(buffer.Ends[row - 1] - begin));
    lines += row - first;
    if (row < buffer.Times.size())
    {
      heap.emplace(buffer.Times[row], location);
    }
    else
    {
      buffer = Buffer(); // give the memory back early
    }
  }

  // Destruction at the last timestamp: threads, then the machine.
  text.clear();
  std::string end;
  AppendNumber(end, this->LastTime);
  for (uint64_t location = 0; location < platform.LocationCount(); ++location)
  {
    line(std::to_string(DestroyContainer) + " " + end + " THREAD " + this->ThreadAlias(location) +
      "\n");
  }
  line(std::to_string(DestroyContainer) + " " + end + " MACHINE m\n");
  out << text;
  out.close();
  if (!out)
  {
    throw std::runtime_error("writing the Pajé trace '" + this->Path + "' failed");
  }
  return lines;
}

} // namespace macroscope::synth
