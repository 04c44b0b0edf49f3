/* Integer limits for an LP64 target, for code written against <limits.h>. */
#ifndef LIBC_LIMITS_H
#define LIBC_LIMITS_H

#define CHAR_BIT 8
#define INT_MAX 0x7fffffff
#define INT_MIN (-INT_MAX - 1)
#define UINT_MAX 0xffffffffU
#define LONG_MAX 0x7fffffffffffffffL
#define LONG_MIN (-LONG_MAX - 1)
#define ULONG_MAX 0xffffffffffffffffUL
#define LLONG_MAX LONG_MAX
#define ULLONG_MAX 0xffffffffffffffffULL

#endif
