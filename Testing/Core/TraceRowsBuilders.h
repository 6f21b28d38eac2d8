// Test helpers: trace rows built from vectors, viewed as the plain-array
// inputs (StateRows, PointRows, MessageRows) of the core algorithms.
#pragma once

#include "TimeSlicing.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace macroscope::testing
{
struct States
{
  std::vector<uint32_t> Location, Type, Depth;
  std::vector<double> Start, End;

  void Add(uint32_t leaf, uint32_t type, uint32_t depth, double start, double end)
  {
    this->Location.push_back(leaf);
    this->Type.push_back(type);
    this->Depth.push_back(depth);
    this->Start.push_back(start);
    this->End.push_back(end);
  }
  std::size_t Size() const { return this->Location.size(); }
  StateRows Rows() const
  {
    StateRows rows;
    rows.Location = this->Location.data();
    rows.Type = this->Type.data();
    rows.Depth = this->Depth.data();
    rows.Start = this->Start.data();
    rows.End = this->End.data();
    rows.Count = this->Size();
    return rows;
  }
  States Permuted(const std::vector<std::size_t>& order) const
  {
    States p;
    for (std::size_t i : order)
    {
      p.Add(this->Location[i], this->Type[i], this->Depth[i], this->Start[i], this->End[i]);
    }
    return p;
  }
};

struct Points
{
  std::vector<uint32_t> Location, Type;
  std::vector<double> Time, Value;

  void Add(uint32_t leaf, uint32_t type, double time, double value = 0.0)
  {
    this->Location.push_back(leaf);
    this->Type.push_back(type);
    this->Time.push_back(time);
    this->Value.push_back(value);
  }
  PointRows Rows() const
  {
    PointRows rows;
    rows.Location = this->Location.data();
    rows.Type = this->Type.data();
    rows.Time = this->Time.data();
    rows.Value = this->Value.data();
    rows.Count = this->Location.size();
    return rows;
  }
};

struct Messages
{
  std::vector<uint32_t> Sender, Receiver;
  std::vector<double> SendTime, RecvTime, Bytes;

  void Add(uint32_t from, uint32_t to, double sent, double received, double bytes)
  {
    this->Sender.push_back(from);
    this->Receiver.push_back(to);
    this->SendTime.push_back(sent);
    this->RecvTime.push_back(received);
    this->Bytes.push_back(bytes);
  }
  MessageRows Rows() const
  {
    MessageRows rows;
    rows.Sender = this->Sender.data();
    rows.Receiver = this->Receiver.data();
    rows.SendTime = this->SendTime.data();
    rows.RecvTime = this->RecvTime.data();
    rows.Bytes = this->Bytes.data();
    rows.Count = this->Sender.size();
    return rows;
  }
};
}
