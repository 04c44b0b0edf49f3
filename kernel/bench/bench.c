/* Running benchmarks by name (bench=) and printing their figures. */
#include <kernel/bench.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <lib/printf.h>
#include <string.h>

extern const struct bench __benches_start[], __benches_end[];

void bench_report(const char *bench, const char *key, const char *fmt, ...)
{
	char val[96];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	printk(KERN_INFO "bench: %s: %s = %s\n", bench, key, val);
}

static bool wanted(const char *list, const char *name)
{
	size_t n = strlen(name);

	if (!strcmp(list, "all"))
		return true;
	for (const char *p = strstr(list, name); p; p = strstr(p + 1, name))
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

static char bench_word[64];
param_string("bench", bench_word, "all|NAME[,NAME]: run benchmarks");

void bench_boot(void)
{
	if (bench_word[0])
		bench_run(bench_word);
}

void bench_run(const char *which)
{
	const struct bench *b;
	int ran = 0;

	for (b = __benches_start; b < __benches_end; b++) {
		if (!wanted(which, b->name))
			continue;
		printk(KERN_INFO "bench: %s: %s\n", b->name, b->what);
		b->run();
		ran++;
	}
	if (!ran)
		pr_err("bench: no benchmark matches '%s'\n", which);
	printk(KERN_INFO "bench: done\n");
}
