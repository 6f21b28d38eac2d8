#include "TraceStatistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace macroscope
{

void TraceStatisticsOptions::Validate() const
{
  if (!std::isfinite(this->Begin) || !std::isfinite(this->End) || !(this->Begin < this->End))
  {
    throw std::invalid_argument("the time window must have a finite start before its end (got [" +
      std::to_string(this->Begin) + ", " + std::to_string(this->End) + "])");
  }
  if (this->Bins < 1)
  {
    throw std::invalid_argument(
      "the number of bins must be at least 1 (got " + std::to_string(this->Bins) + ")");
  }
  if (!this->ProducerOfLeaf.empty())
  {
    if (this->ProducerOfLeaf.size() != this->Leaves)
    {
      throw std::invalid_argument("the producer map has " +
        std::to_string(this->ProducerOfLeaf.size()) + " entries for " +
        std::to_string(this->Leaves) + " leaves");
    }
    for (uint32_t p : this->ProducerOfLeaf)
    {
      if (p >= this->Producers)
      {
        throw std::invalid_argument("a leaf maps to producer " + std::to_string(p) +
          ", but there are " + std::to_string(this->Producers) + " producers");
      }
    }
  }
}

void TraceTally::Merge(const TraceTally& other)
{
  if (other.Producers != this->Producers || other.Types != this->Types || other.Bins != this->Bins)
  {
    throw std::invalid_argument("cannot merge the tallies of differently shaped statistics");
  }
  auto add = [](auto& into, const auto& from)
  {
    for (std::size_t i = 0; i < into.size(); ++i)
    {
      into[i] += from[i];
    }
  };
  add(this->ProducerRecords, other.ProducerRecords);
  add(this->ProducerStateTime, other.ProducerStateTime);
  add(this->TypeCount, other.TypeCount);
  add(this->TypeDuration, other.TypeDuration);
  add(this->Density, other.Density);
  for (std::size_t t = 0; t < this->TypeMinDuration.size(); ++t)
  {
    this->TypeMinDuration[t] = std::min(this->TypeMinDuration[t], other.TypeMinDuration[t]);
    this->TypeMaxDuration[t] = std::max(this->TypeMaxDuration[t], other.TypeMaxDuration[t]);
  }
}

namespace
{
// Reports progress every this many rows: often enough for a responsive
// abort, rarely enough to cost nothing.
constexpr std::size_t Chunk = 1 << 16;

class Counter
{
public:
  Counter(const TraceStatisticsOptions& options, TraceTally& tally, std::size_t rows)
    : Options(options)
    , Tally(tally)
    , Rows(rows)
    , BinWidth((options.End - options.Begin) / options.Bins)
  {
  }

  bool InWindow(double t) const
  {
    return t >= this->Options.Begin &&
      (t < this->Options.End || (this->Options.ClosedEnd && t == this->Options.End));
  }

  int Bin(double t) const
  {
    const double position = std::floor((t - this->Options.Begin) / this->BinWidth);
    // The window's end (closed) and rounding at the last border fall in the last bin.
    return static_cast<int>(std::clamp(position, 0.0, double(this->Options.Bins - 1)));
  }

  uint32_t Producer(uint32_t leaf, const char* what, std::size_t row) const
  {
    if (leaf >= this->Options.Leaves)
    {
      throw std::invalid_argument(std::string(what) + " row " + std::to_string(row) +
        " refers to leaf " + std::to_string(leaf) + ", but there are " +
        std::to_string(this->Options.Leaves) + " leaves");
    }
    return this->Options.ProducerOfLeaf.empty() ? leaf : this->Options.ProducerOfLeaf[leaf];
  }

  void CheckType(uint32_t type, const char* what, std::size_t row) const
  {
    if (type >= this->Options.Types)
    {
      throw std::invalid_argument(std::string(what) + " row " + std::to_string(row) + " has type " +
        std::to_string(type) + ", but the Types table has " + std::to_string(this->Options.Types) +
        " rows");
    }
  }

  void Count(uint32_t producer, int kind, double time)
  {
    ++this->Tally.ProducerRecords[std::size_t(producer) * RecordKinds + kind];
    ++this->Tally.Density[std::size_t(this->Bin(time)) * RecordKinds + kind];
  }

  // Called once per row: reports progress at every chunk, throws on abort.
  void Step()
  {
    if (++this->Done % Chunk == 0 && this->Options.Progress &&
      !this->Options.Progress(double(this->Done) / double(this->Rows)))
    {
      throw TraceStatisticsAborted();
    }
  }

  const TraceStatisticsOptions& Options;
  TraceTally& Tally;

private:
  std::size_t Rows;
  std::size_t Done = 0;
  double BinWidth;
};
}

TraceTally TallyTrace(const TraceStatisticsOptions& options, const StateRows& states,
  const PointRows& events, const PointRows& variables, const MessageRows& messages)
{
  options.Validate();
  const uint32_t producers = options.ProducerOfLeaf.empty() ? options.Leaves : options.Producers;
  TraceTally tally;
  tally.Producers = producers;
  tally.Types = options.Types;
  tally.Bins = options.Bins;
  tally.ProducerRecords.assign(std::size_t(producers) * RecordKinds, 0);
  tally.ProducerStateTime.assign(producers, 0.0);
  tally.TypeCount.assign(options.Types, 0);
  tally.TypeDuration.assign(options.Types, 0.0);
  tally.TypeMinDuration.assign(options.Types, std::numeric_limits<double>::infinity());
  tally.TypeMaxDuration.assign(options.Types, -std::numeric_limits<double>::infinity());
  tally.Density.assign(std::size_t(options.Bins) * RecordKinds, 0);

  Counter counter(options, tally, states.Count + events.Count + variables.Count + messages.Count);
  if (states.Count &&
    !(states.Location && states.Type && states.Depth && states.Start && states.End))
  {
    throw std::invalid_argument("the state rows miss a column");
  }
  for (std::size_t i = 0; i < states.Count; ++i)
  {
    counter.Step();
    const double start = states.Start[i];
    const double end = states.End[i];
    if (!(end >= start))
    {
      throw std::invalid_argument("state row " + std::to_string(i) + " ends (" +
        std::to_string(end) + " s) before it starts (" + std::to_string(start) + " s)");
    }
    const uint32_t producer = counter.Producer(states.Location[i], "state", i);
    counter.CheckType(states.Type[i], "state", i);
    const double from = std::max(start, options.Begin);
    const double to = std::min(end, options.End);
    // An interval counts when it overlaps the window; an instant, as events do.
    if (end > start ? !(to > from) : !counter.InWindow(start))
    {
      continue;
    }
    const double duration = end > start ? to - from : 0.0;
    counter.Count(producer, StateRecord, from);
    const uint32_t type = states.Type[i];
    ++tally.TypeCount[type];
    tally.TypeDuration[type] += duration;
    tally.TypeMinDuration[type] = std::min(tally.TypeMinDuration[type], duration);
    tally.TypeMaxDuration[type] = std::max(tally.TypeMaxDuration[type], duration);
    if (states.Depth[i] == 0)
    {
      tally.ProducerStateTime[producer] += duration;
    }
  }

  for (const PointRows* points : { &events, &variables })
  {
    const char* what = points == &events ? "event" : "variable";
    if (points->Count && !(points->Location && points->Type && points->Time))
    {
      throw std::invalid_argument(std::string("the ") + what + " rows miss a column");
    }
    for (std::size_t i = 0; i < points->Count; ++i)
    {
      counter.Step();
      const uint32_t producer = counter.Producer(points->Location[i], what, i);
      counter.CheckType(points->Type[i], what, i);
      const double time = points->Time[i];
      if (counter.InWindow(time))
      {
        counter.Count(producer, EventRecord, time);
        ++tally.TypeCount[points->Type[i]];
      }
    }
  }

  if (messages.Count &&
    !(messages.Sender && messages.Receiver && messages.SendTime && messages.RecvTime))
  {
    throw std::invalid_argument("the message rows miss a column");
  }
  for (std::size_t i = 0; i < messages.Count; ++i)
  {
    counter.Step();
    // Each end is a record of its own producer, in the window or not.
    const uint32_t sender = counter.Producer(messages.Sender[i], "message", i);
    const uint32_t receiver = counter.Producer(messages.Receiver[i], "message", i);
    if (counter.InWindow(messages.SendTime[i]))
    {
      counter.Count(sender, SendRecord, messages.SendTime[i]);
    }
    if (counter.InWindow(messages.RecvTime[i]))
    {
      counter.Count(receiver, ReceiveRecord, messages.RecvTime[i]);
    }
  }
  if (options.Progress && !options.Progress(1.0))
  {
    throw TraceStatisticsAborted();
  }
  return tally;
}

ProducerSummary SummarizeProducers(const TraceTally& tally)
{
  ProducerSummary summary;
  summary.Rows.resize(tally.Producers);
  for (uint32_t p = 0; p < tally.Producers; ++p)
  {
    ProducerStatistics& row = summary.Rows[p];
    row.Producer = p;
    for (int k = 0; k < RecordKinds; ++k)
    {
      row.Records[k] = tally.ProducerRecords[std::size_t(p) * RecordKinds + k];
      row.Total += row.Records[k];
      summary.Totals[k] += row.Records[k];
    }
    row.StateTime = tally.ProducerStateTime[p];
    summary.TotalRecords += row.Total;
    summary.TotalStateTime += row.StateTime;
  }
  std::stable_sort(summary.Rows.begin(), summary.Rows.end(),
    [](const ProducerStatistics& a, const ProducerStatistics& b) { return a.Total > b.Total; });

  const double total = static_cast<double>(summary.TotalRecords);
  const double producers = static_cast<double>(tally.Producers);
  int64_t running = 0;
  for (std::size_t i = 0; i < summary.Rows.size(); ++i)
  {
    ProducerStatistics& row = summary.Rows[i];
    running += row.Total;
    row.RecordShare = total > 0 ? row.Total / total : 0.0;
    row.CumulativeShare = total > 0 ? running / total : 0.0;
    row.ProducerShare = (i + 1) / producers;
    // 80% exactly, in integers: 5 × running >= 4 × total.
    if (summary.ProducersFor80Percent == 0 && summary.TotalRecords > 0 &&
      5 * running >= 4 * summary.TotalRecords)
    {
      summary.ProducersFor80Percent = static_cast<uint32_t>(i + 1);
      summary.ProducerShareFor80Percent = row.ProducerShare;
    }
  }
  return summary;
}

std::vector<TypeStatistics> SummarizeTypes(const TraceTally& tally,
  const std::vector<uint32_t>& listed, const std::vector<bool>& isState, bool withMessages)
{
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<TypeStatistics> rows;
  int64_t all = 0;
  for (uint32_t t : listed)
  {
    if (t >= tally.Types)
    {
      throw std::invalid_argument("type " + std::to_string(t) + " is not a row of the tally");
    }
    TypeStatistics row;
    row.Type = t;
    row.Count = tally.TypeCount[t];
    const bool state = t < isState.size() && isState[t];
    row.TotalDuration = state ? tally.TypeDuration[t] : 0.0;
    row.MeanDuration = state && row.Count > 0 ? row.TotalDuration / row.Count : nan;
    row.MinDuration = state && row.Count > 0 ? tally.TypeMinDuration[t] : nan;
    row.MaxDuration = state && row.Count > 0 ? tally.TypeMaxDuration[t] : nan;
    all += row.Count;
    rows.push_back(row);
  }
  if (withMessages)
  {
    TypeStatistics row;
    row.Type = TypeStatistics::MessageType;
    for (uint32_t p = 0; p < tally.Producers; ++p)
    {
      row.Count += tally.ProducerRecords[std::size_t(p) * RecordKinds + SendRecord];
    }
    row.MeanDuration = row.MinDuration = row.MaxDuration = nan;
    all += row.Count;
    rows.push_back(row);
  }
  for (TypeStatistics& row : rows)
  {
    row.Share = all > 0 ? double(row.Count) / double(all) : 0.0;
  }
  std::stable_sort(rows.begin(), rows.end(),
    [](const TypeStatistics& a, const TypeStatistics& b)
    {
      if (a.Count != b.Count)
      {
        return a.Count > b.Count;
      }
      if (a.TotalDuration != b.TotalDuration)
      {
        return a.TotalDuration > b.TotalDuration;
      }
      return a.Type < b.Type; // MessageType is the largest
    });
  return rows;
}

}
