// Glue between the OTF2 decoder's streaming entry point (StreamTrace) and
// the streaming time slicer of Core: builds the microscopic model
// while the archive is read. Used by the tests and the benchmark driver;
// the ParaView reader will hold the same few lines.
#ifndef macroscope_otf2_OTF2ModelSink_h
#define macroscope_otf2_OTF2ModelSink_h

#include <MacroscopeOTF2.h>
#include <StreamingTimeSlicing.h>

#include <optional>
#include <vector>

namespace macroscope::otf2::testing
{

static_assert(macroscope::otf2::DroppedStateType == macroscope::DroppedStateType,
  "the decoder's and the slicer's marks of dropped states must agree");

class ModelSink : public RowSink
{
public:
  /// Leaves and Types come from the definitions; a Grid with End <= Begin
  /// means [0, trace duration] from the definitions.
  explicit ModelSink(const TimeSlicingOptions& options)
    : Options(options)
  {
  }

  void Begin(const TraceInfo& info) override
  {
    this->Options.Leaves = uint32_t(info.Leaves.size());
    this->Options.Types = uint32_t(info.Types.size());
    if (!(this->Options.Grid.Begin < this->Options.Grid.End))
    {
      this->Options.Grid.Begin = 0.0;
      this->Options.Grid.End = info.Clock.Duration();
    }
    this->Slicer.emplace(this->Options);
  }
  void BeginLocation(uint32_t leaf) override { this->Slicer->BeginLeaf(leaf); }
  void Rows(const StateColumns& states, const EventColumns& events,
    const VariableColumns& variables) override
  {
    this->Slicer->AddStates({ states.Location.data(), states.Type.data(), states.Depth.data(),
      states.Start.data(), states.End.data(), states.size() });
    if (this->Options.Metric == SliceMetric::EventCount)
    {
      this->Slicer->AddPoints(
        { events.Location.data(), events.Type.data(), events.Time.data(), nullptr, events.size() });
    }
    else if (this->Options.Metric == SliceMetric::VariableMean)
    {
      this->Slicer->AddPoints({ variables.Location.data(), variables.Variable.data(),
        variables.Time.data(), variables.Value.data(), variables.size() });
    }
    ++this->Calls;
    this->LargestBatch =
      std::max(this->LargestBatch, states.size() + events.size() + variables.size());
    this->StateRowsSeen += states.size();
  }
  void EndLocation(uint32_t) override { this->Slicer->EndLeaf(); }
  bool WantsMessages() const override
  {
    const SliceMetric m = this->Options.Metric;
    return m == SliceMetric::BytesSentRate || m == SliceMetric::BytesReceivedRate ||
      m == SliceMetric::MessagesSent || m == SliceMetric::MessagesReceived;
  }

  /// The model, once StreamTrace() returned `trace`.
  MicroscopicModel finish(const TraceData& trace)
  {
    const MessageColumns& m = trace.Messages;
    const std::vector<double> bytes(m.Bytes.begin(), m.Bytes.end());
    this->Slicer->AddMessages({ m.Sender.data(), m.Receiver.data(), m.SendTime.data(),
      m.RecvTime.data(), bytes.data(), m.size() });
    return this->Slicer->Finish();
  }

  const TimeSlicingOptions& options() const { return this->Options; }

  std::size_t Calls = 0;
  std::size_t LargestBatch = 0;
  std::size_t StateRowsSeen = 0;

private:
  TimeSlicingOptions Options;
  std::optional<StreamingTimeSlicer> Slicer;
};

} // namespace macroscope::otf2::testing

#endif
