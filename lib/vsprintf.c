/*
 * The printf engine: vsnprintf and its wrappers (include/lib/printf.h).
 *
 * A format is read one conversion at a time: flags, width, precision, length,
 * then the conversion character. Every character produced goes through put(),
 * which stores it only while there is room but always counts it, so the
 * return value is the length the whole output would have had.
 */
#include <lib/kernel.h>
#include <lib/printf.h>
#include <limits.h>
#include <string.h>

/*
 * Widths and numeric precisions are clamped to this: no kernel message needs
 * a wider field, and a corrupt format must not spin for seconds counting pad.
 */
#define FIELD_MAX 4096

#define F_LEFT 1 /* '-' */
#define F_ZERO 2 /* '0' */
#define F_PLUS 4 /* '+' */
#define F_SPACE 8 /* ' ' */
#define F_ALT 16 /* '#' */

enum length { LEN_INT, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z, LEN_T, LEN_J };

struct out {
	char *buf;
	size_t size;
	size_t len; /* characters produced, stored or not */
};

struct spec {
	unsigned int flags;
	int width; /* 0..FIELD_MAX */
	int prec; /* -1 when none was given */
	enum length length;
};

/* A number to print, already split into sign and magnitude. */
struct num {
	unsigned long long val;
	unsigned int base;
	bool upper;
	char sign; /* '-', '+', ' ' or 0 */
	const char *prefix; /* "0x", "0X" or "" */
};

static void put(struct out *o, char c)
{
	/* Keep the last byte for the NUL that vsnprintf adds. */
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_repeat(struct out *o, char c, long n)
{
	for (; n > 0; n--)
		put(o, c);
}

static void put_mem(struct out *o, const char *s, size_t n)
{
	while (n--)
		put(o, *s++);
}

/* Digits of n, least significant first, into buf; returns how many. */
static int num_digits(char *buf, const struct num *n, int prec)
{
	const char *digits = n->upper ? "0123456789ABCDEF" : "0123456789abcdef";
	unsigned long long v = n->val;
	int count = 0;

	/* C: zero with a precision of zero is no digits at all. */
	if (v == 0 && prec == 0)
		return 0;
	do {
		buf[count++] = digits[v % n->base];
		v /= n->base;
	} while (v);
	return count;
}

static void put_number(struct out *o, const struct spec *sp,
		       const struct num *n)
{
	char digits[22]; /* 2^64 - 1 in octal */
	int prec = sp->prec < 0 ? 1 : min(sp->prec, FIELD_MAX);
	int count = num_digits(digits, n, prec);
	long zeros = max(prec - count, 0);
	long len;

	/* '#' with 'o': raise the precision just enough to lead with a 0. */
	if (n->base == 8 && (sp->flags & F_ALT) && !zeros &&
	    (!count || digits[count - 1] != '0'))
		zeros = 1;
	len = !!n->sign + strlen(n->prefix) + zeros + count;
	if ((sp->flags & (F_ZERO | F_LEFT)) == F_ZERO && sp->prec < 0) {
		zeros += max(sp->width - len, 0L);
		len = max(len, (long)sp->width);
	}
	if (!(sp->flags & F_LEFT))
		put_repeat(o, ' ', sp->width - len);
	if (n->sign)
		put(o, n->sign);
	put_mem(o, n->prefix, strlen(n->prefix));
	put_repeat(o, '0', zeros);
	while (count)
		put(o, digits[--count]);
	if (sp->flags & F_LEFT)
		put_repeat(o, ' ', sp->width - len);
}

/* Text padded to the field width; '0' pads with spaces here, as in glibc. */
static void put_field(struct out *o, const struct spec *sp, const char *s,
		      size_t n)
{
	long pad = n < (size_t)sp->width ? sp->width - (long)n : 0;

	if (!(sp->flags & F_LEFT))
		put_repeat(o, ' ', pad);
	put_mem(o, s, n);
	if (sp->flags & F_LEFT)
		put_repeat(o, ' ', pad);
}

static void put_string(struct out *o, const struct spec *sp, const char *s)
{
	if (!s)
		s = "(null)";
	put_field(o, sp, s, sp->prec < 0 ? strlen(s) : strnlen(s, sp->prec));
}

static void put_pointer(struct out *o, const struct spec *sp, void *p)
{
	struct spec ptr = {.flags = sp->flags & F_LEFT, .width = sp->width};
	struct num n = {.val = (uintptr_t)p, .base = 16, .prefix = "0x"};

	/* Every hex digit of the pointer, so columns of addresses line up. */
	ptr.prec = 2 * sizeof(p);
	put_number(o, &ptr, &n);
}

/* Read a signed argument of the size the length modifier names. */
static long long arg_signed(va_list *ap, enum length length)
{
	switch (length) {
	case LEN_HH:
		return (signed char)va_arg(*ap, int);
	case LEN_H:
		return (short)va_arg(*ap, int);
	case LEN_L:
		return va_arg(*ap, long);
	case LEN_LL:
		return va_arg(*ap, long long);
	case LEN_Z:
	case LEN_T:
		return va_arg(*ap, ptrdiff_t);
	case LEN_J:
		return va_arg(*ap, intmax_t);
	default:
		return va_arg(*ap, int);
	}
}

static unsigned long long arg_unsigned(va_list *ap, enum length length)
{
	switch (length) {
	case LEN_HH:
		return (unsigned char)va_arg(*ap, unsigned int);
	case LEN_H:
		return (unsigned short)va_arg(*ap, unsigned int);
	case LEN_L:
		return va_arg(*ap, unsigned long);
	case LEN_LL:
		return va_arg(*ap, unsigned long long);
	case LEN_Z:
	case LEN_T:
		return va_arg(*ap, size_t);
	case LEN_J:
		return va_arg(*ap, uintmax_t);
	default:
		return va_arg(*ap, unsigned int);
	}
}

static void put_signed(struct out *o, const struct spec *sp, va_list *ap)
{
	long long v = arg_signed(ap, sp->length);
	struct num n = {.val = v, .base = 10, .prefix = ""};

	if (v < 0) {
		/* Negate as unsigned: -LLONG_MIN does not fit a long long. */
		n.val = -(unsigned long long)v;
		n.sign = '-';
	} else if (sp->flags & F_PLUS) {
		n.sign = '+';
	} else if (sp->flags & F_SPACE) {
		n.sign = ' ';
	}
	put_number(o, sp, &n);
}

static void put_unsigned(struct out *o, const struct spec *sp, va_list *ap,
			 char conv)
{
	struct num n = {.val = arg_unsigned(ap, sp->length), .prefix = ""};

	n.base = conv == 'o' ? 8 : conv == 'u' ? 10 : 16;
	n.upper = conv == 'X';
	/* '#' prefixes 0x only to a non-zero value, as C says. */
	if (n.base == 16 && (sp->flags & F_ALT) && n.val)
		n.prefix = n.upper ? "0X" : "0x";
	put_number(o, sp, &n);
}

static const char *parse_flags(const char *p, struct spec *sp)
{
	for (;; p++) {
		switch (*p) {
		case '-':
			sp->flags |= F_LEFT;
			break;
		case '0':
			sp->flags |= F_ZERO;
			break;
		case '+':
			sp->flags |= F_PLUS;
			break;
		case ' ':
			sp->flags |= F_SPACE;
			break;
		case '#':
			sp->flags |= F_ALT;
			break;
		default:
			return p;
		}
	}
}

/* Decimal digits, saturating at INT_MAX. */
static const char *parse_int(const char *p, int *val)
{
	int v = 0;

	for (; *p >= '0' && *p <= '9'; p++)
		v = v > (INT_MAX - 9) / 10 ? INT_MAX : v * 10 + (*p - '0');
	*val = v;
	return p;
}

/* A '*' width comes from the arguments; negative means '-' flag, as C says. */
static const char *parse_width(const char *p, struct spec *sp, va_list *ap)
{
	int w;

	if (*p == '*') {
		w = va_arg(*ap, int);
		p++;
	} else {
		p = parse_int(p, &w);
	}
	if (w < 0) {
		sp->flags |= F_LEFT;
		w = w < -FIELD_MAX ? FIELD_MAX : -w;
	}
	sp->width = min(w, FIELD_MAX);
	return p;
}

/* A lone '.' is precision 0; a negative '*' precision is none at all. */
static const char *parse_precision(const char *p, struct spec *sp, va_list *ap)
{
	int prec;

	sp->prec = -1;
	if (*p != '.')
		return p;
	p++;
	if (*p != '*')
		return parse_int(p, &sp->prec);
	prec = va_arg(*ap, int);
	sp->prec = prec < 0 ? -1 : prec;
	return p + 1;
}

static const char *parse_length(const char *p, enum length *length)
{
	switch (*p) {
	case 'h':
		*length = p[1] == 'h' ? LEN_HH : LEN_H;
		return p + 1 + (p[1] == 'h');
	case 'l':
		*length = p[1] == 'l' ? LEN_LL : LEN_L;
		return p + 1 + (p[1] == 'l');
	case 'z':
		*length = LEN_Z;
		return p + 1;
	case 't':
		*length = LEN_T;
		return p + 1;
	case 'j':
		*length = LEN_J;
		return p + 1;
	default:
		*length = LEN_INT;
		return p;
	}
}

/*
 * Print the conversion that starts at pct (a '%'); return where the format
 * goes on. A conversion this code does not know, or one cut short by the end
 * of the format, is printed as written, so the mistake shows in the output.
 */
static const char *convert(struct out *o, const char *pct, va_list *ap)
{
	struct spec sp = {0};
	const char *p;

	p = parse_flags(pct + 1, &sp);
	p = parse_width(p, &sp, ap);
	p = parse_precision(p, &sp, ap);
	p = parse_length(p, &sp.length);
	switch (*p) {
	case 'd':
	case 'i':
		put_signed(o, &sp, ap);
		break;
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		put_unsigned(o, &sp, ap, *p);
		break;
	case 'c': {
		char c = va_arg(*ap, int);

		put_field(o, &sp, &c, 1);
		break;
	}
	case 's':
		put_string(o, &sp, va_arg(*ap, const char *));
		break;
	case 'p':
		put_pointer(o, &sp, va_arg(*ap, void *));
		break;
	case '%':
		put(o, '%');
		break;
	case '\0':
		put_mem(o, pct, p - pct);
		return p;
	default:
		put_mem(o, pct, p + 1 - pct);
		break;
	}
	return p + 1;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = {.buf = buf, .size = size};
	va_list args;

	/* A copy, so the helpers can share one va_list through a pointer. */
	va_copy(args, ap);
	while (*fmt) {
		if (*fmt == '%')
			fmt = convert(&o, fmt, &args);
		else
			put(&o, *fmt++);
	}
	va_end(args);
	if (size)
		buf[min(o.len, size - 1)] = '\0';
	return min(o.len, (size_t)INT_MAX);
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	size_t n = vsnprintf(buf, size, fmt, ap);

	if (!size)
		return 0;
	return min(n, size - 1);
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
