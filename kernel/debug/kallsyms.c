/*
 * Symbol lookup for backtraces. The table is a sorted array of function
 * start addresses and sizes plus their names, generated from the linked
 * kernel by tools/kallsyms.py and linked in a second pass (the text does
 * not move between passes: the table lives after it, in rodata).
 */
#include <kernel/kallsyms.h>
#include <lib/printf.h>
#include <string.h>

struct kallsym {
	u64 addr;
	u32 size;
	u32 name; /* offset into kallsyms_names */
};

extern const u64 kallsyms_num;
extern const struct kallsym kallsyms_table[];
extern const char kallsyms_names[];

const char *kallsyms_lookup(u64 addr, u64 *offset, u64 *size)
{
	u64 lo = 0, hi = kallsyms_num;
	const struct kallsym *s;

	while (lo < hi) { /* first entry above addr */
		u64 mid = (lo + hi) / 2;

		if (kallsyms_table[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &kallsyms_table[lo - 1];
	if (addr - s->addr >= s->size)
		return NULL;
	*offset = addr - s->addr;
	*size = s->size;
	return kallsyms_names + s->name;
}

u64 kallsyms_lookup_name(const char *name)
{
	for (u64 i = 0; i < kallsyms_num; i++)
		if (!strcmp(kallsyms_names + kallsyms_table[i].name, name))
			return kallsyms_table[i].addr;
	return 0;
}

int sprint_symbol(char *buf, size_t len, u64 addr)
{
	u64 off, size;
	const char *name = kallsyms_lookup(addr, &off, &size);

	if (!name)
		return scnprintf(buf, len, "0x%016llx",
				 (unsigned long long)addr);
	return scnprintf(buf, len, "%s+0x%llx/0x%llx", name,
			 (unsigned long long)off, (unsigned long long)size);
}
