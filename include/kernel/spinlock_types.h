/* The spinlock type alone, for headers that embed one (struct task_struct). */
#ifndef KERNEL_SPINLOCK_TYPES_H
#define KERNEL_SPINLOCK_TYPES_H

#include <kernel/lockdep_types.h>
#include <lib/types.h>

typedef struct {
	u16 owner;
	u16 next;
	struct lockdep_map dep_map; /* empty without lockdep */
} spinlock_t;

/* Statically: its own lock class, named lockname for lockdep. */
#define __SPIN_LOCK_UNLOCKED(lockname)                                        \
	{                                                                     \
		.owner = 0, .next = 0, .dep_map = LOCKDEP_MAP_INIT(#lockname) \
	}
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

#endif
