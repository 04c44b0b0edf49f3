/*
 * Frame-pointer unwinding. Each frame record is {previous fp, return
 * address} at x29; the chain ends at a zero fp (set at every stack's
 * base). The walker only follows records that are mapped, aligned and
 * strictly further up the stack, so a corrupt chain cannot loop or fault.
 */
#include <asm/pgtable.h>
#include <asm/stacktrace.h>

#define MAX_DEPTH 64

static bool frame_readable(u64 fp)
{
	int level;

	return fp && (fp & 7) == 0 && fp >= KIMAGE_VADDR - LINEAR_MAP_SIZE &&
	       lookup_pte(fp, &level) && lookup_pte(fp + 8, &level);
}

void walk_stackframe(u64 fp, u64 pc, stack_trace_fn fn, void *cookie)
{
	for (int depth = 0; depth < MAX_DEPTH; depth++) {
		u64 next, lr;

		if (!fn(cookie, pc) || !frame_readable(fp))
			return;
		next = ((u64 *)fp)[0];
		lr = ((u64 *)fp)[1];
		if (!lr || (next && next <= fp))
			return;
		pc = lr;
		fp = next;
	}
}
