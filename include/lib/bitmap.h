/*
 * Bitmaps and single-bit operations on arrays of unsigned long, with the
 * Linux names and meanings (lib/bitmap.c holds the whole-bitmap scans).
 *
 * Bit n lives in word n / BITS_PER_LONG at position n % BITS_PER_LONG. A
 * bitmap of nbits owns BITS_TO_LONGS(nbits) whole words; the bits past nbits
 * in the last word are "don't care": every operation that reads a bitmap
 * ignores them, and the ones that write whole words may change them.
 *
 * Atomicity: set_bit, clear_bit, test_and_set_bit and test_and_clear_bit are
 * atomic read-modify-writes of one word, safe against other CPUs updating
 * other bits of that word. set_bit/clear_bit are relaxed (no ordering); the
 * test_and_ ones are fully ordered, so they can hand off ownership. The __
 * versions and the whole-bitmap operations are plain accesses: the caller
 * must exclude concurrent writers.
 */
#ifndef LIB_BITMAP_H
#define LIB_BITMAP_H

#include <lib/kernel.h>
#include <lib/types.h>
#include <string.h>

BUILD_BUG_ON(sizeof(unsigned long) * 8 != BITS_PER_LONG);

#define BITS_TO_LONGS(nr) DIV_ROUND_UP(nr, BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]

#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))
/* The bits of a word at and above bit start % BITS_PER_LONG. */
#define BITMAP_FIRST_WORD_MASK(start) (~0UL << ((start) & (BITS_PER_LONG - 1)))
/* The bits of the last word that belong to a bitmap of nbits (nbits > 0). */
#define BITMAP_LAST_WORD_MASK(nbits) (~0UL >> (-(nbits) & (BITS_PER_LONG - 1)))

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

/* A single-copy-atomic read: safe while other CPUs set or clear bits. */
static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return __atomic_load_n(&addr[BIT_WORD(nr)], __ATOMIC_RELAXED) &
	       BIT_MASK(nr);
}

static inline void set_bit(unsigned long nr, unsigned long *addr)
{
	__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void clear_bit(unsigned long nr, unsigned long *addr)
{
	__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr),
			   __ATOMIC_RELAXED);
}

/*
 * Fully ordered, as in Linux: as if there were a full barrier before and
 * after. A seq_cst read-modify-write alone orders only against other seq_cst
 * accesses (on arm64 without LSE it is an ldaxr/stlxr loop, which lets an
 * earlier store pass a later load), so a full fence follows it, as Linux's
 * own LL/SC atomics end in a dmb ish.
 */
static inline bool test_and_set_bit(unsigned long nr, unsigned long *addr)
{
	unsigned long old = __atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr),
					      __ATOMIC_SEQ_CST);

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return old & BIT_MASK(nr);
}

/* Fully ordered, like test_and_set_bit. */
static inline bool test_and_clear_bit(unsigned long nr, unsigned long *addr)
{
	unsigned long old = __atomic_fetch_and(&addr[BIT_WORD(nr)],
					       ~BIT_MASK(nr), __ATOMIC_SEQ_CST);

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return old & BIT_MASK(nr);
}

/* The number of bits set in a word (without a libgcc call). */
static inline unsigned int hweight_long(unsigned long w)
{
	w -= (w >> 1) & 0x5555555555555555UL;
	w = (w & 0x3333333333333333UL) + ((w >> 2) & 0x3333333333333333UL);
	w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0fUL;
	return (w * 0x0101010101010101UL) >> 56;
}

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

/* Sets bits 0..nbits-1; the bits past nbits are left clear. */
static inline void bitmap_fill(unsigned long *dst, unsigned int nbits)
{
	unsigned int words = BITS_TO_LONGS(nbits);

	memset(dst, 0xff, words * sizeof(unsigned long));
	if (nbits % BITS_PER_LONG)
		dst[words - 1] = BITMAP_LAST_WORD_MASK(nbits);
}

static inline void bitmap_copy(unsigned long *dst, const unsigned long *src,
			       unsigned int nbits)
{
	memcpy(dst, src, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

/* dst = a & b; returns whether any of the nbits is set in the result. */
bool bitmap_and(unsigned long *dst, const unsigned long *a,
		const unsigned long *b, unsigned int nbits);
void bitmap_or(unsigned long *dst, const unsigned long *a,
	       const unsigned long *b, unsigned int nbits);
/* dst = a & ~b; returns whether any of the nbits is set in the result. */
bool bitmap_andnot(unsigned long *dst, const unsigned long *a,
		   const unsigned long *b, unsigned int nbits);
bool bitmap_equal(const unsigned long *a, const unsigned long *b,
		  unsigned int nbits);
/* Whether a and b have a bit below nbits set in both. */
bool bitmap_intersects(const unsigned long *a, const unsigned long *b,
		       unsigned int nbits);
bool bitmap_empty(const unsigned long *src, unsigned int nbits);
bool bitmap_full(const unsigned long *src, unsigned int nbits);
unsigned int bitmap_weight(const unsigned long *src, unsigned int nbits);

/* The find functions return size when there is no such bit. */
unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
			    unsigned long offset);
unsigned long find_next_zero_bit(const unsigned long *addr, unsigned long size,
				 unsigned long offset);

static inline unsigned long find_first_bit(const unsigned long *addr,
					   unsigned long size)
{
	return find_next_bit(addr, size, 0);
}

static inline unsigned long find_first_zero_bit(const unsigned long *addr,
						unsigned long size)
{
	return find_next_zero_bit(addr, size, 0);
}

#define for_each_set_bit(bit, addr, size)                            \
	for ((bit) = find_first_bit((addr), (size)); (bit) < (size); \
	     (bit) = find_next_bit((addr), (size), (bit) + 1))

#endif
