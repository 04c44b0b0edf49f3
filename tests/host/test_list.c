/*
 * Host tests of include/lib/list.h: order of insertion, deletion and
 * poisoning, moves and splices, and the iterators.
 */
#include <lib/list.h>

#include "ktest_host.h"

struct item {
	int value;
	struct list_head node;
};

/* The values of the list, in order, as a string such as "1,2,3". */
static const char *values(const struct list_head *head)
{
	static char buf[128];
	const struct list_head *pos;
	size_t len = 0;

	buf[0] = '\0';
	for (pos = head->next; pos != head; pos = pos->next)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%d",
				len ? "," : "",
				list_entry(pos, struct item, node)->value);
	return buf;
}

/* Number the items 1, 2, ... (times scale), not yet on any list. */
static void number(struct item *it, int n, int scale)
{
	int i;

	for (i = 0; i < n; i++)
		it[i].value = (i + 1) * scale;
}

/* Do the prev pointers mirror the next pointers all the way round? */
static int consistent(const struct list_head *head)
{
	const struct list_head *pos = head;

	do {
		if (pos->next->prev != pos)
			return 0;
		pos = pos->next;
	} while (pos != head);
	return 1;
}

/* Is a new head, static or initialised at run time, an empty list? */
static void new_heads_are_empty(void)
{
	static LIST_HEAD(fixed);
	struct list_head dynamic;

	INIT_LIST_HEAD(&dynamic);
	KEXPECT(list_empty(&fixed));
	KEXPECT(list_empty(&dynamic));
	KEXPECT(consistent(&fixed));
	KEXPECT_STREQ(values(&dynamic), "");
}

/* Does list_add push at the front and list_add_tail append at the back? */
static void add_and_add_tail_order(void)
{
	struct item it[4];
	LIST_HEAD(head);

	number(it, 4, 1);
	list_add_tail(&it[1].node, &head);
	list_add(&it[0].node, &head);
	list_add_tail(&it[2].node, &head);
	list_add_tail(&it[3].node, &head);
	KEXPECT_STREQ(values(&head), "1,2,3,4");
	KEXPECT(consistent(&head));
	KEXPECT(!list_empty(&head));
	KEXPECT(list_is_last(&it[3].node, &head));
	KEXPECT(!list_is_last(&it[2].node, &head));
	KEXPECT_EQ(list_first_entry(&head, struct item, node)->value, 1);
	KEXPECT_EQ(list_last_entry(&head, struct item, node)->value, 4);
}

/* Does list_del unlink the entry and poison its pointers? */
static void del_unlinks_and_poisons(void)
{
	struct item it[3];
	LIST_HEAD(head);
	int i;

	number(it, 3, 1);
	for (i = 0; i < 3; i++)
		list_add_tail(&it[i].node, &head);
	list_del(&it[1].node);
	KEXPECT_STREQ(values(&head), "1,3");
	KEXPECT(consistent(&head));
	KEXPECT(it[1].node.next == LIST_POISON1);
	KEXPECT(it[1].node.prev == LIST_POISON2);
	list_del(&it[0].node);
	list_del(&it[2].node);
	KEXPECT(list_empty(&head));
	KEXPECT(consistent(&head));
}

/* Does list_del_init leave the entry an empty list of its own? */
static void del_init_leaves_empty_entry(void)
{
	struct item a = {.value = 1}, b = {.value = 2};
	LIST_HEAD(head);

	list_add_tail(&a.node, &head);
	list_add_tail(&b.node, &head);
	list_del_init(&a.node);
	KEXPECT(list_empty(&a.node));
	KEXPECT_STREQ(values(&head), "2");
	/* Deleting it again is harmless: it only points at itself. */
	list_del_init(&a.node);
	KEXPECT(list_empty(&a.node));
	KEXPECT_STREQ(values(&head), "2");
}

/* Does list_move_tail move an entry to the back of another list, or its own? */
static void move_tail_moves_entry(void)
{
	struct item it[4];
	LIST_HEAD(x);
	LIST_HEAD(y);

	number(it, 4, 1);
	list_add_tail(&it[0].node, &x);
	list_add_tail(&it[1].node, &x);
	list_add_tail(&it[2].node, &y);
	list_move_tail(&it[0].node, &y);
	KEXPECT_STREQ(values(&x), "2");
	KEXPECT_STREQ(values(&y), "3,1");
	list_add_tail(&it[3].node, &y);
	list_move_tail(&it[2].node, &y);
	KEXPECT_STREQ(values(&y), "1,4,3");
	KEXPECT(consistent(&x) && consistent(&y));
}

/* Does list_splice_tail_init append a whole list and leave it empty? */
static void splice_tail_init_appends_and_empties(void)
{
	struct item it[5];
	LIST_HEAD(dst);
	LIST_HEAD(src);
	int i;

	number(it, 5, 1);
	list_splice_tail_init(&src, &dst);
	KEXPECT(list_empty(&dst) && list_empty(&src));
	for (i = 0; i < 2; i++)
		list_add_tail(&it[i].node, &dst);
	for (i = 2; i < 5; i++)
		list_add_tail(&it[i].node, &src);
	list_splice_tail_init(&src, &dst);
	KEXPECT_STREQ(values(&dst), "1,2,3,4,5");
	KEXPECT(list_empty(&src));
	KEXPECT(consistent(&dst));
	list_splice_tail_init(&src, &dst);
	KEXPECT_STREQ(values(&dst), "1,2,3,4,5");
	/* Into an empty list. */
	list_splice_tail_init(&dst, &src);
	KEXPECT_STREQ(values(&src), "1,2,3,4,5");
	KEXPECT(list_empty(&dst));
	KEXPECT(consistent(&src));
}

/* Do list_for_each and list_for_each_entry visit every entry in order? */
static void iterators_visit_in_order(void)
{
	struct item it[3];
	struct list_head *pos;
	struct item *item;
	LIST_HEAD(head);
	int i, sum = 0, count = 0;

	number(it, 3, 10);
	for (i = 0; i < 3; i++)
		list_add_tail(&it[i].node, &head);
	list_for_each (pos, &head)
		KEXPECT(pos == &it[count++].node);
	KEXPECT_EQ(count, 3);
	count = 0;
	list_for_each_entry (item, &head, node) {
		KEXPECT(item == &it[count++]);
		sum += item->value;
	}
	KEXPECT_EQ(sum, 60);
	INIT_LIST_HEAD(&head);
	list_for_each_entry (item, &head, node)
		KEXPECT(!"an empty list has no entries");
}

/* May list_for_each_entry_safe delete the entry it is on? */
static void safe_iterator_allows_deletion(void)
{
	struct item it[5];
	struct item *item, *next;
	LIST_HEAD(head);
	int i;

	number(it, 5, 1);
	for (i = 0; i < 5; i++)
		list_add_tail(&it[i].node, &head);
	list_for_each_entry_safe (item, next, &head, node) {
		if (item->value % 2)
			list_del(&item->node);
	}
	KEXPECT_STREQ(values(&head), "2,4");
	list_for_each_entry_safe (item, next, &head, node)
		list_del(&item->node);
	KEXPECT(list_empty(&head));
}

static const struct ktest_case cases[] = {
	KTEST(new_heads_are_empty),
	KTEST(add_and_add_tail_order),
	KTEST(del_unlinks_and_poisons),
	KTEST(del_init_leaves_empty_entry),
	KTEST(move_tail_moves_entry),
	KTEST(splice_tail_init_appends_and_empties),
	KTEST(iterators_visit_in_order),
	KTEST(safe_iterator_allows_deletion),
};

KTEST_MAIN(cases)
