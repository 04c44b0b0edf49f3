/*
 * The trace ring: 2^n entries that the recording CPU overwrites oldest
 * first, read by any CPU without stopping the writer.
 *
 * head counts the entries ever written; entry i lives in slot i & mask.
 * The writer stores head = i (ending entry i - 1) before it touches slot
 * i & mask for entry i, so a reader that copied a slot and then still
 * sees head < i + entries knows no later entry was written over it: a
 * seqcount per ring, with head as the count. Copies that fail the check
 * count as lost, as do entries overwritten before the read. So a ring of
 * 2^n slots keeps 2^n - 1 readable entries.
 */
#include <asm/barrier.h>
#include <kernel/trace.h>
#include <string.h>

void trace_ring_write(struct trace_ring *r, const struct trace_entry *e)
{
	u64 h = r->head;

	/* head = h before the slot changes: paired with trace_ring_read()'s
	 * smp_rmb(), which rereads head after copying. */
	smp_wmb();
	r->slots[h & r->mask] = *e;
	/* The slot before the new head: paired with the acquire below. */
	smp_store_release(&r->head, h + 1);
}

unsigned int trace_ring_read(struct trace_ring *r, struct trace_entry *out,
			     unsigned int max, u64 *lost)
{
	u64 head = smp_load_acquire(&r->head);
	u64 base = min(READ_ONCE(r->base), head);
	u64 size = r->mask + 1, from = base, ok, i;
	unsigned int n = 0, skip;

	/* The slot the writer fills next may be changing: not readable. */
	if (head - from > size - 1)
		from = head - (size - 1);
	if (head - from > max)
		from = head - max;
	for (i = from; i < head; i++)
		out[n++] = r->slots[i & r->mask];
	smp_rmb(); /* copies before head: paired with trace_ring_write() */
	/* The writer may be rewriting entry head - size's slot right now. */
	ok = READ_ONCE(r->head) + 1;
	ok = ok > size ? ok - size : 0;
	skip = ok > from ? (unsigned int)min(ok - from, (u64)n) : 0;
	memmove(out, out + skip, (n - skip) * sizeof(*out));
	*lost = from - base + skip;
	return n - skip;
}
