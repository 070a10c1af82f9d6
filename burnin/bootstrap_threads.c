// SPDX-License-Identifier: MIT
/*
 * The in-process bootstrap: ranks are threads of one process and messages
 * go through a mailbox per receiving rank (one lock and one wake-up per
 * message: at hundreds of ranks a shared mailbox had every rank scan every
 * message and wake at every send). Used by the unit tests, and by `ibproof burnin`
 * started without an MPI launcher (the ports of one node against each
 * other). Also the clock and polling helpers every bootstrap shares.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "burnin/bootstrap.h"

struct mailbox_msg {
	struct mailbox_msg *next;
	int src, dst, tag;
	size_t len;
	unsigned char data[];
};

struct mailbox {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct mailbox_msg *head, **tail;
};

/* What every rank's bs->priv points to: the mailbox of each rank. */
struct mailboxes {
	int n;
	struct mailbox box[];
};

void burnin_poll_pause(int *spins)
{
	long us = *spins < 10 ? 20 : *spins < 100 ? 200 : 1000;
	struct timespec ts = { 0, us * 1000 };

	(*spins)++;
	nanosleep(&ts, NULL);
}

int burnin_bootstrap_recv(struct burnin_bootstrap *bs, int peer, int tag,
			  void *buf, size_t len, double deadline)
{
	bool got = false;

	return bs->ops->recv_many(bs, &peer, 1, tag, buf, len, &got, deadline);
}

static int threads_send(struct burnin_bootstrap *bs, int peer, int tag,
			const void *buf, size_t len, double deadline)
{
	struct mailboxes *all = bs->priv;
	struct mailbox *mb;
	struct mailbox_msg *m;

	(void)deadline;
	if (peer < 0 || peer >= all->n)
		return -EIO;
	mb = &all->box[peer];
	m = malloc(sizeof(*m) + len);
	if (!m)
		return -ENOMEM;
	*m = (struct mailbox_msg){ NULL, bs->rank, peer, tag, len };
	memcpy(m->data, buf, len);
	pthread_mutex_lock(&mb->lock);
	*mb->tail = m;
	mb->tail = &m->next;
	pthread_cond_broadcast(&mb->cond);
	pthread_mutex_unlock(&mb->lock);
	return 0;
}

/* Takes the first message from src to dst with tag; lock held. */
static bool take(struct mailbox *mb, int src, int dst, int tag, void *buf,
		 size_t len)
{
	for (struct mailbox_msg **p = &mb->head; *p; p = &(*p)->next) {
		struct mailbox_msg *m = *p;

		if (m->src != src || m->dst != dst || m->tag != tag)
			continue;
		memcpy(buf, m->data, m->len < len ? m->len : len);
		*p = m->next;
		if (!*p)
			mb->tail = p;
		free(m);
		return true;
	}
	return false;
}

static int threads_recv_many(struct burnin_bootstrap *bs, const int *peers,
			     int n, int tag, void *bufs, size_t len, bool *got,
			     double deadline)
{
	struct mailbox *mb = &((struct mailboxes *)bs->priv)->box[bs->rank];
	struct timespec ts;
	int left = n;

	ts.tv_sec = (time_t)deadline;
	ts.tv_nsec = (long)((deadline - (double)ts.tv_sec) * 1e9);
	memset(got, 0, (size_t)n * sizeof(*got));
	pthread_mutex_lock(&mb->lock);
	for (;;) {
		for (int i = 0; i < n; i++)
			if (!got[i] &&
			    take(mb, peers[i], bs->rank, tag,
				 (char *)bufs + (size_t)i * len, len)) {
				got[i] = true;
				left--;
			}
		if (!left || pthread_cond_timedwait(&mb->cond, &mb->lock, &ts))
			break;
	}
	for (int i = 0; left && i < n; i++) /* one last look */
		if (!got[i] && take(mb, peers[i], bs->rank, tag,
				    (char *)bufs + (size_t)i * len, len)) {
			got[i] = true;
			left--;
		}
	pthread_mutex_unlock(&mb->lock);
	return left ? -ETIMEDOUT : 0;
}

static int threads_exchange(struct burnin_bootstrap *bs, int peer, int tag,
			    const void *out, void *in, size_t len,
			    double deadline)
{
	int ret = threads_send(bs, peer, tag, out, len, deadline);

	return ret ? ret
		   : burnin_bootstrap_recv(bs, peer, tag, in, len, deadline);
}

static void threads_close(struct burnin_bootstrap *bs, bool failed)
{
	(void)bs;
	(void)failed; /* burnin_bootstrap_threads_free() cleans up */
}

static const struct burnin_bootstrap_ops threads_ops = {
	.name = "threads",
	.send = threads_send,
	.recv_many = threads_recv_many,
	.exchange = threads_exchange,
	.close = threads_close,
};

static void mailbox_init(struct mailbox *mb)
{
	pthread_condattr_t attr;

	pthread_mutex_init(&mb->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&mb->cond, &attr);
	pthread_condattr_destroy(&attr);
	mb->head = NULL;
	mb->tail = &mb->head;
}

static void mailbox_destroy(struct mailbox *mb)
{
	while (mb->head) {
		struct mailbox_msg *m = mb->head;

		mb->head = m->next;
		free(m);
	}
	pthread_mutex_destroy(&mb->lock);
	pthread_cond_destroy(&mb->cond);
}

int burnin_bootstrap_threads_open(int n, struct burnin_bootstrap **bs)
{
	struct mailboxes *all =
		calloc(1, sizeof(*all) + (size_t)n * sizeof(all->box[0]));

	if (!all)
		return -ENOMEM;
	all->n = n;
	for (int i = 0; i < n; i++)
		mailbox_init(&all->box[i]);
	for (int i = 0; i < n; i++) {
		bs[i] = calloc(1, sizeof(*bs[i]));
		if (!bs[i]) {
			if (!i) {
				for (int j = 0; j < n; j++)
					mailbox_destroy(&all->box[j]);
				free(all);
			}
			burnin_bootstrap_threads_free(bs, i);
			return -ENOMEM;
		}
		*bs[i] = (struct burnin_bootstrap){ .ops = &threads_ops,
						    .rank = i,
						    .size = n,
						    .local_rank = i,
						    .local_size = n,
						    .priv = all };
	}
	if (!n)
		free(all);
	return 0;
}

void burnin_bootstrap_threads_free(struct burnin_bootstrap **bs, int n)
{
	struct mailboxes *all = n ? bs[0]->priv : NULL;

	for (int i = 0; i < n; i++)
		free(bs[i]);
	if (!all)
		return;
	for (int i = 0; i < all->n; i++)
		mailbox_destroy(&all->box[i]);
	free(all);
}
