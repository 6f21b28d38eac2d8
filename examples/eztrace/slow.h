/* The deliberate imbalance shared by the EZTrace test programs: every rank
 * computes `base` seconds per iteration, the slowed rank `factor` times as
 * long. The compute is a busy loop on the wall clock, so that its length
 * does not depend on how the oversubscribed cores are shared: the slowed
 * rank is the ground truth whatever the machine. */
#ifndef MACROSCOPE_EZTRACE_SLOW_H
#define MACROSCOPE_EZTRACE_SLOW_H

#include <stdlib.h>
#include <time.h>

static double now_seconds(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Spins for `seconds` of wall time; returns a value so the loop is kept. */
static double compute(double seconds)
{
  double end = now_seconds() + seconds, sum = 0.0;
  while (now_seconds() < end)
    sum += 1e-9;
  return sum;
}

/* argv: [iterations] [slowed rank] [base compute in ms] [slow factor] */
struct imbalance {
  int iterations, slowed;
  double base, factor;
};

static struct imbalance parse_imbalance(int argc, char **argv, int iterations, int slowed)
{
  struct imbalance i = {iterations, slowed, 0.002, 40.0};
  if (argc > 1) i.iterations = atoi(argv[1]);
  if (argc > 2) i.slowed = atoi(argv[2]);
  if (argc > 3) i.base = atof(argv[3]) * 1e-3;
  if (argc > 4) i.factor = atof(argv[4]);
  return i;
}

static double compute_time(const struct imbalance *i, int rank)
{
  return rank == i->slowed ? i->base * i->factor : i->base;
}

#endif
