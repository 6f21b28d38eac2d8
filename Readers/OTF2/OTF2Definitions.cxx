#include "OTF2Definitions.h"

#include "MacroscopeOTF2.h"
#include "OTF2Archive.h"

#include <TraceSchema.h>

#include <otf2/otf2.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

namespace macroscope::otf2
{

void RefIndex::assign(const std::vector<uint64_t>& refs)
{
  std::vector<uint64_t> indexes(refs.size());
  for (std::size_t index = 0; index < refs.size(); ++index)
  {
    indexes[index] = index;
  }
  this->assign(refs, indexes);
}

void RefIndex::assign(const std::vector<uint64_t>& refs, const std::vector<uint64_t>& values)
{
  this->Dense.clear();
  this->Sparse.clear();
  uint64_t largest = 0;
  for (uint64_t ref : refs)
  {
    largest = std::max(largest, ref);
  }
  // Score-P numbers definitions densely; location ids (thread << 32 | rank)
  // and hand-made archives may not be, and must not cost a huge table.
  this->UseDense = refs.empty() || largest < 4 * refs.size() + 1024;
  if (this->UseDense)
  {
    this->Dense.assign(refs.empty() ? 0 : largest + 1, -1);
  }
  for (std::size_t index = 0; index < refs.size(); ++index)
  {
    if (this->UseDense)
    {
      if (this->Dense[refs[index]] < 0)
      {
        this->Dense[refs[index]] = int64_t(values[index]);
      }
    }
    else
    {
      this->Sparse.emplace(refs[index], values[index]);
    }
  }
}

namespace
{

// The global definitions as OTF2 delivers them, before resolution.
struct RawDefinitions
{
  struct SystemTreeNode
  {
    uint64_t Ref, Name, ClassName, Parent;
  };
  struct LocationGroup
  {
    uint64_t Ref, Name, Type, Parent;
  };
  struct Location
  {
    uint64_t Ref, Name, Type, Events, Group;
  };
  struct Region
  {
    uint64_t Ref, Name, Role, Paradigm;
  };
  struct Group
  {
    uint64_t Type, Paradigm;
    std::vector<uint64_t> Members;
  };
  struct Comm
  {
    uint64_t Ref, Name, Group;
  };
  struct MetricMember
  {
    uint64_t Name, Unit;
  };
  struct Metric
  {
    uint64_t Ref;
    std::vector<uint64_t> Members; ///< empty for instances
    std::optional<uint64_t> Class; ///< set for instances
  };

  std::optional<ClockInfo> Clock;
  std::unordered_map<uint64_t, std::string> Strings;
  std::unordered_map<uint64_t, uint64_t> ParadigmNames;
  std::vector<SystemTreeNode> SystemTreeNodes;
  std::vector<LocationGroup> LocationGroups;
  std::vector<Location> Locations;
  std::vector<Region> Regions;
  /// Every definition of each Group id, in definition order: EZTrace
  /// defines Group 0 twice (the locations and MPI_COMM_WORLD's group).
  std::unordered_map<uint64_t, std::vector<Group>> Groups;
  std::vector<Comm> Comms;
  std::vector<std::pair<uint64_t, MetricMember>> MetricMembers;
  std::vector<Metric> Metrics;

  std::string String(uint64_t ref) const
  {
    const auto found = this->Strings.find(ref);
    return found == this->Strings.end() ? std::string() : found->second;
  }
};

// OTF2 global definition callbacks: copy the records, resolve nothing yet
// (OTF2 does not require definitions to precede the ones referring to them).
struct Collect
{
  static RawDefinitions& Raw(void* userData) { return *static_cast<RawDefinitions*>(userData); }

  static OTF2_CallbackCode Clock(
    void* userData, uint64_t resolution, uint64_t offset, uint64_t length, uint64_t realtime)
  {
    Raw(userData).Clock = ClockInfo{ resolution, offset, length, realtime };
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode String(void* userData, OTF2_StringRef self, const char* text)
  {
    Raw(userData).Strings[self] = text != nullptr ? text : "";
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode Paradigm(
    void* userData, OTF2_Paradigm paradigm, OTF2_StringRef name, OTF2_ParadigmClass)
  {
    Raw(userData).ParadigmNames[paradigm] = name;
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode SystemTreeNode(void* userData, OTF2_SystemTreeNodeRef self,
    OTF2_StringRef name, OTF2_StringRef className, OTF2_SystemTreeNodeRef parent)
  {
    Raw(userData).SystemTreeNodes.push_back({ self, name, className, parent });
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode LocationGroup(void* userData, OTF2_LocationGroupRef self,
    OTF2_StringRef name, OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
    OTF2_LocationGroupRef)
  {
    Raw(userData).LocationGroups.push_back({ self, name, type, parent });
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode Location(void* userData, OTF2_LocationRef self, OTF2_StringRef name,
    OTF2_LocationType type, uint64_t events, OTF2_LocationGroupRef group)
  {
    Raw(userData).Locations.push_back({ self, name, type, events, group });
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode Region(void* userData, OTF2_RegionRef self, OTF2_StringRef name,
    OTF2_StringRef, OTF2_StringRef, OTF2_RegionRole role, OTF2_Paradigm paradigm, OTF2_RegionFlag,
    OTF2_StringRef, uint32_t, uint32_t)
  {
    Raw(userData).Regions.push_back({ self, name, role, paradigm });
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode Group(void* userData, OTF2_GroupRef self, OTF2_StringRef,
    OTF2_GroupType type, OTF2_Paradigm paradigm, OTF2_GroupFlag, uint32_t count,
    const uint64_t* members)
  {
    Raw(userData).Groups[self].push_back(
      { uint64_t(type), uint64_t(paradigm), std::vector<uint64_t>(members, members + count) });
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode Comm(void* userData, OTF2_CommRef self, OTF2_StringRef name,
    OTF2_GroupRef group, OTF2_CommRef, OTF2_CommFlag)
  {
    Raw(userData).Comms.push_back({ self, name, group });
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode MetricMember(void* userData, OTF2_MetricMemberRef self,
    OTF2_StringRef name, OTF2_StringRef, OTF2_MetricType, OTF2_MetricMode, OTF2_Type, OTF2_Base,
    int64_t, OTF2_StringRef unit)
  {
    Raw(userData).MetricMembers.push_back({ self, { name, unit } });
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode MetricClass(void* userData, OTF2_MetricRef self, uint8_t count,
    const OTF2_MetricMemberRef* members, OTF2_MetricOccurrence, OTF2_RecorderKind)
  {
    Raw(userData).Metrics.push_back({ self, std::vector<uint64_t>(members, members + count), {} });
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode MetricInstance(void* userData, OTF2_MetricRef self,
    OTF2_MetricRef metricClass, OTF2_LocationRef, OTF2_MetricScope, uint64_t)
  {
    Raw(userData).Metrics.push_back({ self, {}, metricClass });
    return OTF2_CALLBACK_SUCCESS;
  }
};

RawDefinitions CollectDefinitions(const Archive& archive)
{
  OTF2_Reader* reader = archive.GetReader();
  OTF2_GlobalDefReader* defReader = OTF2_Reader_GetGlobalDefReader(reader);
  if (defReader == nullptr)
  {
    archive.Fail("cannot open the global definitions" +
      []
      {
        const std::string detail = OTF2MessageCapture::Take();
        return detail.empty() ? std::string() : " (" + detail + ")";
      }());
  }
  std::unique_ptr<OTF2_GlobalDefReaderCallbacks, void (*)(OTF2_GlobalDefReaderCallbacks*)>
    callbacks(OTF2_GlobalDefReaderCallbacks_New(), &OTF2_GlobalDefReaderCallbacks_Delete);
  OTF2_GlobalDefReaderCallbacks* c = callbacks.get();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(c, &Collect::Clock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(c, &Collect::String);
  OTF2_GlobalDefReaderCallbacks_SetParadigmCallback(c, &Collect::Paradigm);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(c, &Collect::SystemTreeNode);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(c, &Collect::LocationGroup);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(c, &Collect::Location);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(c, &Collect::Region);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(c, &Collect::Group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(c, &Collect::Comm);
  OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(c, &Collect::MetricMember);
  OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(c, &Collect::MetricClass);
  OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(c, &Collect::MetricInstance);

  RawDefinitions raw;
  archive.Check(OTF2_Reader_RegisterGlobalDefCallbacks(reader, defReader, c, &raw),
    "registering the definition callbacks");
  uint64_t read = 0;
  const OTF2_ErrorCode status = OTF2_Reader_ReadAllGlobalDefinitions(reader, defReader, &read);
  archive.Check(status, "reading the global definitions");
  OTF2_Reader_CloseGlobalDefReader(reader, defReader);
  // OTF2 does not always notice a truncated file: it may stop cleanly at a
  // chunk boundary, or decode stale buffer memory past the end of the file.
  // The anchor file knows how many records there should be.
  uint64_t announced = 0;
  archive.Check(OTF2_Reader_GetNumberOfGlobalDefinitions(reader, &announced),
    "counting the global definitions");
  if (read != announced)
  {
    archive.Fail("the global definitions hold " + std::to_string(read) +
      " records where the anchor file announces " + std::to_string(announced) +
      " (truncated or corrupt file)");
  }

  if (!raw.Clock)
  {
    archive.Fail("the global definitions have no ClockProperties record");
  }
  if (raw.Clock->Resolution == 0)
  {
    archive.Fail("the ClockProperties record gives a timer resolution of 0");
  }
  if (raw.Locations.empty())
  {
    archive.Fail("the global definitions define no Location");
  }
  return raw;
}

// The resource tree: system tree nodes, then location groups, then
// locations, walked depth first with children in definition order.
void BuildHierarchy(const RawDefinitions& raw, const Archive& archive, TraceInfo& info)
{
  enum class Level
  {
    SystemTreeNode,
    LocationGroup,
    Location
  };
  struct Vertex
  {
    Level Kind;
    std::size_t Index; ///< into the raw vector of its level
  };
  std::vector<std::vector<Vertex>> childrenOfNode(raw.SystemTreeNodes.size());
  std::vector<std::vector<Vertex>> childrenOfGroup(raw.LocationGroups.size());
  std::vector<Vertex> roots;

  std::vector<uint64_t> refs;
  for (const auto& node : raw.SystemTreeNodes)
  {
    refs.push_back(node.Ref);
  }
  RefIndex nodes;
  nodes.assign(refs);
  refs.clear();
  for (const auto& group : raw.LocationGroups)
  {
    refs.push_back(group.Ref);
  }
  RefIndex groups;
  groups.assign(refs);

  for (std::size_t i = 0; i < raw.SystemTreeNodes.size(); ++i)
  {
    const int64_t parent = nodes.find(raw.SystemTreeNodes[i].Parent);
    (parent >= 0 ? childrenOfNode[parent] : roots).push_back({ Level::SystemTreeNode, i });
  }
  for (std::size_t i = 0; i < raw.LocationGroups.size(); ++i)
  {
    const int64_t parent = nodes.find(raw.LocationGroups[i].Parent);
    (parent >= 0 ? childrenOfNode[parent] : roots).push_back({ Level::LocationGroup, i });
  }
  for (std::size_t i = 0; i < raw.Locations.size(); ++i)
  {
    const int64_t group = groups.find(raw.Locations[i].Group);
    (group >= 0 ? childrenOfGroup[group] : roots).push_back({ Level::Location, i });
  }
  // Nested system tree nodes before the location groups attached to a node.
  for (auto& children : childrenOfNode)
  {
    std::stable_partition(children.begin(), children.end(),
      [](const Vertex& v) { return v.Kind == Level::SystemTreeNode; });
  }

  HierarchyColumns& tree = info.Hierarchy;
  struct Pending
  {
    Vertex Item;
    int64_t Parent;
  };
  std::vector<Pending> stack;
  auto pushChildren = [&stack](const std::vector<Vertex>& children, int64_t parent)
  {
    for (auto child = children.rbegin(); child != children.rend(); ++child)
    {
      stack.push_back({ *child, parent });
    }
  };
  if (roots.size() == 1)
  {
    stack.push_back({ roots.front(), -1 });
  }
  else
  {
    // vtkTree needs one root; a forest (or a cycle-only tree) gets one.
    tree.Parent.push_back(-1);
    tree.Name.push_back("trace");
    tree.Kind.push_back("trace");
    tree.LeafIndex.push_back(-1);
    pushChildren(roots, 0);
  }

  std::vector<bool> visitedNode(raw.SystemTreeNodes.size(), false);
  while (!stack.empty())
  {
    const Pending current = stack.back();
    stack.pop_back();
    const int64_t vertex = int64_t(tree.Parent.size());
    tree.Parent.push_back(current.Parent);
    tree.LeafIndex.push_back(-1);
    switch (current.Item.Kind)
    {
      case Level::SystemTreeNode:
      {
        const auto& node = raw.SystemTreeNodes[current.Item.Index];
        visitedNode[current.Item.Index] = true;
        tree.Name.push_back(raw.String(node.Name));
        tree.Kind.push_back(raw.String(node.ClassName));
        pushChildren(childrenOfNode[current.Item.Index], vertex);
        break;
      }
      case Level::LocationGroup:
      {
        const auto& group = raw.LocationGroups[current.Item.Index];
        tree.Name.push_back(raw.String(group.Name));
        tree.Kind.push_back(LocationGroupTypeName(uint32_t(group.Type)));
        pushChildren(childrenOfGroup[current.Item.Index], vertex);
        break;
      }
      case Level::Location:
      {
        const auto& location = raw.Locations[current.Item.Index];
        tree.Name.push_back(raw.String(location.Name));
        tree.Kind.push_back(LocationTypeName(uint32_t(location.Type)));
        tree.LeafIndex.back() = int64_t(info.Leaves.size());
        info.Leaves.push_back({ location.Ref, std::size_t(vertex), location.Events });
        info.TotalEvents += location.Events;
        break;
      }
    }
  }
  // Nodes only reachable from each other form a parent cycle: corrupt.
  if (std::find(visitedNode.begin(), visitedNode.end(), false) != visitedNode.end())
  {
    archive.Fail("the system tree nodes' parents form a cycle");
  }
  if (info.Leaves.size() != raw.Locations.size())
  {
    archive.Fail("some Locations belong to location groups outside the system tree");
  }
}

void BuildTypes(const RawDefinitions& raw, Definitions& defs)
{
  TypeColumns& types = defs.Info.Types;
  std::vector<uint64_t> refs;
  // One state type per region name: EZTrace defines every region once per
  // rank, and a legend must show "Working" once, in one colour. The first
  // definition of a name gives its paradigm and role.
  std::unordered_map<std::string, uint32_t> stateOfName;
  for (const auto& region : raw.Regions)
  {
    const std::string name = raw.String(region.Name);
    const auto known = stateOfName.find(name);
    if (known != stateOfName.end())
    {
      defs.RegionType.push_back(known->second);
      ++defs.Info.RegionsSharingAName;
    }
    else
    {
      const auto customName = raw.ParadigmNames.find(region.Paradigm);
      const std::string paradigm = customName != raw.ParadigmNames.end()
        ? raw.String(customName->second)
        : ParadigmName(uint32_t(region.Paradigm));
      defs.RegionType.push_back(
        types.Add(name, schema::StateKind, paradigm, RegionRoleName(uint32_t(region.Role))));
      stateOfName.emplace(name, defs.RegionType.back());
    }
    refs.push_back(region.Ref);
  }
  defs.RegionTypes.assign(
    refs, std::vector<uint64_t>(defs.RegionType.begin(), defs.RegionType.end()));

  // One variable per metric member, in definition order.
  // Likewise one variable per member name.
  std::unordered_map<uint64_t, uint32_t> memberType;
  std::unordered_map<std::string, uint32_t> variableOfName;
  for (const auto& [ref, member] : raw.MetricMembers)
  {
    const std::string name = raw.String(member.Name);
    const auto known = variableOfName.find(name);
    const uint32_t type = known != variableOfName.end()
      ? known->second
      : variableOfName.emplace(name, types.Add(name, schema::VariableKind, "", "")).first->second;
    memberType.emplace(ref, type);
  }
  refs.clear();
  std::unordered_map<uint64_t, std::size_t> classIndex;
  for (std::size_t i = 0; i < raw.Metrics.size(); ++i)
  {
    if (!raw.Metrics[i].Class)
    {
      classIndex.emplace(raw.Metrics[i].Ref, i);
    }
  }
  for (const auto& metric : raw.Metrics)
  {
    const std::vector<uint64_t>* members = &metric.Members;
    if (metric.Class)
    {
      const auto found = classIndex.find(*metric.Class);
      members = found != classIndex.end() ? &raw.Metrics[found->second].Members : nullptr;
    }
    std::vector<uint32_t> variables;
    bool complete = members != nullptr;
    for (std::size_t m = 0; complete && m < members->size(); ++m)
    {
      const auto found = memberType.find((*members)[m]);
      complete = found != memberType.end();
      if (complete)
      {
        variables.push_back(found->second);
      }
    }
    // An unresolvable metric keeps an empty list: its samples are malformed.
    defs.MetricVariables.push_back(complete ? variables : std::vector<uint32_t>());
    refs.push_back(metric.Ref);
  }
  defs.Metrics.assign(refs);

  defs.FirstInstantType = uint32_t(types.size());
  for (std::size_t kind = FirstInstantKind; kind < RecordKindCount; ++kind)
  {
    types.Add(RecordKindName(RecordKind(kind)), schema::EventKind, "", "");
  }
  types.Add("MPI point-to-point", schema::LinkKind, ParadigmName(OTF2_PARADIGM_MPI), "");
}

// The definition of a Group id that plays `role`: a Comm refers to the
// group of its ranks (COMM_GROUP or COMM_SELF), which indexes the
// COMM_LOCATIONS group of its paradigm. An id defined once per role is not
// ambiguous; among definitions of one role, the first counts.
const RawDefinitions::Group* GroupInRole(
  const std::vector<RawDefinitions::Group>& definitions, bool commGroup)
{
  for (const RawDefinitions::Group& group : definitions)
  {
    const bool ranks =
      group.Type == OTF2_GROUP_TYPE_COMM_GROUP || group.Type == OTF2_GROUP_TYPE_COMM_SELF;
    if (ranks == commGroup)
    {
      return &group;
    }
  }
  return nullptr;
}

void BuildCommunicators(const RawDefinitions& raw, Definitions& defs)
{
  std::unordered_map<uint64_t, uint32_t> leafOfLocation;
  for (std::size_t leaf = 0; leaf < defs.Info.Leaves.size(); ++leaf)
  {
    leafOfLocation.emplace(defs.Info.Leaves[leaf].LocationId, uint32_t(leaf));
  }
  auto leafOf = [&leafOfLocation](uint64_t location) -> int64_t
  {
    const auto found = leafOfLocation.find(location);
    return found == leafOfLocation.end() ? -1 : int64_t(found->second);
  };
  // The COMM_LOCATIONS group of each paradigm (rank space -> location ids),
  // the one of the smallest id when there are several, and the Group ids
  // defined more than once.
  std::unordered_map<uint64_t, std::pair<uint64_t, const RawDefinitions::Group*>>
    locationsOfParadigm;
  for (const auto& [ref, definitions] : raw.Groups)
  {
    defs.Info.DuplicateGroupDefinitions += definitions.size() - 1;
    for (const RawDefinitions::Group& group : definitions)
    {
      if (group.Type == OTF2_GROUP_TYPE_COMM_LOCATIONS)
      {
        auto [known, added] =
          locationsOfParadigm.emplace(group.Paradigm, std::make_pair(ref, &group));
        if (!added && ref < known->second.first)
        {
          known->second = { ref, &group };
        }
      }
    }
  }

  std::vector<uint64_t> refs;
  for (const auto& comm : raw.Comms)
  {
    CommPeers peers;
    const auto found = raw.Groups.find(comm.Group);
    const RawDefinitions::Group* ranks =
      found == raw.Groups.end() ? nullptr : GroupInRole(found->second, true);
    // A Comm straight on a locations group: its ranks are those locations.
    const RawDefinitions::Group* locations =
      found == raw.Groups.end() || ranks != nullptr ? nullptr : GroupInRole(found->second, false);
    if (ranks != nullptr && ranks->Type == OTF2_GROUP_TYPE_COMM_SELF)
    {
      peers.IsSelf = true;
    }
    else if (ranks != nullptr)
    {
      const auto space = locationsOfParadigm.find(ranks->Paradigm);
      for (uint64_t member : ranks->Members)
      {
        const bool known =
          space != locationsOfParadigm.end() && member < space->second.second->Members.size();
        peers.LeafOfRank.push_back(known ? leafOf(space->second.second->Members[member]) : -1);
      }
    }
    else if (locations != nullptr &&
      (locations->Type == OTF2_GROUP_TYPE_COMM_LOCATIONS ||
        locations->Type == OTF2_GROUP_TYPE_LOCATIONS))
    {
      for (uint64_t member : locations->Members)
      {
        peers.LeafOfRank.push_back(leafOf(member));
      }
    }
    defs.Info.Communicators.push_back({ uint32_t(comm.Ref), raw.String(comm.Name),
      uint32_t(peers.IsSelf ? 1 : peers.LeafOfRank.size()) });
    defs.Peers.push_back(std::move(peers));
    refs.push_back(comm.Ref);
  }
  defs.Comms.assign(refs);
}

} // namespace

Definitions ReadDefinitions(const Archive& archive)
{
  const RawDefinitions raw = CollectDefinitions(archive);
  Definitions defs;
  defs.Info.AnchorFile = archive.GetPath();
  defs.Info.Clock = *raw.Clock;
  BuildHierarchy(raw, archive, defs.Info);
  BuildTypes(raw, defs);
  BuildCommunicators(raw, defs);
  return defs;
}

} // namespace macroscope::otf2
