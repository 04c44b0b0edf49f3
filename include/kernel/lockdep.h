/*
 * lockdep (Linux's CONFIG_PROVE_LOCKING, simplified) and PROVE_RCU: lock
 * classes, the order in which classes are taken (a graph searched for a
 * cycle on each new edge), hardirq-safe/unsafe usage per class, the locks
 * each thread holds (lockdep_assert_held()), and checks that RCU-protected
 * pointers and other CPUs' per-CPU areas are used where they stay valid.
 * Every report is a splat in Linux's words, and the first one turns the
 * checker off (the graph may be inconsistent after it). Built with
 * `make LOCKDEP=1`; without it every hook here is an empty inline.
 */
#ifndef KERNEL_LOCKDEP_H
#define KERNEL_LOCKDEP_H

#include <kernel/lockdep_types.h>
#include <lib/kernel.h>

#define _RET_IP_ ((unsigned long)__builtin_return_address(0))
/* Where the code is: an inline lock function names its caller so. */
#define _THIS_IP_                        \
	({                               \
		__label__ __here;        \
	__here:                          \
		(unsigned long)&&__here; \
	})
#define SINGLE_DEPTH_NESTING 1

/* The hotplug lock as lockdep sees it: the writer (kernel/hotplug/core.c)
 * and the readers of every design (kernel/bench/designs/). */
extern struct lockdep_map cpu_hotplug_lock_map;

#ifdef CONFIG_PROVE_LOCKING
/* Still checking: no report yet, and room in the tables. */
extern bool debug_locks;
/* Reports printed since boot (tests read it). */
extern unsigned long lockdep_reports;

/*
 * might_sleep() (Linux's CONFIG_DEBUG_ATOMIC_SLEEP): the caller may
 * sleep here, so it must not be atomic (preemption or IRQs off, which
 * here is also an RCU read-side section), even when this call happens
 * not to sleep.
 */
void __might_sleep(const char *file, int line);
#define might_sleep() __might_sleep(__FILE__, __LINE__)
/* Stop checking for good (a panic), without a report. */
void debug_locks_off(void);
void lockdep_init_map(struct lockdep_map *map, const char *name,
		      const struct lock_class_key *key);
void lock_acquire(const struct lockdep_map *map, unsigned int subclass,
		  bool trylock, unsigned long ip);
void lock_release(const struct lockdep_map *map, unsigned long ip);
bool lock_is_held(const struct lockdep_map *map);
void lockdep_assert_held_failed(const struct lockdep_map *map, const char *what,
				const char *file, int line);
/*
 * The waiter's side and the completer's of a completion (wait.h): a wait
 * with lock A held while the completer takes A before complete() is a
 * deadlock, found as the cycle A -> completion -> A.
 */
void lock_wait_event(const struct lockdep_map *map, unsigned long ip);
void lock_signal_event(const struct lockdep_map *map, unsigned long ip);
/*
 * An event that CPUs signal, not threads (RCU's quiescent-state reports,
 * made at a context switch, a tick or an IPI whatever the thread holds):
 * its signaller's locks are not what the waiter waits for.
 */
void lockdep_cpu_event(struct lockdep_map *map);
/* The scheduler hands its run-queue lock from one thread to the next. */
void lockdep_switch_out(const struct lockdep_map *map);
void lockdep_switch_in(const struct lockdep_map *map);
/* "suspicious RCU usage": what, where. */
void lockdep_rcu_suspicious(const char *file, int line, const char *s);
/* Is an RCU read-side section (preemption or IRQs off) in force? */
bool rcu_read_lock_held(void);
/* May this thread use cpu's per-CPU area now (include/kernel/cpu.h)? */
void lockdep_percpu_check(unsigned int cpu, const char *file, int line);
/* Is the hotplug lock (cpu_add_remove_lock or the readers' lock) held? */
bool lockdep_cpus_held(void);

#define lockdep_is_held(l) lock_is_held(&(l)->dep_map)
#define lockdep_assert_held(l)                                          \
	do {                                                            \
		if (debug_locks && !lock_is_held(&(l)->dep_map))        \
			lockdep_assert_held_failed(&(l)->dep_map, #l,   \
						   __FILE__, __LINE__); \
	} while (0)
/* The hotplug lock (either of them), whose map is not at hand. */
#define lockdep_assert_cpus_held()                                           \
	do {                                                                 \
		if (debug_locks && !lockdep_cpus_held())                     \
			lockdep_assert_held_failed(NULL, "the hotplug lock", \
						   __FILE__, __LINE__);      \
	} while (0)
#define RCU_LOCKDEP_WARN(c, s)                                         \
	do {                                                           \
		if (unlikely(debug_locks && (c)))                      \
			lockdep_rcu_suspicious(__FILE__, __LINE__, s); \
	} while (0)
#define lockdep_percpu_ptr_check(cpu) \
	lockdep_percpu_check((cpu), __FILE__, __LINE__)
#else
/* Off: nothing is evaluated but what the caller would evaluate anyway. */
#define debug_locks_off() ((void)0)
#define might_sleep() ((void)0)
#define lockdep_init_map(map, name, key) \
	((void)(map), (void)(name), (void)(key))
#define lock_acquire(map, subclass, trylock, ip) ((void)(map), (void)(subclass))
#define lock_release(map, ip) ((void)(map))
#define lock_wait_event(map, ip) ((void)(map))
#define lock_signal_event(map, ip) ((void)(map))
#define lockdep_cpu_event(map) ((void)(map))
#define lockdep_switch_out(map) ((void)(map))
#define lockdep_switch_in(map) ((void)(map))
static inline bool rcu_read_lock_held(void)
{
	return true;
}
static inline bool lockdep_cpus_held(void)
{
	return true;
}
#define lockdep_is_held(l) ((void)(l), 1)
#define lockdep_assert_held(l) ((void)(l))
#define lockdep_assert_cpus_held() ((void)0)
#define RCU_LOCKDEP_WARN(c, s) ((void)0)
#define lockdep_percpu_ptr_check(cpu) ((void)0)
#endif

#endif
