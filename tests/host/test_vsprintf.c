/*
 * Host tests of lib/vsprintf.c: conversions held against the host's own
 * snprintf, plus the places where the kernel's means to differ (%p, NULL
 * strings, unknown conversions, clamped widths).
 *
 * The Makefile renames lib/vsprintf.c's snprintf and vsnprintf to k_snprintf
 * and k_vsnprintf, so that the host's stay available as the reference.
 */
#define snprintf k_snprintf
#define vsnprintf k_vsnprintf
#include <lib/printf.h>
#undef snprintf
#undef vsnprintf

#include "ktest_host.h"

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#define BUF 256

/* Report at most this many mismatches per case: one is enough to start on. */
#define MAX_REPORTS 10

static void mismatch(const char *file, int line, const char *fmt, size_t size,
		     const char *want, int want_ret, const char *got,
		     int got_ret)
{
	if (ktest_failures >= MAX_REPORTS) {
		ktest_failures++;
		return;
	}
	ktest_fail(
		file, line,
		"format \"%s\" size %zu: expected \"%s\" (%d), got \"%s\" (%d)",
		fmt, size, want, want_ret, got, got_ret);
}

/* One size: same bytes in the whole buffer, same return value. */
static void check_size(const char *file, int line, size_t size, const char *fmt,
		       va_list ap)
{
	char want[BUF], got[BUF];
	int want_ret, got_ret;
	va_list a;

	memset(want, '@', BUF);
	memset(got, '@', BUF);
	va_copy(a, ap);
	want_ret = vsnprintf(want, size, fmt, a);
	va_end(a);
	va_copy(a, ap);
	got_ret = k_vsnprintf(got, size, fmt, a);
	va_end(a);
	if (want_ret != got_ret || memcmp(want, got, BUF)) {
		want[BUF - 1] = got[BUF - 1] = '\0';
		mismatch(file, line, fmt, size, want, want_ret, got, got_ret);
	}
}

/*
 * Format with the host's vsnprintf and with ours, into a roomy buffer and
 * into buffers cut short at several places, and expect the same bytes
 * (including the NUL and everything past it) and the same return value.
 */
__attribute__((format(printf, 3, 4))) static void
check_fmt(const char *file, int line, const char *fmt, ...)
{
	size_t sizes[] = {BUF, 0, 1, 2, 0, 0, 0}, len, i;
	va_list ap, a;

	va_start(ap, fmt);
	va_copy(a, ap);
	len = vsnprintf(NULL, 0, fmt, a);
	va_end(a);
	sizes[4] = len / 2;
	sizes[5] = len;
	sizes[6] = len + 1;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		if (sizes[i] <= BUF)
			check_size(file, line, sizes[i], fmt, ap);
	}
	va_end(ap);
}

#define CHECK(...) check_fmt(__FILE__, __LINE__, __VA_ARGS__)

/* Our snprintf without format checking, for formats C calls invalid. */
static int kfmt(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = k_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

#define EXPECT_FMT(want, ...)                               \
	do {                                                \
		char b_[BUF];                               \
		int n_ = kfmt(b_, sizeof(b_), __VA_ARGS__); \
		KEXPECT_STREQ(b_, want);                    \
		KEXPECT_EQ(n_, strlen(want));               \
	} while (0)

static const char *const widths[] = {"", "0", "1", "5", "24"};
static const char *const precisions[] = {"", ".", ".0", ".1", ".5", ".24"};

/* Write the flags "-0+ #" chosen by the bits of set (0..31) to out. */
static char *put_flags(char *out, unsigned int set)
{
	static const char flags[] = "-0+ #";
	int i;

	for (i = 0; flags[i]; i++) {
		if (set & (1u << i))
			*out++ = flags[i];
	}
	return out;
}

/*
 * Check %<flags><width><precision><conv> for every combination of flags,
 * widths and precisions, with value v (as an int for 'd' and 'i').
 */
static void check_specs(char conv, unsigned int v)
{
	char fmt[32];
	unsigned int set;
	size_t w, p;

	for (set = 0; set < 32; set++) {
		for (w = 0; w < ARRAY_SIZE(widths); w++) {
			for (p = 0; p < ARRAY_SIZE(precisions); p++) {
				*put_flags(fmt, set) = '\0';
				snprintf(fmt + strlen(fmt), 16, "%s%s%c",
					 widths[w], precisions[p], conv);
				if (conv == 'd' || conv == 'i')
					CHECK(fmt, (int)v);
				else
					CHECK(fmt, v);
			}
		}
	}
}

/*
 * Does every combination of flags, width and precision print signed values
 * (zero, extremes) with %d and %i exactly as the host does?
 */
static void signed_conversions_match_host(void)
{
	static const int values[] = {0,	  1,	  -1,	   7,
				     -42, 123456, INT_MAX, INT_MIN};
	size_t v;

	for (v = 0; v < ARRAY_SIZE(values); v++) {
		check_specs('d', values[v]);
		check_specs('i', values[v]);
	}
}

/*
 * Does every combination of flags, width and precision print unsigned values
 * with %u %x %X %o exactly as the host does, '#' and zero included?
 */
static void unsigned_conversions_match_host(void)
{
	static const unsigned int values[] = {0,  1,	      7,       8,
					      42, 0xdeadbeef, UINT_MAX};
	static const char convs[] = "uxXo";
	size_t v, c;

	for (c = 0; convs[c]; c++) {
		for (v = 0; v < ARRAY_SIZE(values); v++)
			check_specs(convs[c], values[v]);
	}
}

/* Do hh, h, l, ll, z, t and j read and truncate arguments as the host does? */
static void length_modifiers_match_host(void)
{
	CHECK("%hhd %hhd %hhd %hhu %hhx %hho", 300, -129, 127, 300, -1, 511);
	CHECK("%hd %hd %hu %hx %hX", 70000, -32769, 70000, -1, 0xabcdef);
	CHECK("%ld %ld %lu %lx %lo", LONG_MIN, LONG_MAX, ULONG_MAX, ULONG_MAX,
	      ULONG_MAX);
	CHECK("%lld %lld %llu %llx %#llo %+lli", LLONG_MIN, LLONG_MAX,
	      ULLONG_MAX, 0x123456789abcdefULL, ULLONG_MAX, 5LL);
	CHECK("%zu %zx %zd %zd", SIZE_MAX, (size_t)0xfeed, (ssize_t)-5,
	      (ssize_t)SSIZE_MAX);
	CHECK("%td %td %tx", PTRDIFF_MIN, PTRDIFF_MAX, (ptrdiff_t)255);
	CHECK("%jd %jd %ju %jX", INTMAX_MIN, INTMAX_MAX, UINTMAX_MAX,
	      UINTMAX_MAX);
	CHECK("%-20lld|%020llx|%+.25lld", LLONG_MIN, ULLONG_MAX, LLONG_MAX);
}

/* Do %s and %c honour width, precision and '-' as the host does? */
static void strings_and_chars_match_host(void)
{
	static const char *const widths_s[] = {"", "1", "3", "10"};
	static const char *const precs_s[] = {"", ".", ".0", ".2", ".10"};
	static const char *const strs[] = {"", "a", "hello", "hello world"};
	char fmt[32];
	size_t w, p, s, left;

	for (left = 0; left < 2; left++)
		for (w = 0; w < 4; w++)
			for (p = 0; p < 5; p++)
				for (s = 0; s < 4; s++) {
					snprintf(fmt, sizeof(fmt),
						 "[%%%s%s%ss]", left ? "-" : "",
						 widths_s[w], precs_s[p]);
					CHECK(fmt, strs[s]);
					snprintf(fmt, sizeof(fmt), "[%%%s%sc]",
						 left ? "-" : "", widths_s[w]);
					CHECK(fmt, 'a' + (int)s);
				}
	CHECK("%c%c%c", 'x', 0x80 + 'y', 'z');
	CHECK("a%cb", 0);
}

/* Does %.Ns stop after N bytes of an array that has no NUL? */
static void precision_bounds_string_reads(void)
{
	static const char abc[3] = {'a', 'b', 'c'};

	/* Ours only: the sanitizer's check of the host snprintf reads on. */
	EXPECT_FMT("abc|ab|", "%.3s|%.2s|%.0s", abc, abc, abc);
}

/* Do '*' widths and precisions, negative ones too, work as the host's? */
static void star_width_and_precision_match_host(void)
{
	CHECK("%*d|%-*d|%*d", 5, 42, 5, 42, -5, 42);
	CHECK("%0*d|%0*d", 5, -42, -5, 42);
	CHECK("%.*d|%.*d|%.*d", 3, 42, -3, 42, 0, 0);
	CHECK("%*.*s|%-*.*s|", 8, 2, "abc", 8, 2, "abc");
	CHECK("%.*s|%.*s", -1, "abc", 1, "abc");
	CHECK("%*c|%*x", 3, 'q', -6, 0xabc);
}

/* Does a format with text, many conversions and %% print as the host's? */
static void mixed_formats_match_host(void)
{
	CHECK("cpu%u: %s at %#lx (%d%%), mask %08x", 3, "online",
	      0xffff000008000000UL, -12, 0x5a);
	CHECK("%%|%%%%|%5s%%", "x");
	CHECK("no conversions at all");
	EXPECT_FMT("", "");
}

/* Does %s of NULL print "(null)", cut by a precision like any string? */
static void null_string_prints_null(void)
{
	const char *null = NULL;

	EXPECT_FMT("(null)", "%s", null);
	EXPECT_FMT("    (null)", "%10s", null);
	EXPECT_FMT("(nu", "%.3s", null);
	EXPECT_FMT("", "%.0s", null);
}

/* Is %p "0x" and 16 hex digits whatever the value, padded with spaces only? */
static void pointer_is_0x_and_16_hex_digits(void)
{
	EXPECT_FMT("0x0000000000001234", "%p", (void *)0x1234);
	EXPECT_FMT("0x0000000000000000", "%p", NULL);
	EXPECT_FMT("0xffff000012345678", "%p", (void *)0xffff000012345678UL);
	EXPECT_FMT("  0x00000000000000ab", "%20p", (void *)0xab);
	EXPECT_FMT("0x00000000000000ab  |", "%-20p|", (void *)0xab);
	EXPECT_FMT("  0x00000000000000ab", "%020p", (void *)0xab);
	EXPECT_FMT("0x00000000000000ab", "%+#.3p", (void *)0xab);
	EXPECT_FMT("0x0000000000000001K", "%pK", (void *)1);
}

/*
 * Are unknown conversions, %n, and a '%' cut off by the end of the format
 * printed as written, without consuming (or writing through) an argument?
 */
static void unknown_conversions_print_literally(void)
{
	EXPECT_FMT("a%qb", "a%qb");
	EXPECT_FMT("[%-05q] 5", "[%-05q] %d", 5);
	EXPECT_FMT("%n|7", "%n|%d", 7);
	EXPECT_FMT("abc%", "abc%");
	EXPECT_FMT("%-0", "%-0");
	EXPECT_FMT("%l", "%l");
	EXPECT_FMT("%hh", "%hh");
	EXPECT_FMT("%.5", "%.5");
	EXPECT_FMT("%lq", "%lq");
	EXPECT_FMT("%L", "%L");
	EXPECT_FMT("%", "%");
}

/* Does "%5%" print a lone '%' (C leaves it undefined; Linux does this)? */
static void percent_with_flags_prints_percent(void)
{
	EXPECT_FMT("%", "%5%");
	EXPECT_FMT("1%2", "%d%-3%%d", 1, 2);
}

/* With size 0, is nothing written (buf may be NULL) and the length returned? */
static void size_zero_measures_only(void)
{
	char buf[4] = "xyz";

	KEXPECT_EQ(kfmt(NULL, 0, "%d-%s", 12345, "abc"), 9);
	KEXPECT_EQ(kfmt(buf, 0, "%d", 12345), 5);
	KEXPECT_STREQ(buf, "xyz");
}

/* Do scnprintf and vscnprintf return what was written, NUL excluded? */
static void scnprintf_returns_chars_written(void)
{
	char buf[8];

	memset(buf, '@', sizeof(buf));
	KEXPECT_EQ(scnprintf(buf, 0, "hello"), 0);
	KEXPECT_EQ(buf[0], '@');
	KEXPECT_EQ(scnprintf(buf, 1, "hello"), 0);
	KEXPECT_STREQ(buf, "");
	KEXPECT_EQ(scnprintf(buf, 5, "hello"), 4);
	KEXPECT_STREQ(buf, "hell");
	KEXPECT_EQ(scnprintf(buf, 6, "hello"), 5);
	KEXPECT_STREQ(buf, "hello");
	KEXPECT_EQ(scnprintf(buf, sizeof(buf), "%s", ""), 0);
	KEXPECT_EQ(scnprintf(buf, sizeof(buf), "%d", 123456789), 7);
	KEXPECT_STREQ(buf, "1234567");
}

/* Can scnprintf results be summed to append safely past a full buffer? */
static void scnprintf_appends_without_overrun(void)
{
	char buf[10];
	int len = 0, i;

	for (i = 0; i < 20; i++)
		len += scnprintf(buf + len, sizeof(buf) - len, "%d,", i);
	KEXPECT_EQ(len, 9);
	KEXPECT_STREQ(buf, "0,1,2,3,4");
}

/* Are huge widths and numeric precisions clamped, string ones not? */
static void huge_fields_are_clamped(void)
{
	static char big[5001];

	KEXPECT_EQ(kfmt(NULL, 0, "%5000d", 1), 4096);
	KEXPECT_EQ(kfmt(NULL, 0, "%99999999999999999999d", 1), 4096);
	KEXPECT_EQ(kfmt(NULL, 0, "%.5000d", 1), 4096);
	KEXPECT_EQ(kfmt(NULL, 0, "%*d", INT_MIN, 1), 4096);
	KEXPECT_EQ(kfmt(NULL, 0, "%-*d|", -INT_MAX, 1), 4097);
	memset(big, 'x', 5000);
	KEXPECT_EQ(kfmt(NULL, 0, "%.4999s", big), 4999);
	KEXPECT_EQ(kfmt(NULL, 0, "%.*s", 5000, big), 5000);
}

static const struct ktest_case cases[] = {
	KTEST(signed_conversions_match_host),
	KTEST(unsigned_conversions_match_host),
	KTEST(length_modifiers_match_host),
	KTEST(strings_and_chars_match_host),
	KTEST(precision_bounds_string_reads),
	KTEST(star_width_and_precision_match_host),
	KTEST(mixed_formats_match_host),
	KTEST(null_string_prints_null),
	KTEST(pointer_is_0x_and_16_hex_digits),
	KTEST(unknown_conversions_print_literally),
	KTEST(percent_with_flags_prints_percent),
	KTEST(size_zero_measures_only),
	KTEST(scnprintf_returns_chars_written),
	KTEST(scnprintf_appends_without_overrun),
	KTEST(huge_fields_are_clamped),
};

KTEST_MAIN(cases)
