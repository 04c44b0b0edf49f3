/*
 * The monitor shell on the console: reads a line (typed characters are
 * echoed; backspace, ^U and ^C edit), splits it into words and runs the
 * command. Bad input (an unknown command, a line too long, binary bytes)
 * gets a message and the shell goes on.
 */
#define pr_fmt(fmt) fmt
#include <kernel/board.h>
#include <kernel/console.h>
#include <kernel/fault.h>
#include <kernel/params.h>
#include <kernel/cpu.h>
#include <kernel/devicetree.h>
#include <kernel/percpu.h>
#include <kernel/irq.h>
#include <kernel/mm.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/reboot.h>
#include <kernel/sched.h>
#include <kernel/shell.h>
#include <kernel/timer.h>
#include <lib/printf.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX 128
#define MAX_ARGS 8
#define PROMPT "hpk> "

extern const struct shell_cmd __shell_cmds_start[], __shell_cmds_end[];

static int cmd_help(int argc, char **argv)
{
	const struct shell_cmd *c;

	for (c = __shell_cmds_start; c < __shell_cmds_end; c++)
		pr_info("  %-10s %-16s %s\n", c->name, c->args ? c->args : "",
			c->help);
	return 0;
}
SHELL_CMD(help, NULL, "list the commands", cmd_help);

static void percent(char *buf, size_t len, u64 part, u64 whole)
{
	u64 tenths = whole ? part * 1000 / whole : 0;

	snprintf(buf, len, "%llu.%llu%%", (unsigned long long)tenths / 10,
		 (unsigned long long)tenths % 10);
}

static const char *phase_name(unsigned int cpu)
{
	static const char *const names[] = {
		[CPUHP_PHASE_OFF] = "off",
		[CPUHP_PHASE_COMING_UP] = "coming-up",
		[CPUHP_PHASE_ONLINE] = "online",
		[CPUHP_PHASE_GOING_DOWN] = "going-down",
		[CPUHP_PHASE_UNCONFIRMED] = "unconfirmed",
		[CPUHP_PHASE_STOPPED] = "stopped",
	};

	return names[cpuhp_phase(cpu)];
}

static int cmd_cpus(int argc, char **argv)
{
	struct sched_cpu_stats st;
	char idle[16], mpidr[20];

	pr_info("CPU        MPIDR STATE      THREAD           TICKS TICK    "
		"IDLE   PERCPU-AREA\n");
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		bool on = cpu_online(cpu);

		sched_cpu_stats(cpu, &st);
		percent(idle, sizeof(idle), st.idle_ns,
			st.idle_ns + st.busy_ns);
		snprintf(mpidr, sizeof(mpidr), "0x%llx",
			 (unsigned long long)cpu_logical_map(cpu));
		pr_info("%3u %12s %-10s %-16s %5llu %-7s %6s %p\n", cpu, mpidr,
			phase_name(cpu), on && st.curr ? st.curr->comm : "-",
			(unsigned long long)tick_count_cpu(cpu),
			!on		    ? "-"
			: tick_stopped(cpu) ? "stopped"
					    : "on",
			idle, percpu_area(cpu));
	}
	return 0;
}
SHELL_CMD(cpus, NULL, "CPUs: MPIDR, state, running thread, ticks, idle share",
	  cmd_cpus);

static int cmd_threads(int argc, char **argv)
{
	show_threads();
	return 0;
}
SHELL_CMD(threads, NULL, "kernel threads", cmd_threads);

static int cmd_mem(int argc, char **argv)
{
	mem_print_stats();
	return 0;
}
SHELL_CMD(mem, NULL, "page allocator and kmalloc figures", cmd_mem);

static int cmd_dt(int argc, char **argv)
{
	board_print();
	dt_describe_devices();
	return 0;
}
SHELL_CMD(dt, NULL, "the board description and each bound driver's node",
	  cmd_dt);

static int cmd_params(int argc, char **argv)
{
	params_print();
	faults_print();
	return 0;
}
SHELL_CMD(params, NULL, "command-line words, their values, and fault points",
	  cmd_params);

static int cmd_irqs(int argc, char **argv)
{
	show_interrupts();
	return 0;
}
SHELL_CMD(irqs, NULL, "interrupts and their per-CPU counts", cmd_irqs);

static int cmd_log(int argc, char **argv)
{
	static char buf[LOG_BUF_LEN];
	unsigned long n = 4096;
	size_t got;

	if (argc > 1)
		n = strtoul(argv[1], NULL, 0);
	got = log_read(buf, min(n, sizeof(buf)));
	console_write(buf, got);
	return 0;
}
SHELL_CMD(log, "[BYTES]", "the end of the kernel log ring", cmd_log);

static int cmd_poweroff(int argc, char **argv)
{
	machine_power_off();
}
SHELL_CMD(poweroff, NULL, "power the machine off", cmd_poweroff);

/* Split line into words at spaces and tabs; -1 if there are too many. */
static int split(char *line, char **argv)
{
	int argc = 0;

	for (char *p = line; *p;) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			break;
		if (argc == MAX_ARGS)
			return -1;
		argv[argc++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	return argc;
}

int shell_run_line(char *line)
{
	const struct shell_cmd *c;
	char *argv[MAX_ARGS];
	int argc = split(line, argv);

	if (argc < 0) {
		pr_info("error: more than %d words\n", MAX_ARGS);
		return -1;
	}
	if (!argc)
		return 0;
	for (c = __shell_cmds_start; c < __shell_cmds_end; c++)
		if (!strcmp(c->name, argv[0]))
			return c->fn(argc, argv);
	pr_info("error: unknown command '%s' (try 'help')\n", argv[0]);
	return -1;
}

struct line_state {
	char buf[LINE_MAX];
	size_t len;
	bool too_long;
	unsigned int binary;
};

static void echo(const char *s)
{
	console_write(s, strlen(s));
}

/* Feed one character; true when a whole line is ready in ls->buf. */
static bool line_feed(struct line_state *ls, int c)
{
	switch (c) {
	case '\r':
	case '\n':
		echo("\n");
		ls->buf[ls->len] = '\0';
		return true;
	case 0x08: /* backspace */
	case 0x7f: /* delete */
		if (ls->len) {
			ls->len--;
			echo("\b \b");
		}
		return false;
	case 0x15: /* ^U: kill the line */
	case 0x03: /* ^C */
		ls->len = 0;
		ls->too_long = false;
		echo(c == 0x03 ? "^C\n" PROMPT : "\n" PROMPT);
		return false;
	}
	if (c < 0x20 || c > 0x7e) {
		ls->binary++;
	} else if (ls->len == LINE_MAX - 1) {
		ls->too_long = true;
	} else {
		char s[2] = {(char)c, 0};

		ls->buf[ls->len++] = (char)c;
		echo(s);
	}
	return false;
}

static int shell_getchar(struct console *con, bool irq_rx)
{
	int c;

	if (irq_rx)
		return console_getchar();
	while ((c = con->getc(con)) < 0) /* no receive interrupt: poll */
		msleep(10);
	return c;
}

static int shell_thread(void *arg)
{
	struct console *con = console_first();
	bool irq_rx = con && con->enable_rx && !con->enable_rx(con);
	struct line_state ls = {0};

	if (!con || !con->getc)
		return pr_err("shell: no console to read\n"), 0;
	if (!irq_rx)
		pr_warn("shell: no receive interrupt, polling the UART\n");
	echo(PROMPT);
	for (;;) {
		if (!line_feed(&ls, shell_getchar(con, irq_rx)))
			continue;
		if (ls.binary)
			pr_info("error: ignored %u non-printable byte(s)\n",
				ls.binary);
		if (ls.too_long)
			pr_info("error: line too long (at most %d "
				"characters)\n",
				LINE_MAX - 1);
		else
			shell_run_line(ls.buf);
		ls = (struct line_state){0};
		echo(PROMPT);
	}
	return 0;
}

void shell_start(void)
{
	if (!kthread_run(shell_thread, NULL, "shell"))
		pr_err("shell: cannot start its thread\n");
}
