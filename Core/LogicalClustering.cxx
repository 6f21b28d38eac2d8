#include "LogicalClustering.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>

namespace macroscope::logical
{

namespace
{
constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
constexpr double Inf = std::numeric_limits<double>::infinity();

void CheckSeries(const PhaseSeries& series, const char* who)
{
  const uint64_t expected =
    static_cast<uint64_t>(series.Members.size()) * static_cast<uint64_t>(series.Steps);
  if (series.Values.size() != expected)
  {
    throw std::invalid_argument(std::string(who) + ": the series holds " +
      std::to_string(series.Values.size()) + " values, expected " +
      std::to_string(series.Members.size()) + " members x " + std::to_string(series.Steps) +
      " steps");
  }
  if (series.Members.size() > std::numeric_limits<uint32_t>::max())
  {
    throw std::invalid_argument(std::string(who) + ": more than 2^32 - 1 members");
  }
  for (std::size_t i = 0; i < series.Values.size(); ++i)
  {
    if (std::isinf(series.Values[i]))
    {
      throw std::invalid_argument(std::string(who) + ": the value of member row " +
        std::to_string(i / series.Steps) + " at step " + std::to_string(i % series.Steps) +
        " is infinite (NaN marks a step without an event)");
    }
  }
}

// Lexicographic order of two rows where NaN (no event) equals NaN and sorts
// first: identical rows compare equal, whatever their gaps.
int CompareRows(const double* a, const double* b, uint32_t steps)
{
  for (uint32_t s = 0; s < steps; ++s)
  {
    const bool nanA = std::isnan(a[s]);
    const bool nanB = std::isnan(b[s]);
    if (nanA && nanB)
    {
      continue;
    }
    if (nanA != nanB)
    {
      return nanA ? -1 : 1;
    }
    if (a[s] != b[s])
    {
      return a[s] < b[s] ? -1 : 1;
    }
  }
  return 0;
}

// The class of every member, members with identical rows sharing one; sets
// `distinct` to the number of classes. k is capped at it so that medoids
// can always be distinct rows.
std::vector<uint32_t> RowClasses(const PhaseSeries& series, uint32_t& distinct)
{
  const auto n = static_cast<uint32_t>(series.Members.size());
  const uint32_t steps = series.Steps;
  const double* values = series.Values.data();
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
    [&](uint32_t a, uint32_t b)
    {
      return CompareRows(values + std::size_t(a) * steps, values + std::size_t(b) * steps, steps) <
        0;
    });
  std::vector<uint32_t> classes(n, 0);
  distinct = 0;
  for (uint32_t i = 0; i < n; ++i)
  {
    if (i == 0 ||
      CompareRows(values + std::size_t(order[i - 1]) * steps,
        values + std::size_t(order[i]) * steps, steps) != 0)
    {
      ++distinct;
    }
    classes[order[i]] = distinct - 1;
  }
  return classes;
}

// A uniform draw in [0, bound) by rejection, so that a seed gives the same
// samples with every standard library (std::uniform_int_distribution does not).
uint64_t UniformBelow(std::mt19937_64& rng, uint64_t bound)
{
  const uint64_t threshold = (0 - bound) % bound; // 2^64 mod bound
  for (;;)
  {
    const uint64_t x = rng();
    if (x >= threshold)
    {
      return x % bound;
    }
  }
}

// A CLARA sample in increasing row order: the given medoids, then members
// drawn without replacement (partial Fisher-Yates) until it holds `size`
// members and at least k distinct rows.
std::vector<uint32_t> DrawSample(std::mt19937_64& rng, uint32_t n, uint32_t size, uint32_t k,
  const std::vector<uint32_t>& classes, uint32_t distinct, const std::vector<uint32_t>& keep)
{
  std::vector<uint8_t> inSample(n, 0);
  std::vector<uint8_t> seen(distinct, 0);
  std::vector<uint32_t> sample;
  sample.reserve(size);
  uint32_t distinctInSample = 0;
  auto add = [&](uint32_t m)
  {
    inSample[m] = 1;
    sample.push_back(m);
    if (!seen[classes[m]])
    {
      seen[classes[m]] = 1;
      ++distinctInSample;
    }
  };
  for (const uint32_t m : keep)
  {
    add(m);
  }
  std::vector<uint32_t> pool;
  pool.reserve(n - sample.size());
  for (uint32_t m = 0; m < n; ++m)
  {
    if (!inSample[m])
    {
      pool.push_back(m);
    }
  }
  for (std::size_t drawn = 0; drawn < pool.size() && (sample.size() < size || distinctInSample < k);
       ++drawn)
  {
    const std::size_t j = drawn + UniformBelow(rng, pool.size() - drawn);
    std::swap(pool[drawn], pool[j]);
    add(pool[drawn]);
  }
  std::sort(sample.begin(), sample.end());
  return sample;
}

// PAM (Kaufman and Rousseeuw): BUILD then SWAP until no swap lowers the cost,
// on the members of `sample`. Medoid candidates are the first member of each
// distinct row in the sample, so that no two medoids share a row. Ties go to
// the lowest sample position. Returns the medoids' member rows.
std::vector<uint32_t> Pam(const FilledSeries& filled, const std::vector<uint32_t>& sample,
  const std::vector<uint32_t>& classes, uint32_t distinct, uint32_t k)
{
  const auto m = static_cast<uint32_t>(sample.size());
  std::vector<double> d(std::size_t(m) * m, 0.0);
  for (uint32_t i = 0; i < m; ++i)
  {
    for (uint32_t j = i + 1; j < m; ++j)
    {
      const double dij = FilledDistance(filled, sample[i], sample[j]);
      d[std::size_t(i) * m + j] = dij;
      d[std::size_t(j) * m + i] = dij;
    }
  }
  auto D = [&](uint32_t i, uint32_t j) { return d[std::size_t(i) * m + j]; };

  std::vector<uint8_t> candidate(m, 0);
  {
    std::vector<uint8_t> seen(distinct, 0);
    for (uint32_t i = 0; i < m; ++i)
    {
      if (!seen[classes[sample[i]]])
      {
        seen[classes[sample[i]]] = 1;
        candidate[i] = 1;
      }
    }
  }

  // BUILD: the most central candidate, then k - 1 times the candidate that
  // lowers the cost the most.
  std::vector<uint32_t> medoids; // sample positions
  std::vector<uint8_t> selected(m, 0);
  std::vector<double> nearest(m, Inf);
  for (uint32_t t = 0; t < k; ++t)
  {
    uint32_t best = m;
    double bestGain = -Inf;
    for (uint32_t i = 0; i < m; ++i)
    {
      if (!candidate[i] || selected[i])
      {
        continue;
      }
      double gain = 0.0;
      for (uint32_t j = 0; j < m; ++j)
      {
        // The first medoid: the least total distance, i.e. the largest
        // negated sum.
        gain += t == 0 ? -D(i, j) : std::max(0.0, nearest[j] - D(i, j));
      }
      if (gain > bestGain)
      {
        bestGain = gain;
        best = i;
      }
    }
    medoids.push_back(best);
    selected[best] = 1;
    for (uint32_t j = 0; j < m; ++j)
    {
      nearest[j] = std::min(nearest[j], D(best, j));
    }
  }

  // SWAP: with each member's nearest and second nearest medoid, the change
  // of cost of replacing medoid h by candidate i is one pass over the sample.
  std::vector<uint32_t> nearestMedoid(m, 0);
  std::vector<double> second(m, Inf);
  for (;;)
  {
    double cost = 0.0;
    for (uint32_t j = 0; j < m; ++j)
    {
      double first = Inf;
      double next = Inf;
      uint32_t which = 0;
      for (uint32_t h = 0; h < k; ++h)
      {
        const double djh = D(medoids[h], j);
        if (djh < first)
        {
          next = first;
          first = djh;
          which = h;
        }
        else if (djh < next)
        {
          next = djh;
        }
      }
      nearest[j] = first;
      second[j] = next;
      nearestMedoid[j] = which;
      cost += first;
    }
    double bestChange = 0.0;
    uint32_t bestH = k;
    uint32_t bestI = m;
    for (uint32_t h = 0; h < k; ++h)
    {
      for (uint32_t i = 0; i < m; ++i)
      {
        if (!candidate[i] || selected[i])
        {
          continue;
        }
        double change = 0.0;
        for (uint32_t j = 0; j < m; ++j)
        {
          const double dij = D(i, j);
          change += nearestMedoid[j] == h ? std::min(dij, second[j]) - nearest[j]
                                          : std::min(dij - nearest[j], 0.0);
        }
        if (change < bestChange)
        {
          bestChange = change;
          bestH = h;
          bestI = i;
        }
      }
    }
    // A relative margin, so that rounding cannot make two swaps undo each
    // other forever.
    if (bestH == k || !(-bestChange > 1e-12 * cost))
    {
      break;
    }
    selected[medoids[bestH]] = 0;
    selected[bestI] = 1;
    medoids[bestH] = bestI;
  }

  std::vector<uint32_t> rows(k);
  for (uint32_t h = 0; h < k; ++h)
  {
    rows[h] = sample[medoids[h]];
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

// Every member to its nearest medoid (ties: the lowest cluster), a medoid to
// its own cluster; the cost over all members.
ClaraResult Assign(const FilledSeries& filled, uint32_t n, std::vector<uint32_t> medoids)
{
  ClaraResult result;
  result.Medoids = std::move(medoids);
  const auto k = static_cast<uint32_t>(result.Medoids.size());
  result.Assignment.assign(n, 0);
  std::vector<uint32_t> medoidCluster(n, k);
  for (uint32_t c = 0; c < k; ++c)
  {
    medoidCluster[result.Medoids[c]] = c;
  }
  double cost = 0.0;
  for (uint32_t member = 0; member < n; ++member)
  {
    if (medoidCluster[member] < k)
    {
      result.Assignment[member] = medoidCluster[member];
      continue;
    }
    double best = Inf;
    uint32_t cluster = 0;
    for (uint32_t c = 0; c < k; ++c)
    {
      const double dc = FilledDistance(filled, member, result.Medoids[c]);
      if (dc < best)
      {
        best = dc;
        cluster = c;
      }
    }
    result.Assignment[member] = cluster;
    cost += best;
  }
  result.Cost = cost;
  return result;
}

// Union-find with path halving over the k CLARA clusters.
uint32_t Find(std::vector<uint32_t>& parent, uint32_t x)
{
  while (parent[x] != x)
  {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

void CheckClara(const ClaraResult& clara, std::size_t members, const char* who)
{
  const std::size_t k = clara.Medoids.size();
  if (members != std::size_t(-1) && clara.Assignment.size() != members)
  {
    throw std::invalid_argument(std::string(who) + ": the CLARA result assigns " +
      std::to_string(clara.Assignment.size()) + " members, the series has " +
      std::to_string(members));
  }
  for (const uint32_t medoid : clara.Medoids)
  {
    if (medoid >= clara.Assignment.size())
    {
      throw std::invalid_argument(
        std::string(who) + ": medoid row " + std::to_string(medoid) + " is not a member");
    }
  }
  for (const uint32_t c : clara.Assignment)
  {
    if (c >= k)
    {
      throw std::invalid_argument(std::string(who) + ": a member is assigned to cluster " +
        std::to_string(c) + " of " + std::to_string(k));
    }
  }
}
}

double TimelineDistance(const double* a, const double* b, uint32_t steps)
{
  double lastA = NaN;
  double lastB = NaN;
  double sum = 0.0;
  uint32_t counted = 0;
  for (uint32_t s = 0; s < steps; ++s)
  {
    const bool activeA = !std::isnan(a[s]);
    const bool activeB = !std::isnan(b[s]);
    if (activeA)
    {
      lastA = a[s];
    }
    if (activeB)
    {
      lastB = b[s];
    }
    // Both inactive: skipped. One inactive: its previous value in the phase
    // stands in, and the step is skipped when it has none yet.
    if ((activeA || activeB) && !std::isnan(lastA) && !std::isnan(lastB))
    {
      const double d = lastA - lastB;
      sum += d * d;
      ++counted;
    }
  }
  return counted == 0 ? 0.0 : sum / counted;
}

FilledSeries FillSeries(const PhaseSeries& series)
{
  CheckSeries(series, "FillSeries");
  FilledSeries filled;
  filled.Steps = series.Steps;
  filled.Values.assign(series.Values.size(), 0.0);
  filled.Flags.assign(series.Values.size(), 0);
  const std::size_t steps = series.Steps;
  for (std::size_t m = 0; m < series.Members.size(); ++m)
  {
    double last = 0.0;
    uint8_t has = 0;
    for (std::size_t s = 0; s < steps; ++s)
    {
      const double v = series.Values[m * steps + s];
      const uint8_t active = std::isnan(v) ? 0 : 1;
      if (active)
      {
        last = v;
        has = 2;
      }
      filled.Values[m * steps + s] = last;
      filled.Flags[m * steps + s] = static_cast<uint8_t>(has | active);
    }
  }
  return filled;
}

double FilledDistance(const FilledSeries& filled, uint32_t a, uint32_t b)
{
  const std::size_t steps = filled.Steps;
  const double* va = filled.Values.data() + a * steps;
  const double* vb = filled.Values.data() + b * steps;
  const uint8_t* fa = filled.Flags.data() + a * steps;
  const uint8_t* fb = filled.Flags.data() + b * steps;
  double sum = 0.0;
  uint32_t counted = 0;
  for (std::size_t s = 0; s < steps; ++s)
  {
    // Counted: one of them active (bit 0), both with a value (bit 1).
    const unsigned count = ((fa[s] | fb[s]) & ((fa[s] & fb[s]) >> 1)) & 1u;
    const double d = va[s] - vb[s];
    sum += count ? d * d : 0.0;
    counted += count;
  }
  return counted == 0 ? 0.0 : sum / counted;
}

ClaraResult Clara(const PhaseSeries& series, const ClaraOptions& options)
{
  CheckSeries(series, "Clara");
  if (options.Clusters == 0)
  {
    throw std::invalid_argument("Clara: Clusters is 0; at least one cluster is needed");
  }
  if (options.Samples == 0)
  {
    throw std::invalid_argument("Clara: Samples is 0; at least one sample is needed");
  }
  if (options.SampleSize != 0 && options.SampleSize < options.Clusters)
  {
    throw std::invalid_argument("Clara: SampleSize " + std::to_string(options.SampleSize) +
      " is below Clusters " + std::to_string(options.Clusters) + " (0 chooses 40 + 2 Clusters)");
  }
  const auto n = static_cast<uint32_t>(series.Members.size());
  if (n == 0)
  {
    return {};
  }
  const FilledSeries filled = FillSeries(series);
  uint32_t distinct = 0;
  const std::vector<uint32_t> classes = RowClasses(series, distinct);
  const uint32_t k = std::min({ options.Clusters, n, distinct });
  const uint64_t wanted =
    options.SampleSize != 0 ? options.SampleSize : 40 + 2 * static_cast<uint64_t>(k);
  const auto size = static_cast<uint32_t>(std::min<uint64_t>(wanted, n));

  if (size == n)
  {
    std::vector<uint32_t> everyone(n);
    std::iota(everyone.begin(), everyone.end(), 0u);
    return Assign(filled, n, Pam(filled, everyone, classes, distinct, k));
  }
  std::mt19937_64 rng(options.Seed);
  ClaraResult best;
  for (uint32_t t = 0; t < options.Samples; ++t)
  {
    // From the second sample on, the best medoids so far are part of it
    // (Kaufman and Rousseeuw), so a sample can only keep or improve them.
    const std::vector<uint32_t> sample =
      DrawSample(rng, n, size, k, classes, distinct, best.Medoids);
    ClaraResult candidate = Assign(filled, n, Pam(filled, sample, classes, distinct, k));
    if (t == 0 || candidate.Cost < best.Cost)
    {
      best = std::move(candidate);
    }
  }
  return best;
}

std::vector<Merge> SingleLinkage(const PhaseSeries& series, const ClaraResult& clara)
{
  CheckSeries(series, "SingleLinkage");
  CheckClara(clara, series.Members.size(), "SingleLinkage");
  const auto k = static_cast<uint32_t>(clara.Medoids.size());
  if (k == 0)
  {
    return {};
  }
  const uint32_t steps = series.Steps;
  auto row = [&](uint32_t c)
  { return series.Values.data() + std::size_t(clara.Medoids[c]) * steps; };

  // Prim's minimum spanning tree on the complete graph of the medoids, O(k^2):
  // single linkage merges along its edges by increasing length.
  struct Edge
  {
    uint32_t A, B;
    double Length;
  };
  std::vector<Edge> tree;
  tree.reserve(k - 1);
  std::vector<uint8_t> inTree(k, 0);
  std::vector<double> reach(k, Inf);
  std::vector<uint32_t> from(k, 0);
  uint32_t last = 0;
  inTree[0] = 1;
  for (uint32_t added = 1; added < k; ++added)
  {
    uint32_t next = k;
    for (uint32_t c = 0; c < k; ++c)
    {
      if (inTree[c])
      {
        continue;
      }
      const double dc = TimelineDistance(row(last), row(c), steps);
      if (dc < reach[c])
      {
        reach[c] = dc;
        from[c] = last;
      }
      if (next == k || reach[c] < reach[next])
      {
        next = c;
      }
    }
    inTree[next] = 1;
    tree.push_back({ from[next], next, reach[next] });
    last = next;
  }
  std::stable_sort(
    tree.begin(), tree.end(), [](const Edge& x, const Edge& y) { return x.Length < y.Length; });

  std::vector<uint32_t> size(k, 0);
  for (const uint32_t c : clara.Assignment)
  {
    ++size[c];
  }
  std::vector<uint32_t> parent(k);
  std::iota(parent.begin(), parent.end(), 0u);
  std::vector<uint32_t> node(k); // the dendrogram node of each group's root
  std::iota(node.begin(), node.end(), 0u);
  std::vector<Merge> merges;
  merges.reserve(k - 1);
  for (const Edge& e : tree)
  {
    const uint32_t a = Find(parent, e.A);
    const uint32_t b = Find(parent, e.B);
    Merge merge;
    merge.Left = std::min(node[a], node[b]);
    merge.Right = std::max(node[a], node[b]);
    merge.Height = e.Length;
    merge.Size = size[a] + size[b];
    parent[b] = a;
    size[a] = merge.Size;
    node[a] = k + static_cast<uint32_t>(merges.size());
    merges.push_back(merge);
  }
  return merges;
}

std::vector<uint32_t> CutDendrogram(
  const ClaraResult& clara, const std::vector<Merge>& merges, uint32_t count)
{
  CheckClara(clara, std::size_t(-1), "CutDendrogram");
  const auto k = static_cast<uint32_t>(clara.Medoids.size());
  if (count < 1 || count > k)
  {
    throw std::invalid_argument("CutDendrogram: count " + std::to_string(count) + " is not in 1.." +
      std::to_string(k) + " (the number of CLARA clusters)");
  }
  if (merges.size() != std::size_t(k) - 1)
  {
    throw std::invalid_argument("CutDendrogram: " + std::to_string(merges.size()) + " merges for " +
      std::to_string(k) + " clusters, expected " + std::to_string(k - 1));
  }
  // Each node may be merged once, and only after it exists.
  std::vector<uint8_t> used(2 * std::size_t(k) - 1, 0);
  for (std::size_t i = 0; i < merges.size(); ++i)
  {
    const Merge& merge = merges[i];
    if (merge.Left >= k + i || merge.Right >= k + i || merge.Left == merge.Right ||
      used[merge.Left] || used[merge.Right])
    {
      throw std::invalid_argument("CutDendrogram: merge " + std::to_string(i) + " of nodes " +
        std::to_string(merge.Left) + " and " + std::to_string(merge.Right) +
        " is not a merge of two existing, unmerged nodes");
    }
    used[merge.Left] = used[merge.Right] = 1;
  }

  // Apply the first k - count merges; a node stands for one of its clusters.
  std::vector<uint32_t> parent(k);
  std::iota(parent.begin(), parent.end(), 0u);
  std::vector<uint32_t> leaf(2 * std::size_t(k) - 1);
  std::iota(leaf.begin(), leaf.begin() + k, 0u);
  for (uint32_t i = 0; i + count < k; ++i)
  {
    const uint32_t a = Find(parent, leaf[merges[i].Left]);
    const uint32_t b = Find(parent, leaf[merges[i].Right]);
    parent[b] = a;
    leaf[k + i] = a;
  }
  // Every CLARA cluster holds its medoid, so the first members of the count
  // groups number them all.
  std::vector<uint32_t> label(k, k);
  uint32_t next = 0;
  std::vector<uint32_t> result(clara.Assignment.size());
  for (std::size_t m = 0; m < clara.Assignment.size(); ++m)
  {
    const uint32_t root = Find(parent, clara.Assignment[m]);
    if (label[root] == k)
    {
      label[root] = next++;
    }
    result[m] = label[root];
  }
  return result;
}

}
