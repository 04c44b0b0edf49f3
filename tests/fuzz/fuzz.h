/* Shared between the fuzz target and its shims. */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>

#define FUZZ_NR_DRIVERS 5

/* The buffer the current input lives in: the only "physical memory". */
extern const unsigned char *fuzz_blob;
extern size_t fuzz_blob_len;
extern unsigned long fuzz_probed;

#endif
