/*
 * Stack protector support: the canary the compiler checks in functions
 * with arrays on the stack (libfdt is built that way too), and what
 * happens when it was overwritten.
 */
#include <kernel/panic.h>

unsigned long __stack_chk_guard = 0x5ca1ab1e0ddba11UL;

__noreturn void __stack_chk_fail(void)
{
	panic("stack-protector: kernel stack is corrupted in %p",
	      __builtin_return_address(0));
}
