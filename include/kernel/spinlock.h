/*
 * Ticket spinlocks: fair (FIFO by ticket), with irq-saving variants.
 * Holding one disables preemption (so a holder is never switched out
 * while others spin, and a spinlock section is an RCU read-side section).
 *
 * next is taken with a relaxed fetch-add; the acquire is the load of owner
 * that sees our ticket (spin_trylock(): that sees the lock free), paired
 * with the store-release of owner in spin_unlock() by the previous holder.
 *
 * With lockdep (include/kernel/lockdep.h) each lock tells it of every
 * acquire before spinning, so a deadlock is reported instead of hung on;
 * arch_spin_*() are the raw lock that lockdep does not see.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <asm/barrier.h>
#include <asm/irqflags.h>
#include <kernel/lockdep.h>
#include <kernel/preempt.h>
#include <kernel/spinlock_types.h>
#include <lib/kernel.h>

static inline void __spin_lock_init(spinlock_t *lock, const char *name,
				    const struct lock_class_key *key)
{
	lock->owner = 0;
	lock->next = 0;
	lockdep_init_map(&lock->dep_map, name, key);
}

/* One lock class per call site, as in Linux. */
#ifdef CONFIG_PROVE_LOCKING
#define spin_lock_init(lock)                             \
	do {                                             \
		static struct lock_class_key __key;      \
		__spin_lock_init((lock), #lock, &__key); \
	} while (0)
#else
#define spin_lock_init(lock) __spin_lock_init((lock), NULL, NULL)
#endif

static inline void arch_spin_lock(spinlock_t *lock)
{
	u16 ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket)
		cpu_relax();
}

static __always_inline void spin_lock_nested(spinlock_t *lock,
					     unsigned int subclass)
{
	preempt_disable();
	lock_acquire(&lock->dep_map, subclass, false, _THIS_IP_);
	arch_spin_lock(lock);
}

static __always_inline void spin_lock(spinlock_t *lock)
{
	spin_lock_nested(lock, 0);
}

/*
 * The lock is free when next == owner: take ticket owner if next still
 * is. The acquire that orders us after the previous holder is the load
 * of owner, paired with the store-release in its spin_unlock(), as in
 * arch_spin_lock(): next is never written with release (fetch-add and
 * this CAS), so the CAS's acquire alone would pair with nothing. The CAS
 * succeeding means no ticket was taken since owner was read, so owner
 * has not moved: the lock was free, and we hold it.
 */
static inline bool arch_spin_trylock(spinlock_t *lock)
{
	u16 owner = __atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE);
	u16 expect = owner;

	return __atomic_compare_exchange_n(&lock->next, &expect,
					   (u16)(owner + 1), false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static __always_inline bool spin_trylock(spinlock_t *lock)
{
	preempt_disable();
	if (arch_spin_trylock(lock)) {
		lock_acquire(&lock->dep_map, 0, true, _THIS_IP_);
		return true;
	}
	preempt_enable();
	return false;
}

static inline void arch_spin_unlock(spinlock_t *lock)
{
	__atomic_store_n(&lock->owner, (u16)(lock->owner + 1),
			 __ATOMIC_RELEASE);
}

static __always_inline void spin_unlock(spinlock_t *lock)
{
	lock_release(&lock->dep_map, _THIS_IP_);
	arch_spin_unlock(lock);
	preempt_enable();
}

static inline bool spin_is_locked(spinlock_t *lock)
{
	return READ_ONCE(lock->owner) != READ_ONCE(lock->next);
}

#define spin_lock_irqsave(lock, flags) \
	do {                           \
		local_irq_save(flags); \
		spin_lock(lock);       \
	} while (0)

/* Interrupts back on before the preemption point, as in Linux. */
static __always_inline void spin_unlock_irqrestore(spinlock_t *lock,
						   unsigned long flags)
{
	lock_release(&lock->dep_map, _THIS_IP_);
	arch_spin_unlock(lock);
	local_irq_restore(flags);
	preempt_enable();
}

#endif
