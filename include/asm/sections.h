/* Symbols the linker script defines at the image's section boundaries. */
#ifndef ASM_SECTIONS_H
#define ASM_SECTIONS_H

extern char _head[], _text[], _etext[], __start_rodata[], _erodata[];
extern char _data[], _edata[], __bss_start[], __bss_stop[], _end[];
extern char __pgtbl_start[], __pgtbl_end[];
extern char boot_stack_guard[], boot_stack[], boot_stack_end[];

#endif
