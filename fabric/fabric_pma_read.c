// SPDX-License-Identifier: MIT
/*
 * fabric_pma_read.c: PMA counters of a list of (LID, port) through the
 * ops table (fabric_ops.h): PortCounters, ClassPortInfo once per node,
 * PortCountersExtended where advertised. No libibmad call here: mad_ops.c
 * sends the batches.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "fabric/fabric_pma_read.h"

/* Queries per batch call: the budget is checked between slices. */
#define SLICE 64

/* ops->batch() in slices until the deadline (0: none); the queries left
 * when it passes fail with -ETIMEDOUT unsent. */
static void batch_until(const struct fabric_pma_ops *ops, struct fabric_pma *h,
			struct fabric_pma_req *q, size_t n, double deadline)
{
	for (size_t at = 0; at < n; at += SLICE) {
		if (deadline > 0 && clock_mono_now() >= deadline) {
			for (; at < n; at++)
				q[at].status = -ETIMEDOUT;
			return;
		}
		ops->batch(h, q + at, n - at < SLICE ? n - at : SLICE);
	}
}

struct lid_index {
	uint16_t lid;
	size_t i;
};

static int cmp_lid(const void *a, const void *b)
{
	const struct lid_index *x = a, *y = b;

	if (x->lid != y->lid)
		return (x->lid > y->lid) - (x->lid < y->lid);
	return (x->i > y->i) - (x->i < y->i);
}

/* Phase 1: PortCounters of every target. */
static int read_counters(const struct fabric_pma_ops *ops, struct fabric_pma *h,
			 struct fabric_pma_target *t, size_t n, double deadline)
{
	struct fabric_pma_req *q = calloc(n ? n : 1, sizeof(*q));
	int read = 0;

	if (!q)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		memset(&t[i].pc, 0, sizeof(t[i].pc));
		q[i] = (struct fabric_pma_req){ .lid = t[i].lid,
						.port = t[i].port,
						.kind = FABRIC_PMA_COUNTERS,
						.out = &t[i].pc,
						.tag = (int)i };
	}
	batch_until(ops, h, q, n, deadline);
	for (size_t i = 0; i < n; i++) {
		t[i].status = q[i].status == -EREMOTEIO ? -EREMOTEIO
			      : q[i].status		? -ETIMEDOUT
							: 0;
		t[i].mad_status = q[i].mad_status;
		read += !q[i].status;
	}
	free(q);
	return read;
}

/*
 * Phase 2: ClassPortInfo of each LID whose answer is not known yet, one
 * query per LID (order[] sorts the targets by LID); the answer is copied
 * to every target of that LID. A LID that does not answer stays unknown.
 */
static int read_class_info(const struct fabric_pma_ops *ops,
			   struct fabric_pma *h, struct fabric_pma_target *t,
			   const struct lid_index *order, size_t n,
			   double deadline)
{
	struct fabric_pma_req *q = calloc(n ? n : 1, sizeof(*q));
	size_t nq = 0;

	if (!q)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		const struct fabric_pma_target *x = &t[order[k].i];

		if (x->ext != FABRIC_PMA_EXT_UNKNOWN || x->status ||
		    (nq && q[nq - 1].lid == x->lid))
			continue;
		q[nq++] = (struct fabric_pma_req){
			.lid = x->lid,
			.port = x->port,
			.kind = FABRIC_PMA_CLASS_INFO
		};
	}
	batch_until(ops, h, q, nq, deadline);
	for (size_t k = 0, j = 0; k < n && j < nq; k++) {
		struct fabric_pma_target *x = &t[order[k].i];

		while (j < nq && q[j].lid < x->lid)
			j++;
		if (j < nq && q[j].lid == x->lid && !q[j].status)
			x->ext = q[j].ext ? FABRIC_PMA_EXT_YES
					  : FABRIC_PMA_EXT_NO;
	}
	free(q);
	return 0;
}

/* Phase 3: PortCountersExtended where advertised: 64-bit data. */
static int read_extended(const struct fabric_pma_ops *ops, struct fabric_pma *h,
			 struct fabric_pma_target *t, size_t n, double deadline)
{
	struct fabric_pma_req *q = calloc(n ? n : 1, sizeof(*q));
	struct fabric_pc *ext = calloc(n ? n : 1, sizeof(*ext));
	size_t nq = 0;

	if (!q || !ext) {
		free(q);
		free(ext);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (t[i].status || t[i].ext != FABRIC_PMA_EXT_YES)
			continue;
		q[nq] = (struct fabric_pma_req){
			.lid = t[i].lid,
			.port = t[i].port,
			.kind = FABRIC_PMA_COUNTERS_EXT,
			.out = &ext[nq],
			.tag = (int)i,
		};
		nq++;
	}
	batch_until(ops, h, q, nq, deadline);
	for (size_t k = 0; k < nq; k++) {
		struct fabric_pc *pc = &t[q[k].tag].pc;

		if (q[k].status)
			continue;
		memcpy(&pc->v[IB_PC_XMIT_DATA], &q[k].out->v[IB_PC_XMIT_DATA],
		       (IB_PC_COUNT - IB_PC_XMIT_DATA) * sizeof(pc->v[0]));
		pc->ext = true;
	}
	free(q);
	free(ext);
	return 0;
}

int fabric_pma_read_ports(const struct fabric_pma_ops *ops,
			  struct fabric_pma *h, struct fabric_pma_target *t,
			  size_t n, unsigned budget_ms)
{
	double deadline = budget_ms ? clock_mono_now() + budget_ms / 1e3 : 0;
	struct lid_index *order = calloc(n ? n : 1, sizeof(*order));
	int read;

	if (!order)
		return -ENOMEM;
	read = read_counters(ops, h, t, n, deadline);
	for (size_t i = 0; i < n; i++)
		order[i] = (struct lid_index){ t[i].lid, i };
	qsort(order, n, sizeof(*order), cmp_lid);
	if (read >= 0 && (read_class_info(ops, h, t, order, n, deadline) ||
			  read_extended(ops, h, t, n, deadline)))
		read = -ENOMEM;
	free(order);
	return read;
}
