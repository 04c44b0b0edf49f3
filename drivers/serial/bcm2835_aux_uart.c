/*
 * BCM2835 auxiliary "mini UART" (UART1): the console of the Raspberry Pi
 * 3 and 4 as their device trees describe them, on GPIO 14/15 while the
 * PL011 drives Bluetooth. Transmit by polling, receive by interrupt. The
 * baud rate is the firmware's: its divisor counts VPU core clock cycles,
 * which only the firmware knows (enable_uart=1, core_freq=250 on the Pi 3).
 */
#define pr_fmt(fmt) "bcm2835-aux-uart: " fmt
#include <asm/io.h>
#include <asm/pgtable.h>
#include <kernel/console.h>
#include <kernel/devicetree.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <lib/errno.h>

/*
 * The UART's registers start 0x40 into the aux block (BCM2835 ARM
 * Peripherals, 2.1), which also holds the two SPI masters and the
 * enable bits of all three; the tree's reg names the UART's part only.
 */
#define AUX_ENABLES 0x04
#define AUX_ENABLES_MU (1 << 0)
#define AUX_MU_OFFSET 0x40

/* The UART's registers, from AUX_MU_OFFSET. */
#define AUX_MU_IO 0x00
#define AUX_MU_IER 0x04
/*
 * Bit 0 enables the receive interrupt (the datasheet swaps bits 0 and 1;
 * its errata and Linux's 8250 driver agree on 0). Bits 3:2, "don't care"
 * in the datasheet, must be set for the interrupt to reach the
 * controller on hardware (the errata again); QEMU ignores them. Never
 * bit 1: the transmit interrupt stays raised while the FIFO is empty,
 * which is always, with a polled transmitter.
 */
#define AUX_MU_IER_RX (1 << 0)
#define AUX_MU_IER_ERRATA (3 << 2)
#define AUX_MU_LCR 0x0c
#define AUX_MU_LCR_8BIT 0x3 /* bit 1 is needed too (errata), despite docs */
#define AUX_MU_LSR 0x14
#define AUX_MU_LSR_DATA_READY (1 << 0)
#define AUX_MU_LSR_TX_EMPTY (1 << 5) /* room for one more character */
#define AUX_MU_CNTL 0x20
#define AUX_MU_CNTL_RX_TX 0x3

struct aux_uart {
	void *aux; /* the aux block */
	void *base; /* the UART's registers, AUX_MU_OFFSET into it */
	struct console con;
	struct dt_irq irq_spec;
	bool has_irq;
};

/* One is enough: the kernel has one console UART. */
static struct aux_uart aux_uart_port;

static void aux_uart_putc(void *base, char c)
{
	while (!(readl_relaxed(base + AUX_MU_LSR) & AUX_MU_LSR_TX_EMPTY))
		;
	writel_relaxed(c, base + AUX_MU_IO);
}

static void aux_uart_write(struct console *con, const char *s, size_t n)
{
	struct aux_uart *port = con->priv;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			aux_uart_putc(port->base, '\r');
		aux_uart_putc(port->base, s[i]);
	}
}

static int aux_uart_getc(struct console *con)
{
	struct aux_uart *port = con->priv;

	if (!(readl_relaxed(port->base + AUX_MU_LSR) & AUX_MU_LSR_DATA_READY))
		return -1;
	return readl_relaxed(port->base + AUX_MU_IO) & 0xff;
}

static void aux_uart_rx_interrupt(unsigned int irq, void *dev)
{
	struct aux_uart *port = dev;
	char buf[32];
	size_t n;

	/*
	 * Nothing to acknowledge: the line is a level, high while the
	 * receive FIFO holds a character, and reading AUX_MU_IO is what
	 * lowers it. So drain until empty; a character landing after the
	 * last read keeps the line up and the interrupt comes back, unlike
	 * the PL011's edge. The aux interrupt is shared with the two SPI
	 * masters, which no driver here enables: an empty FIFO is all an
	 * interrupt of theirs would find.
	 */
	do {
		n = 0;
		while (n < sizeof(buf) &&
		       (readl_relaxed(port->base + AUX_MU_LSR) &
			AUX_MU_LSR_DATA_READY))
			buf[n++] = readl_relaxed(port->base + AUX_MU_IO) & 0xff;
		console_receive(buf, n);
	} while (n == sizeof(buf));
}

static int aux_uart_enable_rx(struct console *con)
{
	struct aux_uart *port = con->priv;
	int err;

	if (!port->has_irq)
		return -ENODEV;
	err = request_dt_irq(&port->irq_spec, aux_uart_rx_interrupt,
			     "uart-miniuart", port);
	if (err)
		return err;
	writel_relaxed(AUX_MU_IER_RX | AUX_MU_IER_ERRATA,
		       port->base + AUX_MU_IER);
	return 0;
}

/*
 * The firmware turns the UART on with enable_uart=1 and sets its divisor.
 * If it did not, the block's reset state has the UART off and in 7-bit
 * mode: turn it on with 8 bits. The baud rate is then whatever the reset
 * divisor gives; returns false so the caller can say so.
 */
static bool aux_uart_enable(struct aux_uart *port)
{
	u32 enables = readl_relaxed(port->aux + AUX_ENABLES);
	bool was_on = enables & AUX_ENABLES_MU;
	void *base = port->base;

	if (!was_on) {
		writel_relaxed(enables | AUX_ENABLES_MU,
			       port->aux + AUX_ENABLES);
		writel_relaxed(AUX_MU_LCR_8BIT, base + AUX_MU_LCR);
	}
	if ((readl_relaxed(base + AUX_MU_CNTL) & AUX_MU_CNTL_RX_TX) !=
	    AUX_MU_CNTL_RX_TX)
		writel_relaxed(AUX_MU_CNTL_RX_TX, base + AUX_MU_CNTL);
	return was_on;
}

static int aux_uart_probe(const struct dt_device *dev)
{
	struct aux_uart *port = &aux_uart_port;
	bool was_on;

	if (dev->nr_reg < 1 || dev->reg[0].base < AUX_MU_OFFSET)
		return -EINVAL;
	/* From the block's start: AUX_ENABLES lies before the UART's reg. */
	port->aux = ioremap(dev->reg[0].base - AUX_MU_OFFSET,
			    AUX_MU_OFFSET + dev->reg[0].size);
	if (!port->aux)
		return -ENOMEM;
	port->base = port->aux + AUX_MU_OFFSET;
	was_on = aux_uart_enable(port); /* first: an off UART ignores writes */
	writel_relaxed(0, port->base + AUX_MU_IER); /* until enable_rx */
	port->has_irq = !dt_read_irq(dev->node, 0, &port->irq_spec);
	port->con.name = "miniuart";
	port->con.base = dev->reg[0].base;
	port->con.write = aux_uart_write;
	port->con.getc = aux_uart_getc;
	port->con.enable_rx = aux_uart_enable_rx;
	port->con.priv = port;
	register_console(&port->con);
	if (!was_on)
		pr_warn("was off (no enable_uart=1 in config.txt?): turned on, "
			"baud rate not set\n");
	return 0;
}

static const char *const aux_uart_compat[] = {"brcm,bcm2835-aux-uart", NULL};
DT_DRIVER(bcm2835_aux_uart, DT_CLASS_CONSOLE, aux_uart_compat, aux_uart_probe,
	  console_describe);
