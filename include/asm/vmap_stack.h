/* Kernel stacks above unmapped guards (arch/arm64/vmap_stack.c). */
#ifndef ASM_VMAP_STACK_H
#define ASM_VMAP_STACK_H

#include <lib/types.h>

void vmap_stack_init(void);
void *vmap_stack_alloc(void);
void vmap_stack_free(void *stack);
/* A thread's stack: from the cache of exited threads' stacks, or new. */
void *thread_stack_alloc(void);
/*
 * Into the cache (mapped, kept; 2 per CPU), or freed when it is full;
 * under KASAN through its stack quarantine first (kernel/debug/kasan.c).
 */
void thread_stack_free(void *stack);
/* Free every cached or quarantined stack (memory tests); how many. */
unsigned int thread_stack_cache_drain(void);
unsigned int vmap_stacks_in_use(void);
unsigned int vmap_stack_slots(void);
bool in_stack_guard(u64 addr);

#endif
