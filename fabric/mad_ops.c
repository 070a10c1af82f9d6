// SPDX-License-Identifier: MIT
/*
 * mad_ops.c: every libibmad (mad_*, pma_*) call of ibproof: PMA counters
 * (LID-routed: an SM must have assigned LIDs) and directed-route SMPs. The
 * PortInfo that ibnd_ops.c copies is decoded in fabric_portinfo.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "common/log.h"
#include "fabric/ar_info.h"
#include "fabric/fabric_ops.h"
#include "fabric/fabric_pma_decode.h"

#define PORT_CAP_EXT_SPEEDS (1u << 14) /* PortInfo IsExtendedSpeedsSupported */
#define PMA_WINDOW 16 /* PMA queries in flight on one handle */
#define PMA_BUF 1024

struct fabric_pma {
	struct ibmad_port *port;
	unsigned timeout_ms;
};

/* mad_rpc_open_port() with the timeout set; NULL (logged) on failure. */
static struct ibmad_port *open_port(const char *ca, int port, int *classes,
				    int nclasses, unsigned timeout_ms)
{
	struct ibmad_port *p =
		mad_rpc_open_port((char *)ca, port, classes, nclasses);

	if (!p) {
		log_error("%s port %d: mad_rpc_open_port failed: %m",
			  ca ? ca : "first CA", port);
		return NULL;
	}
	if (timeout_ms)
		mad_rpc_set_timeout(p, (int)timeout_ms);
	return p;
}

static int pma_open(const char *ca, int port, unsigned timeout_ms,
		    struct fabric_pma **out)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS,
			  IB_PERFORMANCE_CLASS };
	struct fabric_pma *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	h->port = open_port(ca, port, classes, 4, timeout_ms);
	if (!h->port) {
		free(h);
		return -EIO;
	}
	h->timeout_ms = timeout_ms;
	*out = h;
	return 0;
}

static const int pc_fields[IB_PC_COUNT] = {
	IB_PC_ERR_SYM_F,	IB_PC_LINK_RECOVERS_F,	IB_PC_LINK_DOWNED_F,
	IB_PC_ERR_RCV_F,	IB_PC_ERR_PHYSRCV_F,	IB_PC_ERR_SWITCH_REL_F,
	IB_PC_XMT_DISCARDS_F,	IB_PC_ERR_XMTCONSTR_F,	IB_PC_ERR_RCVCONSTR_F,
	IB_PC_ERR_LOCALINTEG_F, IB_PC_ERR_EXCESS_OVR_F, IB_PC_VL15_DROPPED_F,
	IB_PC_XMT_WAIT_F,	IB_PC_XMT_BYTES_F,	IB_PC_RCV_BYTES_F,
	IB_PC_XMT_PKTS_F,	IB_PC_RCV_PKTS_F,
};

static int pma_reset(struct fabric_pma *h, uint16_t lid, int port, bool ext)
{
	uint8_t buf[1024] = { 0 };
	ib_portid_t id = { 0 };

	ib_portid_set(&id, lid, 0, 0);
	if (!performance_reset_via(buf, &id, port, 0xffffffff, h->timeout_ms,
				   IB_GSI_PORT_COUNTERS, h->port))
		return -ETIMEDOUT;
	memset(buf, 0, sizeof(buf));
	if (ext &&
	    !performance_reset_via(buf, &id, port, 0xffffffff, h->timeout_ms,
				   IB_GSI_PORT_COUNTERS_EXT, h->port))
		return -ETIMEDOUT;
	return 0;
}

struct pma_slot {
	struct fabric_pma_req *req;
	uint32_t trid;
	double deadline; /* monotonic ms */
};

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static unsigned pma_timeout(const struct fabric_pma *h)
{
	return h->timeout_ms ? h->timeout_ms : 1000;
}

static int pma_send(struct fabric_pma *h, struct fabric_pma_req *q,
		    uint32_t *trid)
{
	static const int attr[] = { [FABRIC_PMA_COUNTERS] =
					    IB_GSI_PORT_COUNTERS,
				    [FABRIC_PMA_COUNTERS_EXT] =
					    IB_GSI_PORT_COUNTERS_EXT,
				    [FABRIC_PMA_CLASS_INFO] = CLASS_PORT_INFO };
	uint8_t buf[PMA_BUF] = { 0 }, data[IB_PC_DATA_SZ] = { 0 };
	ib_portid_t id = { 0 };
	ib_rpc_t rpc = { 0 };
	int len;

	ib_portid_set(&id, q->lid, 1, IB_DEFAULT_QP1_QKEY);
	rpc.mgtclass = IB_PERFORMANCE_CLASS;
	rpc.method = IB_MAD_METHOD_GET;
	rpc.attr.id = attr[q->kind];
	rpc.timeout = h->timeout_ms;
	rpc.datasz = IB_PC_DATA_SZ;
	rpc.dataoffs = IB_PC_DATA_OFFS;
	rpc.trid = mad_trid();
	if (q->kind != FABRIC_PMA_CLASS_INFO)
		mad_set_field(data, 0, IB_PC_PORT_SELECT_F, q->port);
	len = mad_build_pkt(buf, &rpc, &id, NULL, data);
	if (len < 0)
		return -EINVAL;
	*trid = (uint32_t)mad_get_field64(umad_get_mad(buf), 0, IB_MAD_TRID_F);
	if (umad_send(mad_rpc_portid(h->port),
		      mad_rpc_class_agent(h->port, IB_PERFORMANCE_CLASS), buf,
		      len, (int)pma_timeout(h), 0) < 0)
		return -EIO;
	return 0;
}

static void pma_decode(struct fabric_pma_req *q, uint8_t *mad)
{
	uint8_t *d = mad + IB_PC_DATA_OFFS;
	uint32_t v32;
	int i;

	if (q->kind == FABRIC_PMA_CLASS_INFO) {
		fabric_pma_decode_cpi(d, &q->ext, &q->ext_err);
	} else if (q->kind == FABRIC_PMA_COUNTERS) {
		for (i = 0; i < IB_PC_COUNT; i++) {
			v32 = 0;
			mad_decode_field(d, pc_fields[i], &v32);
			q->out->v[i] = v32;
		}
	} else {
		fabric_pma_decode_ext(d, q->ext_err, q->out);
	}
	q->status = 0;
}

/* An answer: decoded, or its non-zero MAD status kept (a refusal is not
 * a silence: busy, unsupported attribute ...). */
static void pma_answer(struct fabric_pma_req *q, uint8_t *mad)
{
	unsigned st = mad_get_field(mad, 0, IB_MAD_STATUS_F);

	if (!st) {
		pma_decode(q, mad);
		return;
	}
	q->status = -EREMOTEIO;
	q->mad_status = (uint16_t)st;
}

/* Waits for one answer until the earliest deadline; matches it to its
 * slot. Returns the number of slots freed (answered or expired). */
static int pma_receive(struct fabric_pma *h, struct pma_slot *win, int n)
{
	uint8_t buf[PMA_BUF], *mad;
	double first = 0, now;
	int len = PMA_BUF - (int)umad_size(), i, freed = 0;
	uint32_t trid;

	for (i = 0; i < n; i++)
		if (win[i].req && (!first || win[i].deadline < first))
			first = win[i].deadline;
	now = mono_ms();
	if (umad_recv(mad_rpc_portid(h->port), buf, &len,
		      first > now ? (int)(first - now) + 1 : 1) < 0) {
		now = mono_ms();
		for (i = 0; i < n; i++) { /* expire the late ones */
			if (win[i].req && win[i].deadline <= now) {
				win[i].req = NULL;
				freed++;
			}
		}
		return freed;
	}
	mad = umad_get_mad(buf);
	trid = (uint32_t)mad_get_field64(mad, 0, IB_MAD_TRID_F);
	for (i = 0; i < n; i++) {
		if (!win[i].req || win[i].trid != trid)
			continue;
		if (!umad_status(buf))
			pma_answer(win[i].req, mad);
		win[i].req = NULL;
		return 1;
	}
	return 0; /* a late answer to a request given up on */
}

/* Sends up to PMA_WINDOW queries at once and matches answers by TID:
 * a fabric read is bound by round trips, not by work. A query not
 * answered within the timeout fails alone. */
static int pma_batch(struct fabric_pma *h, struct fabric_pma_req *q, size_t n)
{
	struct pma_slot win[PMA_WINDOW] = { { 0 } };
	size_t next = 0, k;
	int i, busy = 0;

	for (k = 0; k < n; k++) {
		q[k].status = -ETIMEDOUT;
		q[k].mad_status = 0;
	}
	while (next < n || busy) {
		for (i = 0; i < PMA_WINDOW && next < n; i++) {
			if (win[i].req)
				continue;
			if (!pma_send(h, &q[next], &win[i].trid)) {
				win[i].req = &q[next];
				win[i].deadline = mono_ms() + pma_timeout(h);
				busy++;
			}
			next++;
		}
		if (busy)
			busy -= pma_receive(h, win, PMA_WINDOW);
	}
	return 0;
}

static void pma_close(struct fabric_pma *h)
{
	if (!h)
		return;
	mad_rpc_close_port(h->port);
	free(h);
}

const struct fabric_pma_ops fabric_mad_pma_ops = {
	.open = pma_open,
	.batch = pma_batch,
	.reset = pma_reset,
	.close = pma_close,
};

/*
 * SMPs by directed route only (LID-routed SMPs are not guaranteed to reach
 * switches in XDR fabrics): switch tables, and module bytes via CableInfo.
 */
struct fabric_smp {
	struct ibmad_port *port;
	unsigned timeout_ms;
};

static int smp_open(const char *ca, int port, unsigned timeout_ms, int retries,
		    struct fabric_smp **out)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
	struct fabric_smp *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	h->port = open_port(ca, port, classes, 2, timeout_ms);
	if (!h->port) {
		free(h);
		return -EIO;
	}
	h->timeout_ms = timeout_ms;
	mad_rpc_set_retries(h->port, retries);
	*out = h;
	return 0;
}

static int dr_portid(ib_portid_t *id, const uint8_t *path, int hops)
{
	if (hops < 0 || hops >= IB_SUBNET_PATH_HOPS_MAX)
		return -EINVAL;
	memset(id, 0, sizeof(*id));
	id->drpath.cnt = hops;
	memcpy(id->drpath.p, path, (size_t)hops + 1);
	id->drpath.drslid = 0xffff;
	id->drpath.drdlid = 0xffff;
	return 0;
}

/* One SMP Get: 0; -ETIMEDOUT (no answer); -EREMOTEIO with *mad_status
 * (libibmad's rstatus: the status of the answer, D bit excluded). */
static int smp_get(struct fabric_smp *h, uint8_t *buf, ib_portid_t *id,
		   unsigned attr, unsigned mod, int *mad_status)
{
	int st = 0;

	if (smp_query_status_via(buf, id, attr, mod, h->timeout_ms, &st,
				 h->port))
		return 0;
	if (!st)
		return -ETIMEDOUT;
	*mad_status = st;
	return -EREMOTEIO;
}

static int smp_read_lft(struct fabric_smp *h, const uint8_t *path, int hops,
			uint16_t *top, uint8_t *ports, int *mad_status)
{
	uint8_t buf[IB_SMP_DATA_SIZE] = { 0 };
	ib_portid_t id;
	unsigned t, blk;
	int rc;

	*mad_status = 0;
	if (dr_portid(&id, path, hops))
		return -EINVAL;
	rc = smp_get(h, buf, &id, IB_ATTR_SWITCH_INFO, 0, mad_status);
	if (rc)
		return rc;
	t = mad_get_field(buf, 0, IB_SW_LINEAR_FDB_TOP_F);
	if (t > 0xbfff)
		return -EPROTO;
	*top = (uint16_t)t;
	for (blk = 0; blk <= t / IB_SMP_DATA_SIZE; blk++) {
		rc = smp_get(h, buf, &id, IB_ATTR_LINEARFORWTBL, blk,
			     mad_status);
		if (rc)
			return rc;
		memcpy(ports + blk * IB_SMP_DATA_SIZE, buf,
		       blk == t / IB_SMP_DATA_SIZE ? t % IB_SMP_DATA_SIZE + 1
						   : IB_SMP_DATA_SIZE);
	}
	return 0;
}

/*
 * CableInfo (0xFF60), the SMP the Linux mlx4 driver sends for module
 * EEPROM reads: request and answer share the SMP data area, {i2c address,
 * page, address (BE16), reserved, size (BE16), 8 reserved, 48 data}. The
 * attribute modifier is the port. ibsim does not answer it; this path has
 * not met real firmware here (docs/fabric.md).
 */
#define CABLEINFO_ATTR 0xff60
#define CABLEINFO_DATA 16

static int smp_read_cableinfo(struct fabric_smp *h, const uint8_t *path,
			      int hops, int port, int i2c, int page, int offset,
			      int len, unsigned timeout_ms, uint8_t *buf,
			      int *status)
{
	uint8_t data[IB_SMP_DATA_SIZE] = { 0 };
	ib_portid_t id;
	int rstatus = 0;

	*status = 0;
	if (len > 48 || dr_portid(&id, path, hops))
		return -EINVAL;
	data[0] = (uint8_t)i2c;
	data[1] = (uint8_t)page;
	data[2] = (uint8_t)(offset >> 8);
	data[3] = (uint8_t)offset;
	data[6] = (uint8_t)(len >> 8);
	data[7] = (uint8_t)len;
	if (!smp_query_status_via(data, &id, CABLEINFO_ATTR, (unsigned)port,
				  timeout_ms, &rstatus, h->port)) {
		if (!rstatus)
			return -ETIMEDOUT;
		*status = (rstatus >> 8) & 0xff ? (rstatus >> 8) & 0xff
						: -rstatus;
		return -EIO;
	}
	memcpy(buf, data + CABLEINFO_DATA, (size_t)len);
	return 0;
}

static int smp_read_ar_info(struct fabric_smp *h, const uint8_t *path, int hops,
			    uint8_t *buf, int *status)
{
	uint8_t data[IB_SMP_DATA_SIZE] = { 0 };
	ib_portid_t id;
	int rc;

	*status = 0;
	if (dr_portid(&id, path, hops))
		return -EINVAL;
	rc = smp_get(h, data, &id, FABRIC_AR_ATTR, 0, status);
	if (!rc)
		memcpy(buf, data, FABRIC_AR_INFO_BYTES);
	return rc;
}

static void smp_close(struct fabric_smp *h)
{
	if (h)
		mad_rpc_close_port(h->port);
	free(h);
}

static void smp_set_mkey(struct fabric_smp *h, uint64_t mkey)
{
	smp_mkey_set(h->port, mkey);
}

const struct fabric_smp_ops fabric_mad_smp_ops = {
	.open = smp_open,
	.read_lft = smp_read_lft,
	.read_cableinfo = smp_read_cableinfo,
	.read_ar_info = smp_read_ar_info,
	.close = smp_close,
	.set_mkey = smp_set_mkey,
};
