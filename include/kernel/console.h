/* Consoles: where printk output goes and where the shell reads from. */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <lib/list.h>
#include <lib/types.h>

struct dt_device;

struct console {
	const char *name;
	phys_addr_t base; /* the UART's registers (tests map them) */
	/* Must work with interrupts off and from any CPU, even in a panic. */
	void (*write)(struct console *con, const char *s, size_t n);
	/* A received character, or -1 if none is waiting. */
	int (*getc)(struct console *con);
	/* Start receiving by interrupt (after the irqchip is up), or NULL. */
	int (*enable_rx)(struct console *con);
	void *priv;
	struct list_head node;
};

/* From a driver's receive interrupt: characters typed on the console. */
void console_receive(const char *s, size_t n);
/* Sleep until a character arrives (the shell); says if input was lost. */
int console_getchar(void);

/* Register con; everything already in the log ring is replayed to it. */
void register_console(struct console *con);
struct console *console_first(void);
/* Straight to the consoles, not the log: the shell's echo and prompt. */
void console_write(const char *s, size_t n);
/* A console driver's `dt` line: the UART's compatible, base and path. */
void console_describe(const struct dt_device *dev);

/*
 * Early consoles by name, for when the device tree cannot name one: a
 * driver offers setup(phys_base) through EARLYCON_DECLARE.
 */
struct earlycon_id {
	const char *name;
	struct console *(*setup)(phys_addr_t base);
};
#define EARLYCON_DECLARE(_name, _setup)                                      \
	static const struct earlycon_id __earlycon_##_name __used __section( \
		".earlycon") = {#_name, _setup}
struct console *earlycon_setup(const char *name, phys_addr_t base);

#endif
