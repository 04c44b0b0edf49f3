/*
 * The C string and number-conversion functions, under their standard names,
 * for the kernel and for libfdt (include/libc/string.h, include/libc/stdlib.h).
 *
 * Correctness first: byte loops, plus a word-at-a-time path in the copy and
 * fill loops when the pointers allow aligned word accesses. Nothing here makes
 * an unaligned access, because the kernel may run with alignment checking on
 * (SCTLR_EL1.A) or with the MMU off, where all memory is Device memory.
 *
 * Under KASAN (make SANITIZE=1) memcpy(), memmove() and memset() check
 * their whole ranges once on entry, and their loops go unchecked.
 */
#include <lib/kernel.h>
#include <lib/types.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#ifdef CONFIG_KASAN
#include <kernel/kasan.h>
#else /* also the host tests' build, under their own ASan */
#define __no_sanitize_address
#define kasan_check_read(p, size, ip) ((void)0)
#define kasan_check_write(p, size, ip) ((void)0)
#endif

/*
 * GCC recognises copy and fill loops and turns them into calls to memcpy and
 * memset, which here would be calls to the function itself, forever.
 */
#define __no_libcall_loops \
	__attribute__((optimize("no-tree-loop-distribute-patterns")))
/* The copy and fill loops: checked by range, on entry (KASAN). */
#define __bulk __no_libcall_loops __no_sanitize_address

/* A word that may alias anything, for the word-at-a-time loops. */
typedef unsigned long __attribute__((may_alias)) word_t;

#define WORD_SIZE sizeof(word_t)
#define WORD_ALIGNED(p) IS_ALIGNED((uintptr_t)(p), WORD_SIZE)
/* Both pointers sit at the same offset in a word: copying can align both. */
#define SAME_PHASE(a, b) WORD_ALIGNED((uintptr_t)(a) ^ (uintptr_t)(b))

static __bulk void copy_forward(u8 *d, const u8 *s, size_t n)
{
	if (SAME_PHASE(d, s)) {
		for (; n && !WORD_ALIGNED(d); n--)
			*d++ = *s++;
		for (; n >= WORD_SIZE; n -= WORD_SIZE) {
			*(word_t *)d = *(const word_t *)s;
			d += WORD_SIZE;
			s += WORD_SIZE;
		}
	}
	while (n--)
		*d++ = *s++;
}

/* Copy from the end down, for a destination that overlaps the source's end. */
static __bulk void copy_backward(u8 *d, const u8 *s, size_t n)
{
	d += n;
	s += n;
	if (SAME_PHASE(d, s)) {
		for (; n && !WORD_ALIGNED(d); n--)
			*--d = *--s;
		for (; n >= WORD_SIZE; n -= WORD_SIZE) {
			d -= WORD_SIZE;
			s -= WORD_SIZE;
			*(word_t *)d = *(const word_t *)s;
		}
	}
	while (n--)
		*--d = *--s;
}

__bulk void *memcpy(void *dst, const void *src, size_t n)
{
	kasan_check_read(src, n, (unsigned long)__builtin_return_address(0));
	kasan_check_write(dst, n, (unsigned long)__builtin_return_address(0));
	copy_forward(dst, src, n);
	return dst;
}

__bulk void *memmove(void *dst, const void *src, size_t n)
{
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;

	kasan_check_read(src, n, (unsigned long)__builtin_return_address(0));
	kasan_check_write(dst, n, (unsigned long)__builtin_return_address(0));
	/* Copying forward is safe unless dst starts inside [src, src + n). */
	if (d - s >= n)
		copy_forward(dst, src, n);
	else
		copy_backward(dst, src, n);
	return dst;
}

__bulk void *memset(void *s, int c, size_t n)
{
	u8 *p = s;
	/* c's low byte in every byte of a word. */
	word_t pattern = (u8)c * (~0UL / 0xff);

	kasan_check_write(s, n, (unsigned long)__builtin_return_address(0));
	for (; n && !WORD_ALIGNED(p); n--)
		*p++ = (u8)c;
	for (; n >= WORD_SIZE; n -= WORD_SIZE) {
		*(word_t *)p = pattern;
		p += WORD_SIZE;
	}
	while (n--)
		*p++ = (u8)c;
	return s;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;

	for (; n; n--, x++, y++) {
		if (*x != *y)
			return *x - *y;
	}
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const u8 *p = s;

	for (; n; n--, p++) {
		if (*p == (u8)c)
			return (void *)p;
	}
	return NULL;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

/* Compares as unsigned char, as C requires, so "\x80" sorts after "a". */
int strcmp(const char *a, const char *b)
{
	const u8 *x = (const u8 *)a, *y = (const u8 *)b;

	for (;; x++, y++) {
		if (*x != *y)
			return *x - *y;
		if (!*x)
			return 0;
	}
}

int strncmp(const char *a, const char *b, size_t n)
{
	const u8 *x = (const u8 *)a, *y = (const u8 *)b;

	for (; n; n--, x++, y++) {
		if (*x != *y)
			return *x - *y;
		if (!*x)
			break;
	}
	return 0;
}

/* The terminating NUL counts as part of the string: strchr(s, 0) finds it. */
char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

/* Returns strlen(src), so the caller can tell that dst was too small. */
size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = min(len, size - 1);

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* A digit's value in bases up to 36; 36 (too big for any base) if none. */
static unsigned int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 36;
}

/*
 * Settle base 0 from the prefix ("0x": 16, "0": 8, else 10) and step over a
 * "0x" in base 16. "0x" not followed by a hex digit is just the number 0
 * followed by an 'x', as C says.
 */
static const char *base_prefix(const char *p, unsigned int *base)
{
	bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
		   digit_value(p[2]) < 16;

	if (*base == 0)
		*base = hex ? 16 : p[0] == '0' ? 8 : 10;
	if (*base == 16 && hex)
		p += 2;
	return p;
}

/*
 * strtoul and strtoull: white space, a sign, a base prefix, digits. Out of
 * range gives limit; a minus sign negates in the unsigned type, as C says.
 * With no digits, or a base C does not allow, the result is 0 and *end is s.
 */
static unsigned long long parse_unsigned(const char *s, char **end, int base,
					 unsigned long long limit)
{
	const char *p = s, *digits;
	unsigned long long val = 0;
	unsigned int b = base, d;
	bool neg = false, overflow = false;

	if (base < 0 || base == 1 || base > 36) {
		if (end)
			*end = (char *)s;
		return 0;
	}
	while (is_space(*p))
		p++;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	p = digits = base_prefix(p, &b);
	for (; (d = digit_value(*p)) < b; p++) {
		if (val > (limit - d) / b)
			overflow = true;
		else
			val = val * b + d;
	}
	if (p == digits)
		p = s;
	if (end)
		*end = (char *)p;
	if (overflow)
		return limit;
	return neg ? -val : val;
}

unsigned long strtoul(const char *s, char **end, int base)
{
	return parse_unsigned(s, end, base, ULONG_MAX);
}

unsigned long long strtoull(const char *s, char **end, int base)
{
	return parse_unsigned(s, end, base, ULLONG_MAX);
}

char *strstr(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);

	for (; *haystack; haystack++)
		if (!strncmp(haystack, needle, n))
			return (char *)haystack;
	return n ? NULL : (char *)haystack;
}
