/*
 * A tiny harness for host-built unit tests of lib/, printing KTAP version 1.
 *
 * A test file writes each case as a void function, lists them in a table of
 * KTEST(name) entries and ends with KTEST_MAIN(table). Cases run in order; a
 * failed expectation prints "# file:line: expected ..." and marks its case
 * "not ok", and the program exits 1 if any case failed. Naming cases on the
 * command line runs only those:
 *
 *	build/host/test_bitmap find_next_matches_model
 */
#ifndef TESTS_HOST_KTEST_HOST_H
#define TESTS_HOST_KTEST_HOST_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ktest_case {
	const char *name;
	void (*run)(void);
};

/* clang-format off */
#define KTEST(fn) { #fn, fn }
/* clang-format on */

/* Failed expectations in the case that is running. */
static int ktest_failures;

__attribute__((format(printf, 3, 4), unused)) static void
ktest_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("# %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	ktest_failures++;
}

/* Expect cond to hold; go on with the case either way. */
#define KEXPECT(cond)                                                         \
	do {                                                                  \
		if (!(cond))                                                  \
			ktest_fail(__FILE__, __LINE__, "expected %s", #cond); \
	} while (0)

/* Integers of any type, compared (and shown) as unsigned long long. */
#define KEXPECT_EQ(a, b)                                                  \
	do {                                                              \
		unsigned long long ka_ = (a), kb_ = (b);                  \
		if (ka_ != kb_)                                           \
			ktest_fail(__FILE__, __LINE__,                    \
				   "expected %s == %s, got %lld (%#llx) " \
				   "and %lld (%#llx)",                    \
				   #a, #b, (long long)ka_, ka_,           \
				   (long long)kb_, kb_);                  \
	} while (0)

/* C strings, either of which may be NULL. */
#define KEXPECT_STREQ(a, b)                                                    \
	do {                                                                   \
		const char *ka_ = (a), *kb_ = (b);                             \
		if (!ka_ || !kb_ ? ka_ != kb_ : strcmp(ka_, kb_) != 0)         \
			ktest_fail(__FILE__, __LINE__,                         \
				   "expected %s == %s, got \"%s\" and \"%s\"", \
				   #a, #b, ka_ ? ka_ : "(NULL)",               \
				   kb_ ? kb_ : "(NULL)");                      \
	} while (0)

/* Expect cond, and end the case if it fails: what follows depends on it. */
#define KASSERT(cond)                                                         \
	do {                                                                  \
		if (!(cond)) {                                                \
			ktest_fail(__FILE__, __LINE__, "expected %s", #cond); \
			return;                                               \
		}                                                             \
	} while (0)

static int ktest_selected(int argc, char **argv, const char *name)
{
	int i;

	if (argc < 2)
		return 1;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], name))
			return 1;
	}
	return 0;
}

/* Every name on the command line must be a case: a typo must not pass. */
static int ktest_check_args(int argc, char **argv,
			    const struct ktest_case *cases, size_t n)
{
	size_t k;
	int i, bad = 0;

	for (i = 1; i < argc; i++) {
		for (k = 0; k < n && strcmp(argv[i], cases[k].name); k++)
			;
		if (k == n) {
			fprintf(stderr, "%s: no test case named %s\n", argv[0],
				argv[i]);
			bad = 1;
		}
	}
	return bad;
}

static int ktest_main(int argc, char **argv, const struct ktest_case *cases,
		      size_t n)
{
	size_t k, planned = 0;
	int number = 0, failed = 0;

	if (ktest_check_args(argc, argv, cases, n))
		return 2;
	for (k = 0; k < n; k++)
		planned += ktest_selected(argc, argv, cases[k].name);
	printf("KTAP version 1\n1..%zu\n", planned);
	for (k = 0; k < n; k++) {
		if (!ktest_selected(argc, argv, cases[k].name))
			continue;
		ktest_failures = 0;
		cases[k].run();
		printf("%sok %d %s\n", ktest_failures ? "not " : "", ++number,
		       cases[k].name);
		/* Flushed per case, so a sanitizer abort loses no results. */
		fflush(stdout);
		failed += ktest_failures != 0;
	}
	if (failed)
		printf("# %d of %d failed\n", failed, number);
	return failed ? 1 : 0;
}

#define KTEST_MAIN(table)                                              \
	int main(int argc, char **argv)                                \
	{                                                              \
		return ktest_main(argc, argv, table,                   \
				  sizeof(table) / sizeof((table)[0])); \
	}

#endif
