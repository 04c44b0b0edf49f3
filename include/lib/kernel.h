/* Compiler helpers and small macros shared by every layer (no dependencies). */
#ifndef LIB_KERNEL_H
#define LIB_KERNEL_H

#include <lib/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr)-offsetof(type, member)))

#define ALIGN(x, a) (((x) + ((a)-1)) & ~((__typeof__(x))(a)-1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a)-1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a)-1)) == 0)
#define DIV_ROUND_UP(n, d) (((n) + (d)-1) / (d))

#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define clamp(v, lo, hi) min(max(v, lo), hi)

#define U32_MAX ((u32)~0U)
#define U64_MAX ((u64)~0ULL)

#define BIT(n) (1UL << (n))
#define GENMASK(h, l) (((~0UL) >> (63 - (h))) & (~0UL << (l)))
#define BITS_PER_LONG 64

#define SZ_4K 0x1000UL
#define SZ_64K 0x10000UL
#define SZ_1M 0x100000UL
#define SZ_2M 0x200000UL
#define SZ_1G 0x40000000UL

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define __section(s) __attribute__((section(s)))
#define __aligned(a) __attribute__((aligned(a)))
#define __packed __attribute__((packed))
#define __used __attribute__((used))
#define __unused __attribute__((unused))
#define __noreturn __attribute__((noreturn))
#define __weak __attribute__((weak))
#define __printf(a, b) __attribute__((format(printf, a, b)))
/* The host C library defines this too, the same way (host unit tests). */
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#define noinline __attribute__((noinline))

#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)

/* Compiler-only barrier and single-copy accesses (no CPU ordering). */
#define barrier() __asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

#endif
