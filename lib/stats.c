/* Summaries of latency samples (see include/lib/stats.h). */
#include <lib/stats.h>

#define MAX_RING 64

void sort_u64(u64 *v, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			u64 t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

void ring_summary(const u64 *ring, unsigned int size, u64 count, u64 out[3])
{
	u64 v[MAX_RING];
	unsigned int n = count < size ? count : size;

	if (n > MAX_RING)
		n = MAX_RING;
	for (unsigned int i = 0; i < n; i++)
		v[i] = ring[i];
	sort_u64(v, n);
	out[0] = n ? v[0] : 0;
	out[1] = n ? v[n / 2] : 0;
	out[2] = n ? v[n - 1] : 0;
}
