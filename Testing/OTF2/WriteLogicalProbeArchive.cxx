// macroscope-otf2-write-logical-probe DIR: writes the logical-time probe
// archive (OTF2TestArchives.h) into DIR for the Python tests, and prints its
// anchor file.
#include "OTF2TestArchives.h"

int main(int argc, char** argv)
{
  namespace testing = macroscope::otf2::testing;
  return testing::RunArchiveTool(argc, argv, &testing::writeLogicalProbe);
}
