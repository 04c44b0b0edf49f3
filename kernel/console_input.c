/*
 * Console input: the UART driver's receive interrupt puts characters in
 * a ring; the shell thread sleeps until there are some. A full ring drops
 * new characters rather than blocking the interrupt; the reader says how
 * many were lost.
 */
#define pr_fmt(fmt) "console: " fmt
#include <kernel/console.h>
#include <kernel/printk.h>
#include <kernel/wait.h>

#define RX_RING 256 /* a power of two */

static struct {
	spinlock_t lock; /* guards head, tail and buf */
	char buf[RX_RING];
	unsigned int head, tail;
	u64 dropped, reported;
} rx = {.lock = __SPIN_LOCK_UNLOCKED(rx.lock)};
static DECLARE_WAIT_QUEUE_HEAD(rx_wait);

void console_receive(const char *s, size_t n)
{
	unsigned long flags;

	spin_lock_irqsave(&rx.lock, flags);
	for (size_t i = 0; i < n; i++) {
		if (rx.head - rx.tail == RX_RING) {
			rx.dropped += n - i;
			break;
		}
		rx.buf[rx.head++ % RX_RING] = s[i];
	}
	spin_unlock_irqrestore(&rx.lock, flags);
	wake_up(&rx_wait);
}

static int take(void)
{
	unsigned long flags;
	int c = -1;

	spin_lock_irqsave(&rx.lock, flags);
	if (rx.head != rx.tail)
		c = (unsigned char)rx.buf[rx.tail++ % RX_RING];
	spin_unlock_irqrestore(&rx.lock, flags);
	return c;
}

int console_getchar(void)
{
	unsigned long flags;
	u64 lost;
	int c;

	wait_event_interruptible(rx_wait, (c = take()) >= 0);
	spin_lock_irqsave(&rx.lock, flags);
	lost = rx.dropped - rx.reported;
	rx.reported = rx.dropped;
	spin_unlock_irqrestore(&rx.lock, flags);
	if (lost)
		pr_warn("%llu typed character(s) lost: the input ring (%d) "
			"was full\n",
			(unsigned long long)lost, RX_RING);
	return c;
}
