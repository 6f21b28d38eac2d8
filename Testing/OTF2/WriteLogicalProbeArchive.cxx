// macroscope-otf2-write-logical-probe DIR: writes the logical-time probe
// archive (OTF2TestArchives.h) into DIR for the Python tests, and prints its
// anchor file.
#include "OTF2TestArchives.h"

#include <exception>
#include <iostream>

int main(int argc, char** argv)
{
  if (argc != 2)
  {
    std::cerr << "usage: " << argv[0] << " DIR\n";
    return 2;
  }
  try
  {
    std::filesystem::create_directories(argv[1]);
    std::cout << macroscope::otf2::testing::writeLogicalProbe(argv[1]) << "\n";
  }
  catch (const std::exception& error)
  {
    std::cerr << argv[0] << ": " << error.what() << "\n";
    return 1;
  }
  return 0;
}
