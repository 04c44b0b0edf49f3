/*
 * The types lockdep adds to every lock and thread (kernel/debug/lockdep.c),
 * apart so that spinlock_types.h and task.h can embed them. Without
 * CONFIG_PROVE_LOCKING each is an empty struct: a lock and a thread are
 * as big as without lockdep, and nothing reads them.
 */
#ifndef KERNEL_LOCKDEP_TYPES_H
#define KERNEL_LOCKDEP_TYPES_H

#include <lib/types.h>

/*
 * A lock class's identity: the address of a static key. spin_lock_init()
 * and friends declare one per call site; a lock defined statically with
 * no key is its own class, named by its symbol. Subclasses (nesting two
 * locks of one class in a fixed order, spin_lock_nested()) are 0..7.
 */
#define MAX_LOCKDEP_SUBCLASSES 8

#ifdef CONFIG_PROVE_LOCKING
struct lock_class_key {
	char subkeys[MAX_LOCKDEP_SUBCLASSES];
};

struct lockdep_map {
	const struct lock_class_key *key; /* NULL: the map's own address */
	const char *name;
	const void *owner; /* a completion's: the thread that set it up */
};
#define LOCKDEP_MAP_INIT(n)                             \
	{                                               \
		.key = NULL, .name = (n), .owner = NULL \
	}

#define MAX_LOCK_DEPTH 24
struct held_lock {
	const struct lockdep_map *instance;
	unsigned long acquire_ip;
	u16 class_idx;
	u8 irq_context; /* 1: taken in hardirq context */
	u8 trylock;
};

/* Per thread: the locks it holds, innermost last. */
struct lockdep_task {
	unsigned int depth;
	unsigned int recursion; /* inside lockdep itself: track nothing */
	struct held_lock held[MAX_LOCK_DEPTH];
};
#else
struct lock_class_key {};
struct lockdep_map {};
#define LOCKDEP_MAP_INIT(n) \
	{                   \
	}
struct lockdep_task {};
#endif

#endif
