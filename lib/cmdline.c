/*
 * Kernel command-line parsing: finding words, unquoting and copying values,
 * numbers and sizes (include/lib/cmdline.h).
 *
 * The command line comes from the boot loader, so nothing here trusts it.
 * One scanner, next_word(), splits it; it stops at the NUL whatever the
 * quoting, and every other function works on the pointers it returns.
 */
#include <lib/cmdline.h>
#include <lib/errno.h>
#include <lib/kernel.h>
#include <limits.h>
#include <string.h>

/* One word, as pointers into the command line: nothing is copied. */
struct word {
	const char *key;
	size_t key_len;
	const char *val; /* raw, quotes included; NULL for a bare flag */
	const char *end; /* one past the word's last character */
};

static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/*
 * Find the word at or after *cursor and move *cursor past it. The key ends at
 * the first '=' or white space; the value then runs to white space that is
 * outside quotes, or to the NUL when a quote is never closed.
 */
static bool next_word(const char **cursor, struct word *w)
{
	const char *p = *cursor;
	bool quoted = false;

	while (is_space(*p))
		p++;
	if (!*p) {
		*cursor = p;
		return false;
	}
	w->key = p;
	while (*p && *p != '=' && !is_space(*p))
		p++;
	w->key_len = p - w->key;
	w->val = NULL;
	if (*p == '=') {
		w->val = ++p;
		for (; *p && (quoted || !is_space(*p)); p++) {
			if (*p == '"')
				quoted = !quoted;
		}
	}
	w->end = p;
	*cursor = p;
	return true;
}

/* The value's next character with quotes dropped, or '\0' at its end. */
static char value_char(const struct word *w, const char **p)
{
	while (*p < w->end && **p == '"')
		(*p)++;
	return *p < w->end ? *(*p)++ : '\0';
}

static void copy_value(const struct word *w, char *dst, size_t len)
{
	const char *p = w->val ? w->val : w->end;
	size_t n = 0;
	char c;

	if (!dst || !len)
		return;
	while (n + 1 < len && (c = value_char(w, &p)))
		dst[n++] = c;
	dst[n] = '\0';
}

static void copy_key(const struct word *w, char *dst, size_t len)
{
	size_t n;

	if (!dst || !len)
		return;
	n = min(w->key_len, len - 1);
	memcpy(dst, w->key, n);
	dst[n] = '\0';
}

/* The last word whose key is exactly key: Linux lets a later word override. */
static bool find_last(const char *cmdline, const char *key, struct word *last)
{
	size_t klen = key ? strlen(key) : 0;
	bool found = false;
	struct word w;

	/* Defined even when not found: quiets -O3's maybe-uninitialized. */
	*last = (struct word){0};
	if (!cmdline || !klen)
		return false;
	while (next_word(&cmdline, &w)) {
		if (w.key_len == klen && !memcmp(w.key, key, klen)) {
			*last = w;
			found = true;
		}
	}
	return found;
}

bool cmdline_get(const char *cmdline, const char *key, char *val, size_t len)
{
	struct word w;

	if (!find_last(cmdline, key, &w))
		return false;
	copy_value(&w, val, len);
	return true;
}

bool cmdline_has(const char *cmdline, const char *key)
{
	return cmdline_get(cmdline, key, NULL, 0);
}

/* A digit's value in bases up to 16; 16 (too big for any base) if none. */
static unsigned int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 16;
}

/* The whole value as decimal or 0x hex; -EINVAL if it is anything else. */
static int value_ulong(const struct word *w, unsigned long *out)
{
	const char *p = w->val, *peek;
	unsigned long v = 0;
	unsigned int base = 10, d, count = 0;
	char c;

	if (!p)
		return -EINVAL;
	c = value_char(w, &p);
	peek = p;
	if (c == '0' && (value_char(w, &peek) | 0x20) == 'x') {
		base = 16;
		p = peek;
		c = value_char(w, &p);
	}
	for (; c; c = value_char(w, &p), count++) {
		d = hex_digit(c);
		if (d >= base || v > (ULONG_MAX - d) / base)
			return -EINVAL;
		v = v * base + d;
	}
	if (!count)
		return -EINVAL;
	*out = v;
	return 0;
}

int cmdline_parse_ulong(const char *s, unsigned long *out)
{
	struct word w = {.val = s, .end = s + strlen(s)};

	return value_ulong(&w, out);
}

int cmdline_get_ulong(const char *cmdline, const char *key, unsigned long *out)
{
	struct word w;

	if (!find_last(cmdline, key, &w))
		return -ENOENT;
	return value_ulong(&w, out);
}

/*
 * An unsigned number in base 0, as Linux's simple_strtoull reads it (no
 * white space, no sign), saturating at ULLONG_MAX. *end is s if no digit.
 */
static unsigned long long parse_ull(const char *s, const char **end)
{
	unsigned long long v = 0;
	unsigned int base = 10, d;
	const char *p = s;

	if (p[0] == '0' && (p[1] | 0x20) == 'x' && hex_digit(p[2]) < 16) {
		base = 16;
		p += 2;
	} else if (p[0] == '0') {
		base = 8;
	}
	for (; (d = hex_digit(*p)) < base; p++)
		v = v > (ULLONG_MAX - d) / base ? ULLONG_MAX : v * base + d;
	*end = p;
	return v;
}

/* log2 of the multiple a size suffix stands for; 0 if c is none. */
static unsigned int suffix_shift(char c)
{
	switch (c | 0x20) {
	case 'k':
		return 10;
	case 'm':
		return 20;
	case 'g':
		return 30;
	case 't':
		return 40;
	case 'p':
		return 50;
	case 'e':
		return 60;
	default:
		return 0;
	}
}

unsigned long long memparse(const char *s, char **end)
{
	const char *p = s;
	unsigned long long v = 0;
	unsigned int shift;

	if (s)
		v = parse_ull(s, &p);
	if (p != s && (shift = suffix_shift(*p))) {
		v = v > (ULLONG_MAX >> shift) ? ULLONG_MAX : v << shift;
		p++;
	}
	if (end)
		*end = (char *)p;
	return v;
}

int cmdline_next_word(const char **cursor, char *key, size_t klen, char *val,
		      size_t vlen)
{
	struct word w;

	if (!cursor || !*cursor || !next_word(cursor, &w))
		return 0;
	copy_key(&w, key, klen);
	copy_value(&w, val, vlen);
	return 1;
}
