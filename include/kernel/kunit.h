/*
 * In-kernel tests in the manner of Linux's KUnit: a suite is a named table
 * of cases; each case is a function whose comment asks the question it
 * answers. Suites register with kunit_test_suite() into a linker section
 * and are run by name from the command line (test=all, test=a,b), with
 * KTAP output on the console.
 */
#ifndef KERNEL_KUNIT_H
#define KERNEL_KUNIT_H

#include <lib/kernel.h>

struct kunit {
	const char *name;
	bool failed;
	bool skipped;
	char skip_reason[80];
	void *allocs[4]; /* kunit_kcalloc()'s, freed when the case ends */
	unsigned int nr_allocs;
};

struct kunit_case {
	const char *name;
	void (*run)(struct kunit *test);
};

struct kunit_suite {
	const char *name;
	const struct kunit_case *cases; /* ends with an empty entry */
};

#define KUNIT_CASE(fn)  \
	{               \
#fn, fn \
	}

#define kunit_test_suite(suite)                                                \
	static const struct kunit_suite *__kunit_ptr_##suite __used __section( \
		".ktest_suites") = &(suite)

__printf(4, 5) void kunit_fail(struct kunit *test, const char *file, int line,
			       const char *fmt, ...);
__printf(2, 3) void kunit_skip(struct kunit *test, const char *fmt, ...);
/* Print a diagnostic line ("# ...") inside the current case's output. */
__printf(2, 3) void kunit_info(struct kunit *test, const char *fmt, ...);

/*
 * n zeroed objects of size bytes, freed when the case has ended and its
 * threads have exited: arrays with an entry per CPU (nr_cpu_ids), too big
 * for a stack or for the image in a build for many CPUs. NULL, and the
 * case failed, if there is no memory (KUNIT_ASSERT_NOT_NULL it).
 */
void *kunit_kcalloc(struct kunit *test, size_t n, size_t size);

/* Run the suites the test= word names; returns the number of failures. */
int kunit_run_tests(const char *which);
/* At boot: test=, if given. A build without tests (TESTS=0) has none. */
#ifdef CONFIG_TESTS
void kunit_boot(void);
/* Does the command line's test= run this suite? */
bool kunit_boot_selects(const char *suite);
/* stress=: the randomized hotplug stress (kernel/tests/stress.c). */
void stress_boot(void);
#else
static inline void kunit_boot(void)
{
}

static inline void stress_boot(void)
{
}
#endif

#define KUNIT_EXPECT_TRUE(test, cond)                                \
	({                                                           \
		bool __ok = !!(cond);                                \
		if (!__ok)                                           \
			kunit_fail(test, __FILE__, __LINE__,         \
				   "expected %s to be true", #cond); \
		__ok;                                                \
	})
#define KUNIT_EXPECT_FALSE(test, cond) KUNIT_EXPECT_TRUE(test, !(cond))

#define KUNIT_BINARY(test, a, op, b)                                           \
	({                                                                     \
		long long __a = (long long)(a), __b = (long long)(b);          \
		bool __ok = __a op __b;                                        \
		if (!__ok)                                                     \
			kunit_fail(test, __FILE__, __LINE__,                   \
				   "expected %s " #op " %s, got %lld vs %lld", \
				   #a, #b, __a, __b);                          \
		__ok;                                                          \
	})
#define KUNIT_EXPECT_EQ(t, a, b) KUNIT_BINARY(t, a, ==, b)
#define KUNIT_EXPECT_NE(t, a, b) KUNIT_BINARY(t, a, !=, b)
#define KUNIT_EXPECT_LT(t, a, b) KUNIT_BINARY(t, a, <, b)
#define KUNIT_EXPECT_LE(t, a, b) KUNIT_BINARY(t, a, <=, b)
#define KUNIT_EXPECT_GT(t, a, b) KUNIT_BINARY(t, a, >, b)
#define KUNIT_EXPECT_GE(t, a, b) KUNIT_BINARY(t, a, >=, b)
#define KUNIT_EXPECT_NULL(t, p) KUNIT_EXPECT_TRUE(t, (p) == NULL)
#define KUNIT_EXPECT_NOT_NULL(t, p) KUNIT_EXPECT_TRUE(t, (p) != NULL)
#define KUNIT_EXPECT_STREQ(t, a, b)                                           \
	({                                                                    \
		const char *__a = (a), *__b = (b);                            \
		bool __ok = !strcmp(__a, __b);                                \
		if (!__ok)                                                    \
			kunit_fail(t, __FILE__, __LINE__,                     \
				   "expected %s == %s, got \"%s\" vs \"%s\"", \
				   #a, #b, __a, __b);                         \
		__ok;                                                         \
	})

/* The ASSERT forms end the case on failure. */
#define KUNIT_ASSERT_TRUE(t, c)               \
	do {                                  \
		if (!KUNIT_EXPECT_TRUE(t, c)) \
			return;               \
	} while (0)
#define KUNIT_ASSERT_EQ(t, a, b)               \
	do {                                   \
		if (!KUNIT_EXPECT_EQ(t, a, b)) \
			return;                \
	} while (0)
#define KUNIT_ASSERT_NOT_NULL(t, p)               \
	do {                                      \
		if (!KUNIT_EXPECT_NOT_NULL(t, p)) \
			return;                   \
	} while (0)

#endif
