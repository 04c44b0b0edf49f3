/* Small statistics over latency samples: a ring of the last N, summarised. */
#ifndef LIB_STATS_H
#define LIB_STATS_H

#include <lib/types.h>

/* Sort n values in place (insertion sort: n is small). */
void sort_u64(u64 *v, unsigned int n);

/*
 * Min, median and max of the samples a ring of size slots holds after
 * count were recorded (the last min(count, size) of them); zeros if none.
 * size is at most 64.
 */
void ring_summary(const u64 *ring, unsigned int size, u64 count, u64 out[3]);

#endif
