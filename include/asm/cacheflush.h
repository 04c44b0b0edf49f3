/* Cache maintenance to the Point of Coherency (arch/arm64/cache.S). */
#ifndef ASM_CACHEFLUSH_H
#define ASM_CACHEFLUSH_H

void dcache_inval_poc(unsigned long start, unsigned long end);
void dcache_clean_poc(unsigned long start, unsigned long end);
void dcache_clean_inval_poc(unsigned long start, unsigned long end);

#endif
