/*
 * The in-kernel test runner: selects suites from the test= word, runs
 * their cases in order and prints KTAP version 1, as Linux's KUnit does:
 * a top-level plan of suites, each suite a nested subtest block.
 */
#include <kernel/kunit.h>
#include <kernel/mm.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/timer.h>
#include <lib/printf.h>
#include <string.h>

extern const struct kunit_suite *const __ktest_suites_start[],
	*const __ktest_suites_end[];

void kunit_fail(struct kunit *test, const char *file, int line, const char *fmt,
		...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	test->failed = true;
	printk(KERN_INFO "        # %s: %s:%d: %s\n", test->name, file, line,
	       msg);
}

void kunit_skip(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(test->skip_reason, sizeof(test->skip_reason), fmt, ap);
	va_end(ap);
	test->skipped = true;
}

void kunit_info(struct kunit *test, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk(KERN_INFO "        # %s: %s\n", test->name, msg);
}

/* Is name in the comma-separated list (or is the list "all")? */
static bool selected(const char *list, const char *name)
{
	size_t n = strlen(name);

	if (!strcmp(list, "all"))
		return true;
	for (const char *p = list; *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		p += len + (end != NULL);
	}
	return false;
}

/*
 * After a case: wait for the threads it started to exit and be freed,
 * and for its RCU callbacks, so that the next case starts from a quiet
 * machine (memory counters compare equal) however slow the host is.
 * Threads still there after 10 s are named as left behind.
 */
static void settle(struct kunit *test, unsigned int threads)
{
	u64 deadline = jiffies + msecs_to_jiffies(10000);

	while (nr_threads() > threads && jiffies < deadline)
		msleep(1);
	rcu_barrier();
	if (nr_threads() > threads)
		pr_info("        # %s: %u thread(s) still running after the "
			"case\n",
			test->name, nr_threads() - threads);
}

void *kunit_kcalloc(struct kunit *test, size_t n, size_t size)
{
	void *p = NULL;

	if (test->nr_allocs < ARRAY_SIZE(test->allocs))
		p = kcalloc(n, size);
	if (p)
		test->allocs[test->nr_allocs++] = p;
	else
		kunit_fail(test, __FILE__, __LINE__,
			   "kunit_kcalloc(%zu, %zu): no memory or too many", n,
			   size);
	return p;
}

static void free_allocs(struct kunit *test)
{
	while (test->nr_allocs)
		kfree(test->allocs[--test->nr_allocs]);
}

struct totals {
	int pass, fail, skip;
};

static bool run_suite(const struct kunit_suite *suite, int index,
		      struct totals *t)
{
	const struct kunit_case *c;
	int n = 0, i = 0, fail = 0;

	for (c = suite->cases; c->name; c++)
		n++;
	pr_info("    KTAP version 1\n");
	pr_info("    # Subtest: %s\n", suite->name);
	pr_info("    1..%d\n", n);
	for (c = suite->cases; c->name; c++) {
		struct kunit test = {.name = c->name};
		unsigned int threads = nr_threads();

		c->run(&test);
		settle(&test, threads);
		free_allocs(&test);
		i++;
		if (test.failed) {
			fail++;
			t->fail++;
			pr_info("    not ok %d %s\n", i, c->name);
		} else if (test.skipped) {
			t->skip++;
			pr_info("    ok %d %s # SKIP %s\n", i, c->name,
				test.skip_reason);
		} else {
			t->pass++;
			pr_info("    ok %d %s\n", i, c->name);
		}
	}
	pr_info("%sok %d %s\n", fail ? "not " : "", index, suite->name);
	return !fail;
}

/* A name in the list that no suite has: a typo must not pass silently. */
static int count_unknown(const char *which, bool print, int index)
{
	const struct kunit_suite *const *s;
	char name[64];
	int unknown = 0;

	for (const char *p = which; *p && strcmp(which, "all");) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool found = false;

		strlcpy(name, p, min(len + 1, sizeof(name)));
		for (s = __ktest_suites_start; s < __ktest_suites_end; s++)
			found |= !strcmp((*s)->name, name);
		if (!found && print)
			pr_info("not ok %d %s # unknown test suite\n",
				index + unknown + 1, name);
		unknown += !found;
		p += len + (end != NULL);
	}
	return unknown;
}

static char test_word[256]; /* room for every suite by name */
param_string("test", test_word,
	     "all|SUITE[,SUITE]: run in-kernel tests (KTAP)");

void kunit_boot(void)
{
	if (test_word[0])
		kunit_run_tests(test_word);
}

bool kunit_boot_selects(const char *suite)
{
	return test_word[0] && selected(test_word, suite);
}

int kunit_run_tests(const char *which)
{
	const struct kunit_suite *const *s;
	struct totals t = {0};
	int n = 0, index = 0;

	for (s = __ktest_suites_start; s < __ktest_suites_end; s++)
		n += selected(which, (*s)->name);
	n += count_unknown(which, false, 0);
	pr_info("KTAP version 1\n");
	pr_info("1..%d\n", n);
	for (s = __ktest_suites_start; s < __ktest_suites_end; s++)
		if (selected(which, (*s)->name))
			run_suite(*s, ++index, &t);
	t.fail += count_unknown(which, true, index);
	pr_info("# Totals: pass:%d fail:%d skip:%d total:%d\n", t.pass, t.fail,
		t.skip, t.pass + t.fail + t.skip);
	return t.fail;
}
