#include "PajeModelStream.h"

#include <ModelStream.h>

#include <stdexcept>
#include <string>

namespace macroscope::paje
{

namespace
{
/// Applies the selection to each batch and folds what it keeps.
class ModelStreamSink : public RowSink
{
public:
  ModelStreamSink(const StreamSelection& selection, ModelStream& stream, std::size_t leaves)
    : Selection(selection)
    , Stream(stream)
  {
    // One flag per parsed leaf: its states, events and samples count.
    this->Counted.assign(leaves, 0);
    for (uint32_t leaf = 0; leaf < leaves; ++leaf)
    {
      this->Counted[leaf] =
        this->Selected(leaf) && this->InPiece(leaf) && this->Stream.NeedsLeaf(this->Output(leaf));
    }
  }

  bool WantsStates() const override { return this->Stream.WantsStates(); }
  bool WantsEvents() const override { return this->Stream.WantsEvents(); }
  bool WantsVariables() const override { return this->Stream.WantsVariables(); }
  bool WantsMessages() const override { return this->Stream.WantsMessages(); }

  void Rows(const StateColumns& states, const EventColumns& events,
    const VariableColumns& variables, const MessageColumns& messages) override
  {
    if (states.size() > 0)
    {
      this->Clear();
      const std::vector<uint8_t>& kept = this->Selection.StateTypes;
      for (std::size_t i = 0; i < states.size(); ++i)
      {
        const uint32_t leaf = this->Leaf(states.Location[i]);
        if (!this->Counted[leaf])
        {
          continue;
        }
        const uint32_t type = states.Type[i];
        this->Location.push_back(this->Output(leaf));
        this->Type.push_back(
          kept.empty() || (type < kept.size() && kept[type]) ? type : DroppedStateType);
        this->Depth.push_back(states.Depth[i]);
        this->Start.push_back(states.Start[i]);
        this->End.push_back(states.End[i]);
      }
      this->Stream.AddInterleavedStates({ this->Location.data(), this->Type.data(),
        this->Depth.data(), this->Start.data(), this->End.data(), this->Location.size() });
    }
    if (events.size() > 0)
    {
      this->Points(
        events.Location.data(), events.Type.data(), events.Time.data(), nullptr, events.size());
    }
    if (variables.size() > 0)
    {
      this->Points(variables.Location.data(), variables.Variable.data(), variables.Time.data(),
        variables.Value.data(), variables.size());
    }
    if (messages.size() > 0)
    {
      this->Messages(messages);
    }
  }

private:
  bool Selected(uint32_t leaf) const
  {
    return this->Selection.Leaves.empty() || this->Selection.Leaves[leaf] != 0;
  }
  bool InPiece(uint32_t leaf) const
  {
    return leaf >= this->Selection.Piece.Begin && leaf < this->Selection.Piece.End;
  }
  uint32_t Output(uint32_t leaf) const
  {
    return this->Selection.OutputLeaf.empty() ? leaf : this->Selection.OutputLeaf[leaf];
  }
  uint32_t Leaf(uint32_t leaf) const
  {
    if (leaf >= this->Counted.size())
    {
      throw std::invalid_argument("a row of leaf " + std::to_string(leaf) + " is beyond the " +
        std::to_string(this->Counted.size()) + " leaves of the first pass");
    }
    return leaf;
  }
  void Clear()
  {
    this->Location.clear();
    this->Type.clear();
    this->Depth.clear();
    this->Start.clear();
    this->End.clear();
    this->Time.clear();
    this->Value.clear();
  }

  void Points(const uint32_t* location, const uint32_t* type, const double* time,
    const double* value, std::size_t count)
  {
    this->Clear();
    for (std::size_t i = 0; i < count; ++i)
    {
      const uint32_t leaf = this->Leaf(location[i]);
      if (!this->Counted[leaf])
      {
        continue;
      }
      this->Location.push_back(this->Output(leaf));
      this->Type.push_back(type[i]);
      this->Time.push_back(time[i]);
      this->Value.push_back(value ? value[i] : 0.0);
    }
    this->Stream.AddInterleavedPoints({ this->Location.data(), this->Type.data(), this->Time.data(),
      this->Value.data(), this->Location.size() });
  }

  // As the reader's tables: both ends selected, the receiver in the piece.
  void Messages(const MessageColumns& messages)
  {
    this->Clear();
    std::vector<uint32_t>& sender = this->Depth; // reused scratch columns
    std::vector<double>& sent = this->Start;
    std::vector<double>& received = this->End;
    for (std::size_t i = 0; i < messages.size(); ++i)
    {
      const uint32_t from = this->Leaf(messages.Sender[i]);
      const uint32_t to = this->Leaf(messages.Receiver[i]);
      if (!this->Selected(from) || !this->Selected(to) || !this->InPiece(to))
      {
        continue;
      }
      sender.push_back(this->Output(from));
      this->Location.push_back(this->Output(to));
      sent.push_back(messages.SendTime[i]);
      received.push_back(messages.RecvTime[i]);
      this->Value.push_back(double(messages.Bytes[i]));
    }
    this->Stream.AddMessages({ sender.data(), this->Location.data(), sent.data(), received.data(),
      this->Value.data(), sender.size() });
  }

  const StreamSelection& Selection;
  ModelStream& Stream;
  std::vector<uint8_t> Counted;
  // Scratch columns of the rows kept from one batch.
  std::vector<uint32_t> Location;
  std::vector<uint32_t> Type;
  std::vector<uint32_t> Depth;
  std::vector<double> Start;
  std::vector<double> End;
  std::vector<double> Time;
  std::vector<double> Value;
};
}

Diagnostics StreamModel(const std::string& path, const TraceData& scan,
  const StreamSelection& selection, ModelStream& stream, const ReadOptions& options)
{
  const std::size_t leaves = scan.Leaves.size();
  if ((!selection.OutputLeaf.empty() && selection.OutputLeaf.size() != leaves) ||
    (!selection.Leaves.empty() && selection.Leaves.size() != leaves) ||
    (!selection.StateTypes.empty() && selection.StateTypes.size() != scan.Types.size()))
  {
    throw std::invalid_argument(
      path + ": the selection does not have one entry per leaf and per type of the first pass");
  }
  for (std::size_t leaf = 0; leaf < leaves; ++leaf)
  {
    const std::size_t output = selection.OutputLeaf.empty() ? leaf : selection.OutputLeaf[leaf];
    if (output >= stream.Leaves())
    {
      throw std::invalid_argument(path + ": leaf " + std::to_string(leaf) + " is leaf " +
        std::to_string(output) + " of the output, but the model has " +
        std::to_string(stream.Leaves()) + " leaves");
    }
  }
  ModelStreamSink sink(selection, stream, leaves);
  TraceData trace = StreamTrace(path, scan.LeafOfContainer, sink, options);
  stream.EndInterleaved();
  return trace.Report;
}

} // namespace macroscope::paje
