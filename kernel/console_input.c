/*
 * Console input: the UART driver's receive interrupt puts characters in
 * a ring; the shell thread sleeps until there are some. A full ring drops
 * new characters (and counts them) rather than blocking the interrupt.
 */
#include <kernel/console.h>
#include <kernel/wait.h>

#define RX_RING 256 /* a power of two */

static struct {
	spinlock_t lock; /* guards head, tail and buf */
	char buf[RX_RING];
	unsigned int head, tail;
	u64 dropped;
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
	int c;

	wait_event_interruptible(rx_wait, (c = take()) >= 0);
	return c;
}

u64 console_rx_dropped(void)
{
	return READ_ONCE(rx.dropped);
}
