/* printk: leveled, timestamped kernel messages into the log ring and consoles. */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include <lib/kernel.h>
#include <stdarg.h>

#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_CONT KERN_SOH "c" /* continue the current line */

#define LOGLEVEL_DEFAULT 6
#define CONSOLE_LOGLEVEL_DEFAULT 7 /* print levels below this */

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

__printf(1, 2) int printk(const char *fmt, ...);
int vprintk(const char *fmt, va_list ap);

#define pr_emerg(fmt, ...) printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...) printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)

/* The log ring: every message ever printed, newest LOG_BUF_LEN bytes. */
#define LOG_BUF_LEN (64 * 1024)
extern char log_buf[LOG_BUF_LEN];
extern u64 log_head; /* bytes ever written; the text ends at log_head */
extern int console_loglevel;

/* Copy the newest up-to-len bytes of the log, oldest first. */
size_t log_read(char *buf, size_t len);

/* Set while a panic prints: take no lock that the dying CPU may hold. */
extern bool oops_in_progress;

#endif
