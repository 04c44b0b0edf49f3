/*
 * Ticket spinlocks: fair (FIFO by ticket), with irq-saving variants.
 *
 * next is taken with a relaxed fetch-add; the acquire is the load of owner
 * that sees our ticket, paired with the store-release of owner in
 * spin_unlock() by the previous holder.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <asm/barrier.h>
#include <asm/irqflags.h>
#include <lib/kernel.h>

typedef struct {
	u16 owner;
	u16 next;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED \
	{                    \
		0, 0         \
	}
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED

static inline void spin_lock_init(spinlock_t *lock)
{
	lock->owner = 0;
	lock->next = 0;
}

static inline void spin_lock(spinlock_t *lock)
{
	u16 ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket)
		cpu_relax();
}

static inline bool spin_trylock(spinlock_t *lock)
{
	u16 owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	u16 expect = owner;

	return __atomic_compare_exchange_n(&lock->next, &expect,
					   (u16)(owner + 1), false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void spin_unlock(spinlock_t *lock)
{
	__atomic_store_n(&lock->owner, (u16)(lock->owner + 1),
			 __ATOMIC_RELEASE);
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

static inline void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	spin_unlock(lock);
	local_irq_restore(flags);
}

#endif
