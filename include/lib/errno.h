/* Error numbers, with the values Linux uses so traces read the same. */
#ifndef LIB_ERRNO_H
#define LIB_ERRNO_H

#define EPERM 1
#define ENOENT 2
#define EIO 5
#define E2BIG 7
#define EAGAIN 11
#define ENOMEM 12
#define EFAULT 14
#define EBUSY 16
#define EEXIST 17
#define ENXIO 6
#define ENODEV 19
#define EINVAL 22
#define ENOSPC 28
#define ERANGE 34
#define ENOSYS 38
#define EOPNOTSUPP 95
#define ETIMEDOUT 110
#define EALREADY 114

#endif
