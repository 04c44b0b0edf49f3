/*
 * The wake-up latency limit for idle states (Linux's cpu_latency_qos):
 * the smallest of `cpuidle.latency_us=` and every active request. A
 * driver or test that cannot wait long for a CPU to wake adds a request;
 * the idle governor never picks a state whose exit latency exceeds the
 * limit. The limit is recomputed on each change and read locklessly by
 * every idle entry.
 */
#include <kernel/cpuidle.h>
#include <kernel/params.h>
#include <kernel/spinlock.h>
#include <lib/kernel.h>

static unsigned long boot_latency_us = U32_MAX;
param_ulong("cpuidle.latency_us", boot_latency_us, 0, U32_MAX,
	    "US: wake-up latency limit for idle states (default none)");

static DEFINE_SPINLOCK(qos_lock);
static struct cpu_latency_req *requests;
static u32 limit_us = U32_MAX;
static bool limit_ready;

/* Under qos_lock. */
static void update_limit(void)
{
	u32 limit = (u32)boot_latency_us;

	for (struct cpu_latency_req *r = requests; r; r = r->next)
		limit = min(limit, r->latency_us);
	WRITE_ONCE(limit_us, limit);
	limit_ready = true;
}

void cpu_latency_qos_add_request(struct cpu_latency_req *req, u32 us)
{
	unsigned long flags;

	spin_lock_irqsave(&qos_lock, flags);
	if (!req->active) {
		req->latency_us = us;
		req->active = true;
		req->next = requests;
		requests = req;
	} else {
		req->latency_us = us; /* an update */
	}
	update_limit();
	spin_unlock_irqrestore(&qos_lock, flags);
}

void cpu_latency_qos_remove_request(struct cpu_latency_req *req)
{
	unsigned long flags;

	spin_lock_irqsave(&qos_lock, flags);
	for (struct cpu_latency_req **p = &requests; *p; p = &(*p)->next)
		if (*p == req) {
			*p = req->next;
			break;
		}
	req->active = false;
	update_limit();
	spin_unlock_irqrestore(&qos_lock, flags);
}

u32 cpu_latency_qos_limit(void)
{
	/* Before any request, the command line's word alone. */
	return READ_ONCE(limit_ready) ? READ_ONCE(limit_us)
				      : (u32)boot_latency_us;
}
