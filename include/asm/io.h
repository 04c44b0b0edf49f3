/*
 * MMIO accessors. The _relaxed forms are single-copy accesses with no
 * ordering against normal memory; readl()/writel() add the barriers that
 * order them against it (a DMA buffer written before a doorbell, a status
 * read before the data it guards), as in Linux.
 */
#ifndef ASM_IO_H
#define ASM_IO_H

#include <asm/barrier.h>
#include <lib/types.h>

static inline u32 readl_relaxed(const volatile void *addr)
{
	u32 v;

	__asm__ __volatile__("ldr %w0, [%1]" : "=r"(v) : "r"(addr));
	return v;
}

static inline void writel_relaxed(u32 v, volatile void *addr)
{
	__asm__ __volatile__("str %w0, [%1]" ::"rZ"(v), "r"(addr));
}

static inline u64 readq_relaxed(const volatile void *addr)
{
	u64 v;

	__asm__ __volatile__("ldr %0, [%1]" : "=r"(v) : "r"(addr));
	return v;
}

static inline void writeq_relaxed(u64 v, volatile void *addr)
{
	__asm__ __volatile__("str %0, [%1]" ::"rZ"(v), "r"(addr));
}

static inline u32 readl(const volatile void *addr)
{
	u32 v = readl_relaxed(addr);

	rmb();
	return v;
}

static inline void writel(u32 v, volatile void *addr)
{
	wmb();
	writel_relaxed(v, addr);
}

#endif
