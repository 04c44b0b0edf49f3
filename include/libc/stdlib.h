/* The C conversion functions libfdt needs (lib/string.c). */
#ifndef LIBC_STDLIB_H
#define LIBC_STDLIB_H

unsigned long strtoul(const char *s, char **end, int base);
unsigned long long strtoull(const char *s, char **end, int base);

#endif
