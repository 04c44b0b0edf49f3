/*
 * KASAN's runtime (make SANITIZE=1): the shadow, the checks the compiler
 * calls on every load and store, the allocators' hooks, the quarantine
 * and the reports.
 *
 * The shadow: one byte per 8 bytes (a granule) of every kernel address,
 * at KASAN_SHADOW_START + (addr - PAGE_OFFSET) / 8, mapped only where
 * there is something to describe: RAM's linear map, the kernel image and
 * the stack area, each by kernel page tables from memory of its own.
 * 0 means all 8 bytes may be used, 1..7 only that many first bytes, a
 * negative value none, and says why (the KASAN_* kinds below). Any other
 * address (MMIO, the device tree's window) is not checked. Until
 * kasan_init() has mapped it nothing is checked, so the code before it
 * needs no instrumentation-free build but early_mmu.c (MMU off).
 *
 * Frees go through the quarantine: the block is poisoned, its free
 * recorded (task and stack, in a stack depot), and it is given back to
 * its allocator only once a fixed budget of later frees has pushed it
 * out; a use meanwhile reads poison and is reported with both stacks.
 * kmalloc objects carry their record in their redzone, pages in struct
 * page, stacks in a table per stack slot.
 *
 * Built without instrumentation (the Makefile's nosan-y): it reads and
 * writes poisoned memory on purpose.
 */
#include <asm/memory.h>
#include <asm/pgtable.h>
#include <asm/sections.h>
#include <asm/vmap_stack.h>
#include <kernel/board.h>
#include <kernel/current.h>
#include <kernel/kallsyms.h>
#include <kernel/kasan.h>
#include <kernel/mm.h>
#include <kernel/panic.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <lib/kernel.h>
#include <lib/printf.h>
#include <string.h>

#define KASAN_GRANULE (1UL << KASAN_SHADOW_SCALE_SHIFT)

/* Why a granule may not be used (Linux's values where it has them). */
#define KASAN_PAGE_FREE 0xff /* a free page */
#define KASAN_PAGE_REDZONE 0xfe /* past a page-sized kmalloc object */
#define KASAN_SLAB_REDZONE 0xfc /* past a kmalloc object */
#define KASAN_SLAB_FREE 0xfb /* a freed kmalloc object */
#define KASAN_SLAB_UNUSED 0xfa /* a slab object never handed out */
#define KASAN_STACK_FREE 0xf9 /* the stack of a thread that is gone */

/* Each kmalloc object's last KASAN_META_SIZE bytes hold its record. */
#define KASAN_META_SIZE sizeof(struct kasan_alloc_meta)

_Static_assert(KASAN_SHADOW_OFFSET == 0xe000000000000000UL,
	       "the Makefile's -fasan-shadow-offset");

static bool kasan_ready;

/* Where the shadow is mapped, as ranges of the addresses it describes. */
#define MAX_RANGES 8
static struct {
	u64 start, end;
} ranges[MAX_RANGES];
static unsigned int nr_ranges;
static u64 stack_area_start, stack_area_end;
static struct kasan_alloc_meta *stack_meta; /* one per stack slot */

static s8 *shadow_of(u64 addr)
{
	return (s8 *)((addr >> KASAN_SHADOW_SCALE_SHIFT) + KASAN_SHADOW_OFFSET);
}

static bool shadow_mapped(u64 addr)
{
	if (addr >= stack_area_start && addr < stack_area_end)
		return true;
	for (unsigned int i = 0; i < nr_ranges; i++)
		if (addr >= ranges[i].start && addr < ranges[i].end)
			return true;
	return false;
}

/*
 * memset() without its checks (lib/string.c is instrumented): the shadow
 * is written on every allocation and free.
 */
static __attribute__((optimize("no-tree-loop-distribute-patterns"))) void
fill(void *dst, u8 value, size_t n)
{
	u8 *d = dst;
	u64 word = value * 0x0101010101010101UL;

	for (; n && ((u64)d & 7); n--)
		*d++ = value;
	for (; n >= 8; n -= 8, d += 8)
		*(u64 *)d = word;
	while (n--)
		*d++ = value;
}

/* Mark [addr, addr + size) (granule-aligned) with value. */
static void poison(const void *addr, size_t size, u8 value)
{
	u64 a = (u64)addr;

	fill(shadow_of(a), value, size >> KASAN_SHADOW_SCALE_SHIFT);
}

/* [addr, addr + size) usable; addr granule-aligned, size any. */
static void unpoison(const void *addr, size_t size)
{
	u64 a = (u64)addr;

	fill(shadow_of(a), 0, size >> KASAN_SHADOW_SCALE_SHIFT);
	if (size & (KASAN_GRANULE - 1))
		*shadow_of(a + size) = size & (KASAN_GRANULE - 1);
}

/* ---- the shadow's memory ----------------------------------------------- */

/*
 * Map the shadow of [start, end): from memblock before the page
 * allocator runs (one zeroed piece, in blocks where it can), from it
 * after (page by page).
 */
static void populate(u64 start, u64 end)
{
	u64 s = ALIGN_DOWN((u64)shadow_of(start), PAGE_SIZE);
	u64 e = ALIGN((u64)shadow_of(end), PAGE_SIZE);

	if (!mm_ready()) {
		phys_addr_t pa = memblock_alloc(e - s, 1UL << L2_SHIFT);

		if (!pa)
			panic("KASAN: no memory for %llu KiB of shadow",
			      (unsigned long long)(e - s) / 1024);
		fill(__va(pa), 0, e - s);
		if (map_range(s, pa, e - s, PROT_NORMAL, true))
			panic("KASAN: cannot map the shadow at %#llx",
			      (unsigned long long)s);
		return;
	}
	for (u64 va = s; va < e; va += PAGE_SIZE) {
		void *page = get_zeroed_page();

		if (!page ||
		    map_range(va, __pa(page), PAGE_SIZE, PROT_NORMAL, false))
			panic("KASAN: cannot map the shadow at %#llx",
			      (unsigned long long)va);
	}
}

static void add_range(u64 start, u64 end)
{
	BUG_ON(nr_ranges == MAX_RANGES);
	populate(start, end);
	ranges[nr_ranges].start = start;
	ranges[nr_ranges].end = end;
	nr_ranges++;
}

/* ---- the stack depot ------------------------------------------------- */

/*
 * Each distinct stack stored once, named by its offset in the pool
 * (0: none). The pool comes from memblock and is never freed.
 */
#define DEPOT_POOL_SIZE (2UL << 20)
#define DEPOT_BUCKETS 4096
#define DEPOT_MAX_FRAMES 16

struct depot_record {
	u32 next; /* the bucket's next record, 0 at the end */
	u32 hash;
	u32 nr;
	u32 unused;
	u64 pcs[];
};

static char *depot_pool;
static u32 depot_used = 16; /* 0 names no stack */
static u32 depot_buckets[DEPOT_BUCKETS];
static DEFINE_SPINLOCK(depot_lock);
static bool depot_full_said;

static u32 hash_pcs(const u64 *pcs, unsigned int nr)
{
	u64 h = 0xcbf29ce484222325UL;

	for (unsigned int i = 0; i < nr; i++)
		h = (h ^ pcs[i]) * 0x100000001b3UL;
	return (u32)(h ^ (h >> 32));
}

static struct depot_record *depot_record(u32 handle)
{
	return (struct depot_record *)(depot_pool + handle);
}

/*
 * The record of pcs in bucket, or 0. Lockless: records never change once
 * published, and only at a chain's head.
 */
static u32 depot_find(const u32 *bucket, u32 hash, const u64 *pcs,
		      unsigned int nr)
{
	/* Paired with the release in depot_save(). */
	for (u32 h = __atomic_load_n(bucket, __ATOMIC_ACQUIRE); h;
	     h = depot_record(h)->next) {
		const struct depot_record *r = depot_record(h);

		unsigned int i = 0;

		if (r->hash != hash || r->nr != nr)
			continue;
		while (i < nr && r->pcs[i] == pcs[i])
			i++;
		if (i == nr)
			return h;
	}
	return 0;
}

static u32 depot_save(const u64 *pcs, unsigned int nr)
{
	u32 hash = hash_pcs(pcs, nr), *bucket, h;
	size_t size = sizeof(struct depot_record) + nr * sizeof(u64);
	unsigned long flags;
	struct depot_record *r;

	if (!depot_pool)
		return 0;
	bucket = &depot_buckets[hash % DEPOT_BUCKETS];
	h = depot_find(bucket, hash, pcs, nr); /* nearly always there */
	if (h)
		return h;
	spin_lock_irqsave(&depot_lock, flags);
	h = depot_find(bucket, hash, pcs, nr);
	if (!h && depot_used + size <= DEPOT_POOL_SIZE) {
		h = depot_used;
		depot_used += size;
		r = depot_record(h);
		r->hash = hash;
		r->nr = nr;
		for (unsigned int i = 0; i < nr; i++)
			r->pcs[i] = pcs[i];
		r->next = *bucket;
		/* The record before its publication: depot_find()'s acquire. */
		__atomic_store_n(bucket, h, __ATOMIC_RELEASE);
	} else if (!h && !depot_full_said) {
		depot_full_said = true;
		pr_warn("KASAN: stack depot full: later stacks not recorded\n");
	}
	spin_unlock_irqrestore(&depot_lock, flags);
	return h;
}

/*
 * The calling thread's stack, walked by frame records within the
 * THREAD_SIZE-aligned stack that holds this frame (every kernel stack is
 * such a block), so a bad record cannot lead the walk astray.
 */
static noinline u32 kasan_save_stack(void)
{
	u64 fp = (u64)__builtin_frame_address(0);
	u64 low = ALIGN_DOWN(fp, THREAD_SIZE), high = low + THREAD_SIZE;
	u64 pcs[DEPOT_MAX_FRAMES];
	unsigned int nr = 0;

	while (nr < DEPOT_MAX_FRAMES && fp >= low && fp + 16 <= high &&
	       !(fp & 7)) {
		u64 next = ((u64 *)fp)[0], lr = ((u64 *)fp)[1];

		if (!lr)
			break;
		pcs[nr++] = lr;
		if (next <= fp)
			break;
		fp = next;
	}
	return depot_save(pcs, nr);
}

static void set_track(struct kasan_track *t)
{
	t->pid = current->pid;
	t->stack = kasan_save_stack();
}

/* A return address names its call: look up the bl, as backtraces do. */
static void print_pc(u64 pc)
{
	u64 off, size;
	const char *name = kallsyms_lookup(pc - 4, &off, &size);

	if (name)
		pr_err(" %s+0x%llx/0x%llx\n", name, (unsigned long long)off + 4,
		       (unsigned long long)size);
	else
		pr_err(" 0x%016llx\n", (unsigned long long)pc);
}

/* The functions of this file that a recorded stack starts with. */
static bool recorder(const char *name)
{
	static const char *const names[] = {
		"kasan_save_stack",  "set_track",	  "kasan_kmalloc",
		"kasan_kfree",	     "kasan_alloc_pages", "kasan_free_pages",
		"kasan_stack_alloc", "kasan_stack_free",
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* The stack, without the frames of this file that recorded it. */
static void print_track(const char *what, const struct kasan_track *t)
{
	const struct depot_record *r;
	unsigned int i = 0;
	u64 off, size;

	pr_err("%s by task %u:\n", what, t->pid);
	if (!t->stack) {
		pr_err(" (stack not recorded)\n");
		return;
	}
	r = depot_record(t->stack);
	for (; i < r->nr; i++) { /* skip this file's own frames */
		const char *name = kallsyms_lookup(r->pcs[i] - 4, &off, &size);

		if (!name || !recorder(name))
			break;
	}
	for (; i < r->nr; i++)
		print_pc(r->pcs[i]);
}

/* ---- reports ----------------------------------------------------------- */

#define RULE \
	"=================================================================="

static unsigned long nr_reports;
static int report_cpu = -1;

unsigned long kasan_reports(void)
{
	return READ_ONCE(nr_reports);
}

/* Claim the console for one report; false inside a report already. */
static bool report_begin(unsigned long *flags)
{
	int cpu = raw_smp_processor_id(), none = -1;

	local_irq_save(*flags);
	if (READ_ONCE(report_cpu) == cpu) {
		local_irq_restore(*flags);
		return false;
	}
	while (!__atomic_compare_exchange_n(&report_cpu, &none, cpu, false,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		none = -1;
	__atomic_fetch_add(&nr_reports, 1, __ATOMIC_RELAXED);
	pr_err(RULE "\n");
	return true;
}

static void report_end(unsigned long flags)
{
	pr_err(RULE "\n");
	__atomic_store_n(&report_cpu, -1, __ATOMIC_RELEASE);
	local_irq_restore(flags);
}

/* The first granule of [addr, addr + size) that may not be used, or 0. */
static u64 first_bad(u64 addr, size_t size)
{
	u64 end = addr + size;

	for (u64 p = addr; p < end;
	     p = ALIGN_DOWN(p, KASAN_GRANULE) + KASAN_GRANULE) {
		s8 s = *shadow_of(p);
		u64 last = min(end - 1, p | (KASAN_GRANULE - 1));

		if (s && (s < 0 || (s64)(last & (KASAN_GRANULE - 1)) >= s))
			return p;
	}
	return 0;
}

static u8 bad_kind(u64 bad)
{
	s8 s = *shadow_of(bad);

	if (s > 0) /* a partly usable granule: the next one says why */
		s = *shadow_of(bad + KASAN_GRANULE);
	return (u8)s;
}

static const char *kind_name(u8 kind)
{
	switch (kind) {
	case KASAN_SLAB_REDZONE:
	case KASAN_SLAB_UNUSED:
		return "slab-out-of-bounds";
	case KASAN_SLAB_FREE:
		return "slab-use-after-free";
	case KASAN_PAGE_REDZONE:
		return "out-of-bounds";
	case KASAN_PAGE_FREE:
	case KASAN_STACK_FREE:
		return "use-after-free";
	default:
		return "out-of-bounds";
	}
}

/* The head of the block that holds page, or NULL. */
static struct page *block_head(u64 addr)
{
	for (unsigned int i = 0; i < (1U << (MAX_ORDER - 1)); i++) {
		struct page *page =
			virt_to_page((void *)(addr - i * PAGE_SIZE));

		if (!page)
			return NULL;
		if ((page->flags & (PG_head | PG_buddy)) &&
		    i < (1U << page->order))
			return page;
		if (page->flags & (PG_reserved | PG_slab))
			return NULL;
	}
	return NULL;
}

static void describe_region(u64 addr, u64 start, size_t size, const char *state)
{
	if (addr < start + size)
		pr_err("The buggy address is located %llu bytes inside of\n"
		       " %s%zu-byte region [%016llx, %016llx)\n",
		       (unsigned long long)(addr - start), state, size,
		       (unsigned long long)start,
		       (unsigned long long)(start + size));
	else
		pr_err("The buggy address is located %llu bytes to the right "
		       "of\n %s%zu-byte region [%016llx, %016llx)\n",
		       (unsigned long long)(addr - start - size), state, size,
		       (unsigned long long)start,
		       (unsigned long long)(start + size));
}

/* The bytes of a kmalloc object before its first poisoned granule. */
static size_t object_size(u64 obj, size_t slot)
{
	size_t n = 0;

	for (; n < slot; n += KASAN_GRANULE) {
		s8 s = *shadow_of(obj + n);

		if (s < 0)
			break;
		if (s > 0)
			return n + s;
	}
	return n;
}

/* What addr belongs to: the object, its allocation and free. */
static void describe_address(u64 addr, u8 kind)
{
	const char *state = kind == KASAN_SLAB_FREE ? "freed " : "allocated ";
	struct page *page;

	if (addr >= stack_area_start && addr < stack_area_end) {
		u64 slot = (addr - stack_area_start) / STACK_SLOT_SIZE;
		u64 stack =
			stack_area_start + slot * STACK_SLOT_SIZE + THREAD_SIZE;

		print_track("Allocated", &stack_meta[slot].alloc);
		pr_err("\n");
		if (kind == KASAN_STACK_FREE) {
			print_track("Freed", &stack_meta[slot].free);
			pr_err("\n");
		}
		pr_err("The buggy address belongs to the thread stack "
		       "[%016llx, %016llx)%s\n",
		       (unsigned long long)stack,
		       (unsigned long long)(stack + THREAD_SIZE),
		       kind == KASAN_STACK_FREE ? ", freed" : "");
		return;
	}
	if (addr >= KIMAGE_VADDR && addr < (u64)_end) {
		pr_err("The buggy address belongs to the kernel image\n");
		return;
	}
	page = virt_to_page((void *)addr);
	if (page && (page->flags & PG_slab)) {
		size_t slot = ksize(page_to_virt(page));
		u64 obj = ALIGN_DOWN(addr, slot);
		struct kasan_alloc_meta *meta =
			(void *)(obj + slot - KASAN_META_SIZE);

		print_track("Allocated", &meta->alloc);
		pr_err("\n");
		if (kind == KASAN_SLAB_FREE) {
			print_track("Freed", &meta->free);
			pr_err("\n");
		}
		pr_err("The buggy address belongs to the object at %016llx\n"
		       " which belongs to the cache kmalloc-%zu of size %zu\n",
		       (unsigned long long)obj, slot, slot);
		describe_region(addr, obj,
				kind == KASAN_SLAB_FREE
					? slot - KASAN_META_SIZE
					: object_size(obj, slot),
				state);
		return;
	}
	page = block_head(addr);
	if (page) {
		u64 start = (u64)page_to_virt(page);
		size_t size = PAGE_SIZE << page->order;

		print_track("Allocated", &page->kasan.alloc);
		pr_err("\n");
		if (kind == KASAN_PAGE_FREE || kind == KASAN_SLAB_FREE) {
			print_track("Freed", &page->kasan.free);
			pr_err("\n");
		}
		pr_err("The buggy address belongs to the physical page block "
		       "at %016llx (order %u)\n",
		       (unsigned long long)start, page->order);
		if (kind == KASAN_PAGE_REDZONE)
			size = object_size(start, size);
		describe_region(addr, start, size,
				kind == KASAN_PAGE_FREE ? "freed " : state);
	}
}

/* Five rows of 16 shadow bytes, the buggy one marked. */
static void print_shadow(u64 addr)
{
	u64 row = ALIGN_DOWN(addr, 16 * KASAN_GRANULE) - 32 * KASAN_GRANULE;

	pr_err("Memory state around the buggy address:\n");
	for (int i = 0; i < 5; i++, row += 16 * KASAN_GRANULE) {
		char line[64], *p = line;
		bool mine = addr >= row && addr < row + 16 * KASAN_GRANULE;

		if (!shadow_mapped(row))
			continue;
		for (int j = 0; j < 16; j++)
			p += scnprintf(p, line + sizeof(line) - p, " %02x",
				       (u8)*shadow_of(row + j * KASAN_GRANULE));
		pr_err("%c%016llx:%s\n", mine ? '>' : ' ',
		       (unsigned long long)row, line);
		if (mine)
			pr_err("%*c\n",
			       (int)(20 + 3 * ((addr - row) / KASAN_GRANULE)),
			       '^');
	}
}

/*
 * A bad access of size bytes at addr by the instruction before ip, in
 * the function whose frame record is fp. Reported as Linux does.
 */
static noinline void kasan_report(u64 addr, size_t size, bool write, u64 ip,
				  u64 *fp)
{
	u64 bad = first_bad(addr, size) ?: addr;
	u8 kind = bad_kind(bad);
	unsigned long flags;
	char sym[96];

	if (!report_begin(&flags))
		return;
	sprint_symbol(sym, sizeof(sym), ip);
	pr_err("BUG: KASAN: %s in %s\n", kind_name(kind), sym);
	pr_err("%s of size %zu at addr %016llx by task %s/%d\n",
	       write ? "Write" : "Read", size, (unsigned long long)addr,
	       current->comm, current->pid);
	pr_err("\n");
	pr_err("CPU: %u PID: %d Comm: %s\n", raw_smp_processor_id(),
	       current->pid, current->comm);
	dump_backtrace((u64)fp, ip, false);
	pr_err("\n");
	describe_address(bad, kind);
	pr_err("\n");
	print_shadow(bad);
	report_end(flags);
}

/* A free of something not allocated, at ip. */
static noinline void kasan_report_invalid_free(const void *obj, u8 kind, u64 ip)
{
	unsigned long flags;
	char sym[96];

	if (!report_begin(&flags))
		return;
	sprint_symbol(sym, sizeof(sym), ip);
	pr_err("BUG: KASAN: %s in %s\n",
	       kind == KASAN_SLAB_FREE || kind == KASAN_PAGE_FREE
		       ? "double-free"
		       : "invalid-free",
	       sym);
	pr_err("Free of addr %016llx by task %s/%d\n", (unsigned long long)obj,
	       current->comm, current->pid);
	pr_err("\n");
	pr_err("CPU: %u PID: %d Comm: %s\n", raw_smp_processor_id(),
	       current->pid, current->comm);
	dump_stack();
	pr_err("\n");
	describe_address((u64)obj, kind);
	pr_err("\n");
	print_shadow((u64)obj);
	report_end(flags);
}

/* ---- the checks the compiler calls ---------------------------------- */

static __always_inline void check(u64 addr, size_t size, bool write, u64 ip,
				  u64 *fp)
{
	if (!READ_ONCE(kasan_ready) || !size || !shadow_mapped(addr))
		return;
	if (unlikely(first_bad(addr, size)))
		kasan_report(addr, size, write, ip, fp);
}

/* The frame record of the function that called the check. */
#define CALLER_FRAME (*(u64 **)__builtin_frame_address(0))

#define DEFINE_ASAN_CHECK(size)                                            \
	void __asan_load##size##_noabort(u64 addr)                         \
	{                                                                  \
		check(addr, size, false, (u64)__builtin_return_address(0), \
		      CALLER_FRAME);                                       \
	}                                                                  \
	void __asan_store##size##_noabort(u64 addr)                        \
	{                                                                  \
		check(addr, size, true, (u64)__builtin_return_address(0),  \
		      CALLER_FRAME);                                       \
	}

DEFINE_ASAN_CHECK(1)
DEFINE_ASAN_CHECK(2)
DEFINE_ASAN_CHECK(4)
DEFINE_ASAN_CHECK(8)
DEFINE_ASAN_CHECK(16)

void __asan_loadN_noabort(u64 addr, size_t size)
{
	check(addr, size, false, (u64)__builtin_return_address(0),
	      CALLER_FRAME);
}

void __asan_storeN_noabort(u64 addr, size_t size)
{
	check(addr, size, true, (u64)__builtin_return_address(0), CALLER_FRAME);
}

/*
 * For lib/string.c's functions: the frame record of their caller, so the
 * report starts at the code that asked for the copy or fill.
 */
#define STRING_CALLER_FRAME ((u64 *)CALLER_FRAME[0])

void kasan_check_read(const void *p, size_t size, unsigned long ip)
{
	check((u64)p, size, false, ip, STRING_CALLER_FRAME);
}

void kasan_check_write(const void *p, size_t size, unsigned long ip)
{
	check((u64)p, size, true, ip, STRING_CALLER_FRAME);
}

/* Stack frames carry no redzones (asan-stack=0): nothing to unpoison. */
void __asan_handle_no_return(void)
{
}

/* ---- the quarantine ---------------------------------------------------- */

/*
 * Freed blocks wait here, oldest first, linked through their own first
 * bytes, until QUARANTINE_MAX bytes of later frees push them out.
 */
struct qentry {
	struct qentry *next;
	u32 order; /* pages: the order; a slab object: ~0 */
	u32 bytes;
};

#define QENTRY_SLAB (~0U)

static struct qentry *q_head, *q_tail;
static u64 q_bytes, q_max;
static DEFINE_SPINLOCK(q_lock);

static void release(struct qentry *e)
{
	while (e) {
		struct qentry *next = e->next;

		if (e->order == QENTRY_SLAB)
			kfree_direct(e);
		else
			free_pages_direct(e, e->order);
		e = next;
	}
}

/* Add e; give back what the budget no longer holds (limit: 0 for all). */
static void quarantine_put(struct qentry *e, u64 limit)
{
	struct qentry *out = NULL, **tail = &out;
	unsigned long flags;

	spin_lock_irqsave(&q_lock, flags);
	if (e) {
		e->next = NULL;
		if (q_tail)
			q_tail->next = e;
		else
			q_head = e;
		q_tail = e;
		q_bytes += e->bytes;
	}
	while (q_head && q_bytes > limit) {
		struct qentry *old = q_head;

		q_head = old->next;
		if (!q_head)
			q_tail = NULL;
		q_bytes -= old->bytes;
		old->next = NULL;
		*tail = old;
		tail = &old->next;
	}
	spin_unlock_irqrestore(&q_lock, flags);
	release(out);
}

/*
 * Until it is empty: objects given back can empty a slab page, whose
 * free comes back in. A few passes at most, so that frees on other CPUs
 * cannot keep the caller here.
 */
void kasan_quarantine_flush(void)
{
	for (int pass = 0; pass < 4 && (!pass || READ_ONCE(q_head)); pass++)
		quarantine_put(NULL, 0);
}

/* ---- the allocators' hooks ------------------------------------------- */

size_t kasan_kmalloc_size(size_t size)
{
	return ALIGN(size, KASAN_GRANULE) + KASAN_META_SIZE;
}

void *kasan_kmalloc(void *obj, size_t size, size_t slot, bool slab)
{
	u64 end = ALIGN((u64)obj + size, KASAN_GRANULE);

	if (!obj)
		return NULL;
	unpoison(obj, size);
	poison((void *)end, (u64)obj + slot - end,
	       slab ? KASAN_SLAB_REDZONE : KASAN_PAGE_REDZONE);
	if (slab) {
		struct kasan_alloc_meta *meta = obj + slot - KASAN_META_SIZE;

		set_track(&meta->alloc);
		meta->free = (struct kasan_track){0};
	}
	return obj;
}

void kasan_poison_slab(void *page)
{
	poison(page, PAGE_SIZE, KASAN_SLAB_UNUSED);
}

bool kasan_kfree(const void *obj, size_t slot, bool slab)
{
	s8 s = *shadow_of((u64)obj);
	struct qentry *e = (void *)obj;

	if (s < 0) {
		kasan_report_invalid_free(obj, (u8)s,
					  (u64)__builtin_return_address(0));
		return true;
	}
	poison(obj, slot, slab ? KASAN_SLAB_FREE : KASAN_PAGE_FREE);
	if (slab) {
		struct kasan_alloc_meta *meta =
			(void *)obj + slot - KASAN_META_SIZE;

		set_track(&meta->free);
		e->order = QENTRY_SLAB;
	} else {
		struct page *page = virt_to_page(obj);

		set_track(&page->kasan.free);
		e->order = page->order;
	}
	e->bytes = slot;
	quarantine_put(e, q_max);
	return true;
}

void kasan_alloc_pages(void *addr, unsigned int order)
{
	struct page *page = virt_to_page(addr);

	unpoison(addr, PAGE_SIZE << order);
	set_track(&page->kasan.alloc);
	page->kasan.free = (struct kasan_track){0};
}

bool kasan_free_pages(void *addr, unsigned int order)
{
	s8 s = *shadow_of((u64)addr);
	struct qentry *e = addr;

	if (s == (s8)KASAN_PAGE_FREE) {
		kasan_report_invalid_free(addr, (u8)s,
					  (u64)__builtin_return_address(0));
		return true;
	}
	poison(addr, PAGE_SIZE << order, KASAN_PAGE_FREE);
	set_track(&virt_to_page(addr)->kasan.free);
	e->order = order;
	e->bytes = PAGE_SIZE << order;
	quarantine_put(e, q_max);
	return true;
}

void kasan_poison_free_pages(void *addr, size_t size)
{
	poison(addr, size, KASAN_PAGE_FREE);
}

void kasan_stack_alloc(void *stack)
{
	u64 slot = ((u64)stack - stack_area_start) / STACK_SLOT_SIZE;

	unpoison(stack, THREAD_SIZE);
	set_track(&stack_meta[slot].alloc);
	stack_meta[slot].free = (struct kasan_track){0};
}

/* Recorded at the first free: a stack leaving the quarantine keeps it. */
void kasan_stack_free(void *stack)
{
	u64 slot = ((u64)stack - stack_area_start) / STACK_SLOT_SIZE;

	if (*shadow_of((u64)stack) == (s8)KASAN_STACK_FREE)
		return;
	poison(stack, THREAD_SIZE, KASAN_STACK_FREE);
	set_track(&stack_meta[slot].free);
}

#define STACK_QUARANTINE 16

static void *stack_q[STACK_QUARANTINE];
static unsigned int stack_q_next, stack_q_nr;
static DEFINE_SPINLOCK(stack_q_lock);

void *kasan_stack_quarantine_put(void *stack)
{
	unsigned long flags;
	void *out = NULL;

	spin_lock_irqsave(&stack_q_lock, flags);
	if (stack_q_nr == STACK_QUARANTINE)
		out = stack_q[stack_q_next]; /* the oldest */
	else
		stack_q_nr++;
	stack_q[stack_q_next] = stack;
	stack_q_next = (stack_q_next + 1) % STACK_QUARANTINE;
	spin_unlock_irqrestore(&stack_q_lock, flags);
	return out;
}

void *kasan_stack_quarantine_take(void)
{
	unsigned long flags;
	void *out = NULL;

	spin_lock_irqsave(&stack_q_lock, flags);
	if (stack_q_nr) {
		out = stack_q[(stack_q_next + STACK_QUARANTINE - stack_q_nr) %
			      STACK_QUARANTINE];
		stack_q_nr--;
	}
	spin_unlock_irqrestore(&stack_q_lock, flags);
	return out;
}

/* ---- set-up -------------------------------------------------------------- */

/*
 * After memblock knows RAM and its reservations, before the page
 * allocator: the shadow of each RAM range's linear map and of the image
 * (its .bss and page tables too), the depot's pool; checks on from here.
 * The quarantine holds up to 1/32 of RAM, as Linux's.
 */
void kasan_init(void)
{
	phys_addr_t pa;
	u64 ram = 0;

	for (int i = 0; i < board.nr_mem; i++) {
		phys_addr_t base = ALIGN_DOWN(board.mem[i].base, PAGE_SIZE);
		phys_addr_t end =
			ALIGN(board.mem[i].base + board.mem[i].size, PAGE_SIZE);

		add_range((u64)__va(base), (u64)__va(end));
		ram += end - base;
	}
	add_range(KIMAGE_VADDR, ALIGN((u64)_end, PAGE_SIZE));
	pa = memblock_alloc(DEPOT_POOL_SIZE, PAGE_SIZE);
	depot_pool = pa ? __va(pa) : NULL; /* none: stacks not recorded */
	q_max = ram / 32;
	WRITE_ONCE(kasan_ready, true);
	pr_info("KASAN: shadow for %u range(s), quarantine %llu KiB\n",
		nr_ranges, (unsigned long long)q_max / 1024);
}

void kasan_init_stack_area(u64 start, u64 end)
{
	size_t nr = (end - start) / STACK_SLOT_SIZE;

	stack_meta = kcalloc(nr, sizeof(*stack_meta));
	if (!stack_meta)
		panic("KASAN: no memory for the stack slots' records");
	populate(start, end);
	stack_area_start = start;
	WRITE_ONCE(stack_area_end, end);
}
