/*
 * Host tests of include/kernel/spinlock.h, the kernel's own header built
 * for the host (tests/host/stub/ stands in for the arch and preemption
 * headers it includes), under ThreadSanitizer: a lock taken with
 * spin_trylock() must order its holder after the previous holder's
 * spin_unlock(), as spin_lock() does, or TSan reports the plain data the
 * two holders share as a data race.
 */
#include <kernel/spinlock.h>

#include "ktest_host.h"

#include <pthread.h>

/* Stop at the first report: the case then has no result, and fails. */
const char *__tsan_default_options(void)
{
	return "halt_on_error=1";
}

#define ROUNDS 100000

/* Does trylock take a free lock, refuse a held one, and keep the count? */
static void trylock_takes_only_a_free_lock(void)
{
	DEFINE_SPINLOCK(lock);

	KEXPECT(spin_trylock(&lock));
	KEXPECT(spin_is_locked(&lock));
	KEXPECT(!spin_trylock(&lock));
	spin_unlock(&lock);
	KEXPECT(!spin_is_locked(&lock));
	spin_lock(&lock);
	KEXPECT(!spin_trylock(&lock));
	spin_unlock(&lock);
	KEXPECT(spin_trylock(&lock));
	spin_unlock(&lock);
	KEXPECT_EQ(preempt_depth, 0);
}

/* Written under the lock with plain stores, read under it by the other. */
struct shared {
	spinlock_t lock;
	unsigned long a, b; /* equal whenever the lock is free */
	int done;
};

static void *locker(void *p)
{
	struct shared *s = p;

	for (unsigned long i = 1; i <= ROUNDS; i++) {
		spin_lock(&s->lock);
		s->a = i;
		s->b = i;
		spin_unlock(&s->lock);
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELAXED);
	return NULL;
}

/*
 * Does a holder that took the lock with spin_trylock() see everything the
 * previous holder (spin_lock()) wrote before its spin_unlock()? TSan
 * reports the read of a as racing with its write unless the trylock's
 * acquire pairs with the unlock's release.
 */
static void trylock_sees_the_previous_holders_writes(void)
{
	static struct shared s = {.lock = __SPIN_LOCK_UNLOCKED(s.lock)};
	unsigned long taken = 0, torn = 0;
	pthread_t t;

	KASSERT(!pthread_create(&t, NULL, locker, &s));
	/*
	 * The last round starts after the locker's last unlock, so at least
	 * one take follows its writes on any host, however scheduled; done
	 * is relaxed and the join comes after: only the lock orders them.
	 */
	for (int last = 0; !last;) {
		last = __atomic_load_n(&s.done, __ATOMIC_RELAXED);
		if (!spin_trylock(&s.lock))
			continue;
		torn += s.a != s.b;
		taken++;
		spin_unlock(&s.lock);
	}
	pthread_join(t, NULL);
	printf("# trylock took the lock %lu times\n", taken);
	KEXPECT(taken > 0);
	KEXPECT_EQ(torn, 0);
	KEXPECT_EQ(s.a, ROUNDS);
}

static const struct ktest_case cases[] = {
	KTEST(trylock_takes_only_a_free_lock),
	KTEST(trylock_sees_the_previous_holders_writes),
};

KTEST_MAIN(cases)
