/*
 * CPU masks as text: the Linux cpulist form "0-3,5,7-8", printed and parsed
 * (include/lib/cpumask.h). Used for the command line and for reports.
 */
#include <lib/cpumask.h>
#include <lib/errno.h>
#include <lib/printf.h>

int cpumap_print_list(char *buf, size_t size, const struct cpumask *mask)
{
	const unsigned long *bits = cpumask_bits(mask);
	const char *sep = "";
	unsigned long first, last;
	int len = 0;

	if (!size)
		return 0;
	buf[0] = '\0';
	for (first = find_first_bit(bits, NR_CPUS); first < NR_CPUS;
	     first = find_next_bit(bits, NR_CPUS, last + 1)) {
		/* The run of set bits that starts at first ends at last. */
		last = find_next_zero_bit(bits, NR_CPUS, first + 1) - 1;
		if (last == first)
			len += scnprintf(buf + len, size - len, "%s%lu", sep,
					 first);
		else
			len += scnprintf(buf + len, size - len, "%s%lu-%lu",
					 sep, first, last);
		sep = ",";
	}
	return len;
}

/* A CPU number: decimal digits only, below NR_CPUS. NULL if not one. */
static const char *parse_cpu(const char *s, unsigned int *cpu)
{
	unsigned long v = 0;

	if (*s < '0' || *s > '9')
		return NULL;
	for (; *s >= '0' && *s <= '9'; s++) {
		/* v < NR_CPUS here, so v * 10 + 9 cannot overflow. */
		v = v * 10 + (*s - '0');
		if (v >= NR_CPUS)
			return NULL;
	}
	*cpu = v;
	return s;
}

/* "N" or "N-M" with N <= M: set those CPUs. NULL if malformed. */
static const char *parse_range(const char *s, struct cpumask *mask)
{
	unsigned int first, last, cpu;

	s = parse_cpu(s, &first);
	if (!s)
		return NULL;
	last = first;
	if (*s == '-') {
		s = parse_cpu(s + 1, &last);
		if (!s || last < first)
			return NULL;
	}
	for (cpu = first; cpu <= last; cpu++)
		__cpumask_set_cpu(cpu, mask);
	return s;
}

int cpulist_parse(const char *s, struct cpumask *mask)
{
	cpumask_clear(mask);
	if (!s)
		return -EINVAL;
	if (!*s)
		return 0;
	for (;;) {
		s = parse_range(s, mask);
		if (!s)
			break;
		if (!*s)
			return 0;
		if (*s++ != ',')
			break;
	}
	cpumask_clear(mask);
	return -EINVAL;
}
