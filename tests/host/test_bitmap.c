/*
 * Host tests of lib/bitmap.c and lib/cpumask.c: bitmap operations held
 * against a bit-by-bit model, at and around word boundaries, with garbage in
 * the bits past nbits; cpumask operations and the cpulist text form.
 *
 * Built twice by the Makefile: with the default NR_CPUS (one full word) and
 * with NR_CPUS=130 (a partial last word), so nothing here assumes either.
 */
#include <lib/bitmap.h>
#include <lib/cpumask.h>
#include <lib/errno.h>
#include <lib/printf.h>

#include "ktest_host.h"

#include <pthread.h>

BUILD_BUG_ON(NR_CPUS < 10); /* the cpumask cases name CPUs up to 9 */

/* Bitmap sizes around word boundaries; the arrays below hold the largest. */
static const unsigned int sizes[] = {
	0,   1,	  2,   31, /* within one word */
	63,  64,  65,  127, /* around the first boundary */
	128, 129, 191, 192, /* around the next ones */
	193, 255,
};
#define WORDS 5 /* BITS_TO_LONGS(255) plus a guard word */
#define GUARD 0x5a5a5a5a5a5a5a5aUL

static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;

/* xorshift64: a fixed sequence, so a failure reproduces. */
static unsigned long rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Random words with about 1 bit in 2^sparse set (sparse 0: half). */
static void fill_random(unsigned long *w, unsigned int words, int sparse)
{
	unsigned int k;
	int i;

	for (k = 0; k < words; k++) {
		w[k] = rnd();
		for (i = 0; i < sparse; i++)
			w[k] &= rnd();
	}
}

/* The model: bit n, read without any of the code under test. */
static int model_bit(const unsigned long *w, unsigned long n)
{
	return (w[n / (8 * sizeof(long))] >> (n % (8 * sizeof(long)))) & 1;
}

/* Flip bit n, without any of the code under test. */
static void flip(unsigned long *w, unsigned long n)
{
	w[n / (8 * sizeof(long))] ^= 1UL << (n % (8 * sizeof(long)));
}

/* Does BITS_TO_LONGS round up to whole words, 0 for 0? */
static void bits_to_longs_rounds_up(void)
{
	DECLARE_BITMAP(map129, 129);

	KEXPECT_EQ(BITS_TO_LONGS(0), 0);
	KEXPECT_EQ(BITS_TO_LONGS(1), 1);
	KEXPECT_EQ(BITS_TO_LONGS(64), 1);
	KEXPECT_EQ(BITS_TO_LONGS(65), 2);
	KEXPECT_EQ(BITS_TO_LONGS(128), 2);
	KEXPECT_EQ(sizeof(map129), 3 * sizeof(long));
	KEXPECT_EQ(BIT_WORD(64), 1);
	KEXPECT_EQ(BIT_MASK(65), 2);
}

/* Does each single-bit operation change exactly its bit, atomic or not? */
static void single_bit_ops_touch_one_bit(void)
{
	unsigned long map[WORDS], before[WORDS];
	unsigned long n;

	fill_random(map, WORDS, 0);
	for (n = 0; n < 4 * BITS_PER_LONG; n++) {
		memcpy(before, map, sizeof(map));
		__set_bit(n, map);
		KEXPECT(test_bit(n, map));
		__clear_bit(n, map);
		KEXPECT(!test_bit(n, map));
		set_bit(n, map);
		KEXPECT(test_bit(n, map));
		clear_bit(n, map);
		KEXPECT(!test_bit(n, map));
		before[n / BITS_PER_LONG] &= ~(1UL << (n % BITS_PER_LONG));
		KASSERT(!memcmp(before, map, sizeof(map)));
	}
}

/* Do test_and_set_bit and test_and_clear_bit return the old value? */
static void test_and_ops_return_old_value(void)
{
	unsigned long map[2] = {0, 0};

	KEXPECT(!test_and_set_bit(70, map));
	KEXPECT(test_and_set_bit(70, map));
	KEXPECT_EQ(map[1], 1UL << 6);
	KEXPECT(test_and_clear_bit(70, map));
	KEXPECT(!test_and_clear_bit(70, map));
	KEXPECT_EQ(map[1], 0);
	KEXPECT(!test_and_set_bit(63, map));
	KEXPECT_EQ(map[0], 1UL << 63);
}

struct racer {
	unsigned long *map;
	unsigned long bit;
	int errors;
};

static void *race_one_bit(void *arg)
{
	struct racer *r = arg;
	int i;

	for (i = 0; i < 200000; i++) {
		set_bit(r->bit, r->map);
		r->errors += !test_bit(r->bit, r->map);
		clear_bit(r->bit, r->map);
		r->errors += test_bit(r->bit, r->map);
		r->errors += test_and_set_bit(r->bit, r->map);
		r->errors += !test_and_clear_bit(r->bit, r->map);
	}
	return NULL;
}

/*
 * Do the atomic bit operations of threads on different bits of one word
 * never lose each other's updates (as a plain read-modify-write would)?
 */
static void atomic_ops_do_not_lose_updates(void)
{
	enum { THREADS = 8 };
	unsigned long map[1] = {0};
	struct racer r[THREADS];
	pthread_t t[THREADS];
	int i;

	for (i = 0; i < THREADS; i++) {
		r[i] = (struct racer){map, 8 * i + 3, 0};
		KASSERT(!pthread_create(&t[i], NULL, race_one_bit, &r[i]));
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		KEXPECT_EQ(r[i].errors, 0);
	}
	KEXPECT_EQ(map[0], 0);
}

/* Does hweight_long count bits? */
static void hweight_counts_bits(void)
{
	unsigned long w;
	int i, n;

	KEXPECT_EQ(hweight_long(0), 0);
	KEXPECT_EQ(hweight_long(~0UL), BITS_PER_LONG);
	KEXPECT_EQ(hweight_long(1UL << 63), 1);
	for (i = 0; i < 1000; i++) {
		w = rnd();
		n = 0;
		for (unsigned int b = 0; b < BITS_PER_LONG; b++)
			n += (w >> b) & 1;
		KEXPECT_EQ(hweight_long(w), n);
	}
}

/*
 * Do bitmap_zero, bitmap_fill and bitmap_copy write exactly the bitmap's
 * words (fill: set bits 0..nbits-1, clear the rest of the last word)?
 */
static void zero_fill_copy_write_only_owned_words(void)
{
	unsigned long map[WORDS], src[WORDS];
	unsigned int s, n, words;

	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		n = sizes[s];
		words = BITS_TO_LONGS(n);
		for (unsigned int k = 0; k < WORDS; k++)
			map[k] = GUARD;
		bitmap_fill(map, n);
		for (unsigned int b = 0; b < words * BITS_PER_LONG; b++)
			KASSERT(model_bit(map, b) == (b < n));
		KEXPECT_EQ(map[words], GUARD);
		bitmap_zero(map, n);
		for (unsigned int k = 0; k < words; k++)
			KEXPECT_EQ(map[k], 0);
		KEXPECT_EQ(map[words], GUARD);
		fill_random(src, WORDS, 0);
		bitmap_copy(map, src, n);
		KEXPECT(!memcmp(map, src, words * sizeof(long)));
		KEXPECT_EQ(map[words], GUARD);
	}
}

/* Check dst bit by bit against op applied to a and b, below nbits. */
static void expect_binop(const unsigned long *dst, const unsigned long *a,
			 const unsigned long *b, unsigned int nbits, char op,
			 bool ret)
{
	bool any = false;
	unsigned int i;
	int want;

	for (i = 0; i < nbits; i++) {
		want = op == '&'   ? model_bit(a, i) & model_bit(b, i)
		       : op == '|' ? model_bit(a, i) | model_bit(b, i)
				   : model_bit(a, i) & !model_bit(b, i);
		any |= want;
		if (model_bit(dst, i) != want) {
			ktest_fail(__FILE__, __LINE__,
				   "nbits %u op %c: bit %u is %d, want %d",
				   nbits, op, i, model_bit(dst, i), want);
			return;
		}
	}
	if (op != '|' && ret != any)
		ktest_fail(__FILE__, __LINE__,
			   "nbits %u op %c returned %d, want %d", nbits, op,
			   ret, any);
}

/*
 * Do bitmap_and, bitmap_or and bitmap_andnot compute every bit below nbits,
 * return "result not empty" judged on those bits alone, and leave the words
 * past the bitmap alone?
 */
static void and_or_andnot_match_model(void)
{
	unsigned long a[WORDS], b[WORDS], dst[WORDS];
	unsigned int s, n, round;
	bool ret;

	for (round = 0; round < 50; round++) {
		for (s = 0; s < ARRAY_SIZE(sizes); s++) {
			n = sizes[s];
			fill_random(a, WORDS, round % 7);
			fill_random(b, WORDS, round % 5);
			dst[BITS_TO_LONGS(n)] = GUARD;
			ret = bitmap_and(dst, a, b, n);
			expect_binop(dst, a, b, n, '&', ret);
			bitmap_or(dst, a, b, n);
			expect_binop(dst, a, b, n, '|', false);
			ret = bitmap_andnot(dst, a, b, n);
			expect_binop(dst, a, b, n, '~', ret);
			KEXPECT_EQ(dst[BITS_TO_LONGS(n)], GUARD);
		}
	}
}

/* Does bitmap_intersects agree with the model, ignoring bits past nbits? */
static void intersects_matches_model(void)
{
	unsigned long a[WORDS], b[WORDS];
	unsigned int s, n, i, round;
	bool want;

	for (round = 0; round < 200; round++) {
		for (s = 0; s < ARRAY_SIZE(sizes); s++) {
			n = sizes[s];
			fill_random(a, WORDS, round % 9);
			fill_random(b, WORDS, round % 9);
			want = false;
			for (i = 0; i < n; i++)
				want |= model_bit(a, i) && model_bit(b, i);
			KEXPECT_EQ(bitmap_intersects(a, b, n), want);
		}
	}
	a[0] = 0;
	a[1] = ~0UL;
	b[0] = 0;
	b[1] = ~0UL;
	KEXPECT(!bitmap_intersects(a, b, 64));
	KEXPECT(bitmap_intersects(a, b, 65));
	KEXPECT(!bitmap_intersects(a, b, 0));
}

/* Is "not empty" false when only bits past nbits survive the and? */
static void and_ignores_bits_past_nbits(void)
{
	unsigned long a[2] = {0, ~0UL}, b[2] = {0, ~0UL}, dst[2];

	KEXPECT(!bitmap_and(dst, a, b, 64));
	KEXPECT(!bitmap_and(dst, a, b, 0));
	KEXPECT(bitmap_and(dst, a, b, 65));
	KEXPECT_EQ(dst[1], 1);
	KEXPECT(!bitmap_andnot(dst, b, a, 64));
	a[1] = 1;
	KEXPECT(!bitmap_andnot(dst, b, a, 65));
	KEXPECT(bitmap_andnot(dst, b, a, 66));
}

/* Do bitmap_equal, bitmap_empty and bitmap_full ignore bits past nbits? */
static void predicates_ignore_bits_past_nbits(void)
{
	unsigned long a[WORDS], b[WORDS];
	unsigned int s, n;

	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		n = sizes[s];
		fill_random(a, WORDS, 0);
		memcpy(b, a, sizeof(a));
		for (unsigned long i = n; i < WORDS * BITS_PER_LONG; i++)
			flip(b, i);
		KEXPECT(bitmap_equal(a, b, n));
		if (n) {
			flip(b, n - 1);
			KEXPECT(!bitmap_equal(a, b, n));
			flip(b, n - 1);
			flip(b, 0);
			KEXPECT(!bitmap_equal(a, b, n));
		}
		/* Body empty or full, tail the opposite. */
		memset(a, 0xff, sizeof(a));
		bitmap_zero(b, n);
		bitmap_copy(a, b, n);
		if (n % BITS_PER_LONG)
			a[n / BITS_PER_LONG] = ~0UL << (n % BITS_PER_LONG);
		KEXPECT(bitmap_empty(a, n));
		KEXPECT_EQ(bitmap_full(a, n), n == 0);
		bitmap_fill(a, n);
		KEXPECT(bitmap_full(a, n));
		KEXPECT_EQ(bitmap_empty(a, n), n == 0);
		if (n) {
			__clear_bit(n - 1, a);
			KEXPECT(!bitmap_full(a, n));
			__set_bit(n - 1, a);
			__clear_bit(0, a);
			KEXPECT(!bitmap_full(a, n));
		}
	}
}

/* Does bitmap_weight count the bits below nbits only? */
static void weight_matches_model(void)
{
	unsigned long map[WORDS];
	unsigned int s, n, i, want, round;

	for (round = 0; round < 50; round++) {
		for (s = 0; s < ARRAY_SIZE(sizes); s++) {
			n = sizes[s];
			fill_random(map, WORDS, round % 4);
			want = 0;
			for (i = 0; i < n; i++)
				want += model_bit(map, i);
			KEXPECT_EQ(bitmap_weight(map, n), want);
		}
	}
}

/* The model's answer for find_next_bit (want 1) or find_next_zero_bit. */
static unsigned long model_find(const unsigned long *map, unsigned long size,
				unsigned long offset, int want)
{
	for (; offset < size; offset++) {
		if (model_bit(map, offset) == want)
			return offset;
	}
	return size;
}

/*
 * Do find_next_bit and find_next_zero_bit agree with the model for every
 * offset, past the end too, with dense, sparse and empty bitmaps?
 */
static void find_next_matches_model(void)
{
	unsigned long map[WORDS];
	unsigned long off;
	unsigned int s, n, round;

	for (round = 0; round < 24; round++) {
		for (s = 0; s < ARRAY_SIZE(sizes); s++) {
			n = sizes[s];
			fill_random(map, WORDS, round % 8);
			if (round == 22)
				memset(map, 0, sizeof(map));
			if (round == 23)
				memset(map, 0xff, sizeof(map));
			for (off = 0; off <= n + 70; off++) {
				KASSERT(find_next_bit(map, n, off) ==
					model_find(map, n, off, 1));
				KASSERT(find_next_zero_bit(map, n, off) ==
					model_find(map, n, off, 0));
			}
			KEXPECT_EQ(find_first_bit(map, n),
				   model_find(map, n, 0, 1));
			KEXPECT_EQ(find_first_zero_bit(map, n),
				   model_find(map, n, 0, 0));
		}
	}
}

/* Is a set (or clear) bit just past nbits never reported? */
static void find_ignores_bits_past_size(void)
{
	unsigned long map[2] = {0, 1UL << 5};

	KEXPECT_EQ(find_first_bit(map, 69), 69);
	KEXPECT_EQ(find_first_bit(map, 70), 69);
	KEXPECT_EQ(find_next_bit(map, 64, 3), 64);
	map[0] = ~0UL;
	map[1] = ~(1UL << 5);
	KEXPECT_EQ(find_first_zero_bit(map, 69), 69);
	KEXPECT_EQ(find_first_zero_bit(map, 70), 69);
	KEXPECT_EQ(find_first_zero_bit(map, 64), 64);
	KEXPECT_EQ(find_first_bit(map, 0), 0);
	KEXPECT_EQ(find_next_bit(map, 10, 1000), 10);
}

/* Does for_each_set_bit visit exactly the set bits, in order? */
static void for_each_set_bit_visits_set_bits(void)
{
	unsigned long map[WORDS], seen[WORDS], bit, prev;
	unsigned int s, n, count;

	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		n = sizes[s];
		fill_random(map, WORDS, 1);
		memset(seen, 0, sizeof(seen));
		count = 0;
		prev = 0;
		for_each_set_bit (bit, map, n) {
			KEXPECT(count == 0 || bit > prev);
			KASSERT(bit < n);
			__set_bit(bit, seen);
			prev = bit;
			count++;
		}
		KEXPECT_EQ(count, bitmap_weight(map, n));
		KEXPECT(bitmap_equal(seen, map, n));
	}
}

/* A mask of the n CPUs in cpus[], set with the plain operations. */
static void mask_of(struct cpumask *m, const unsigned int *cpus, int n)
{
	cpumask_clear(m);
	while (n--)
		__cpumask_set_cpu(cpus[n], m);
}

/* Does each CPU's bit set, clear and test on its own, both flavours? */
static void cpumask_set_clear_test_every_cpu(void)
{
	struct cpumask m;
	unsigned int cpu;

	cpumask_clear(&m);
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		cpumask_set_cpu(cpu, &m);
		KEXPECT(cpumask_test_cpu(cpu, &m));
		KEXPECT_EQ(cpumask_weight(&m), 1);
		KEXPECT_EQ(cpumask_first(&m), cpu);
		cpumask_clear_cpu(cpu, &m);
		KEXPECT(cpumask_empty(&m));
		__cpumask_set_cpu(cpu, &m);
		KEXPECT(cpumask_test_cpu(cpu, &m));
		__cpumask_clear_cpu(cpu, &m);
		KEXPECT(!cpumask_test_cpu(cpu, &m));
	}
}

/* Do cpumask_first, cpumask_next and for_each_cpu walk the mask in order? */
static void cpumask_iteration(void)
{
	const unsigned int cpus[] = {0, 1, NR_CPUS / 2, NR_CPUS - 1};
	struct cpumask m;
	unsigned int cpu, i = 0;
	int icpu, count = 0;

	cpumask_clear(&m);
	KEXPECT_EQ(cpumask_first(&m), NR_CPUS);
	KEXPECT_EQ(cpumask_next(-1, &m), NR_CPUS);
	for_each_cpu (cpu, &m)
		count++;
	KEXPECT_EQ(count, 0);

	mask_of(&m, cpus, 4);
	KEXPECT_EQ(cpumask_first(&m), 0);
	KEXPECT_EQ(cpumask_next(-1, &m), 0);
	KEXPECT_EQ(cpumask_next(0, &m), 1);
	KEXPECT_EQ(cpumask_next(1, &m), NR_CPUS / 2);
	KEXPECT_EQ(cpumask_next(NR_CPUS - 1, &m), NR_CPUS);
	for_each_cpu (cpu, &m) {
		while (i + 1 < 4 && cpus[i] < cpu)
			i++;
		KEXPECT_EQ(cpu, cpus[i]);
	}
	/* An int loop variable works too, as in Linux. */
	for_each_cpu (icpu, &m)
		count++;
	KEXPECT_EQ(count, cpumask_weight(&m));
}

/* Print m with a roomy buffer. */
static const char *print(const struct cpumask *m)
{
	static char buf[4096];

	cpumap_print_list(buf, sizeof(buf), m);
	return buf;
}

/* Do and/or/andnot/intersects/equal/copy/weight work on whole masks? */
static void cpumask_whole_mask_ops(void)
{
	const unsigned int ca[] = {0, 3, NR_CPUS - 1}, cb[] = {3, 5};
	struct cpumask a, b, d;

	mask_of(&a, ca, 3);
	mask_of(&b, cb, 2);
	KEXPECT(cpumask_and(&d, &a, &b));
	KEXPECT_STREQ(print(&d), "3");
	cpumask_or(&d, &a, &b);
	KEXPECT_EQ(cpumask_weight(&d), 4);
	KEXPECT(cpumask_andnot(&d, &a, &b));
	KEXPECT_EQ(cpumask_weight(&d), 2);
	KEXPECT(cpumask_test_cpu(0, &d));
	KEXPECT(cpumask_test_cpu(NR_CPUS - 1, &d));
	KEXPECT(!cpumask_andnot(&d, &b, &b));
	KEXPECT(cpumask_empty(&d));
	cpumask_copy(&d, &a);
	KEXPECT(cpumask_equal(&d, &a));
	KEXPECT(!cpumask_equal(&d, &b));
	KEXPECT(cpumask_intersects(&a, &b));
	cpumask_clear_cpu(3, &b);
	KEXPECT(!cpumask_intersects(&a, &b));
	cpumask_clear(&b);
	KEXPECT(!cpumask_and(&d, &a, &b));
	KEXPECT(cpumask_empty(&d));
}

/* Does cpumap_print_list print runs as "a-b", single CPUs alone? */
static void print_list_known_masks(void)
{
	const unsigned int c1[] = {0, 1, 2, 3, 5, 7, 8}, c2[] = {0, 1};
	const unsigned int c3[] = {NR_CPUS - 1};
	char want[64];
	struct cpumask m;
	unsigned int cpu;

	cpumask_clear(&m);
	KEXPECT_STREQ(print(&m), "");
	KEXPECT_EQ(cpumap_print_list(want, sizeof(want), &m), 0);
	mask_of(&m, c1, 7);
	KEXPECT_STREQ(print(&m), "0-3,5,7-8");
	mask_of(&m, c2, 2);
	KEXPECT_STREQ(print(&m), "0-1");
	mask_of(&m, c3, 1);
	snprintf(want, sizeof(want), "%u", NR_CPUS - 1);
	KEXPECT_STREQ(print(&m), want);
	cpumask_clear(&m);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		__cpumask_set_cpu(cpu, &m);
	snprintf(want, sizeof(want), "0-%u", NR_CPUS - 1);
	KEXPECT_STREQ(print(&m), want);
	KEXPECT_EQ(cpumap_print_list(want, sizeof(want), &m), strlen(want));
}

/* Is every other CPU set printed as a plain list, ending in the last CPU? */
static void print_list_alternating(void)
{
	struct cpumask m;
	char want[1024];
	unsigned int cpu;
	int len = 0;

	cpumask_clear(&m);
	for (cpu = 1; cpu < NR_CPUS; cpu += 2) {
		__cpumask_set_cpu(cpu, &m);
		len += snprintf(want + len, sizeof(want) - len, "%s%u",
				len ? "," : "", cpu);
	}
	KEXPECT_STREQ(print(&m), want);
}

/*
 * Cut to a small buffer, is the output a NUL-terminated prefix of the whole,
 * with scnprintf's return value, and is size 0 left untouched?
 */
static void print_list_truncates_like_scnprintf(void)
{
	const unsigned int cpus[] = {0, 2, 3, 4, 9, NR_CPUS - 1};
	char full[128], buf[128];
	struct cpumask m;
	size_t size, len;
	int n;

	mask_of(&m, cpus, 6);
	len = cpumap_print_list(full, sizeof(full), &m);
	KEXPECT_EQ(len, strlen(full));
	for (size = 0; size <= len + 2; size++) {
		memset(buf, '@', sizeof(buf));
		n = cpumap_print_list(buf, size, &m);
		if (size == 0) {
			KEXPECT_EQ(n, 0);
			KEXPECT_EQ(buf[0], '@');
			continue;
		}
		KEXPECT_EQ(n, size - 1 < len ? size - 1 : len);
		KEXPECT_EQ(strlen(buf), (size_t)n);
		KEXPECT(!strncmp(buf, full, n));
		KEXPECT_EQ(buf[size], '@');
	}
}

/* Does cpulist_parse accept the forms Linux prints, and "" as empty? */
static void parse_accepts_well_formed_lists(void)
{
	struct cpumask m;
	char s[64];

	KEXPECT_EQ(cpulist_parse("", &m), 0);
	KEXPECT(cpumask_empty(&m));
	KEXPECT_EQ(cpulist_parse("0", &m), 0);
	KEXPECT_STREQ(print(&m), "0");
	KEXPECT_EQ(cpulist_parse("0-0", &m), 0);
	KEXPECT_STREQ(print(&m), "0");
	KEXPECT_EQ(cpulist_parse("0-3,5,7-8", &m), 0);
	KEXPECT_STREQ(print(&m), "0-3,5,7-8");
	/* Unordered and overlapping ranges are fine too. */
	KEXPECT_EQ(cpulist_parse("8,1-3,2,007", &m), 0);
	KEXPECT_STREQ(print(&m), "1-3,7-8");
	snprintf(s, sizeof(s), "%u", NR_CPUS - 1);
	KEXPECT_EQ(cpulist_parse(s, &m), 0);
	KEXPECT_STREQ(print(&m), s);
	snprintf(s, sizeof(s), "0-%u", NR_CPUS - 1);
	KEXPECT_EQ(cpulist_parse(s, &m), 0);
	KEXPECT_EQ(cpumask_weight(&m), NR_CPUS);
}

/* Is anything malformed refused with -EINVAL, leaving the mask empty? */
static void parse_rejects_malformed_lists(void)
{
	static const char *const bad[] = {
		",",	"1,",  ",1",	   "1,,2", "-1",  "1-",	   "1--2",
		"3-1",	"a",   "1a",	   " 1",   "1 ",  "1-2-3", "+1",
		"0x1",	"1\n", "1:2",	   "1/2",  "1.5", "-",	   "0-",
		"1,-2", "1;2", "\xd9\xa1", /* an Arabic-Indic digit one */
	};
	struct cpumask m;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(&m, 0xff, sizeof(m));
		if (cpulist_parse(bad[i], &m) != -EINVAL)
			ktest_fail(__FILE__, __LINE__, "\"%s\" accepted",
				   bad[i]);
		KEXPECT(cpumask_empty(&m));
	}
	memset(&m, 0xff, sizeof(m));
	KEXPECT_EQ(cpulist_parse(NULL, &m), -EINVAL);
	KEXPECT(cpumask_empty(&m));
}

/* Is a CPU number of NR_CPUS or more refused, however it is written? */
static void parse_rejects_cpus_beyond_nr_cpus(void)
{
	struct cpumask m;
	char s[64];

	snprintf(s, sizeof(s), "%u", NR_CPUS);
	KEXPECT_EQ(cpulist_parse(s, &m), -EINVAL);
	snprintf(s, sizeof(s), "0-%u", NR_CPUS);
	KEXPECT_EQ(cpulist_parse(s, &m), -EINVAL);
	KEXPECT(cpumask_empty(&m));
	snprintf(s, sizeof(s), "1,%u", NR_CPUS + 100);
	KEXPECT_EQ(cpulist_parse(s, &m), -EINVAL);
	KEXPECT_EQ(cpulist_parse("99999999999999999999999999", &m), -EINVAL);
	KEXPECT_EQ(cpulist_parse("4294967296", &m), -EINVAL);
	KEXPECT_EQ(cpulist_parse("0-18446744073709551616", &m), -EINVAL);
	KEXPECT(cpumask_empty(&m));
}

/* Does parsing what was printed give back the same mask, for many masks? */
static void print_parse_round_trip(void)
{
	struct cpumask m, back;
	unsigned int cpu;
	int round;

	for (round = 0; round < 2000; round++) {
		cpumask_clear(&m);
		for (cpu = 0; cpu < NR_CPUS; cpu++) {
			/* Densities from none to all, runs of every length. */
			if (rnd() % 16 < (unsigned int)round % 17)
				__cpumask_set_cpu(cpu, &m);
		}
		KASSERT(cpulist_parse(print(&m), &back) == 0);
		KASSERT(cpumask_equal(&m, &back));
	}
}

static const struct ktest_case cases[] = {
	KTEST(bits_to_longs_rounds_up),
	KTEST(single_bit_ops_touch_one_bit),
	KTEST(test_and_ops_return_old_value),
	KTEST(atomic_ops_do_not_lose_updates),
	KTEST(hweight_counts_bits),
	KTEST(zero_fill_copy_write_only_owned_words),
	KTEST(and_or_andnot_match_model),
	KTEST(intersects_matches_model),
	KTEST(and_ignores_bits_past_nbits),
	KTEST(predicates_ignore_bits_past_nbits),
	KTEST(weight_matches_model),
	KTEST(find_next_matches_model),
	KTEST(find_ignores_bits_past_size),
	KTEST(for_each_set_bit_visits_set_bits),
	KTEST(cpumask_set_clear_test_every_cpu),
	KTEST(cpumask_iteration),
	KTEST(cpumask_whole_mask_ops),
	KTEST(print_list_known_masks),
	KTEST(print_list_alternating),
	KTEST(print_list_truncates_like_scnprintf),
	KTEST(parse_accepts_well_formed_lists),
	KTEST(parse_rejects_malformed_lists),
	KTEST(parse_rejects_cpus_beyond_nr_cpus),
	KTEST(print_parse_round_trip),
};

KTEST_MAIN(cases)
