/*
 * start_kernel(): the boot CPU's path from "MMU on, running at the
 * kernel's virtual address" to a running system. Each step needs the ones
 * before it: the device tree before the console (it names the UART), the
 * console before anything worth reading, memory before the drivers that
 * allocate.
 */
#include <asm/barrier.h>
#include <asm/entry.h>
#include <asm/memory.h>
#include <asm/pgtable.h>
#include <asm/sections.h>
#include <asm/sysreg.h>
#include <asm/vmap_stack.h>
#include <kernel/bench.h>
#include <kernel/hotplug_sync.h>
#include <kernel/board.h>
#include <kernel/clockevents.h>
#include <kernel/console.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/cpuhp.h>
#include <kernel/cpuidle.h>
#include <kernel/devicetree.h>
#include <kernel/fault.h>
#include <kernel/governor.h>
#include <kernel/irq.h>
#include <kernel/kasan.h>
#include <kernel/kcsan.h>
#include <kernel/kunit.h>
#include <kernel/lkdtm.h>
#include <kernel/mm.h>
#include <kernel/panic.h>
#include <kernel/params.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/reboot.h>
#include <kernel/psci.h>
#include <kernel/stackprotector.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/shell.h>
#include <kernel/smp.h>
#include <kernel/start_kernel.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/trace.h>
#include <lib/kernel.h>

#ifndef KERNEL_VERSION
#define KERNEL_VERSION "unknown"
#endif
#ifndef FALLBACK_UART_BASE
#define FALLBACK_UART_BASE 0x09000000 /* QEMU virt's PL011 */
#endif

static unsigned long loglevel = 7;
param_ulong("loglevel", loglevel, 0, 8,
	    "N: console log level 0-8 (default 7: all but debug)");

/*
 * Without a usable device tree there is no console to be found: say why
 * on the fallback UART (the one QEMU virt has, FALLBACK_UART_BASE) and
 * stop. The message is in the log ring for a debugger either way.
 */
static __noreturn void boot_failed(const char *why)
{
	struct console *con = earlycon_setup("pl011", FALLBACK_UART_BASE);

	if (con)
		register_console(con);
	pr_emerg("Cannot boot: %s.\n", why);
	machine_halt();
}

static void console_init(void)
{
	struct dt_device uart;

	if (board.stdout_node < 0)
		boot_failed("no console: /chosen has no usable stdout-path");
	if (!dt_probe_node(board.stdout_node, DT_CLASS_CONSOLE))
		return;
	dt_device_init(board.stdout_node, &uart);
	pr_emerg("no driver for the console %s (%s)\n", board.stdout_path,
		 uart.compatible);
	boot_failed("no console");
}

static void memory_init(void)
{
	u64 dtb_size = board.dtb_size;

	for (int i = 0; i < board.nr_mem; i++) {
		memblock_add(board.mem[i].base, board.mem[i].size);
		if (paging_map_ram(board.mem[i].base, board.mem[i].size))
			pr_err("memory %#llx+%#llx not mapped\n",
			       (unsigned long long)board.mem[i].base,
			       (unsigned long long)board.mem[i].size);
	}
	memblock_reserve(board.kimage_pa, board.kimage_size);
	memblock_reserve(board.dtb_pa, dtb_size);
	for (int i = 0; i < board.nr_reserved; i++)
		memblock_reserve(board.reserved[i].base,
				 board.reserved[i].size);
	kasan_init(); /* its shadow from memblock, before the rest is free */
	mm_init();
}

static void print_banner(void)
{
	struct dt_device uart;
	struct mem_stats st;

	mem_get_stats(&st);
	pr_info("hotplug kernel %s\n", KERNEL_VERSION);
	pr_info("Entered at EL%d, running at EL1\n", board.entry_el);
	pr_info("Kernel: physical %#llx, virtual %#lx, %llu KiB\n",
		(unsigned long long)board.kimage_pa, KIMAGE_VADDR,
		(unsigned long long)board.kimage_size / 1024);
	pr_info("Machine: %s\n",
		board.model[0] ? board.model : board.compatible);
	/* Which UART a board's stdout-path chose: a card's pins, or not. */
	dt_device_init(board.stdout_node, &uart);
	pr_info("Console: %s (%s)\n", uart.path, uart.compatible);
	pr_info("Memory: %llu MiB in %d range(s), %llu KiB free\n",
		(unsigned long long)(memblock_total() >> 20), board.nr_mem,
		(unsigned long long)(st.free_pages * PAGE_SIZE / 1024));
	pr_info("CPUs: %d\n", board.nr_cpus);
	for (int i = 0; i < board.nr_cpus; i++)
		pr_info("  cpu%d: MPIDR 0x%llx, enable-method %s\n", i,
			(unsigned long long)board.cpus[i].mpidr,
			enable_method_name(board.cpus[i].method));
	psci_print_info();
	irqchip_print_info();
	tick_print_info();
	cpuidle_print_info();
	pr_info("Command line: %s\n", boot_command_line);
}

/*
 * What the boot used, once every CPU is up: tools/nr_cpus_cost.py reads
 * this line to hold builds for different NR_CPUS against each other. No
 * drain of kmalloc's per-CPU caches first: a call to every CPU is slow
 * at hundreds of CPUs, and at boot the caches hold a few pages at most.
 */
static void print_boot_memory(void)
{
	struct mem_stats st;

	mem_get_stats(&st);
	pr_info("Memory: %llu KiB free after boot, %llu KiB reserved, "
		"%zu bytes of CPU arrays (%u CPUs, NR_CPUS %u)\n",
		(unsigned long long)(st.free_pages * PAGE_SIZE / 1024),
		(unsigned long long)(st.reserved_pages * PAGE_SIZE / 1024),
		cpu_arrays_bytes(), nr_cpu_ids, NR_CPUS);
}

/*
 * The interrupt controller, the timer on it, and the boot CPU's tick.
 * Each failure is printed and the boot goes on without what it lost.
 */
static void interrupts_init(void)
{
	timers_init(); /* first: timer lists exist even with no tick */
	if (irqchip_init())
		return;
	clockevents_init();
	irqchip->cpu_init();
	tick_cpu_start();
	local_irq_enable();
}

/*
 * The first thread: brings the other CPUs up, then does what the command
 * line asks (a deliberate fault, tests, power-off) or starts the shell.
 */
static int kernel_init(void *unused)
{
	trace_init(); /* before smp_init(): the boot's CPU ups are traced */
	rcu_stall_init();
	hotplug_designs_init(); /* hotplug.sync= (BENCH=1) */
	cpuhp_boot_cpu_online();
	rcu_spawn_cpu_thread(0);
	hung_task_init();
	smp_init();
	cpuidle_boot_done();
	print_boot_memory();
	/* What the command line asks for once the CPUs are up, in order. */
	lkdtm_boot(); /* lkdtm= */
	kunit_boot(); /* test= */
	stress_boot(); /* stress= */
	rcu_torture_boot(); /* torture= */
	bench_boot(); /* bench= */
	governor_boot(); /* power.model=, policy= */
	power_runs_boot(); /* power=, power.strategies (make power) */
	governor_demo_boot(); /* demo (make run) */
	trace_boot_done(); /* trace.dump */
	kcsan_summary();
	if (poweroff_when_done)
		machine_power_off();
	pr_info("Boot complete.\n");
	shell_start();
	return 0;
}

void start_kernel(phys_addr_t dtb_pa, u32 entry_el, phys_addr_t kimage_pa)
{
	trap_init();
	paging_init_early(kimage_pa);
	board.entry_el = entry_el;
	board.kimage_pa = kimage_pa;
	board.kimage_size = _end - _text;
	board.dtb_pa = dtb_pa;
	if (dt_init(dtb_pa) || board_init(initial_boot_params))
		boot_failed("no valid device tree");
	parse_params(boot_command_line); /* warnings wait for the console */
	console_loglevel = (int)loglevel;
	boot_init_stack_canary(initial_boot_params);
	console_init();
	memory_init();
	smp_setup_cpu_maps();
	cpu_arrays_init(); /* sized by nr_cpu_ids: before their first use */
	vmap_stack_init(); /* guarded stacks: before the first thread */
	setup_per_cpu_areas();
	sched_init();
	rcu_init();
	dt_probe_class(DT_CLASS_FIRMWARE);
	dt_probe_class(DT_CLASS_POWER); /* after PSCI: SYSTEM_OFF wins */
	interrupts_init();
	smp_init_ipis();
	faults_init(boot_command_line); /* after the CPU maps and the timer */
	kcsan_init(); /* the stall needs the timer's rate */
	cpuidle_init(); /* libfdt: before other threads */
	print_banner();

	if (!kthread_run(kernel_init, NULL, "init"))
		panic("cannot start the init thread");
	/* The boot thread becomes CPU 0's idle thread. */
	cpu_startup_entry();
}
