/*
 * Kernel stacks in the vmap area, each above an unmapped guard, and the
 * per-CPU overflow stacks that the exception entry moves to when a stack
 * has run into its guard.
 *
 * The area is cut into slots of 2 * THREAD_SIZE, aligned to their size.
 * The lower half of a slot is never mapped (the guard), the upper half
 * holds the stack. So every stack pointer in use has bit THREAD_SHIFT
 * set, and one whose bit is clear has run off the bottom of its stack:
 * entry.S tests that one bit on every exception from EL1 and, when it is
 * clear, switches to this CPU's overflow stack and calls
 * handle_bad_stack() (traps.c), which names the thread and dies, instead
 * of faulting again and again on the guard. Linux does the same with the
 * stack in the lower half; the upper half lets the guard sit below it.
 *
 * The boot stack (head.S) has the same layout inside the kernel image;
 * its guard half is unmapped here once paging is up.
 */
#define pr_fmt(fmt) "vmap: " fmt
#include <asm/pgtable.h>
#include <asm/sections.h>
#include <asm/vmap_stack.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/kasan.h>
#include <kernel/mm.h>
#include <kernel/panic.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <kernel/task.h>

/*
 * Slots for 64 threads plus 8 per possible CPU (its idle, per-CPU and
 * overflow stacks with room to spare), in whole L3 tables of 64 slots.
 */
#define SLOTS_FOR(cpus) ALIGN(64 + 8 * (cpus), 64)
#define VMAP_STACK_END (VMAP_START + (u64)nr_slots * STACK_SLOT_SIZE)

static DEFINE_SPINLOCK(slot_lock);
static u64 *slot_map; /* nr_slots bits, set: slot in use */
static unsigned int nr_slots, slots_used;

/* Read by entry.S with the CPU's number when its stack overflowed. */
DEFINE_CPU_ARRAY(u64, overflow_stack_top);

static u64 slot_stack(unsigned int slot)
{
	return VMAP_START + (u64)slot * STACK_SLOT_SIZE + THREAD_SIZE;
}

static int slot_get(void)
{
	int slot = -1;

	spin_lock(&slot_lock);
	for (unsigned int i = 0; i < nr_slots / 64; i++) {
		if (slot_map[i] == ~0UL)
			continue;
		slot = i * 64 + __builtin_ctzl(~slot_map[i]);
		slot_map[i] |= BIT(slot % 64);
		slots_used++;
		break;
	}
	spin_unlock(&slot_lock);
	return slot;
}

static void slot_put(unsigned int slot)
{
	spin_lock(&slot_lock);
	BUG_ON_MSG(!(slot_map[slot / 64] & BIT(slot % 64)),
		   "vmap stack slot %u freed twice", slot);
	slot_map[slot / 64] &= ~BIT(slot % 64);
	slots_used--;
	spin_unlock(&slot_lock);
}

/* THREAD_SIZE bytes of stack (lowest address) above a guard, or NULL. */
void *vmap_stack_alloc(void)
{
	void *pages = __get_free_pages(get_order(THREAD_SIZE));
	int slot;

	if (!pages)
		return NULL;
	slot = slot_get();
	if (slot < 0) {
		pr_err("all %u stack slots in use\n", nr_slots);
		free_pages(pages, get_order(THREAD_SIZE));
		return NULL;
	}
	/* The tables exist (vmap_stack_init()): this only fills entries. */
	if (map_range(slot_stack(slot), __pa(pages), THREAD_SIZE, PROT_NORMAL,
		      false)) {
		pr_err("stack slot %d already mapped\n", slot);
		slot_put(slot);
		free_pages(pages, get_order(THREAD_SIZE));
		return NULL;
	}
	kasan_stack_alloc((void *)slot_stack(slot));
	return (void *)slot_stack(slot);
}

/* Unmap the stack (every CPU's TLB too), then free its pages. */
void vmap_stack_free(void *stack)
{
	u64 va = (u64)stack;
	int level;
	pte_t *pte = lookup_pte(va, &level);
	void *pages;

	BUG_ON_MSG(va < VMAP_START || va >= VMAP_STACK_END ||
			   (va & (STACK_SLOT_SIZE - 1)) != THREAD_SIZE || !pte,
		   "vmap_stack_free(%p): not a vmap stack", stack);
	pages = __va(*pte & PTE_ADDR_MASK);
	kasan_stack_free(stack); /* stays poisoned while unmapped */
	unmap_range(va, THREAD_SIZE);
	free_pages(pages, get_order(THREAD_SIZE));
	slot_put((va - VMAP_START) / STACK_SLOT_SIZE);
}

/*
 * Stacks of threads that exited, kept mapped for the next thread, as
 * Linux keeps its cached_stacks: NR_CACHED_STACKS per CPU, in the CPU's
 * own slots, which any CPU takes or fills by an atomic exchange, no lock.
 * Freeing a stack unmaps it with a broadcast TLB invalidation per page,
 * which every other CPU must take (QEMU runs each as an exclusive
 * section of every vCPU): its cost grows with the CPU count, and it is
 * paid with IRQs off in unmap_range().
 *
 * Per CPU, not one cache of a fixed size: when a thread on every CPU
 * exits at once (bench=scale's busy phase), exits past a shared cache's
 * size each unmap, queued on mmu_lock with IRQs off behind one another's
 * invalidations, and an expedited grace period waits for every CPU in
 * that queue to take its IPI (2-4 s at 64 CPUs with 32 shared, minutes
 * at 128); and 512 exits at once queue on a shared cache's lock instead.
 *
 * A cached stack holds its pages and its slot: counted in use, given
 * back by thread_stack_cache_drain(). A new thread takes its CPU's cached
 * stack first, and other CPUs' when every slot is in use.
 */
#define NR_CACHED_STACKS 2

struct cached_stacks {
	void *stack[NR_CACHED_STACKS];
};
static DEFINE_CPU_ARRAY(struct cached_stacks, cached_stacks);

/* One of cpu's cached stacks, or NULL; any CPU may take it. */
static void *cache_take(unsigned int cpu)
{
	for (int i = 0; i < NR_CACHED_STACKS; i++) {
		/* Paired with the release in thread_stack_free(). */
		void *stack = __atomic_exchange_n(&cached_stacks[cpu].stack[i],
						  NULL, __ATOMIC_ACQUIRE);

		if (stack)
			return stack;
	}
	return NULL;
}

/* Any CPU's cache is correct to use: this one's is only the likely hit. */
void *thread_stack_alloc(void)
{
	void *stack = cache_take(raw_smp_processor_id());

	if (!stack && READ_ONCE(slots_used) >= nr_slots)
		for (unsigned int cpu = 0; !stack && cpu < nr_cpu_ids; cpu++)
			stack = cache_take(cpu);
	if (!stack)
		return vmap_stack_alloc();
	kasan_stack_alloc(stack);
	return stack;
}

/* Any context: release_task() runs it on the CPU the thread died on. */
void thread_stack_free(void *stack)
{
	struct cached_stacks *c;

	kasan_stack_free(stack); /* poisoned while cached, until reused */
	stack = kasan_stack_quarantine_put(stack); /* KASAN: a later one */
	if (!stack)
		return;
	c = &cached_stacks[raw_smp_processor_id()];
	for (int i = 0; i < NR_CACHED_STACKS; i++) {
		void *none = NULL;

		/* The stack's last use before it is seen cached. */
		if (__atomic_compare_exchange_n(&c->stack[i], &none, stack,
						false, __ATOMIC_RELEASE,
						__ATOMIC_RELAXED))
			return;
	}
	vmap_stack_free(stack);
}

unsigned int thread_stack_cache_drain(void)
{
	unsigned int n = 0;
	void *stack;

	while ((stack = kasan_stack_quarantine_take())) {
		vmap_stack_free(stack);
		n++;
	}
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		while ((stack = cache_take(cpu))) {
			vmap_stack_free(stack);
			n++;
		}
	return n;
}

unsigned int vmap_stacks_in_use(void)
{
	return READ_ONCE(slots_used);
}

unsigned int vmap_stack_slots(void)
{
	return nr_slots;
}

/* Is addr in a guard (a slot's lower half, or the boot stack's)? */
bool in_stack_guard(u64 addr)
{
	if (addr >= (u64)boot_stack_guard && addr < (u64)boot_stack)
		return true;
	return addr >= VMAP_START && addr < VMAP_STACK_END &&
	       !(addr & THREAD_SIZE);
}

/*
 * Before any thread but the boot one exists, with the possible CPUs
 * known: the area's tables, the boot stack's guard, and an overflow
 * stack for each possible CPU (never freed: a CPU that comes back uses
 * its old one).
 */
void vmap_stack_init(void)
{
	unsigned int cpu;

	nr_slots = SLOTS_FOR(nr_cpu_ids);
	slot_map = kcalloc(nr_slots / 64, sizeof(*slot_map));
	if (!slot_map)
		panic("no memory for the stack slots' map");
	if (map_tables(VMAP_START, VMAP_STACK_END - VMAP_START))
		panic("no memory for the stack area's page tables");
	kasan_init_stack_area(VMAP_START, VMAP_STACK_END);
	unmap_range((u64)boot_stack_guard, THREAD_SIZE);
	*(u64 *)boot_stack = STACK_END_MAGIC;
	for_each_possible_cpu (cpu) {
		u8 *stack = vmap_stack_alloc();

		if (!stack)
			panic("no memory for CPU%u's overflow stack", cpu);
		overflow_stack_top[cpu] = (u64)stack + THREAD_SIZE;
	}
}
