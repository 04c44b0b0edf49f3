/* Tests of what boot read and set up: board description, log, symbols. */
#include <asm/cputype.h>
#include <kernel/board.h>
#include <kernel/console.h>
#include <kernel/kallsyms.h>
#include <kernel/kunit.h>
#include <kernel/mm.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/start_kernel.h>
#include <kernel/time.h>
#include <lib/cmdline.h>
#include <lib/printf.h>
#include <string.h>

/* Is the CPU we boot on one of the CPUs the device tree lists? */
static void board_lists_boot_cpu(struct kunit *test)
{
	u64 me = read_cpuid_mpidr() & MPIDR_HWID_MASK;
	bool found = false;

	KUNIT_ASSERT_TRUE(test, board.nr_cpus > 0);
	for (int i = 0; i < board.nr_cpus; i++)
		found |= board.cpus[i].mpidr == me;
	KUNIT_EXPECT_TRUE(test, found);
}

/* Does memblock manage exactly the RAM the device tree describes? */
static void board_memory_matches_memblock(struct kunit *test)
{
	u64 sum = 0;

	for (int i = 0; i < board.nr_mem; i++)
		sum += board.mem[i].size;
	KUNIT_EXPECT_GT(test, board.nr_mem, 0);
	KUNIT_EXPECT_EQ(test, memblock_total(), sum);
}

/* Did the kernel find its console and read the command line it runs with? */
static void board_console_and_cmdline(struct kunit *test)
{
	struct console *con = console_first();

	KUNIT_ASSERT_NOT_NULL(test, con);
	KUNIT_EXPECT_NE(test, con->base, 0);
	KUNIT_EXPECT_TRUE(test, cmdline_has(boot_command_line, "test"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(boot_command_line, "test="));
}

/* Does a message reach the log ring, after a timestamp, in order? */
static void printk_reaches_log(struct kunit *test)
{
	char tail[128];
	size_t n;

	pr_info("printk-probe %d\n", 4242);
	n = log_read(tail, sizeof(tail) - 1);
	tail[n] = '\0';
	KUNIT_EXPECT_NOT_NULL(test, strstr(tail, "] printk-probe 4242\n"));
}

/* Does the counter run at the advertised, non-zero frequency? */
static void timer_counter_advances(struct kunit *test)
{
	u64 a = ktime_get_ns(), b;

	KUNIT_EXPECT_GT(test, arch_timer_get_freq(), 0);
	udelay(1000);
	b = ktime_get_ns();
	KUNIT_EXPECT_GE(test, b - a, 1000 * NSEC_PER_USEC);
}

/* Do addresses map back to the functions they are in? */
static void kallsyms_resolves(struct kunit *test)
{
	u64 off, size, addr = (u64)kallsyms_resolves;
	const char *name = kallsyms_lookup(addr + 4, &off, &size);
	char buf[64];

	KUNIT_ASSERT_NOT_NULL(test, name);
	KUNIT_EXPECT_STREQ(test, name, "kallsyms_resolves");
	KUNIT_EXPECT_EQ(test, off, 4);
	KUNIT_EXPECT_EQ(test, kallsyms_lookup_name("start_kernel"),
			(u64)start_kernel);
	sprint_symbol(buf, sizeof(buf), (u64)start_kernel + 8);
	KUNIT_EXPECT_EQ(test, strncmp(buf, "start_kernel+0x8/", 17), 0);
}

static const struct kunit_case boot_cases[] = {
	KUNIT_CASE(board_lists_boot_cpu),
	KUNIT_CASE(board_memory_matches_memblock),
	KUNIT_CASE(board_console_and_cmdline),
	KUNIT_CASE(printk_reaches_log),
	KUNIT_CASE(timer_counter_advances),
	KUNIT_CASE(kallsyms_resolves),
	{},
};

static const struct kunit_suite boot_suite = {"boot", boot_cases};
kunit_test_suite(boot_suite);
