/*
 * Host tests of lib/cmdline.c: finding words, quoting, last-one-wins,
 * numbers and sizes, iteration, and that no input, however broken, makes a
 * function read past the NUL or write past a buffer (the tests put inputs and
 * outputs in exact-size heap blocks, where AddressSanitizer sees one byte
 * too far).
 */
#include <lib/cmdline.h>
#include <lib/errno.h>
#include <lib/kernel.h>

#include "ktest_host.h"

#include <limits.h>

/* A heap copy of s, exactly strlen(s) + 1 bytes long. */
static char *exact(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	memcpy(p, s, n);
	return p;
}

/* cmdline_get into a roomy buffer; "<absent>" when the key is not there. */
static const char *get(const char *cmdline, const char *key)
{
	static char val[256];
	char *line = cmdline ? exact(cmdline) : NULL;

	if (!cmdline_get(line, key, val, sizeof(val)))
		strcpy(val, "<absent>");
	free(line);
	return val;
}

/* Is a bare flag present, with an empty value? */
static void bare_flag_is_present_with_empty_value(void)
{
	KEXPECT(cmdline_has("quiet", "quiet"));
	KEXPECT_STREQ(get("quiet", "quiet"), "");
	KEXPECT_STREQ(get("a quiet b", "quiet"), "");
	KEXPECT_STREQ(get("quiet=", "quiet"), "");
}

/* Is key=value's value copied, whatever comes before and after? */
static void value_is_copied(void)
{
	KEXPECT_STREQ(get("console=ttyAMA0", "console"), "ttyAMA0");
	KEXPECT_STREQ(get("a=1 console=ttyAMA0,115200 b", "console"),
		      "ttyAMA0,115200");
	KEXPECT_STREQ(get("a=b=c", "a"), "b=c");
	KEXPECT_STREQ(get("  \t a=1\n", "a"), "1");
}

/* Must the key match exactly: no prefixes, suffixes or case changes? */
static void key_must_match_exactly(void)
{
	const char *line = "quietx=1 xquiet qu Quiet=2 test=3";

	KEXPECT(!cmdline_has(line, "quiet"));
	KEXPECT(!cmdline_has(line, "quie"));
	KEXPECT(!cmdline_has(line, "quietx=1"));
	KEXPECT(!cmdline_has(line, "test="));
	KEXPECT(!cmdline_has(line, "3"));
	KEXPECT(cmdline_has(line, "qu"));
	KEXPECT(cmdline_has(line, "test"));
	KEXPECT_STREQ(get(line, "Quiet"), "2");
}

/* When a key comes several times, does the last one win, as in Linux? */
static void last_one_wins(void)
{
	KEXPECT_STREQ(get("smp=2 smp=4", "smp"), "4");
	KEXPECT_STREQ(get("smp=2 x smp=4 y", "smp"), "4");
	KEXPECT_STREQ(get("smp=2 smp", "smp"), "");
	KEXPECT_STREQ(get("smp smp=8", "smp"), "8");
	KEXPECT_STREQ(get("smp=\"1 2\" smp=3", "smp"), "3");
}

/* Does a quoted value keep its spaces and lose its quotes? */
static void quoted_value_keeps_spaces(void)
{
	const char *line = "a=\"x y\" b=2 c=\"\" d=\" lead\"";

	KEXPECT_STREQ(get(line, "a"), "x y");
	KEXPECT_STREQ(get(line, "b"), "2");
	KEXPECT_STREQ(get(line, "c"), "");
	KEXPECT_STREQ(get(line, "d"), " lead");
	KEXPECT(!cmdline_has(line, "y\""));
}

/* Do quotes in the middle of a value group too (a=x"y z"w is 'xy zw')? */
static void quotes_inside_value(void)
{
	KEXPECT_STREQ(get("a=x\"y z\"w b=1", "a"), "xy zw");
	KEXPECT_STREQ(get("a=x\"y z\"w b=1", "b"), "1");
	KEXPECT_STREQ(get("a=\"1\"\"2\"", "a"), "12");
	KEXPECT_STREQ(get("a=\"\"\"\"", "a"), "");
}

/* Does a quote never closed run the value to the end of the line? */
static void unterminated_quote_runs_to_end(void)
{
	const char *line = "a=\"x b=1 c";

	KEXPECT_STREQ(get(line, "a"), "x b=1 c");
	KEXPECT(!cmdline_has(line, "b"));
	KEXPECT(!cmdline_has(line, "c"));
	KEXPECT_STREQ(get("a=\"", "a"), "");
	KEXPECT_STREQ(get("x a=\"  ", "a"), "  ");
}

/* Are quotes in a key just characters (only values are quoted)? */
static void quotes_in_keys_are_literal(void)
{
	KEXPECT_STREQ(get("\"a\"=1", "\"a\""), "1");
	KEXPECT(!cmdline_has("\"a b\"", "a"));
	KEXPECT(cmdline_has("\"a b\"", "b\""));
}

/* Is the value cut to len - 1 with a NUL, and may val be NULL? */
static void value_truncated_to_buffer(void)
{
	const char *line = "k=abcdef";
	char *buf;
	size_t len;

	for (len = 1; len <= 9; len++) {
		buf = malloc(len);
		KEXPECT(cmdline_get(line, "k", buf, len));
		KEXPECT_EQ(strlen(buf), len - 1 < 6 ? len - 1 : 6);
		KEXPECT(!strncmp(buf, "abcdef", len - 1));
		free(buf);
	}
	buf = exact("@@");
	KEXPECT(cmdline_get(line, "k", buf, 0));
	KEXPECT_STREQ(buf, "@@");
	KEXPECT(cmdline_get(line, "k", NULL, 10));
	KEXPECT(!cmdline_get(line, "x", buf, 3));
	KEXPECT_STREQ(buf, "@@");
	free(buf);
}

/* Are a NULL or blank command line, and a NULL or empty key, simply absent? */
static void null_and_empty_inputs(void)
{
	unsigned long v = 5;

	KEXPECT(!cmdline_has(NULL, "a"));
	KEXPECT(!cmdline_has("", "a"));
	KEXPECT(!cmdline_has(" \t\n ", "a"));
	KEXPECT(!cmdline_has("a", NULL));
	KEXPECT(!cmdline_has("a", ""));
	KEXPECT(!cmdline_has("=x", ""));
	KEXPECT_EQ(cmdline_get_ulong(NULL, "a", &v), -ENOENT);
	KEXPECT_EQ(v, 5);
}

/* Are '=' alone, "=x" and "a==" handled as words with odd keys/values? */
static void lone_equals_and_empty_keys(void)
{
	KEXPECT_STREQ(get("= a=1", "a"), "1");
	KEXPECT_STREQ(get("=x a", "a"), "");
	KEXPECT_STREQ(get("a==", "a"), "=");
	KEXPECT_STREQ(get("a= b", "a"), "");
	KEXPECT(cmdline_has("a= b", "b"));
}

/* Does cmdline_get_ulong read decimal and 0x hex, quoted or not? */
static void get_ulong_reads_decimal_and_hex(void)
{
	static const struct {
		const char *line;
		unsigned long want;
	} ok[] = {
		{"n=42", 42},
		{"n=0", 0},
		{"n=007", 7},
		{"n=010", 10},
		{"n=0x2A", 42},
		{"n=0X2a", 42},
		{"n=0x0", 0},
		{"n=\"12\"", 12},
		{"n=\"0x\"10", 16},
		{"n=18446744073709551615", ULONG_MAX},
		{"n=0xffffffffffffffff", ULONG_MAX},
		{"n=0x00000000000000000000001", 1},
		{"n=1 n=2", 2},
	};
	unsigned long v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		v = 12345;
		KEXPECT_EQ(cmdline_get_ulong(ok[i].line, "n", &v), 0);
		KEXPECT_EQ(v, ok[i].want);
	}
}

/* Is anything but a whole number refused with -EINVAL, *out untouched? */
static void get_ulong_rejects_malformed(void)
{
	static const char *const bad[] = {
		"n",
		"n=",
		"n=-1",
		"n=+1",
		"n=12abc",
		"n=0x",
		"n=0xg",
		"n= 1",
		"n=1.5",
		"n=1e3",
		"n=\"\"",
		"n=0x-1",
		"n=x10",
		"n=0b101",
		"n=\"1 \"",
		"n=18446744073709551616",
		"n=0x10000000000000000",
		"n=99999999999999999999999",
		"n=1 n=x",
	};
	unsigned long v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		v = 12345;
		if (cmdline_get_ulong(bad[i], "n", &v) != -EINVAL)
			ktest_fail(__FILE__, __LINE__, "\"%s\" not refused",
				   bad[i]);
		KEXPECT_EQ(v, 12345);
	}
}

/* Is an absent key -ENOENT, *out untouched? */
static void get_ulong_absent_is_enoent(void)
{
	unsigned long v = 9;

	KEXPECT_EQ(cmdline_get_ulong("m=1 nn=2", "n", &v), -ENOENT);
	KEXPECT_EQ(v, 9);
}

/* Does memparse scale by K/M/G/T/P/E (either case) and set end past them? */
static void memparse_suffixes(void)
{
	static const struct {
		const char *s;
		unsigned long long want;
		size_t used;
	} cases[] = {
		{"4096", 4096, 4},
		{"4K", 4ULL << 10, 2},
		{"4k", 4ULL << 10, 2},
		{"2M", 2ULL << 20, 2},
		{"1g", 1ULL << 30, 2},
		{"3T", 3ULL << 40, 2},
		{"1P", 1ULL << 50, 2},
		{"1e", 1ULL << 60, 2},
		{"0x10M", 16ULL << 20, 5},
		{"010", 8, 3},
		{"16Kb", 16ULL << 10, 3},
		{"8X", 8, 1},
		{"0x", 0, 1},
		{"0K", 0, 2},
		{"", 0, 0},
		{"K", 0, 0},
		{"-1", 0, 0},
		{" 1", 0, 0},
		{"16E", ULLONG_MAX, 3},
		{"99999999999999999999999", ULLONG_MAX, 23},
		{"18446744073709551615", ULLONG_MAX, 20},
		{"17179869183G", ULLONG_MAX - (1ULL << 30) + 1, 12},
		{"17179869184G", ULLONG_MAX, 12},
	};
	char *s, *end;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		s = exact(cases[i].s);
		KEXPECT_EQ(memparse(s, &end), cases[i].want);
		if (end != s + cases[i].used)
			ktest_fail(__FILE__, __LINE__,
				   "memparse(\"%s\") used %td, want %zu", s,
				   end - s, cases[i].used);
		free(s);
	}
	KEXPECT_EQ(memparse("1M", NULL), 1ULL << 20);
	KEXPECT_EQ(memparse(NULL, &end), 0);
	KEXPECT(end == NULL);
}

/* Does cmdline_next_word give every word, then 0 and 0 again? */
static void next_word_iterates_all_words(void)
{
	static const char *const want[][2] = {
		{"a", ""}, {"b", "1"}, {"c", "x y"},
		{"d", ""}, {"", "e"},  {"f", ""},
	};
	char *line = exact(" a b=1\tc=\"x y\"  d\n=e f= ");
	const char *cursor = line;
	char key[16], val[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		KASSERT(cmdline_next_word(&cursor, key, 16, val, 16) == 1);
		KEXPECT_STREQ(key, want[i][0]);
		KEXPECT_STREQ(val, want[i][1]);
	}
	for (i = 0; i < 2; i++)
		KEXPECT(!cmdline_next_word(&cursor, key, 16, val, 16));
	free(line);
}

/* Are long keys and values cut to the buffers, and NULL buffers skipped? */
static void next_word_truncates_safely(void)
{
	char long_word[300];
	const char *cursor = long_word;
	char *key = malloc(8), *val = malloc(4);

	memset(long_word, 'k', 200);
	long_word[200] = '=';
	memset(long_word + 201, 'v', 98);
	long_word[299] = '\0';
	KEXPECT_EQ(cmdline_next_word(&cursor, key, 8, val, 4), 1);
	KEXPECT_STREQ(key, "kkkkkkk");
	KEXPECT_STREQ(val, "vvv");
	KEXPECT_EQ(*cursor, '\0');
	cursor = "a=1 b";
	KEXPECT_EQ(cmdline_next_word(&cursor, NULL, 0, NULL, 0), 1);
	KEXPECT_EQ(cmdline_next_word(&cursor, key, 0, val, 0), 1);
	KEXPECT_EQ(cmdline_next_word(&cursor, NULL, 0, NULL, 0), 0);
	free(key);
	free(val);
}

/* Is a NULL cursor, or a cursor at NULL, just the end? */
static void next_word_null_cursor(void)
{
	const char *cursor = NULL;
	char key[4];

	KEXPECT_EQ(cmdline_next_word(NULL, key, 4, NULL, 0), 0);
	KEXPECT_EQ(cmdline_next_word(&cursor, key, 4, NULL, 0), 0);
}

/* A fixed pseudo-random sequence, so a failure reproduces. */
static unsigned int rnd(void)
{
	static unsigned int seed = 1;

	seed = seed * 1103515245 + 12345;
	return seed >> 16;
}

/* Run every entry point over text, with small exact-size output buffers. */
static void exercise(const char *text)
{
	char *line = exact(text), *end;
	char *key = malloc(3), *val = malloc(3);
	const char *cursor = line;
	unsigned long v;
	int words = 0;

	while (cmdline_next_word(&cursor, key, 3, val, 3)) {
		KASSERT(strlen(key) < 3 && strlen(val) < 3);
		KASSERT(++words <= (int)strlen(text));
		cmdline_get(line, key, val, 3);
		cmdline_get_ulong(line, key, &v);
	}
	KEXPECT(cursor == line + strlen(line));
	cmdline_get(line, "a", val, 3);
	cmdline_get_ulong(line, "a", &v);
	memparse(line, &end);
	KEXPECT(end >= line && end <= line + strlen(line));
	free(key);
	free(val);
	free(line);
}

/* A value on its own follows the rules of cmdline_get_ulong(). */
static void parse_ulong_same_rules(void)
{
	static const char *const bad[] = {
		"", "x", "12a", "-1", "0x", "1 2", "18446744073709551616"};
	unsigned long v = 7;

	KEXPECT(!cmdline_parse_ulong("010", &v) && v == 10);
	KEXPECT(!cmdline_parse_ulong("0x1F", &v) && v == 31);
	KEXPECT(!cmdline_parse_ulong("18446744073709551615", &v) &&
		v == ULONG_MAX);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		v = 7;
		KEXPECT(cmdline_parse_ulong(bad[i], &v) == -EINVAL && v == 7);
	}
}

/*
 * Whatever the input (lone quotes, '=' everywhere, quotes left open at the
 * end, random mixes of the characters that matter), does every function stay
 * inside the string and the buffers?
 */
static void never_reads_past_the_nul(void)
{
	static const char *const nasty[] = {
		"",	  "\"",	  "=",	    "==",     "a=\"",	"a=\"\"\"",
		"\"a",	  "a\"=", "a=\\\"", "=\"",    " = \" ", "a=x\"",
		"a=\"\t", "0x",	  "a=0x",   "a=\"0x", "K",	"a\"b\"=\"c d",
	};
	char text[24];
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(nasty); i++)
		exercise(nasty[i]);
	for (i = 0; i < 20000; i++) {
		n = rnd() % sizeof(text);
		text[n] = '\0';
		while (n--)
			text[n] = "a=\" \t0xK1"[rnd() % 9];
		exercise(text);
	}
}

static const struct ktest_case cases[] = {
	KTEST(bare_flag_is_present_with_empty_value),
	KTEST(value_is_copied),
	KTEST(key_must_match_exactly),
	KTEST(last_one_wins),
	KTEST(quoted_value_keeps_spaces),
	KTEST(quotes_inside_value),
	KTEST(unterminated_quote_runs_to_end),
	KTEST(quotes_in_keys_are_literal),
	KTEST(value_truncated_to_buffer),
	KTEST(null_and_empty_inputs),
	KTEST(lone_equals_and_empty_keys),
	KTEST(get_ulong_reads_decimal_and_hex),
	KTEST(get_ulong_rejects_malformed),
	KTEST(get_ulong_absent_is_enoent),
	KTEST(parse_ulong_same_rules),
	KTEST(memparse_suffixes),
	KTEST(next_word_iterates_all_words),
	KTEST(next_word_truncates_safely),
	KTEST(next_word_null_cursor),
	KTEST(never_reads_past_the_nul),
};

KTEST_MAIN(cases)
