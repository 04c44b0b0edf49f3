/*
 * Typed kernel command-line parameters. The file that reads a word declares
 * it beside the variable it fills:
 *
 *	static unsigned long hz = 100;
 *	param_ulong("hz", hz, 1, 1000, "N: timer tick rate in Hz (default 100)");
 *
 * parse_params() reads the command line once, at boot, before any reader
 * runs: each word fills its variable; a word nobody declares, or a value
 * that does not fit the type or range, is reported with the help line and
 * changes nothing. The variable is the only way to read a word, so a typo
 * does not compile.
 *
 * Words come in families, as Linux's module.param words do: a name with a
 * dot ("torture.goal") belongs to the family before the dot, which the
 * README lists as one row. fail.NAME words arm fault-injection points
 * (<kernel/fault.h>), not parameters.
 */
#ifndef KERNEL_PARAMS_H
#define KERNEL_PARAMS_H

#include <lib/kernel.h>

enum param_type {
	PARAM_FLAG, /* bool: the bare word (or =1/=0) */
	PARAM_ULONG, /* unsigned long, decimal or 0x hex, in [min, max] */
	PARAM_STRING, /* char[]: the value, unquoted; a longer one is refused */
	PARAM_ENUM, /* an enum: the index of its word in names[] */
};

struct kernel_param {
	const char *name;
	const char *help; /* "VALUE: what it does (default)" */
	enum param_type type;
	void *var;
	unsigned long min, max; /* PARAM_ULONG */
	size_t size; /* PARAM_STRING: the buffer */
	const char *const *names; /* PARAM_ENUM: NULL-terminated */
};

#define __param(_name, _var, _type, _min, _max, _help)                    \
	static const struct kernel_param __param_##_var __used __section( \
		".kernel_params") = {_name, _help, _type,	 &(_var), \
				     _min,  _max,  sizeof(_var), NULL}

#define param_flag(_name, _var, _help)                                       \
	_Static_assert(__builtin_types_compatible_p(__typeof__(_var), bool), \
		       #_var " is not a bool");                              \
	__param(_name, _var, PARAM_FLAG, 0, 1, _help)

#define param_ulong(_name, _var, _min, _max, _help)                            \
	_Static_assert(                                                        \
		__builtin_types_compatible_p(__typeof__(_var), unsigned long), \
		#_var " is not an unsigned long");                             \
	__param(_name, _var, PARAM_ULONG, _min, _max, _help)

#define param_string(_name, _var, _help)                                 \
	_Static_assert(                                                  \
		__builtin_types_compatible_p(__typeof__(_var[0]), char), \
		#_var " is not a char array");                           \
	__param(_name, _var, PARAM_STRING, 0, 0, _help)

/*
 * One word of a list: an unknown one is refused with the list, from one
 * place, and the owner reads the index (an enum). names[] ends with NULL.
 */
#define param_enum(_name, _var, _names, _help)                             \
	_Static_assert(sizeof(_var) == sizeof(int) &&                      \
			       __builtin_classify_type(_var) !=            \
				       __builtin_classify_type((void *)0), \
		       #_var " is not an enum");                           \
	static const struct kernel_param __param_##_var __used __section(  \
		".kernel_params") = {.name = _name,                        \
				     .help = _help,                        \
				     .type = PARAM_ENUM,                   \
				     .var = &(_var),                       \
				     .names = _names}

/* Fill every declared variable from the command line (once, at boot). */
void parse_params(const char *cmdline);

/* Print the declared words by family, with their values (the shell). */
void params_print(void);

#endif
