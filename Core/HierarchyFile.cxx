#include "HierarchyFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace macroscope
{

namespace
{
using Json = nlohmann::json;

// The first `limit` names of a list, quoted, and how many more there are.
std::string FirstNames(const std::vector<std::string>& names, std::size_t limit = 5)
{
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < limit; ++i)
  {
    text += (i ? ", " : "") + QuotedExcerpt(names[i]);
  }
  if (names.size() > limit)
  {
    text += " and " + std::to_string(names.size() - limit) + " more";
  }
  return text;
}

// Where a node sits in the file, for errors: the path of its parent and its
// position among its siblings (its own name may be what is wrong).
std::string NodePlace(const HierarchyTree& tree, int64_t parent, std::size_t child)
{
  if (parent < 0)
  {
    return "the root node";
  }
  const auto p = static_cast<std::size_t>(parent);
  const std::string above = tree.Parent[p] < 0
    ? tree.Name[p]
    : ShortPath(tree.Parent, tree.Name, p); // below the root: without the root's name
  return "child " + std::to_string(child + 1) + " of " + QuotedExcerpt(above);
}

// The vertices from `v` up to the first vertex below a root (or the root
// itself when `v` is one): the names its path joins, deepest first.
void PathChain(const std::vector<int64_t>& parent, std::size_t v, std::vector<std::size_t>& chain)
{
  chain.assign(1, v);
  for (int64_t u = parent[v]; u >= 0 && parent[static_cast<std::size_t>(u)] >= 0;
       u = parent[static_cast<std::size_t>(u)])
  {
    chain.push_back(static_cast<std::size_t>(u));
  }
}

// `text` in at most `bytes` bytes: whole, or its first bytes and "...".
std::string Clip(const std::string& text, std::size_t bytes)
{
  if (text.size() <= bytes)
  {
    return text;
  }
  std::size_t cut = bytes > 3 ? bytes - 3 : 0;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
  {
    --cut; // not inside a UTF-8 character
  }
  return text.substr(0, cut) + "...";
}

// Polynomial hash of a byte string modulo the Mersenne prime 2^61 - 1, fed
// byte by byte: the hash of a path extends its parent's by "/" and a name,
// so every vertex's path is hashed in the length of its own name.
constexpr uint64_t HashPrime = (uint64_t(1) << 61) - 1;
constexpr uint64_t HashBase = 1000003;

uint64_t HashFeed(uint64_t hash, std::string_view bytes)
{
  for (const char c : bytes)
  {
    const unsigned __int128 product =
      static_cast<unsigned __int128>(hash) * HashBase + static_cast<unsigned char>(c) + 1;
    uint64_t folded =
      static_cast<uint64_t>(product & HashPrime) + static_cast<uint64_t>(product >> 61);
    folded = (folded & HashPrime) + (folded >> 61);
    hash = folded >= HashPrime ? folded - HashPrime : folded;
  }
  return hash;
}

// Whether the path of vertex `v` (ShortPath's, unshortened) is `text`,
// walking up from `v` and comparing names from the end of `text`.
bool PathEquals(const HierarchyTree& tree, std::size_t v, std::string_view text)
{
  std::size_t end = text.size();
  std::size_t u = v;
  while (true)
  {
    const std::string& name = tree.Name[u];
    if (name.size() > end || text.compare(end - name.size(), name.size(), name) != 0)
    {
      return false;
    }
    end -= name.size();
    const int64_t up = tree.Parent[u];
    if (up < 0 || tree.Parent[static_cast<std::size_t>(up)] < 0)
    {
      return end == 0; // u is a root or just below one: the path starts here
    }
    if (end == 0 || text[end - 1] != '/')
    {
      return false;
    }
    --end;
    u = static_cast<std::size_t>(up);
  }
}
}

std::string QuotedExcerpt(std::string_view text)
{
  constexpr std::size_t Bytes = 64;
  if (text.size() <= Bytes)
  {
    return "\"" + std::string(text) + "\"";
  }
  return "\"" + Clip(std::string(text.substr(0, Bytes)), Bytes - 13) + "\" (" +
    std::to_string(text.size()) + " bytes)";
}

std::string ShortPath(
  const std::vector<int64_t>& parent, const std::vector<std::string>& name, std::size_t v)
{
  std::vector<std::size_t> chain;
  PathChain(parent, v, chain);
  std::size_t total = chain.size() - 1;
  for (const std::size_t u : chain)
  {
    total += name[u].size();
  }
  std::string path;
  if (total <= MaxPathBytes)
  {
    path.reserve(total);
    for (auto u = chain.rbegin(); u != chain.rend(); ++u)
    {
      path += (path.empty() && u == chain.rbegin()) ? name[*u] : "/" + name[*u];
    }
    return path;
  }
  if (chain.size() == 1)
  {
    return Clip(name[v], MaxPathBytes);
  }
  // The first names within a quarter of the budget, the last within half.
  const std::size_t k = chain.size();
  std::string head = Clip(name[chain[k - 1]], MaxPathBytes / 4);
  std::size_t headCount = 1;
  while (headCount + 1 < k &&
    head.size() + 1 + name[chain[k - 1 - headCount]].size() <= MaxPathBytes / 4)
  {
    head += "/" + name[chain[k - 1 - headCount]];
    ++headCount;
  }
  std::string tail = Clip(name[chain[0]], MaxPathBytes / 2);
  std::size_t tailCount = 1;
  std::vector<const std::string*> above;
  std::size_t tailBytes = tail.size();
  while (
    headCount + tailCount < k && tailBytes + 1 + name[chain[tailCount]].size() <= MaxPathBytes / 2)
  {
    tailBytes += 1 + name[chain[tailCount]].size();
    above.push_back(&name[chain[tailCount]]);
    ++tailCount;
  }
  const std::size_t omitted = k - headCount - tailCount;
  path = head + (omitted > 0 ? "/...(" + std::to_string(omitted) + " levels).../" : "/");
  for (auto a = above.rbegin(); a != above.rend(); ++a)
  {
    path += **a + "/";
  }
  return path + tail;
}

std::vector<std::string> ShortPaths(const std::vector<int64_t>& parent,
  const std::vector<std::string>& name, const std::vector<std::size_t>& vertices)
{
  std::vector<std::string> paths;
  paths.reserve(vertices.size());
  for (const std::size_t v : vertices)
  {
    paths.push_back(ShortPath(parent, name, v));
  }
  return paths;
}

HierarchyTree ParseHierarchyFile(std::string_view text, const std::string& source)
{
  const std::string where = "hierarchy file " + source + ": ";
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
  {
    throw HierarchyFileError(where +
      "the file is empty (expected a JSON tree such as "
      "{\"name\": \"root\", \"children\": [{\"name\": \"rank-0\"}]})");
  }
  Json root;
  try
  {
    root = Json::parse(text.begin(), text.end());
  }
  catch (const Json::parse_error& error)
  {
    // nlohmann's message says "parse error at line L, column C: ..."; its
    // "[json.exception.parse_error.101] " prefix means nothing to users.
    std::string message = error.what();
    const auto bracket = message.find("] ");
    if (message.rfind("[json.exception", 0) == 0 && bracket != std::string::npos)
    {
      message.erase(0, bracket + 2);
    }
    // Its "last read: '...'" may quote a huge token: keep the message short.
    throw HierarchyFileError(where + "invalid JSON: " + Clip(message, 300));
  }

  HierarchyTree tree;
  std::unordered_map<std::string, std::size_t> leafNames;
  // Depth-first, children in order: a stack of (node, parent, position).
  struct Pending
  {
    const Json* Node;
    int64_t Parent;
    std::size_t Child;
  };
  std::vector<Pending> stack{ { &root, -1, 0 } };
  while (!stack.empty())
  {
    const Pending pending = stack.back();
    stack.pop_back();
    const Json& node = *pending.Node;
    if (!node.is_object())
    {
      throw HierarchyFileError(where + NodePlace(tree, pending.Parent, pending.Child) +
        " is a JSON " + node.type_name() + ", not an object with a \"name\"");
    }
    const auto name = node.find("name");
    if (name == node.end())
    {
      throw HierarchyFileError(
        where + NodePlace(tree, pending.Parent, pending.Child) + " has no \"name\"");
    }
    if (!name->is_string())
    {
      throw HierarchyFileError(where + NodePlace(tree, pending.Parent, pending.Child) +
        " has a \"name\" that is a JSON " + name->type_name() + ", not a string");
    }
    std::string kind = "group";
    const auto kindEntry = node.find("kind");
    if (kindEntry != node.end())
    {
      if (!kindEntry->is_string())
      {
        throw HierarchyFileError(where + "node " + QuotedExcerpt(name->get<std::string>()) +
          " has a \"kind\" that is a JSON " + kindEntry->type_name() + ", not a string");
      }
      kind = kindEntry->get<std::string>();
    }
    const auto children = node.find("children");
    if (children != node.end() && !children->is_array())
    {
      throw HierarchyFileError(where + "node " + QuotedExcerpt(name->get<std::string>()) +
        " has \"children\" that is a JSON " + children->type_name() + ", not an array");
    }
    const std::size_t vertex = tree.size();
    tree.Parent.push_back(pending.Parent);
    tree.Name.push_back(name->get<std::string>());
    tree.Kind.push_back(kind);
    if (children == node.end() || children->empty())
    {
      if (!leafNames.emplace(tree.Name.back(), vertex).second)
      {
        throw HierarchyFileError(where + "two leaves are named " + QuotedExcerpt(tree.Name.back()) +
          ": a leaf names one trace resource");
      }
      continue;
    }
    for (std::size_t c = children->size(); c-- > 0;)
    {
      stack.push_back({ &(*children)[c], static_cast<int64_t>(vertex), c });
    }
  }
  return tree;
}

HierarchyTree ReadHierarchyFile(const std::string& path)
{
  std::ifstream file(path, std::ios::binary);
  if (!file)
  {
    throw HierarchyFileError("hierarchy file " + path + ": cannot be opened");
  }
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad())
  {
    throw HierarchyFileError("hierarchy file " + path + ": cannot be read");
  }
  return ParseHierarchyFile(text.str(), path);
}

std::string RegroupedHierarchy::Describe() const
{
  std::string text;
  if (!this->UnplacedLeaves.empty())
  {
    text += std::to_string(this->UnplacedLeaves.size()) +
      " trace leaves not in the hierarchy file, kept under \"" + UnplacedKind +
      "\": " + FirstNames(this->UnplacedLeaves) + "\n";
  }
  if (!this->UnmatchedFileLeaves.empty())
  {
    text += std::to_string(this->UnmatchedFileLeaves.size()) +
      " hierarchy file leaves matching nothing in the trace, dropped: " +
      FirstNames(this->UnmatchedFileLeaves) + "\n";
  }
  return text;
}

std::vector<std::string> HierarchyPaths(const HierarchyTree& tree)
{
  std::vector<std::size_t> all(tree.size());
  for (std::size_t v = 0; v < all.size(); ++v)
  {
    all[v] = v;
  }
  return ShortPaths(tree.Parent, tree.Name, all);
}

RegroupedHierarchy RegroupHierarchy(const HierarchyTree& trace,
  const std::vector<std::size_t>& leafVertex, const HierarchyTree& file, const std::string& source)
{
  const std::size_t n = trace.size();
  if (trace.Name.size() != n || trace.Kind.size() != n)
  {
    throw std::invalid_argument("the trace hierarchy has not one name and kind per vertex");
  }
  for (std::size_t v = 0; v < n; ++v)
  {
    if (trace.Parent[v] < -1 || trace.Parent[v] >= static_cast<int64_t>(v))
    {
      throw std::invalid_argument("the trace hierarchy does not list parents before children");
    }
  }
  std::vector<int64_t> oldLeafOf(n, -1);
  for (std::size_t l = 0; l < leafVertex.size(); ++l)
  {
    if (leafVertex[l] >= n || oldLeafOf[leafVertex[l]] >= 0)
    {
      throw std::invalid_argument("trace leaf " + std::to_string(l) +
        " is no vertex of the hierarchy or shares its vertex with another leaf");
    }
    oldLeafOf[leafVertex[l]] = static_cast<int64_t>(l);
  }
  const std::string where = "hierarchy file " + source + ": ";

  // Children in order, and (virtual root) the roots.
  std::vector<std::vector<std::size_t>> children(n);
  std::vector<std::size_t> roots;
  for (std::size_t v = 0; v < n; ++v)
  {
    (trace.Parent[v] < 0 ? roots : children[static_cast<std::size_t>(trace.Parent[v])])
      .push_back(v);
  }
  // Vertices by the hash of their path (never the paths themselves: their
  // total length grows with the square of the depth), checked name by name
  // on a hash match; and by name.
  auto path = [&trace](std::size_t v) { return ShortPath(trace.Parent, trace.Name, v); };
  std::vector<uint64_t> pathHash(n, 0);
  std::unordered_map<uint64_t, std::vector<std::size_t>> byPathHash;
  std::unordered_map<std::string_view, std::vector<std::size_t>> byName;
  for (std::size_t v = 0; v < n; ++v)
  {
    const int64_t p = trace.Parent[v];
    if (p < 0 || trace.Parent[static_cast<std::size_t>(p)] < 0)
    {
      pathHash[v] = HashFeed(0, trace.Name[v]);
    }
    else
    {
      pathHash[v] = HashFeed(HashFeed(pathHash[static_cast<std::size_t>(p)], "/"), trace.Name[v]);
    }
    byPathHash[pathHash[v]].push_back(v);
    byName[trace.Name[v]].push_back(v);
  }
  auto ambiguous = [&](const std::string& leaf, const std::vector<std::size_t>& vertices)
  {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < vertices.size() && i < 10; ++i)
    {
      names.push_back(Clip(path(vertices[i]), 200));
    }
    return HierarchyFileError(where + "leaf " + QuotedExcerpt(leaf) + " matches " +
      std::to_string(vertices.size()) + " trace vertices (" + FirstNames(names, 10) +
      (vertices.size() > 10 ? " and " + std::to_string(vertices.size() - 10) + " more" : "") +
      "): name one by its path");
  };
  std::vector<std::size_t> pathMatches;

  // Match every file leaf, and mark the trace vertices each one covers.
  RegroupedHierarchy result;
  std::vector<int64_t> match(file.size(), -1);
  std::vector<int64_t> coveredBy(n, -1); // file vertex whose match covers it
  std::vector<bool> isInner(file.size(), false);
  for (std::size_t f = 0; f < file.size(); ++f)
  {
    if (file.Parent[f] >= 0)
    {
      isInner[static_cast<std::size_t>(file.Parent[f])] = true;
    }
  }
  std::vector<std::size_t> stack;
  for (std::size_t f = 0; f < file.size(); ++f)
  {
    if (isInner[f])
    {
      continue;
    }
    const std::string& name = file.Name[f];
    const std::vector<std::size_t>* found = nullptr;
    pathMatches.clear();
    if (const auto p = byPathHash.find(HashFeed(0, name)); p != byPathHash.end())
    {
      for (const std::size_t v : p->second)
      {
        if (PathEquals(trace, v, name))
        {
          pathMatches.push_back(v);
        }
      }
    }
    if (!pathMatches.empty())
    {
      found = &pathMatches;
    }
    else if (const auto m = byName.find(name); m != byName.end())
    {
      found = &m->second;
    }
    if (!found)
    {
      result.UnmatchedFileLeaves.push_back(Clip(name, 200));
      continue;
    }
    if (found->size() > 1)
    {
      throw ambiguous(name, *found);
    }
    match[f] = static_cast<int64_t>(found->front());
    stack.assign(1, found->front());
    while (!stack.empty())
    {
      const std::size_t v = stack.back();
      stack.pop_back();
      if (coveredBy[v] >= 0)
      {
        throw HierarchyFileError(where + "leaves " +
          QuotedExcerpt(file.Name[static_cast<std::size_t>(coveredBy[v])]) + " and " +
          QuotedExcerpt(name) + " both cover the trace's " + QuotedExcerpt(path(v)) +
          ": a trace resource has one place");
      }
      coveredBy[v] = static_cast<int64_t>(f);
      stack.insert(stack.end(), children[v].begin(), children[v].end());
    }
  }

  // Vertices with a covered vertex in their subtree (parents precede children).
  std::vector<bool> touched(n, false);
  std::vector<bool> hasLeaf(n, false);
  for (std::size_t v = n; v-- > 0;)
  {
    touched[v] = touched[v] || coveredBy[v] >= 0;
    hasLeaf[v] = hasLeaf[v] || oldLeafOf[v] >= 0;
    if (trace.Parent[v] >= 0)
    {
      const auto p = static_cast<std::size_t>(trace.Parent[v]);
      touched[p] = touched[p] || touched[v];
      hasLeaf[p] = hasLeaf[p] || hasLeaf[v];
    }
  }

  HierarchyTree& out = result.Tree;
  std::vector<int64_t> newOf(n, -1);
  auto add = [&out](int64_t parent, const std::string& name, const std::string& kind)
  {
    out.Parent.push_back(parent);
    out.Name.push_back(name);
    out.Kind.push_back(kind);
    return static_cast<int64_t>(out.size() - 1);
  };
  // Copies the subtree of trace vertex `top` below `parent`, depth-first.
  auto graft = [&](std::size_t top, int64_t parent)
  {
    stack.assign(1, top);
    while (!stack.empty())
    {
      const std::size_t v = stack.back();
      stack.pop_back();
      newOf[v] = add(v == top ? parent : newOf[static_cast<std::size_t>(trace.Parent[v])],
        trace.Name[v], trace.Kind[v]);
      stack.insert(stack.end(), children[v].rbegin(), children[v].rend());
    }
  };

  // The file's tree, depth-first, each matched leaf replaced by its subtree.
  std::vector<int64_t> fileNew(file.size(), -1);
  for (std::size_t f = 0; f < file.size(); ++f)
  {
    const int64_t parent =
      file.Parent[f] < 0 ? -1 : fileNew[static_cast<std::size_t>(file.Parent[f])];
    if (isInner[f] || f == 0)
    {
      if (!isInner[f] && match[f] >= 0)
      {
        graft(static_cast<std::size_t>(match[f]), -1); // a file of one leaf: the trace below it
        fileNew[f] = 0;
        continue;
      }
      fileNew[f] = add(parent, file.Name[f], file.Kind[f]);
    }
    else if (match[f] >= 0)
    {
      graft(static_cast<std::size_t>(match[f]), parent);
    }
  }
  if (out.size() == 0)
  {
    add(-1, "unplaced", UnplacedKind); // cannot happen with a parsed file; keeps a root
  }

  // What the file leaves out: the topmost subtrees with no covered vertex,
  // holding at least one leaf, in trace order below one "unplaced" vertex.
  int64_t unplaced = -1;
  std::vector<std::size_t> visit(roots.rbegin(), roots.rend());
  while (!visit.empty())
  {
    const std::size_t v = visit.back();
    visit.pop_back();
    if (!hasLeaf[v] || coveredBy[v] >= 0)
    {
      continue;
    }
    if (touched[v])
    {
      visit.insert(visit.end(), children[v].rbegin(), children[v].rend());
      if (oldLeafOf[v] >= 0)
      {
        // A leaf with covered vertices below it: place the leaf alone.
        unplaced = unplaced < 0 ? add(0, "unplaced", UnplacedKind) : unplaced;
        newOf[v] = add(unplaced, trace.Name[v], trace.Kind[v]);
      }
      continue;
    }
    unplaced = unplaced < 0 ? add(0, "unplaced", UnplacedKind) : unplaced;
    graft(v, unplaced);
  }

  // New leaf indexes: the trace leaves in the depth-first order of the tree.
  result.LeafIndex.assign(out.size(), -1);
  std::vector<int64_t> oldLeafOfNew(out.size(), -1);
  for (std::size_t v = 0; v < n; ++v)
  {
    if (oldLeafOf[v] >= 0)
    {
      oldLeafOfNew[static_cast<std::size_t>(newOf[v])] = oldLeafOf[v];
    }
  }
  result.NewLeafOfOldLeaf.assign(leafVertex.size(), 0);
  for (std::size_t w = 0; w < out.size(); ++w)
  {
    if (oldLeafOfNew[w] >= 0)
    {
      result.LeafIndex[w] = static_cast<int64_t>(result.LeafVertex.size());
      result.NewLeafOfOldLeaf[static_cast<std::size_t>(oldLeafOfNew[w])] =
        static_cast<uint32_t>(result.LeafVertex.size());
      result.LeafVertex.push_back(w);
    }
  }
  for (std::size_t l = 0; l < leafVertex.size(); ++l)
  {
    if (coveredBy[leafVertex[l]] < 0)
    {
      result.UnplacedLeaves.push_back(Clip(path(leafVertex[l]), 200));
    }
  }
  return result;
}

}
