/*
 * Host tests of lib/string.c, held against the host C library.
 *
 * lib/string.c defines the standard names, which the host C library also
 * defines, so the Makefile renames its symbols to k_memcpy, k_strtoul, ...;
 * the kernel's declarations are read here under those names.
 */
#define memcpy k_memcpy
#define memmove k_memmove
#define memset k_memset
#define memcmp k_memcmp
#define memchr k_memchr
#define strlen k_strlen
#define strnlen k_strnlen
#define strcmp k_strcmp
#define strncmp k_strncmp
#define strchr k_strchr
#define strrchr k_strrchr
#define strlcpy k_strlcpy
#define strtoul k_strtoul
#define strtoull k_strtoull
#include "../../include/libc/string.h"
#include "../../include/libc/stdlib.h"
#undef memcpy
#undef memmove
#undef memset
#undef memcmp
#undef memchr
#undef strlen
#undef strnlen
#undef strcmp
#undef strncmp
#undef strchr
#undef strrchr
#undef strlcpy
#undef strtoul
#undef strtoull

#include <lib/kernel.h>

#include "ktest_host.h"

#include <limits.h>
#include <stdint.h>

#define BUF 160

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

/* A recognisable, position-dependent pattern. */
static void pattern(unsigned char *p, size_t n, unsigned char seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(seed + i * 7);
}

/* Does memcpy copy exactly n bytes, for every alignment of both ends? */
static void memcpy_all_alignments_and_lengths(void)
{
	unsigned char src[BUF], dst[BUF], want[BUF];
	size_t so, d_off, n;

	pattern(src, BUF, 1);
	for (so = 0; so < 16; so++) {
		for (d_off = 0; d_off < 16; d_off++) {
			for (n = 0; n <= 72; n++) {
				pattern(dst, BUF, 99);
				memcpy(want, dst, BUF);
				memcpy(want + d_off, src + so, n);
				KEXPECT(k_memcpy(dst + d_off, src + so, n) ==
					dst + d_off);
				KASSERT(!memcmp(dst, want, BUF));
			}
		}
	}
}

/* Does memmove give the host's result for overlaps in both directions? */
static void memmove_overlaps_both_ways(void)
{
	unsigned char got[BUF], want[BUF];
	size_t so, d_off, n;

	for (so = 0; so < 24; so++) {
		for (d_off = 0; d_off < 24; d_off++) {
			for (n = 0; n <= 64; n++) {
				pattern(got, BUF, 3);
				pattern(want, BUF, 3);
				memmove(want + d_off, want + so, n);
				KEXPECT(k_memmove(got + d_off, got + so, n) ==
					got + d_off);
				KASSERT(!memcmp(got, want, BUF));
			}
		}
	}
}

/* Does memset fill exactly n bytes with the low byte of c, at any alignment? */
static void memset_all_alignments_and_values(void)
{
	static const int values[] = {0, 0xff, 0x5a, 0x1a5, -1};
	unsigned char got[BUF], want[BUF];
	size_t v, off, n;

	for (v = 0; v < ARRAY_SIZE(values); v++) {
		for (off = 0; off < 16; off++) {
			for (n = 0; n <= 72; n++) {
				pattern(got, BUF, 5);
				pattern(want, BUF, 5);
				memset(want + off, values[v], n);
				KEXPECT(k_memset(got + off, values[v], n) ==
					got + off);
				KASSERT(!memcmp(got, want, BUF));
			}
		}
	}
}

/* Do memcmp, strcmp and strncmp order bytes as unsigned, like the host? */
static void compares_order_bytes_as_unsigned(void)
{
	static const char *const s[] = {"",	 "a",	"b",	  "ab",
					"abc",	 "abd", "\x80",	  "\xff",
					"a\x80", "A",	"abc\xff"};
	size_t i, j, n;

	for (i = 0; i < ARRAY_SIZE(s); i++) {
		for (j = 0; j < ARRAY_SIZE(s); j++) {
			KEXPECT_EQ(sign(k_strcmp(s[i], s[j])),
				   sign(strcmp(s[i], s[j])));
			for (n = 0; n < 5; n++)
				KEXPECT_EQ(sign(k_strncmp(s[i], s[j], n)),
					   sign(strncmp(s[i], s[j], n)));
			n = strlen(s[i]) < strlen(s[j]) ? strlen(s[i])
							: strlen(s[j]);
			KEXPECT_EQ(sign(k_memcmp(s[i], s[j], n + 1)),
				   sign(memcmp(s[i], s[j], n + 1)));
		}
	}
	KEXPECT_EQ(k_memcmp("abc", "abd", 0), 0);
	KEXPECT_EQ(k_memcmp("abc", "abd", 2), 0);
}

/* Do strncmp and memcmp stop at n, even with different bytes beyond? */
static void compares_stop_at_n(void)
{
	KEXPECT_EQ(k_strncmp("abcX", "abcY", 3), 0);
	KEXPECT(k_strncmp("abcX", "abcY", 4) < 0);
	KEXPECT_EQ(k_strncmp("abc", "abc", 100), 0);
	KEXPECT_EQ(k_memcmp("abcX", "abcY", 3), 0);
}

/* Does memchr find the first match within n bytes, and only there? */
static void memchr_finds_first_within_n(void)
{
	static const char s[] = "hello\0world\xff";

	KEXPECT(k_memchr(s, 'l', sizeof(s)) == s + 2);
	KEXPECT(k_memchr(s, 'w', sizeof(s)) == s + 6);
	KEXPECT(k_memchr(s, 'w', 6) == NULL);
	KEXPECT(k_memchr(s, '\0', sizeof(s)) == s + 5);
	KEXPECT(k_memchr(s, 0xff, sizeof(s)) == s + 11);
	KEXPECT(k_memchr(s, 0x1ff, sizeof(s)) == s + 11);
	KEXPECT(k_memchr(s, 'h', 0) == NULL);
}

/* Do strlen and strnlen count up to the NUL, and strnlen no further than max? */
static void strlen_and_strnlen(void)
{
	static const char abc[3] = {'a', 'b', 'c'}; /* no NUL */

	KEXPECT_EQ(k_strlen(""), 0);
	KEXPECT_EQ(k_strlen("hello"), 5);
	KEXPECT_EQ(k_strlen("hi\0there"), 2);
	KEXPECT_EQ(k_strnlen("hello", 3), 3);
	KEXPECT_EQ(k_strnlen("hello", 10), 5);
	KEXPECT_EQ(k_strnlen("hello", 0), 0);
	KEXPECT_EQ(k_strnlen(abc, sizeof(abc)), 3);
}

/* Do strchr and strrchr find first and last, and the NUL for c == 0? */
static void strchr_and_strrchr(void)
{
	static const char s[] = "abcabc\xff";

	KEXPECT(k_strchr(s, 'b') == s + 1);
	KEXPECT(k_strrchr(s, 'b') == s + 4);
	KEXPECT(k_strchr(s, 'z') == NULL);
	KEXPECT(k_strrchr(s, 'z') == NULL);
	KEXPECT(k_strchr(s, '\0') == s + 7);
	KEXPECT(k_strrchr(s, '\0') == s + 7);
	KEXPECT(k_strchr(s, 0xff) == s + 6);
	KEXPECT(k_strchr(s, 'a' + 256) == s);
	KEXPECT(k_strrchr("", 'a') == NULL);
}

/* Does strlcpy truncate with a NUL, write nothing for size 0, return strlen? */
static void strlcpy_truncates_and_returns_source_length(void)
{
	char buf[8];
	size_t size;

	for (size = 0; size <= sizeof(buf); size++) {
		memset(buf, '@', sizeof(buf));
		KEXPECT_EQ(k_strlcpy(buf, "hello", size), 5);
		if (size == 0) {
			KEXPECT_EQ(buf[0], '@');
			continue;
		}
		KEXPECT(!strncmp(buf, "hello", size - 1));
		KEXPECT_EQ(strlen(buf), size - 1 < 5 ? size - 1 : 5);
		if (size < sizeof(buf))
			KEXPECT_EQ(buf[size], '@');
	}
}

static const char *const numbers[] = {
	"0",
	"1",
	"42",
	"  42",
	"\t\n+42",
	"-42",
	"+",
	"-",
	"",
	" ",
	"x",
	"007",
	"08",
	"0x",
	"0X1f",
	"0xg",
	"0x1G",
	"-0x1f",
	"  -0x",
	"zz",
	"Zz9",
	"1a2b",
	"123abc",
	"0b101",
	"777",
	"18446744073709551615",
	"18446744073709551616",
	"99999999999999999999999",
	"-18446744073709551615",
	"-18446744073709551616",
	"0xffffffffffffffff",
	"0x10000000000000000",
	"01777777777777777777777",
	"02000000000000000000000",
	"-1",
	"- 1",
	"+-1",
	"1 2",
	"3w5e11264sgsf",
	"3w5e11264sgsg",
};

static const int bases[] = {0, 2, 8, 10, 16, 36};

/*
 * Do strtoul and strtoull give the host's value and end pointer, for signs,
 * white space, prefixes, bases, and overflow?
 */
static void strtoul_and_strtoull_match_host(void)
{
	size_t i, b;
	char *want_end, *got_end;

	for (i = 0; i < ARRAY_SIZE(numbers); i++) {
		for (b = 0; b < ARRAY_SIZE(bases); b++) {
			const char *s = numbers[i];
			int base = bases[b];

			KEXPECT_EQ(k_strtoul(s, &got_end, base),
				   strtoul(s, &want_end, base));
			if (got_end != want_end)
				ktest_fail(
					__FILE__, __LINE__,
					"strtoul(\"%s\", %d) end %td, want %td",
					s, base, got_end - s, want_end - s);
			KEXPECT_EQ(k_strtoull(s, &got_end, base),
				   strtoull(s, &want_end, base));
			KEXPECT(got_end == want_end);
		}
	}
}

/* Does a base C does not allow read nothing (the host leaves end unset)? */
static void strtoul_rejects_invalid_base(void)
{
	static const int bad[] = {1, 37, -1, INT_MIN, INT_MAX};
	const char *s = " 12";
	char *end = NULL;
	size_t b;

	for (b = 0; b < ARRAY_SIZE(bad); b++) {
		KEXPECT_EQ(k_strtoul(s, &end, bad[b]), 0);
		KEXPECT(end == s);
		KEXPECT_EQ(k_strtoull(s, &end, bad[b]), 0);
		KEXPECT(end == s);
	}
}

/* May end be NULL? */
static void strtoul_without_end_pointer(void)
{
	KEXPECT_EQ(k_strtoul("0x10", NULL, 0), 16);
	KEXPECT_EQ(k_strtoull("-1", NULL, 10), ULLONG_MAX);
}

static const struct ktest_case cases[] = {
	KTEST(memcpy_all_alignments_and_lengths),
	KTEST(memmove_overlaps_both_ways),
	KTEST(memset_all_alignments_and_values),
	KTEST(compares_order_bytes_as_unsigned),
	KTEST(compares_stop_at_n),
	KTEST(memchr_finds_first_within_n),
	KTEST(strlen_and_strnlen),
	KTEST(strchr_and_strrchr),
	KTEST(strlcpy_truncates_and_returns_source_length),
	KTEST(strtoul_and_strtoull_match_host),
	KTEST(strtoul_rejects_invalid_base),
	KTEST(strtoul_without_end_pointer),
};

KTEST_MAIN(cases)
