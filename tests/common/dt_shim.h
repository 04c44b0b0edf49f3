/* The buffer tests/common/dt_shim.c treats as the only physical memory. */
#ifndef DT_SHIM_H
#define DT_SHIM_H

#include <stddef.h>

extern const unsigned char *dt_shim_blob;
extern size_t dt_shim_blob_len;

#endif
