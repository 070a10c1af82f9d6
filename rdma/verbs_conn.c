// SPDX-License-Identifier: MIT
/* Encoding of dpath_vconn into the bootstrap's bytes; the verify pattern. */
#include <errno.h>
#include <arpa/inet.h>
#include <inttypes.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "rdma/verbs_conn.h"
#include "rdma/verbs_internal.h"
#include "common/log.h"

#define VCONN_MAGIC 0x56504249u /* "IBPV" */
#define VCONN_VERSION 2

struct cursor {
	uint8_t *p;
	const uint8_t *end;
};

static void put(struct cursor *c, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		*c->p++ = (uint8_t)(v >> (8 * i));
}

static uint64_t get(struct cursor *c, int bytes)
{
	uint64_t v = 0;

	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)*c->p++ << (8 * i);
	return v;
}

void dpath_vconn_encode(const struct dpath_vconn *c,
			struct dpath_conn_info *info)
{
	struct cursor w = { info->bytes, info->bytes + sizeof(info->bytes) };

	memset(info, 0, sizeof(*info));
	put(&w, VCONN_MAGIC, 4);
	put(&w, VCONN_VERSION, 1);
	put(&w, c->nqps, 1);
	put(&w, c->lid, 2);
	memcpy(w.p, c->gid, 16);
	w.p += 16;
	put(&w, (uint8_t)c->gid_index, 1);
	put(&w, c->mtu_code, 1);
	put(&w, c->rkey, 4);
	put(&w, c->src_addr, 8);
	put(&w, c->dst_addr, 8);
	put(&w, c->msg_size, 8);
	put(&w, c->seed, 8);
	put(&w, c->cm_family, 1);
	memcpy(w.p, c->cm_addr, 16);
	w.p += 16;
	put(&w, c->cm_port, 2);
	for (int i = 0; i < c->nqps && i < DPATH_MAX_QPS; i++) {
		put(&w, c->qpn[i], 4);
		put(&w, c->psn[i], 4);
	}
}

int dpath_vconn_decode(const struct dpath_conn_info *info,
		       struct dpath_vconn *c)
{
	struct cursor r = { (uint8_t *)info->bytes,
			    info->bytes + sizeof(info->bytes) };

	memset(c, 0, sizeof(*c));
	if (get(&r, 4) != VCONN_MAGIC || get(&r, 1) != VCONN_VERSION)
		return -EPROTO;
	c->nqps = (uint8_t)get(&r, 1);
	c->lid = (uint16_t)get(&r, 2);
	memcpy(c->gid, r.p, 16);
	r.p += 16;
	c->gid_index = (int8_t)get(&r, 1);
	c->mtu_code = (uint8_t)get(&r, 1);
	c->rkey = (uint32_t)get(&r, 4);
	c->src_addr = get(&r, 8);
	c->dst_addr = get(&r, 8);
	c->msg_size = get(&r, 8);
	c->seed = get(&r, 8);
	c->cm_family = (uint8_t)get(&r, 1);
	memcpy(c->cm_addr, r.p, 16);
	r.p += 16;
	c->cm_port = (uint16_t)get(&r, 2);
	if (c->nqps < 1 || c->nqps > DPATH_MAX_QPS || !c->msg_size)
		return -EINVAL;
	for (int i = 0; i < c->nqps; i++) {
		c->qpn[i] = (uint32_t)get(&r, 4);
		c->psn[i] = (uint32_t)get(&r, 4);
	}
	return 0;
}

void dpath_vconn_set_cm_addr(struct dpath_vconn *c,
			     const struct sockaddr_storage *addr)
{
	memset(c->cm_addr, 0, sizeof(c->cm_addr));
	c->cm_family = (uint8_t)addr->ss_family;
	if (addr->ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)addr;

		memcpy(c->cm_addr, &in6->sin6_addr, 16);
		c->cm_port = ntohs(in6->sin6_port);
	} else {
		const struct sockaddr_in *in = (const void *)addr;

		memcpy(c->cm_addr, &in->sin_addr, 4);
		c->cm_port = ntohs(in->sin_port);
	}
}

int dpath_vconn_get_cm_addr(const struct dpath_vconn *c,
			    struct sockaddr_storage *addr)
{
	memset(addr, 0, sizeof(*addr));
	if (c->cm_family == AF_INET6) {
		struct sockaddr_in6 *in6 = (void *)addr;

		in6->sin6_family = AF_INET6;
		memcpy(&in6->sin6_addr, c->cm_addr, 16);
		in6->sin6_port = htons(c->cm_port);
	} else if (c->cm_family == AF_INET) {
		struct sockaddr_in *in = (void *)addr;

		in->sin_family = AF_INET;
		memcpy(&in->sin_addr, c->cm_addr, 4);
		in->sin_port = htons(c->cm_port);
	} else {
		return -ENOENT;
	}
	return 0;
}

bool dpath_vconn_cm_first(const struct dpath_vconn *a,
			  const struct dpath_vconn *b)
{
	int c = memcmp(a->cm_addr, b->cm_addr, sizeof(a->cm_addr));

	if (a->cm_family != b->cm_family)
		return a->cm_family < b->cm_family;
	return c ? c < 0 : a->cm_port < b->cm_port;
}

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

void dpath_pattern_fill(void *buf, size_t len, uint64_t seed)
{
	uint64_t *w = buf;

	for (size_t i = 0; i < len / 8; i++)
		w[i] = splitmix64(seed ^ i);
}

long dpath_pattern_check(const void *buf, size_t len, uint64_t seed)
{
	const uint64_t *w = buf;

	for (size_t i = 0; i < len / 8; i++)
		if (w[i] != splitmix64(seed ^ i)) {
			const uint8_t *b = (const uint8_t *)&w[i];
			uint64_t want = splitmix64(seed ^ i);
			const uint8_t *x = (const uint8_t *)&want;
			int k = 0;

			while (b[k] == x[k])
				k++;
			return (long)(i * 8 + (size_t)k);
		}
	return -1;
}

int dpath_verbs_check_params(const struct dpath_port *port,
			     const struct dpath_params *p)
{
	const char *bad = NULL;

	if (p->qps < 1 || p->qps > DPATH_MAX_QPS)
		bad = "qps: expected 1..16";
	else if (p->msg_size < 1 || p->msg_size > (1ul << 30))
		bad = "message size: expected 1 byte .. 1 GiB";
	else if (p->tx_depth < 1 || p->tx_depth > 8192)
		bad = "tx depth: expected 1..8192";
	else if (!(p->duration_s > 0) || !(p->warmup_s >= 0))
		bad = "duration: expected > 0 s, warm-up >= 0 s";
	else if (!(p->stall_s > 0))
		bad = "stall time: expected > 0 s";
	else if (p->retry_cnt < 0 || p->retry_cnt > 7)
		bad = "retry count: expected 0..7";
	else if (p->qp_timeout < 0 || p->qp_timeout > 31)
		bad = "QP timeout: expected 0..31";
	if (!bad)
		return 0;
	log_error("%s port %d: %s", port->ca, port->port, bad);
	return -EINVAL;
}

int dpath_verbs_check_peer(const char *name, const struct dpath_params *p,
			   const struct dpath_vconn *peer)
{
	if (peer->nqps == p->qps && peer->msg_size == p->msg_size)
		return 0;
	log_error("%s: peer uses %d QPs of %" PRIu64
		  " bytes, this end %d QPs of %zu bytes",
		  name, peer->nqps, peer->msg_size, p->qps, p->msg_size);
	return -EINVAL;
}

void dpath_vconn_av(const struct dpath_vconn *r, int port_num, int gid_index,
		    int sl, struct ibv_ah_attr *av)
{
	memset(av, 0, sizeof(*av));
	av->dlid = r->lid;
	av->sl = (uint8_t)sl;
	av->port_num = (uint8_t)port_num;
	if (gid_index >= 0) {
		av->is_global = 1;
		av->grh.hop_limit = 64;
		av->grh.sgid_index = (uint8_t)gid_index;
		memcpy(av->grh.dgid.raw, r->gid, 16);
	}
}
