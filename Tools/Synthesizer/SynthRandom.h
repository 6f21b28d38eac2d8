// Counter-based random numbers: every draw is a pure function of the seed and
// of what it is drawn for (rank, thread, iteration), so results do not depend
// on the order of the simulation nor on the standard library's distributions.
#ifndef macroscope_synth_SynthRandom_h
#define macroscope_synth_SynthRandom_h

#include <cstdint>

namespace macroscope::synth
{

/// SplitMix64 finaliser: a bijective avalanche of 64 bits.
inline uint64_t Mix64(uint64_t value)
{
  value += 0x9e3779b97f4a7c15ull;
  value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ull;
  value = (value ^ (value >> 27)) * 0x94d049bb133111ebull;
  return value ^ (value >> 31);
}

/// Uniform double in [0, 1) from the top 53 bits, exactly representable.
inline double ToUnitInterval(uint64_t bits)
{
  return double(bits >> 11) * (1.0 / 9007199254740992.0);
}

/// Uniform [0, 1) draw for a purpose (a small constant) and up to three keys.
inline double Uniform(uint64_t seed, uint64_t purpose, uint64_t a, uint64_t b = 0, uint64_t c = 0)
{
  uint64_t h = Mix64(seed ^ Mix64(purpose));
  h = Mix64(h ^ a);
  h = Mix64(h ^ b);
  h = Mix64(h ^ c);
  return ToUnitInterval(h);
}

/// Uniform draw in [-1, 1).
inline double Symmetric(uint64_t seed, uint64_t purpose, uint64_t a, uint64_t b = 0, uint64_t c = 0)
{
  return 2.0 * Uniform(seed, purpose, a, b, c) - 1.0;
}

} // namespace macroscope::synth

#endif
