/*
 * Arm PrimeCell PL011 UART: the console on QEMU virt and on Raspberry Pi
 * boards. Transmit by polling, so it works with interrupts off and in a
 * panic; the baud rate is left as the firmware or QEMU set it.
 */
#include <asm/io.h>
#include <asm/pgtable.h>
#include <kernel/console.h>
#include <kernel/devicetree.h>
#include <kernel/irq.h>
#include <lib/errno.h>
#include <kernel/printk.h>

#define UART_DR 0x00
#define UART_FR 0x18
#define UART_FR_RXFE (1 << 4)
#define UART_FR_TXFF (1 << 5)
#define UART_CR 0x30
#define UART_IMSC 0x38
#define UART_IMSC_RXIM (1 << 4)
#define UART_IMSC_RTIM (1 << 6) /* receive timeout: FIFO not empty, idle */
#define UART_ICR 0x44
#define UART_CR_EN (1 << 0)
#define UART_CR_TXE (1 << 8)
#define UART_CR_RXE (1 << 9)

struct pl011 {
	void *base;
	struct console con;
	struct dt_irq irq_spec;
	bool has_irq;
};

/* One is enough: the kernel has one console UART. */
static struct pl011 pl011_port;

static void pl011_putc(void *base, char c)
{
	while (readl_relaxed(base + UART_FR) & UART_FR_TXFF)
		;
	writel_relaxed(c, base + UART_DR);
}

static void pl011_write(struct console *con, const char *s, size_t n)
{
	struct pl011 *port = con->priv;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			pl011_putc(port->base, '\r');
		pl011_putc(port->base, s[i]);
	}
}

static int pl011_getc(struct console *con)
{
	struct pl011 *port = con->priv;

	if (readl_relaxed(port->base + UART_FR) & UART_FR_RXFE)
		return -1;
	return readl_relaxed(port->base + UART_DR) & 0xff;
}

static void pl011_rx_interrupt(unsigned int irq, void *dev)
{
	struct pl011 *port = dev;
	char buf[32];
	size_t n;

	/*
	 * Acknowledge first, then drain until empty: a character that lands
	 * after the last read raises the interrupt again. Acknowledging
	 * after the reads would lose that edge (QEMU raises RX only as the
	 * FIFO fills to its trigger level), and input would stop for good.
	 */
	writel_relaxed(UART_IMSC_RXIM | UART_IMSC_RTIM, port->base + UART_ICR);
	do {
		n = 0;
		while (n < sizeof(buf) &&
		       !(readl_relaxed(port->base + UART_FR) & UART_FR_RXFE))
			buf[n++] = readl_relaxed(port->base + UART_DR) & 0xff;
		console_receive(buf, n);
	} while (n == sizeof(buf));
}

static int pl011_enable_rx(struct console *con)
{
	struct pl011 *port = con->priv;
	int err;

	if (!port->has_irq)
		return -ENODEV;
	err = request_dt_irq(&port->irq_spec, pl011_rx_interrupt, "uart-pl011",
			     port);
	if (err)
		return err;
	writel_relaxed(UART_IMSC_RXIM | UART_IMSC_RTIM, port->base + UART_IMSC);
	return 0;
}

static struct console *pl011_setup(phys_addr_t base)
{
	struct pl011 *port = &pl011_port;

	port->base = ioremap(base, 0x1000);
	if (!port->base)
		return NULL;
	writel_relaxed(readl_relaxed(port->base + UART_CR) | UART_CR_EN |
			       UART_CR_TXE | UART_CR_RXE,
		       port->base + UART_CR);
	port->con.name = "pl011";
	port->con.base = base;
	port->con.write = pl011_write;
	port->con.getc = pl011_getc;
	port->con.enable_rx = pl011_enable_rx;
	port->con.priv = port;
	return &port->con;
}
EARLYCON_DECLARE(pl011, pl011_setup);

static int pl011_probe(const struct dt_device *dev)
{
	struct console *con = pl011_setup(dev->reg[0].base);

	if (!con)
		return -ENOMEM;
	pl011_port.has_irq = !dt_read_irq(dev->node, 0, &pl011_port.irq_spec);
	register_console(con);
	return 0;
}

static const char *const pl011_compat[] = {"arm,pl011", NULL};
DT_DRIVER(pl011, DT_CLASS_CONSOLE, pl011_compat, pl011_probe, console_describe);
