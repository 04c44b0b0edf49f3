/*
 * KASAN, the address sanitizer of the sanitizing build (make SANITIZE=1):
 * every load and store asks kernel/debug/kasan.c whether the bytes may be
 * used, from a shadow byte per 8 bytes. The allocators say what may be
 * used through these hooks: kmalloc objects (with a redzone after each),
 * pages, thread stacks. Freed memory stays poisoned in a quarantine for a
 * while before it is given back, so a use after free is reported with
 * where the memory was allocated and freed. Without KASAN every hook is
 * an empty inline.
 */
#ifndef KERNEL_KASAN_H
#define KERNEL_KASAN_H

#include <lib/types.h>

/* Who allocated or freed a block: a task and a stack-depot handle. */
struct kasan_track {
	u32 pid;
	u32 stack;
};

/* A block's last allocation and free (struct page, a stack slot...). */
struct kasan_alloc_meta {
	struct kasan_track alloc;
	struct kasan_track free;
};

#ifdef CONFIG_KASAN
/* The shadow of RAM and the kernel image, from memblock: before mm_init(). */
void kasan_init(void);
/* The shadow of the stack area [start, end): when it is set up. */
void kasan_init_stack_area(u64 start, u64 end);

/* kmalloc: bytes to ask a size class or pages for, to fit a redzone. */
size_t kasan_kmalloc_size(size_t size);
/* obj (slot bytes, a slab object if slab) now holds size usable bytes. */
void *kasan_kmalloc(void *obj, size_t size, size_t slot, bool slab);
/* A slab page's objects, none allocated yet. */
void kasan_poison_slab(void *page);
/* kfree(): true if obj went into the quarantine (or was a double free). */
bool kasan_kfree(const void *obj, size_t slot, bool slab);

/* Pages: usable once allocated; free_pages() true: quarantined. */
void kasan_alloc_pages(void *addr, unsigned int order);
bool kasan_free_pages(void *addr, unsigned int order);
/* Pages given to the allocator at boot, never allocated. */
void kasan_poison_free_pages(void *addr, size_t size);

/* A thread stack (THREAD_SIZE) handed out, or given back. */
void kasan_stack_alloc(void *stack);
void kasan_stack_free(void *stack);
/*
 * The stack quarantine: a freed thread stack stays mapped and poisoned
 * while the next ones are freed. Put one in: the stack it pushes out, to
 * be freed for real now, or NULL. Take: the oldest, or NULL when empty.
 */
void *kasan_stack_quarantine_put(void *stack);
void *kasan_stack_quarantine_take(void);

/*
 * lib/string.c's copy and fill loops are built without KASAN's checks
 * (__no_sanitize_address), a call per word being slow, and check their
 * whole ranges once instead: an access of size bytes at p by the
 * function that called them, whose return address is ip.
 */
#define __no_sanitize_address __attribute__((no_sanitize_address))
void kasan_check_read(const void *p, size_t size, unsigned long ip);
void kasan_check_write(const void *p, size_t size, unsigned long ip);

/* Give everything in the quarantine back now (before memory counts). */
void kasan_quarantine_flush(void);
/* Reports printed since boot. */
unsigned long kasan_reports(void);
static inline bool kasan_built(void)
{
	return true;
}
#else
static inline void kasan_init(void)
{
}
static inline void kasan_init_stack_area(u64 start, u64 end)
{
}
static inline size_t kasan_kmalloc_size(size_t size)
{
	return size;
}
static inline void *kasan_kmalloc(void *obj, size_t size, size_t slot,
				  bool slab)
{
	return obj;
}
static inline void kasan_poison_slab(void *page)
{
}
static inline bool kasan_kfree(const void *obj, size_t slot, bool slab)
{
	return false;
}
static inline void kasan_alloc_pages(void *addr, unsigned int order)
{
}
static inline bool kasan_free_pages(void *addr, unsigned int order)
{
	return false;
}
static inline void kasan_poison_free_pages(void *addr, size_t size)
{
}
static inline void kasan_stack_alloc(void *stack)
{
}
static inline void kasan_stack_free(void *stack)
{
}
static inline void *kasan_stack_quarantine_put(void *stack)
{
	return stack;
}
static inline void *kasan_stack_quarantine_take(void)
{
	return NULL;
}
#define __no_sanitize_address
static inline void kasan_check_read(const void *p, size_t size,
				    unsigned long ip)
{
}
static inline void kasan_check_write(const void *p, size_t size,
				     unsigned long ip)
{
}
static inline void kasan_quarantine_flush(void)
{
}
static inline unsigned long kasan_reports(void)
{
	return 0;
}
static inline bool kasan_built(void)
{
	return false;
}
#endif

#endif
