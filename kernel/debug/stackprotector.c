/*
 * Stack protector support: the canary the compiler checks in functions
 * with arrays on the stack (libfdt is built that way too), its per-boot
 * value, and what happens when it was overwritten.
 *
 * This file is built without the protector (see the Makefile): a
 * function here that changed the canary would fail its own check.
 */
#define pr_fmt(fmt) "stackprotector: " fmt
#include <asm/arch_timer.h>
#include <kernel/kallsyms.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/stackprotector.h>
#include <libfdt.h>

/* The image's value, used until boot_init_stack_canary() replaces it. */
unsigned long __stack_chk_guard = 0x5ca1ab1e0ddba11UL;

/* A 64-bit mix (splitmix64's finaliser): spreads a few varying bits. */
static u64 mix64(u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/*
 * Seed from what differs between boots: the firmware's /chosen
 * kaslr-seed or rng-seed when the device tree has one (QEMU virt and
 * U-Boot provide them), and the counter, which at least differs with
 * the time the boot took. The low byte is zeroed, as Linux does, so a
 * string overrun stops at it before it can copy the rest.
 */
void boot_init_stack_canary(const void *fdt)
{
	u64 seed = arch_counter_get();
	int chosen = fdt_path_offset(fdt, "/chosen"), len;
	const u8 *p;
	bool from_dt = false;

	static const char *const props[] = {"kaslr-seed", "rng-seed"};

	for (unsigned int i = 0; chosen >= 0 && i < 2; i++) {
		p = fdt_getprop(fdt, chosen, props[i], &len);
		for (int b = 0; p && b < len; b++) {
			seed = mix64(seed ^ ((u64)p[b] << (8 * (b % 8))));
			from_dt = true;
		}
	}
	__stack_chk_guard = mix64(seed) & ~0xffUL;
	pr_info("per-boot canary from the counter%s\n",
		from_dt ? " and the device tree's seed" : "");
}

__noreturn void __stack_chk_fail(void)
{
	char where[96];

	/* The call is the caller's last instruction (it does not return):
	 * the return address may be past the function's end. */
	sprint_symbol(where, sizeof(where),
		      (u64)__builtin_return_address(0) - 4);
	panic("stack-protector: kernel stack is corrupted in %s", where);
}
