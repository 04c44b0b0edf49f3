/* The spinlock type alone, for headers that embed one (struct task_struct). */
#ifndef KERNEL_SPINLOCK_TYPES_H
#define KERNEL_SPINLOCK_TYPES_H

#include <lib/types.h>

typedef struct {
	u16 owner;
	u16 next;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED \
	{                    \
		0, 0         \
	}
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED

#endif
