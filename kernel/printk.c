/*
 * printk: formats a message, stamps each line with the time since the
 * counter started, keeps it in the log ring (read later by `log` and by
 * the GDB helper hp-log) and writes it to every registered console whose
 * level allows.
 *
 * One lock serialises the ring and the consoles, so lines from different
 * CPUs never interleave mid-line. A CPU that faults while holding it (or
 * any CPU during a panic) must not wait for it: oops_in_progress makes
 * printk try the lock briefly and then print anyway.
 */
#include <kernel/console.h>
#include <kernel/devicetree.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <lib/printf.h>
#include <string.h>

char log_buf[LOG_BUF_LEN];
u64 log_head;
int console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;
bool oops_in_progress;

static DEFINE_SPINLOCK(printk_lock);
static LIST_HEAD(consoles);
static bool at_line_start = true;
static int cur_level = LOGLEVEL_DEFAULT;

static void log_store(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		log_buf[(log_head + i) % LOG_BUF_LEN] = s[i];
	log_head += n;
}

size_t log_read(char *buf, size_t len)
{
	u64 head = READ_ONCE(log_head);
	size_t n = min((u64)len, min(head, (u64)LOG_BUF_LEN));

	for (size_t i = 0; i < n; i++)
		buf[i] = log_buf[(head - n + i) % LOG_BUF_LEN];
	return n;
}

static void consoles_write(const char *s, size_t n)
{
	struct console *con;

	if (cur_level >= console_loglevel)
		return;
	list_for_each_entry (con, &consoles, node)
		con->write(con, s, n);
}

static void emit(const char *s, size_t n)
{
	log_store(s, n);
	consoles_write(s, n);
}

/* Split the text into lines and stamp each new one with the time. */
static void emit_lines(const char *text)
{
	char stamp[32];
	u64 ns;

	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text + 1) : strlen(text);

		if (at_line_start) {
			ns = ktime_get_ns();
			emit(stamp,
			     scnprintf(stamp, sizeof(stamp), "[%5llu.%06llu] ",
				       ns / 1000000000ULL,
				       ns % 1000000000ULL / 1000));
		}
		emit(text, n);
		at_line_start = nl != NULL;
		text += n;
	}
}

/* Parse KERN_* prefixes; returns the text after them. */
static const char *parse_level(const char *fmt, int *level, bool *cont)
{
	*level = LOGLEVEL_DEFAULT;
	*cont = false;
	while (fmt[0] == KERN_SOH[0] && fmt[1]) {
		if (fmt[1] == 'c')
			*cont = true;
		else if (fmt[1] >= '0' && fmt[1] <= '7')
			*level = fmt[1] - '0';
		fmt += 2;
	}
	return fmt;
}

static bool printk_lock_get(unsigned long *flags)
{
	local_irq_save(*flags);
	if (!READ_ONCE(oops_in_progress)) {
		spin_lock(&printk_lock);
		return true;
	}
	for (int i = 0; i < 1000000; i++)
		if (spin_trylock(&printk_lock))
			return true;
	return false; /* print unlocked rather than not at all */
}

int vprintk(const char *fmt, va_list ap)
{
	char text[512];
	unsigned long flags;
	int level, n;
	bool cont, locked;

	fmt = parse_level(fmt, &level, &cont);
	n = vscnprintf(text, sizeof(text), fmt, ap);
	locked = printk_lock_get(&flags);
	if (!cont && !at_line_start)
		emit_lines("\n");
	if (!cont)
		cur_level = level;
	emit_lines(text);
	if (locked)
		spin_unlock(&printk_lock);
	local_irq_restore(flags);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

/* Write to the consoles only, not the log (the shell's echo and prompt). */
void console_write(const char *s, size_t n)
{
	unsigned long flags;
	bool locked = printk_lock_get(&flags);
	struct console *con;

	list_for_each_entry (con, &consoles, node)
		con->write(con, s, n);
	if (locked)
		spin_unlock(&printk_lock);
	local_irq_restore(flags);
}

void register_console(struct console *con)
{
	static char replay[LOG_BUF_LEN];
	unsigned long flags;
	size_t n;

	spin_lock_irqsave(&printk_lock, flags);
	n = log_read(replay, sizeof(replay));
	con->write(con, replay, n);
	list_add_tail(&con->node, &consoles);
	spin_unlock_irqrestore(&printk_lock, flags);
}

struct console *console_first(void)
{
	if (list_empty(&consoles))
		return NULL;
	return list_first_entry(&consoles, struct console, node);
}

void console_describe(const struct dt_device *dev)
{
	printk(KERN_INFO "uart: %s at %#llx (%s)\n", dev->compatible,
	       (unsigned long long)(dev->nr_reg ? dev->reg[0].base : 0),
	       dev->path);
}

extern const struct earlycon_id __earlycon_start[], __earlycon_end[];

struct console *earlycon_setup(const char *name, phys_addr_t base)
{
	const struct earlycon_id *id;

	for (id = __earlycon_start; id < __earlycon_end; id++)
		if (!strcmp(id->name, name))
			return id->setup(base);
	return NULL;
}
