/*
 * Kernel command-line parsing (lib/cmdline.c).
 *
 * The command line is words separated by white space; a word is "key" (a
 * flag) or "key=value". Inside a value, double quotes group text that holds
 * white space: the quotes themselves are dropped, so opt="a b" has the value
 * 'a b'. A NULL command line is an empty one. Every function stops at the
 * terminating NUL whatever the input, and truncates what it copies to the
 * caller's buffer, always NUL-terminated when the buffer has any room.
 */
#ifndef LIB_CMDLINE_H
#define LIB_CMDLINE_H

#include <lib/types.h>

/*
 * Whether a word with exactly this key is present, bare or with '='. If val
 * is not NULL, copies the value there ("" for a bare flag), cut to len - 1
 * characters. When the key is given more than once the last one wins, as in
 * Linux. An empty key is never present.
 */
bool cmdline_get(const char *cmdline, const char *key, char *val, size_t len);
bool cmdline_has(const char *cmdline, const char *key);

/*
 * The value of key as a whole unsigned number, decimal or "0x" hex ("010" is
 * ten). Returns 0, -ENOENT if the key is absent, or -EINVAL (leaving *out
 * alone) if the value is empty, has anything but digits, or does not fit.
 */
int cmdline_get_ulong(const char *cmdline, const char *key, unsigned long *out);
/* The same rules for a value on its own (say, one cmdline_next_word() gave). */
int cmdline_parse_ulong(const char *s, unsigned long *out);

/*
 * A size like Linux's memparse: a number (base 0: "0x" hex, leading 0 octal,
 * else decimal) with an optional K, M, G, T, P or E suffix in either case,
 * for binary multiples. Values too big saturate at ULLONG_MAX. *end (if end
 * is not NULL) is set past the suffix, or to s when there is no number.
 */
unsigned long long memparse(const char *s, char **end);

/*
 * Iterate over the words: start with *cursor at the command line; each call
 * fills key and val (either may be NULL; "" for a bare flag's value), each cut
 * to fit, advances *cursor, and returns 1; at the end it returns 0.
 */
int cmdline_next_word(const char **cursor, char *key, size_t klen, char *val,
		      size_t vlen);

#endif
