/*
 * Whole-bitmap operations and bit searches (include/lib/bitmap.h).
 *
 * Each loop handles the full words first, then the last partial word under
 * BITMAP_LAST_WORD_MASK, so bits past nbits never change a result.
 * The searches and the weight load each word once, with READ_ONCE(): the
 * masks they walk (the online mask, the tick broadcast's sleepers) change
 * under lock-free readers by atomic bitops, and the result is a snapshot.
 */
#include <lib/bitmap.h>

bool bitmap_and(unsigned long *dst, const unsigned long *a,
		const unsigned long *b, unsigned int nbits)
{
	unsigned int k, full = nbits / BITS_PER_LONG;
	unsigned long any = 0;

	for (k = 0; k < full; k++)
		any |= (dst[k] = a[k] & b[k]);
	if (nbits % BITS_PER_LONG)
		any |= (dst[k] = a[k] & b[k] & BITMAP_LAST_WORD_MASK(nbits));
	return any != 0;
}

void bitmap_or(unsigned long *dst, const unsigned long *a,
	       const unsigned long *b, unsigned int nbits)
{
	unsigned int k;

	for (k = 0; k < BITS_TO_LONGS(nbits); k++)
		dst[k] = a[k] | b[k];
}

bool bitmap_andnot(unsigned long *dst, const unsigned long *a,
		   const unsigned long *b, unsigned int nbits)
{
	unsigned int k, full = nbits / BITS_PER_LONG;
	unsigned long any = 0;

	for (k = 0; k < full; k++)
		any |= (dst[k] = a[k] & ~b[k]);
	if (nbits % BITS_PER_LONG)
		any |= (dst[k] = a[k] & ~b[k] & BITMAP_LAST_WORD_MASK(nbits));
	return any != 0;
}

bool bitmap_equal(const unsigned long *a, const unsigned long *b,
		  unsigned int nbits)
{
	unsigned int k, full = nbits / BITS_PER_LONG;

	for (k = 0; k < full; k++) {
		if (a[k] != b[k])
			return false;
	}
	if (nbits % BITS_PER_LONG)
		return !((a[k] ^ b[k]) & BITMAP_LAST_WORD_MASK(nbits));
	return true;
}

bool bitmap_intersects(const unsigned long *a, const unsigned long *b,
		       unsigned int nbits)
{
	unsigned int k, full = nbits / BITS_PER_LONG;

	for (k = 0; k < full; k++) {
		if (a[k] & b[k])
			return true;
	}
	if (nbits % BITS_PER_LONG)
		return a[k] & b[k] & BITMAP_LAST_WORD_MASK(nbits);
	return false;
}

bool bitmap_empty(const unsigned long *src, unsigned int nbits)
{
	return find_first_bit(src, nbits) >= nbits;
}

bool bitmap_full(const unsigned long *src, unsigned int nbits)
{
	return find_first_zero_bit(src, nbits) >= nbits;
}

unsigned int bitmap_weight(const unsigned long *src, unsigned int nbits)
{
	unsigned int k, w = 0, full = nbits / BITS_PER_LONG;

	for (k = 0; k < full; k++)
		w += hweight_long(READ_ONCE(src[k]));
	if (nbits % BITS_PER_LONG)
		w += hweight_long(READ_ONCE(src[k]) &
				  BITMAP_LAST_WORD_MASK(nbits));
	return w;
}

/*
 * The first bit at or after start that is set in addr[] ^ invert: invert 0
 * finds set bits, ~0UL finds clear ones. A hit past size in the last word is
 * a don't-care bit, so it means "none".
 */
static unsigned long find_next(const unsigned long *addr, unsigned long size,
			       unsigned long start, unsigned long invert)
{
	unsigned long word;

	if (start >= size)
		return size;
	word = (READ_ONCE(addr[BIT_WORD(start)]) ^ invert) &
	       BITMAP_FIRST_WORD_MASK(start);
	start -= start % BITS_PER_LONG;
	while (!word) {
		start += BITS_PER_LONG;
		if (start >= size)
			return size;
		word = READ_ONCE(addr[BIT_WORD(start)]) ^ invert;
	}
	return min(start + __builtin_ctzl(word), size);
}

unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
			    unsigned long offset)
{
	return find_next(addr, size, offset, 0);
}

unsigned long find_next_zero_bit(const unsigned long *addr, unsigned long size,
				 unsigned long offset)
{
	return find_next(addr, size, offset, ~0UL);
}
