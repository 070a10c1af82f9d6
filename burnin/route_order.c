// SPDX-License-Identifier: MIT
/*
 * route_order.c: the routing engine's host order, in which shifts load
 * every cable once. opensm's ftree writes it (opensm-ftree-ca-order.dump:
 * leaf by leaf, each leaf padded to the same number of slots with DUMMY
 * lines); without it the order is derived from the tables: hosts grouped
 * by leaf (leaves of one pod together), and within a leaf by the up-port
 * another leaf sends to it through (the d in d-mod-k). Then route-aware
 * all-pairs: shift k sends slot i to slot i + k.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/route_plan.h"
#include "common/array.h"
#include "common/hashmap.h"
#include "common/lines.h"
#include "common/log.h"

struct host_key {
	int ca, leaf, key, port;
};

struct leaf_info {
	uint64_t guid, pod;
	int pos;
};

struct order_ctx {
	struct route_ctx *c;
	int *slot_ca; /* slot -> CA index, -1 hole */
	size_t n, cap;
	struct lines *in;
	int *ca_of_lid; /* [FABRIC LIDs] */
};

static int push_slot(struct order_ctx *o, int ca)
{
	int *v;

	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 256;
		v = realloc(o->slot_ca, o->cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		o->slot_ca = v;
	}
	o->slot_ca[o->n++] = ca;
	return 0;
}

/* ---- opensm-ftree-ca-order.dump ---- */

#define LID_MAX 0xbfff
#define PATH_MAX_CABLES 64

static int order_line(void *arg, char *line)
{
	struct order_ctx *o = arg;
	char *end;
	unsigned long lid;

	errno = 0;
	lid = strtoul(line, &end, 16);
	if (errno || end == line || (*end && *end != ' ' && *end != '\t') ||
	    (lid > LID_MAX && lid != 0xffff))
		return lines_error(o->in, "expected \"0xLID<TAB>NAME\" (LID "
					  "0x1-0xbfff, or 0xFFFF DUMMY)");
	return push_slot(o, lid > LID_MAX || !lid ? -1 : o->ca_of_lid[lid]);
}

static int read_order(struct order_ctx *o, const char *path, char *err,
		      size_t err_len)
{
	const struct burnin_routes *r = o->c->r;
	struct lines in = { 0 };
	int i, rc;

	o->ca_of_lid = malloc((LID_MAX + 1) * sizeof(int));
	if (!o->ca_of_lid)
		return -ENOMEM;
	for (i = 0; i <= LID_MAX; i++)
		o->ca_of_lid[i] = -1;
	for (i = 0; i < burnin_routes_n_cas(r); i++)
		if (burnin_routes_ca(r, i)->lid &&
		    burnin_routes_ca(r, i)->lid <= LID_MAX)
			o->ca_of_lid[burnin_routes_ca(r, i)->lid] = i;
	o->in = &in;
	rc = lines_open(&in, path, err, err_len);
	if (!rc)
		rc = lines_each(&in, order_line, o);
	if (!rc && !o->n) {
		snprintf(err, err_len,
			 "%s: expected \"0xLID<TAB>NAME\" lines "
			 "(opensm-ftree-ca-order.dump)",
			 path);
		rc = -EINVAL;
	}
	lines_close(&in);
	free(o->ca_of_lid);
	o->ca_of_lid = NULL;
	return rc;
}

/* ---- derived from the tables ---- */

static int cmp_leaf(const void *a, const void *b)
{
	const struct leaf_info *x = a, *y = b;

	if (x->pod != y->pod)
		return x->pod < y->pod ? -1 : 1;
	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

static int cmp_host(const void *a, const void *b)
{
	const struct host_key *x = a, *y = b;

	if (x->leaf != y->leaf)
		return x->leaf - y->leaf;
	if (x->key != y->key)
		return x->key - y->key;
	return x->port - y->port;
}

static int cmp_port(const void *a, const void *b)
{
	return ((const struct host_key *)a)->port -
	       ((const struct host_key *)b)->port;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* key[ca] = rank of the up-cable of leaf guid that routes to ca. */
static int up_keys(const struct route_ctx *c, uint64_t leaf, int *key)
{
	const struct burnin_routes *r = c->r;
	int i, j, n = 0, nc = burnin_routes_n_cables(r);
	int ncas = burnin_routes_n_cas(r), *ups, *dsts, nd;

	ups = malloc((size_t)(nc ? nc : 1) * sizeof(*ups));
	dsts = malloc((size_t)(ncas ? ncas : 1) * sizeof(*dsts));
	if (!ups || !dsts) {
		free(ups);
		free(dsts);
		return -ENOMEM;
	}
	for (i = 0; i < nc; i++)
		if (c->cable_up[i] &&
		    burnin_routes_cable(r, i)->from_guid == leaf)
			ups[n++] =
				burnin_routes_cable(r, i)->from_port << 20 | i;
	qsort(ups, (size_t)n, sizeof(*ups), cmp_int);
	for (i = 0; i < n; i++) {
		nd = burnin_routes_cable_dsts(r, ups[i] & 0xfffff, dsts, ncas);
		for (j = 0; j < nd && j < ncas; j++)
			key[dsts[j]] = i;
	}
	free(ups);
	free(dsts);
	return 0;
}

struct derive {
	struct leaf_info *leaves;
	int n_leaves;
	struct hashmap leaf_idx;
	struct host_key *hosts;
	int n_hosts;
	int *key_a, *key_b; /* up-port keys seen from two leaves */
};

static int collect_leaves(const struct route_ctx *c, struct derive *d)
{
	const struct burnin_routes *r = c->r;
	const struct burnin_cable *k;
	int i, ncas = burnin_routes_n_cas(r);
	uint64_t idx;

	d->leaves = calloc((size_t)(ncas ? ncas : 1), sizeof(*d->leaves));
	d->hosts = calloc((size_t)(ncas ? ncas : 1), sizeof(*d->hosts));
	if (!d->leaves || !d->hosts)
		return -ENOMEM;
	for (i = 0; i < ncas; i++) {
		k = burnin_routes_cable(r, burnin_routes_ca(r, i)->leaf_cable);
		if (!k || k->inter_switch)
			continue;
		if (!hashmap_get(&d->leaf_idx, k->to_guid, &idx)) {
			idx = (uint64_t)d->n_leaves;
			if (hashmap_put(&d->leaf_idx, k->to_guid, idx))
				return -ENOMEM;
			d->leaves[d->n_leaves++] =
				(struct leaf_info){ k->to_guid, UINT64_MAX, 0 };
		}
		d->hosts[d->n_hosts++] =
			(struct host_key){ i, (int)idx, -1, k->to_port };
	}
	return 0;
}

/* A leaf's pod: the lowest GUID its up-links reach; leaves sorted. */
static void sort_leaves(const struct route_ctx *c, struct derive *d)
{
	const struct burnin_cable *k;
	uint64_t idx;
	int i;

	for (i = 0; i < burnin_routes_n_cables(c->r); i++) {
		k = burnin_routes_cable(c->r, i);
		if (c->cable_up[i] &&
		    hashmap_get(&d->leaf_idx, k->from_guid, &idx) &&
		    k->to_guid < d->leaves[idx].pod)
			d->leaves[idx].pod = k->to_guid;
	}
	for (i = 0; i < d->n_leaves; i++)
		d->leaves[i].pos = i;
	qsort(d->leaves, (size_t)d->n_leaves, sizeof(*d->leaves), cmp_leaf);
}

static int host_keys(const struct route_ctx *c, struct derive *d)
{
	int i, ncas = burnin_routes_n_cas(c->r), *pos_of;
	int rc;

	d->key_a = malloc((size_t)(ncas ? ncas : 1) * sizeof(int));
	d->key_b = malloc((size_t)(ncas ? ncas : 1) * sizeof(int));
	pos_of = malloc((size_t)(d->n_leaves ? d->n_leaves : 1) * sizeof(int));
	if (!d->key_a || !d->key_b || !pos_of) {
		free(pos_of);
		return -ENOMEM;
	}
	for (i = 0; i < ncas; i++)
		d->key_a[i] = d->key_b[i] = -1;
	for (i = 0; i < d->n_leaves; i++)
		pos_of[d->leaves[i].pos] = i;
	rc = d->n_leaves > 0 ? up_keys(c, d->leaves[0].guid, d->key_a) : 0;
	if (!rc && d->n_leaves > 1)
		rc = up_keys(c, d->leaves[1].guid, d->key_b);
	for (i = 0; i < d->n_hosts; i++) {
		d->hosts[i].leaf = pos_of[d->hosts[i].leaf];
		d->hosts[i].key = d->hosts[i].leaf ? d->key_a[d->hosts[i].ca]
						   : d->key_b[d->hosts[i].ca];
	}
	free(pos_of);
	return rc;
}

/* Whether leaf's hosts [from, to) have distinct keys >= 0. */
static bool keys_unique(const struct host_key *h, int from, int to)
{
	int i;

	for (i = from; i < to; i++)
		if (h[i].key < 0 || (i > from && h[i].key == h[i - 1].key))
			return false;
	return true;
}

static int block_size(const struct derive *d)
{
	int i = 0, j, need, block = 1;

	while (i < d->n_hosts) {
		for (j = i;
		     j < d->n_hosts && d->hosts[j].leaf == d->hosts[i].leaf;
		     j++)
			;
		need = keys_unique(d->hosts, i, j) ? d->hosts[j - 1].key + 1
						   : j - i;
		if (need > block)
			block = need;
		i = j;
	}
	return block;
}

/* A leaf's hosts [i, j) into its block: at their keys when those are
 * distinct, else in leaf port order as ftree indexes them. */
static void place_leaf(struct order_ctx *o, struct host_key *h, int n, int base)
{
	bool by_key = keys_unique(h, 0, n);
	int k;

	if (!by_key)
		qsort(h, (size_t)n, sizeof(*h), cmp_port);
	for (k = 0; k < n; k++)
		o->slot_ca[base + (by_key ? h[k].key : k)] = h[k].ca;
}

static int place_hosts(struct order_ctx *o, const struct derive *d)
{
	int i = 0, j, block = block_size(d), rc;
	size_t total = (size_t)d->n_leaves * (size_t)block;

	while (o->n < total)
		if ((rc = push_slot(o, -1)))
			return rc;
	while (i < d->n_hosts) {
		for (j = i;
		     j < d->n_hosts && d->hosts[j].leaf == d->hosts[i].leaf;
		     j++)
			;
		place_leaf(o, &d->hosts[i], j - i, d->hosts[i].leaf * block);
		i = j;
	}
	return 0;
}

static int derive_order(struct order_ctx *o)
{
	struct derive d = { 0 };
	int rc = collect_leaves(o->c, &d);

	if (!rc) {
		sort_leaves(o->c, &d);
		rc = host_keys(o->c, &d);
	}
	if (!rc) {
		qsort(d.hosts, (size_t)d.n_hosts, sizeof(*d.hosts), cmp_host);
		rc = place_hosts(o, &d);
	}
	free(d.leaves);
	free(d.hosts);
	free(d.key_a);
	free(d.key_b);
	hashmap_free(&d.leaf_idx);
	return rc;
}

/* ---- slots ---- */

/* Slots of inventory ports; CAs of no slot and unmapped ports last. */
static int fill_slots(struct route_ctx *c, struct order_ctx *o)
{
	size_t i;
	int j, inv,
		*placed =
			calloc((size_t)(c->n_inv ? c->n_inv : 1), sizeof(int));

	c->slot_inv = malloc((o->n + (size_t)c->n_inv + 1) * sizeof(int));
	if (!placed || !c->slot_inv) {
		free(placed);
		return -ENOMEM;
	}
	for (i = 0; i < o->n; i++) {
		inv = o->slot_ca[i] >= 0 ? c->inv_of_ca[o->slot_ca[i]] : -1;
		if (inv >= 0 && placed[inv])
			inv = -1; /* a LID twice in the order */
		if (inv >= 0)
			placed[inv] = 1;
		c->slot_inv[c->n_slots++] = inv;
	}
	for (j = 0; j < c->n_inv; j++)
		if (!placed[j])
			c->slot_inv[c->n_slots++] = j;
	free(placed);
	return 0;
}

int route_order_build(struct route_ctx *c, const char *ca_order, char *err,
		      size_t err_len)
{
	struct order_ctx o = { .c = c };
	int rc;

	free(c->slot_inv);
	c->slot_inv = NULL;
	c->n_slots = 0;
	c->order_from_file = ca_order != NULL;
	rc = ca_order ? read_order(&o, ca_order, err, err_len)
		      : derive_order(&o);
	if (!rc)
		rc = fill_slots(c, &o);
	if (rc == -ENOMEM)
		snprintf(err, err_len, "out of memory");
	free(o.slot_ca);
	return rc;
}

struct shift_ctx {
	const struct route_ctx *c;
	int *stamp; /* cable loaded in the round being built when == tag */
	int tag;
	int *flows; /* [n_cables] ordered pairs routed over each cable */
	struct route_flows over; /* flows a shift could not take */
};

/* Flow a -> b (inventory) into the round being built when its cables are
 * free (stamped then), else kept over with its home round; 1 taken, 0
 * kept over, -ENOMEM. */
static int shift_flow(struct shift_ctx *x, int a, int b, int round)
{
	int ca = x->c->ca_of_inv[a], cb = x->c->ca_of_inv[b];
	int path[PATH_MAX_CABLES], n, i;

	if (ca < 0 || cb < 0)
		return 1; /* no routes: loads nothing known */
	n = burnin_routes_path(x->c->r, ca, cb, path, PATH_MAX_CABLES);
	for (i = 0; i < n; i++)
		x->flows[path[i]]++;
	for (i = 0; i < n; i++)
		if (x->stamp[path[i]] == x->tag)
			return route_flows_add(&x->over, ca, cb, round, path,
					       n);
	for (i = 0; i < n; i++)
		x->stamp[path[i]] = x->tag;
	return 1;
}

static int shift(struct shift_ctx *x, int k, struct burnin_schedule *s)
{
	const struct route_ctx *c = x->c;
	int i, a, b, rc = burnin_schedule_new_round(s);

	x->tag++;
	for (i = 0; !rc && i < c->n_slots; i++) {
		a = c->slot_inv[i];
		b = c->slot_inv[(i + k) % c->n_slots];
		if (a < 0 || b < 0)
			continue;
		rc = shift_flow(x, a, b, s->n_rounds - 1);
		if (rc > 0)
			rc = burnin_schedule_add(s, a, b);
	}
	if (!rc && !burnin_schedule_round_size(s, s->n_rounds - 1))
		s->n_rounds--; /* a shift of holes only */
	return rc;
}

/* L: the most flows on one cable (an inter-switch one on a tie), at
 * least the ports less one. */
static void lower_bound(const struct shift_ctx *x, struct route_bound *b)
{
	const struct burnin_routes *r = x->c->r;
	int k, best = -1;

	for (k = 0; k < burnin_routes_n_cables(r); k++)
		if (best < 0 || x->flows[k] > x->flows[best] ||
		    (x->flows[k] == x->flows[best] &&
		     burnin_routes_cable(r, k)->inter_switch &&
		     !burnin_routes_cable(r, best)->inter_switch))
			best = k;
	b->cable = best;
	b->flows = best >= 0 ? x->flows[best] : 0;
	b->lower = b->flows > x->c->n_inv - 1 ? b->flows : x->c->n_inv - 1;
}

/* The flows no shift could take alone, packed into extra rounds (with
 * max_rounds, up to it; then sharing the fewest cables). */
static int overflow(struct shift_ctx *x, int max_rounds,
		    struct burnin_schedule *s, struct route_bound *b)
{
	int shifts = s->n_rounds, rc;

	if (max_rounds > 0 && max_rounds < shifts)
		return -ERANGE;
	rc = route_pack_flows(x->c, &x->over,
			      max_rounds > 0 ? max_rounds - shifts : INT_MAX, s,
			      &b->shared);
	b->extra = s->n_rounds - shifts;
	return rc;
}

int route_all_pairs(const struct route_ctx *c, int max_rounds,
		    struct burnin_schedule *s, struct route_bound *bound)
{
	size_t nc = (size_t)burnin_routes_n_cables(c->r) + 1;
	struct shift_ctx x = { .c = c };
	struct route_bound b = { 0 };
	int k, rc = 0;

	memset(s, 0, sizeof(*s));
	s->duplex = true;
	x.stamp = calloc(nc, sizeof(int));
	x.flows = calloc(nc, sizeof(int));
	if (!x.stamp || !x.flows)
		rc = -ENOMEM;
	for (k = 1; !rc && k < c->n_slots; k++)
		rc = shift(&x, k, s);
	b.shifts = s->n_rounds;
	if (!rc) {
		lower_bound(&x, &b);
		rc = overflow(&x, max_rounds, s, &b);
	}
	if (bound)
		*bound = b;
	free(x.stamp);
	free(x.flows);
	route_flows_free(&x.over);
	return rc;
}
