/*
 * Intrusive circular doubly-linked lists, with the Linux names and meanings.
 *
 * A struct list_head is embedded in each element and one more is the list's
 * head; an empty list is a head that points at itself. Nothing here locks:
 * the owner of the list says which lock protects it.
 */
#ifndef LIB_LIST_H
#define LIB_LIST_H

#include <lib/kernel.h>
#include <lib/types.h>

struct list_head {
	struct list_head *next, *prev;
};

/*
 * What list_del leaves in an entry's pointers: non-canonical addresses, so a
 * use after deletion faults at once instead of corrupting a live list.
 */
#define LIST_POISON1 ((struct list_head *)0xdead000000000100UL)
#define LIST_POISON2 ((struct list_head *)0xdead000000000122UL)

/* clang-format off */
#define LIST_HEAD_INIT(name) { &(name), &(name) }
/* clang-format on */
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

/* Link new between two entries known to be adjacent. */
static inline void __list_add(struct list_head *new, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = new;
	new->next = next;
	new->prev = prev;
	prev->next = new;
}

/* Insert new right after head: a stack push. */
static inline void list_add(struct list_head *new, struct list_head *head)
{
	__list_add(new, head, head->next);
}

/* Insert new right before head, at the end of the list: a queue append. */
static inline void list_add_tail(struct list_head *new, struct list_head *head)
{
	__list_add(new, head->prev, head);
}

static inline void __list_del_entry(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	entry->prev->next = entry->next;
}

/* Unlink entry; it is poisoned and must not be used until re-added. */
static inline void list_del(struct list_head *entry)
{
	__list_del_entry(entry);
	entry->next = LIST_POISON1;
	entry->prev = LIST_POISON2;
}

/* Unlink entry and make it an empty list, so list_empty(entry) holds. */
static inline void list_del_init(struct list_head *entry)
{
	__list_del_entry(entry);
	INIT_LIST_HEAD(entry);
}

static inline bool list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

static inline bool list_is_last(const struct list_head *entry,
				const struct list_head *head)
{
	return entry->next == head;
}

/* Move entry from whatever list it is on to the end of head. */
static inline void list_move_tail(struct list_head *entry,
				  struct list_head *head)
{
	__list_del_entry(entry);
	list_add_tail(entry, head);
}

/* Append all of list to head, and leave list empty. */
static inline void list_splice_tail_init(struct list_head *list,
					 struct list_head *head)
{
	struct list_head *first = list->next, *last = list->prev;

	if (list_empty(list))
		return;
	first->prev = head->prev;
	head->prev->next = first;
	last->next = head;
	head->prev = last;
	INIT_LIST_HEAD(list);
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
/* The list must not be empty. */
#define list_first_entry(head, type, member) \
	list_entry((head)->next, type, member)
#define list_last_entry(head, type, member) \
	list_entry((head)->prev, type, member)
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)

#define list_for_each(pos, head) \
	for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

#define list_for_each_entry(pos, head, member)                           \
	for ((pos) = list_first_entry(head, __typeof__(*(pos)), member); \
	     &(pos)->member != (head); (pos) = list_next_entry(pos, member))

/* Safe against removal of pos: n already holds the next entry. */
#define list_for_each_entry_safe(pos, n, head, member)                   \
	for ((pos) = list_first_entry(head, __typeof__(*(pos)), member), \
	    (n) = list_next_entry(pos, member);                          \
	     &(pos)->member != (head);                                   \
	     (pos) = (n), (n) = list_next_entry(n, member))

#endif
