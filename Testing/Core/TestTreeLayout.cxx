#include "TreeLayout.h"

#include <gtest/gtest.h>

#include <stdexcept>

using macroscope::TreeLayout;

TEST(TreeLayout, LeavesInOrderParentsCentred)
{
  //        0
  //      /   \
  //     1     4
  //    / \    |
  //   2   3   5
  const auto p = TreeLayout::Compute({ -1, 0, 1, 1, 0, 4 });
  EXPECT_DOUBLE_EQ(p[2].Column, 0.0);
  EXPECT_DOUBLE_EQ(p[3].Column, 1.0);
  EXPECT_DOUBLE_EQ(p[5].Column, 2.0);
  EXPECT_DOUBLE_EQ(p[1].Column, 0.5);
  EXPECT_DOUBLE_EQ(p[4].Column, 2.0);
  EXPECT_DOUBLE_EQ(p[0].Column, 0.5 * (0.5 + 2.0));
  EXPECT_EQ(p[0].Depth, 0);
  EXPECT_EQ(p[1].Depth, 1);
  EXPECT_EQ(p[5].Depth, 2);
}

TEST(TreeLayout, ChildrenAfterLaterSiblingsKeepDepthFirstLeafOrder)
{
  // Breadth-first numbering: 0 -> {1, 2}, 1 -> {3}, 2 -> {4}. Leaves 3 then 4.
  const auto p = TreeLayout::Compute({ -1, 0, 0, 1, 2 });
  EXPECT_DOUBLE_EQ(p[3].Column, 0.0);
  EXPECT_DOUBLE_EQ(p[4].Column, 1.0);
  EXPECT_DOUBLE_EQ(p[1].Column, 0.0);
  EXPECT_DOUBLE_EQ(p[0].Column, 0.5);
}

TEST(TreeLayout, ForestAndEmpty)
{
  EXPECT_TRUE(TreeLayout::Compute({}).empty());
  const auto p = TreeLayout::Compute({ -1, -1, 1 });
  EXPECT_DOUBLE_EQ(p[0].Column, 0.0);
  EXPECT_DOUBLE_EQ(p[2].Column, 1.0);
  EXPECT_DOUBLE_EQ(p[1].Column, 1.0);
}

TEST(TreeLayout, DeepChainDoesNotOverflow)
{
  std::vector<long long> chain(200000);
  for (std::size_t i = 0; i < chain.size(); ++i)
  {
    chain[i] = static_cast<long long>(i) - 1;
  }
  const auto p = TreeLayout::Compute(chain);
  EXPECT_EQ(p.back().Depth, 199999);
  EXPECT_DOUBLE_EQ(p.front().Column, 0.0);
}

TEST(TreeLayout, RejectsParentsAfterChildren)
{
  EXPECT_THROW(TreeLayout::Compute({ 1, -1 }), std::invalid_argument);
  EXPECT_THROW(TreeLayout::Compute({ -1, -2 }), std::invalid_argument);
}
