/*
 * Between the reader designs of kernel/bench/designs/: the designs
 * themselves, and the global reader-writer lock that percpu_rwsem's slow
 * path shares with the rwlock design.
 */
#ifndef KERNEL_BENCH_DESIGNS_H
#define KERNEL_BENCH_DESIGNS_H

#include <kernel/hotplug_sync.h>

extern const struct hotplug_sync_ops rwlock_design, percpu_rwsem_design,
	stop_machine_design, rcu_design;

bool rw_try_read(void);
void rw_read_unlock(void);
void rw_write_lock(void);
void rw_write_unlock(void);
void rw_wait_writer(void); /* until no writer holds the lock */
bool rw_idle(void);

#endif
