/*
 * UBSAN's runtime: the __ubsan_handle_*() functions that code built with
 * -fsanitize=undefined calls when a check fails (make SANITIZE=1). Each
 * prints a report as Linux does ("UBSAN: KIND in FILE:LINE:COL", what
 * happened, the task and the stack between two rules) and returns, so
 * the code goes on; a site reports once. The handlers' arguments are the
 * compiler's: a static description of the site and types, and the values.
 * Built without instrumentation (the Makefile's nosan-y).
 */
#include <kernel/current.h>
#include <kernel/panic.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/ubsan.h>
#include <lib/kernel.h>
#include <lib/printf.h>

struct source_location {
	const char *file;
	u32 line;
	u32 column; /* bit 31: this site has reported */
};

struct type_descriptor {
	u16 type_kind; /* 0: integer, 1: float */
	u16 type_info; /* integer: bit 0 signed, bits 15:1 log2 of the width */
	char type_name[];
};

struct overflow_data {
	struct source_location location;
	struct type_descriptor *type;
};

struct shift_out_of_bounds_data {
	struct source_location location;
	struct type_descriptor *lhs_type;
	struct type_descriptor *rhs_type;
};

struct out_of_bounds_data {
	struct source_location location;
	struct type_descriptor *array_type;
	struct type_descriptor *index_type;
};

struct type_mismatch_data_v1 {
	struct source_location location;
	struct type_descriptor *type;
	u8 log_alignment;
	u8 type_check_kind;
};

struct unreachable_data {
	struct source_location location;
};

struct invalid_value_data {
	struct source_location location;
	struct type_descriptor *type;
};

struct vla_bound_data {
	struct source_location location;
	struct type_descriptor *type;
};

struct nonnull_arg_data {
	struct source_location location;
	struct source_location attr_location;
	int arg_index;
};

struct nonnull_return_data {
	struct source_location attr_location;
};

struct invalid_builtin_data {
	struct source_location location;
	u8 kind; /* 0: ctz, 1: clz */
};

#define REPORTED_BIT (1U << 31)
#define RULE                                                                   \
	"====================================================================" \
	"============"

static unsigned long nr_reports;
static int report_cpu = -1; /* the CPU printing a report, or -1 */
static unsigned long report_flags;

unsigned long ubsan_reports(void)
{
	return READ_ONCE(nr_reports);
}

/* Claim the site (once only) and the console's report slot. */
static bool ubsan_prologue(struct source_location *loc, const char *kind)
{
	int cpu = raw_smp_processor_id(), none = -1;
	unsigned long flags;

	if (__atomic_fetch_or(&loc->column, REPORTED_BIT, __ATOMIC_RELAXED) &
	    REPORTED_BIT)
		return false;
	local_irq_save(flags);
	if (READ_ONCE(report_cpu) == cpu) { /* a report inside a report */
		local_irq_restore(flags);
		return false;
	}
	while (!__atomic_compare_exchange_n(&report_cpu, &none, cpu, false,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		none = -1;
	report_flags = flags;
	__atomic_fetch_add(&nr_reports, 1, __ATOMIC_RELAXED);
	pr_err(RULE "\n");
	pr_err("UBSAN: %s in %s:%u:%u\n", kind, loc->file, loc->line,
	       loc->column & ~REPORTED_BIT);
	return true;
}

/*
 * The task, the stack of the code that did it, the closing rule. Inlined
 * into the handler, so its frame record leads to the code that failed.
 */
static __always_inline void ubsan_epilogue(void)
{
	u64 *frame = __builtin_frame_address(0);
	unsigned long flags = report_flags;

	pr_err("CPU: %u PID: %d Comm: %s\n", raw_smp_processor_id(),
	       current->pid, current->comm);
	dump_backtrace(frame[0], frame[1], false);
	pr_err(RULE "\n");
	__atomic_store_n(&report_cpu, -1, __ATOMIC_RELEASE);
	local_irq_restore(flags);
}

static unsigned int type_bits(const struct type_descriptor *type)
{
	return 1U << (type->type_info >> 1);
}

static bool type_signed(const struct type_descriptor *type)
{
	return type->type_kind == 0 && (type->type_info & 1);
}

/* A value of an integer type: in the argument itself if it fits. */
static void format_value(char *buf, size_t len,
			 const struct type_descriptor *type, void *val)
{
	unsigned int bits = type_bits(type);
	u64 v = (u64)val;

	if (type->type_kind != 0 || bits > 64) {
		scnprintf(buf, len, "(%u-bit value)", bits);
		return;
	}
	if (type_signed(type)) {
		unsigned int shift = 64 - bits;

		scnprintf(buf, len, "%lld", (long long)(v << shift) >> shift);
	} else {
		if (bits < 64)
			v &= (1ULL << bits) - 1;
		scnprintf(buf, len, "%llu", (unsigned long long)v);
	}
}

static bool value_negative(const struct type_descriptor *type, void *val)
{
	unsigned int bits = type_bits(type);

	return type_signed(type) && bits <= 64 && ((u64)val >> (bits - 1) & 1);
}

static void handle_overflow(struct overflow_data *data, void *lhs, void *rhs,
			    char op)
{
	char l[32], r[32];

	if (!ubsan_prologue(&data->location,
			    type_signed(data->type)
				    ? "signed-integer-overflow"
				    : "unsigned-integer-overflow"))
		return;
	format_value(l, sizeof(l), data->type, lhs);
	format_value(r, sizeof(r), data->type, rhs);
	pr_err("%s %c %s cannot be represented in type %s\n", l, op, r,
	       data->type->type_name);
	ubsan_epilogue();
}

void __ubsan_handle_add_overflow(struct overflow_data *data, void *lhs,
				 void *rhs)
{
	handle_overflow(data, lhs, rhs, '+');
}

void __ubsan_handle_sub_overflow(struct overflow_data *data, void *lhs,
				 void *rhs)
{
	handle_overflow(data, lhs, rhs, '-');
}

void __ubsan_handle_mul_overflow(struct overflow_data *data, void *lhs,
				 void *rhs)
{
	handle_overflow(data, lhs, rhs, '*');
}

void __ubsan_handle_negate_overflow(struct overflow_data *data, void *old)
{
	char v[32];

	if (!ubsan_prologue(&data->location, "negation-overflow"))
		return;
	format_value(v, sizeof(v), data->type, old);
	pr_err("negation of %s cannot be represented in type %s\n", v,
	       data->type->type_name);
	ubsan_epilogue();
}

void __ubsan_handle_divrem_overflow(struct overflow_data *data, void *lhs,
				    void *rhs)
{
	char l[32];

	if (!ubsan_prologue(&data->location, "division-overflow"))
		return;
	format_value(l, sizeof(l), data->type, lhs);
	if (type_signed(data->type) && (long long)rhs == -1)
		pr_err("division of %s by -1 cannot be represented in type "
		       "%s\n",
		       l, data->type->type_name);
	else
		pr_err("division by zero\n");
	ubsan_epilogue();
}

void __ubsan_handle_shift_out_of_bounds(struct shift_out_of_bounds_data *data,
					void *lhs, void *rhs)
{
	struct type_descriptor *lt = data->lhs_type, *rt = data->rhs_type;
	char l[32], r[32];

	if (!ubsan_prologue(&data->location, "shift-out-of-bounds"))
		return;
	format_value(l, sizeof(l), lt, lhs);
	format_value(r, sizeof(r), rt, rhs);
	if (value_negative(rt, rhs))
		pr_err("shift exponent %s is negative\n", r);
	else if ((u64)rhs >= type_bits(lt))
		pr_err("shift exponent %s is too large for %u-bit type %s\n", r,
		       type_bits(lt), lt->type_name);
	else if (value_negative(lt, lhs))
		pr_err("left shift of negative value %s\n", l);
	else
		pr_err("left shift of %s by %s places cannot be represented "
		       "in type %s\n",
		       l, r, lt->type_name);
	ubsan_epilogue();
}

void __ubsan_handle_out_of_bounds(struct out_of_bounds_data *data, void *index)
{
	char i[32];

	if (!ubsan_prologue(&data->location, "array-index-out-of-bounds"))
		return;
	format_value(i, sizeof(i), data->index_type, index);
	pr_err("index %s is out of range for type %s\n", i,
	       data->array_type->type_name);
	ubsan_epilogue();
}

static const char *const type_check_kinds[] = {
	"load of",
	"store to",
	"reference binding to",
	"member access within",
	"member call on",
	"constructor call on",
	"downcast of",
	"downcast of",
	"upcast of",
	"cast to virtual base of",
	"_Nonnull binding to",
	"dynamic operation on",
};

void __ubsan_handle_type_mismatch_v1(struct type_mismatch_data_v1 *data,
				     void *ptr)
{
	u64 align = 1UL << data->log_alignment;
	const char *what = data->type_check_kind < ARRAY_SIZE(type_check_kinds)
				   ? type_check_kinds[data->type_check_kind]
				   : "access to";

	if (!ptr) {
		if (!ubsan_prologue(&data->location, "null-ptr-deref"))
			return;
		pr_err("%s null pointer of type %s\n", what,
		       data->type->type_name);
	} else if (data->log_alignment && ((u64)ptr & (align - 1))) {
		if (!ubsan_prologue(&data->location, "misaligned-access"))
			return;
		pr_err("%s misaligned address %p for type %s\n", what, ptr,
		       data->type->type_name);
		pr_err("which requires %llu byte alignment\n",
		       (unsigned long long)align);
	} else {
		if (!ubsan_prologue(&data->location, "object-size-mismatch"))
			return;
		pr_err("%s address %p with insufficient space\n", what, ptr);
		pr_err("for an object of type %s\n", data->type->type_name);
	}
	ubsan_epilogue();
}

void __ubsan_handle_load_invalid_value(struct invalid_value_data *data,
				       void *val)
{
	char v[32];

	if (!ubsan_prologue(&data->location, "invalid-load"))
		return;
	format_value(v, sizeof(v), data->type, val);
	pr_err("load of value %s is not a valid value for type %s\n", v,
	       data->type->type_name);
	ubsan_epilogue();
}

void __ubsan_handle_vla_bound_not_positive(struct vla_bound_data *data,
					   void *bound)
{
	char v[32];

	if (!ubsan_prologue(&data->location, "vla-bound-not-positive"))
		return;
	format_value(v, sizeof(v), data->type, bound);
	pr_err("variable length array bound evaluates to non-positive value "
	       "%s\n",
	       v);
	ubsan_epilogue();
}

void __ubsan_handle_nonnull_arg(struct nonnull_arg_data *data)
{
	if (!ubsan_prologue(&data->location, "nonnull-arg"))
		return;
	pr_err("null pointer passed as argument %d, which is declared to "
	       "never be null\n",
	       data->arg_index);
	ubsan_epilogue();
}

void __ubsan_handle_nonnull_return_v1(struct nonnull_return_data *data,
				      struct source_location *loc)
{
	if (!ubsan_prologue(loc, "nonnull-return"))
		return;
	pr_err("null pointer returned from function declared to never "
	       "return null\n");
	ubsan_epilogue();
}

void __ubsan_handle_invalid_builtin(struct invalid_builtin_data *data)
{
	if (!ubsan_prologue(&data->location, "invalid-builtin-use"))
		return;
	pr_err("passing zero to %s, which is not a valid argument\n",
	       data->kind ? "__builtin_clz()" : "__builtin_ctz()");
	ubsan_epilogue();
}

/* Control reached __builtin_unreachable(): nothing sane follows. */
void __ubsan_handle_builtin_unreachable(struct unreachable_data *data)
{
	if (ubsan_prologue(&data->location, "unreachable")) {
		pr_err("calling __builtin_unreachable()\n");
		ubsan_epilogue();
	}
	panic("UBSAN: unreachable code reached");
}
