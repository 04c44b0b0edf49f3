/* Walking the frame-pointer chain (every function keeps a frame record). */
#ifndef ASM_STACKTRACE_H
#define ASM_STACKTRACE_H

#include <lib/types.h>

/* Called with each return address, innermost first; false stops. */
typedef bool (*stack_trace_fn)(void *cookie, u64 pc);

void walk_stackframe(u64 fp, u64 pc, stack_trace_fn fn, void *cookie);

#endif
