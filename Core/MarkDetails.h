#ifndef MacroscopeMarkDetails_h
#define MacroscopeMarkDetails_h

/**
 * Details on demand: the text that tells what a mark of a Macroscope chart
 * stands for (a state, an aggregate of states, a message, a part of an
 * overview, a treemap cell...), shown in the GUI's tooltip and returned by
 * macroscope.details_at() in Python (docs/details-on-demand.md).
 *
 * VTK-free: the caller fills the plain structures below from the layout's
 * cell arrays and the trace tables; these functions only decide what is
 * said and how numbers are written. Every text is a few lines separated by
 * '\n', the first line naming what the mark is.
 */

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace macroscope
{

/// Seconds of one type in a mark.
struct TypeShare
{
  std::string Name;
  double Seconds = 0.0;
};

/// A plain Timeline mark: one state.
struct StateDetails
{
  std::string Type;
  std::string Resource; ///< path in the hierarchy, root first
  double Start = 0.0;
  double End = 0.0;
  int Depth = 0;
};

/// A Timeline aggregate: states too narrow to be drawn, or rows merged.
struct AggregateDetails
{
  double Start = 0.0;
  double End = 0.0;
  int64_t StateCount = 0;
  bool MergedStates = false; ///< TimelineTimeAggregate
  bool MergedRows = false;   ///< TimelineRowAggregate
  std::vector<std::string> Resources;
  std::vector<TypeShare> Types; ///< any order; said most time first
};

/// A Timeline message line, or a group merged in one pixel column.
struct MessageDetails
{
  std::string Sender;   ///< empty when unknown
  std::string Receiver; ///< empty when unknown
  double SendTime = 0.0;
  double RecvTime = 0.0;
  int64_t Count = 1;
  double Bytes = 0.0;
};

/// A part (or a visual aggregate of parts) of an overview.
struct OverviewPartDetails
{
  std::string Title = "Overview part"; ///< e.g. "Spatiotemporal part"
  double Start = 0.0;
  double End = 0.0;
  std::string Resources; ///< e.g. the node's name and its leaves
  std::string ModeType;
  double ModeShare = 0.0; ///< the mode's proportion, in [0, 1]
  int64_t PartCount = 1;  ///< parts a visual aggregate stands for
  int Aggregate = 0;      ///< 0 a part, 1 same temporal partition, 2 different ones
  std::string Value;      ///< the value drawn, already written with its unit; may be empty
  std::vector<TypeShare> Composition; ///< optional (the temporal overview's stack)
};

/// Anything else: a title and named values, said in the given order.
struct GenericDetails
{
  std::string Title;
  std::vector<std::pair<std::string, std::string>> Fields;
};

/// A duration in the unit that suits it (s, ms, µs, ns), 4 significant digits.
std::string FormatDuration(double seconds);
/// An instant in seconds with the decimals that tell apart two instants
/// `resolution` seconds apart (at least 3, at most 12 decimals).
std::string FormatInstant(double seconds, double resolution);
/// A byte count with a k, M, G or T prefix (powers of 1000).
std::string FormatBytes(double bytes);
/// At most `shown` names, then "and n more"; with the count when cut.
std::string ListNames(const std::vector<std::string>& names, std::size_t shown = 4);
/// The types most time first (ties by name), each with its share of the
/// total and its time; at most `shown` lines, then one for the rest.
std::vector<std::string> DescribeComposition(std::vector<TypeShare> types, std::size_t shown = 6);

std::string DescribeState(const StateDetails& state);
std::string DescribeAggregate(const AggregateDetails& aggregate);
std::string DescribeMessage(const MessageDetails& message);
std::string DescribeOverviewPart(const OverviewPartDetails& part);
std::string DescribeGeneric(const GenericDetails& details);

} // namespace macroscope

#endif
