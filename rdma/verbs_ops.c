// SPDX-License-Identifier: MIT
/*
 * dpath_verbs_ops: the verbs data path. The ONLY file of ibproof with ibv_*
 * calls. One endpoint = one PD, one CQ, params->qps RC QPs and one MR of
 * [source pattern | destination] slices, one of msg_size per QP. The run
 * loop is in verbs_run.c (it drives this file through struct dpath_vio);
 * the port inventory bits that only sysfs knows are in port_sysfs.c. With
 * --cm rdmacm the QPs come from rdmacm_ops.c, on librdmacm's own context.
 */
#include <errno.h>
#include <linux/mempolicy.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "rdma/cm_addr.h"
#include "rdma/port_sysfs.h"
#include "rdma/rdmacm.h"
#include "rdma/verbs_conn.h"
#include "rdma/verbs_internal.h"
#include "rdma/verbs_run.h"
#include "common/ibport.h"
#include "common/log.h"

#define SYSFS_ROOT "/sys"
#define RECV_DEPTH 4 /* posted receives for the peer's done signal */
#define DONE_IMM 0x1b9d0e00u /* done signal: this | (run number & 0xff) */
/* ACK timeout 4.096 us * 2^14 = 67 ms per try, perftest's default. */
#define QP_TIMEOUT_DEFAULT 14
#define IDLE_WAIT_MS 100 /* longest sleep of an idle target */
#define WR_DATA 1ull
#define WR_DONE 2ull
#define WR_RECV 3ull

struct dpath_endpoint {
	struct dpath_port port;
	struct dpath_params params;
	char name[DPATH_NAME_MAX + 16]; /* "rxe0 port 1" */
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_comp_channel *channel; /* a target sleeps on it */
	bool armed; /* channel asked for the next CQE */
	struct ibv_qp *qp[DPATH_MAX_QPS];
	struct ibv_mr *mr;
	uint8_t *buf;
	size_t buf_len, slice; /* slice: msg_size rounded up to 64 */
	uint32_t psn[DPATH_MAX_QPS];
	uint64_t seed;
	enum ibv_mtu mtu;
	int rd_atom, max_cqe;
	struct dpath_vconn remote;
	bool connected;
	struct dpath_cm *cm; /* --cm rdmacm, else NULL */
	struct sockaddr_storage cm_addr; /* where cm listens */
	uint32_t
		run_seq; /* runs so far: a late done of an old run is ignored */
};

static uint8_t *ep_src(struct dpath_endpoint *ep, int q)
{
	return ep->buf + (size_t)q * ep->slice;
}

static uint8_t *ep_dst(struct dpath_endpoint *ep, int q)
{
	return ep->buf + (size_t)(ep->params.qps + q) * ep->slice;
}

/* ------------------------------------------------------------ inventory */

static void port_from_attr(struct dpath_port *p, const struct ibv_port_attr *a)
{
	long mbps;

	p->lid = a->lid;
	p->ethernet = a->link_layer == IBV_LINK_LAYER_ETHERNET;
	snprintf(p->state, sizeof(p->state), "%s",
		 ib_port_state_name(a->state));
	snprintf(p->phys_state, sizeof(p->phys_state), "%s",
		 ib_phys_state_name(a->phys_state));
	p->active_mtu = 128 << a->active_mtu;
	dpath_port_sysfs_fill(SYSFS_ROOT, p);
	mbps = dpath_netdev_speed_mbps(SYSFS_ROOT, p->netdev);
	if (p->ethernet)
		p->rate_gbps = dpath_port_rate_gbps(1, a->active_speed,
						    a->active_width, mbps);
	else
		dpath_port_set_ib_rate(SYSFS_ROOT, p, a->active_width,
				       a->active_speed);
}

/*
 * Append the selected ports of one device to *ports. *index counts every
 * port of the host (selected or not, any state): a port's rail.
 */
static int list_device_ports(struct ibv_device *dev, const char *filter,
			     struct dpath_port **ports, int *n, int *index)
{
	const char *ca = ibv_get_device_name(dev);
	struct ibv_context *ctx = ibv_open_device(dev);
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	int ret = 0;

	if (!ctx) {
		log_error("%s: ibv_open_device failed: %m", ca);
		return -errno;
	}
	if (ibv_query_device(ctx, &da)) {
		ret = -errno;
		log_error("%s: ibv_query_device failed: %m", ca);
		goto close;
	}
	for (int port = 1; port <= da.phys_port_cnt; port++) {
		struct dpath_port *p, *grown;
		int rail = (*index)++;

		if (!dpath_port_filter_match(filter, ca, port))
			continue;
		if (ibv_query_port(ctx, (uint8_t)port, &pa)) {
			ret = -errno;
			log_error("%s port %d: ibv_query_port failed: %m", ca,
				  port);
			goto close;
		}
		if (pa.state != IBV_PORT_ACTIVE && !(filter && filter[0]))
			continue;
		grown = realloc(*ports, (size_t)(*n + 1) * sizeof(**ports));
		if (!grown) {
			ret = -ENOMEM;
			goto close;
		}
		*ports = grown;
		p = memset(&grown[*n], 0, sizeof(*p));
		gethostname(p->host, sizeof(p->host)); /* 64 + NUL fit */
		snprintf(p->ca, sizeof(p->ca), "%s", ca);
		p->port = port;
		p->rail = rail;
		(*n)++;
		port_from_attr(p, &pa);
		if (pa.state != IBV_PORT_ACTIVE)
			log_warn("%s port %d: selected but %s", ca, port,
				 p->state);
	}
close:
	ibv_close_device(ctx);
	return ret;
}

/* mlx5_2 before mlx5_10: rails follow the devices' natural order. */
static int device_name_cmp(const void *a, const void *b)
{
	return strverscmp(ibv_get_device_name(*(struct ibv_device *const *)a),
			  ibv_get_device_name(*(struct ibv_device *const *)b));
}

static int verbs_list_ports(const char *filter, struct dpath_port **ports,
			    int *n_ports)
{
	struct ibv_device **devs;
	struct dpath_port *list = NULL;
	int ndev, n = 0, index = 0, ret = 0;

	devs = ibv_get_device_list(&ndev);
	if (!devs) {
		log_error("ibv_get_device_list failed: %m");
		return -errno;
	}
	qsort(devs, (size_t)ndev, sizeof(*devs), device_name_cmp);
	for (int i = 0; i < ndev && !ret; i++)
		ret = list_device_ports(devs[i], filter, &list, &n, &index);
	ibv_free_device_list(devs);
	if (ret) {
		free(list);
		return ret;
	}
	*ports = list;
	*n_ports = n;
	return 0;
}

/* ------------------------------------------------------------ endpoint */

/* The device context: our own, or librdmacm's (QPs made on CM ids). */
static int ep_open_context(struct dpath_endpoint *ep)
{
	struct ibv_device **devs;
	int ret = -ENODEV;

	if (ep->params.cm == DPATH_CM_RDMACM) {
		ep->ctx = dpath_cm_device(ep->port.ca);
		if (!ep->ctx)
			log_error("%s: librdmacm does not know this device",
				  ep->name);
		return ep->ctx ? 0 : -ENODEV;
	}
	devs = ibv_get_device_list(NULL);
	for (int i = 0; devs && devs[i] && !ep->ctx; i++) {
		if (strcmp(ibv_get_device_name(devs[i]), ep->port.ca))
			continue;
		ep->ctx = ibv_open_device(devs[i]);
		if (!ep->ctx) {
			ret = errno ? -errno : -ENODEV;
			log_error("%s: ibv_open_device failed: %m", ep->name);
		}
	}
	if (devs)
		ibv_free_device_list(devs);
	if (!ep->ctx && ret == -ENODEV)
		log_error("%s: no such RDMA device", ep->name);
	return ep->ctx ? 0 : ret;
}

static int ep_open(struct dpath_endpoint *ep)
{
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	int ret = ep_open_context(ep);

	if (ret)
		return ret;
	if (ibv_query_device(ep->ctx, &da) ||
	    ibv_query_port(ep->ctx, (uint8_t)ep->port.port, &pa)) {
		log_error("%s: ibv_query_device/port failed: %m", ep->name);
		return -errno;
	}
	ep->rd_atom = da.max_qp_rd_atom < 16 ? da.max_qp_rd_atom : 16;
	ep->max_cqe = da.max_cqe;
	ep->mtu = pa.active_mtu;
	return 0;
}

/* Anonymous memory preferring the port's NUMA node, pattern in the source. */
static int ep_alloc_buffer(struct dpath_endpoint *ep)
{
	long page = sysconf(_SC_PAGESIZE);
	int q, nq = ep->params.qps;

	ep->slice = (ep->params.msg_size + 63) & ~(size_t)63;
	ep->buf_len =
		(2 * nq * ep->slice + (size_t)page - 1) & ~((size_t)page - 1);
	ep->buf = mmap(NULL, ep->buf_len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ep->buf == MAP_FAILED) {
		ep->buf = NULL;
		log_error("%s: mmap of %zu bytes failed: %m", ep->name,
			  ep->buf_len);
		return -errno;
	}
	if (ep->port.numa_node >= 0 && ep->port.numa_node < 64) {
		unsigned long mask = 1ul << ep->port.numa_node;

		if (syscall(SYS_mbind, ep->buf, ep->buf_len, MPOL_PREFERRED,
			    &mask, 8 * sizeof(mask), 0))
			log_debug("%s: mbind to NUMA node %d failed: %m",
				  ep->name, ep->port.numa_node);
	}
	ep->seed = (uint64_t)getpid() << 32 ^ (uint64_t)(uintptr_t)ep ^
		   (uint64_t)time(NULL);
	for (q = 0; q < nq; q++)
		dpath_pattern_fill(ep_src(ep, q), ep->slice, ep->seed + q);
	memset(ep_dst(ep, 0), 0, nq * ep->slice);
	return 0;
}

static int ep_post_recv(struct dpath_endpoint *ep, int q)
{
	struct ibv_recv_wr wr = { .wr_id = WR_RECV << 32 | (uint64_t)q };
	struct ibv_recv_wr *bad;
	int ret = ibv_post_recv(ep->qp[q], &wr, &bad);

	if (ret)
		log_error("%s: ibv_post_recv failed: %s", ep->name,
			  strerror(ret));
	return -ret;
}

static struct ibv_qp_init_attr ep_qp_init_attr(struct dpath_endpoint *ep)
{
	return (struct ibv_qp_init_attr){
		.send_cq = ep->cq,
		.recv_cq = ep->cq,
		.cap = { .max_send_wr = (uint32_t)ep->params.tx_depth + 1,
			 .max_recv_wr = RECV_DEPTH,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
}

static int ep_create_qp(struct dpath_endpoint *ep, int q)
{
	struct ibv_qp_init_attr ia = ep_qp_init_attr(ep);
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = (uint8_t)ep->port.port,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE |
				   IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};

	ep->qp[q] = ibv_create_qp(ep->pd, &ia);
	if (!ep->qp[q]) {
		log_error("%s: ibv_create_qp failed: %m", ep->name);
		return errno ? -errno : -ENOMEM;
	}
	if (ibv_modify_qp(ep->qp[q], &a,
			  IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				  IBV_QP_ACCESS_FLAGS)) {
		log_error("%s: ibv_modify_qp to INIT failed: %m", ep->name);
		return -errno;
	}
	ep->psn[q] = (uint32_t)(ep->seed >> (q % 32)) & 0xffffff;
	for (int i = 0; q == 0 && i < RECV_DEPTH; i++)
		if (ep_post_recv(ep, q))
			return -EIO;
	return 0;
}

static int ep_create_objects(struct dpath_endpoint *ep)
{
	int cqe = ep->params.qps * (ep->params.tx_depth + 1) + RECV_DEPTH;
	int ret;

	ep->pd = ibv_alloc_pd(ep->ctx);
	if (!ep->pd) {
		log_error("%s: ibv_alloc_pd failed: %m", ep->name);
		return errno ? -errno : -ENOMEM;
	}
	ep->mr = ibv_reg_mr(ep->pd, ep->buf, ep->buf_len,
			    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				    IBV_ACCESS_REMOTE_READ);
	if (!ep->mr) {
		log_error("%s: ibv_reg_mr of %zu bytes failed: %m", ep->name,
			  ep->buf_len);
		return errno ? -errno : -ENOMEM;
	}
	if (cqe > ep->max_cqe) {
		log_error("%s: %d QPs x tx depth %d need %d CQ entries, the "
			  "device has %d",
			  ep->name, ep->params.qps, ep->params.tx_depth, cqe,
			  ep->max_cqe);
		return -EINVAL;
	}
	ep->channel = ibv_create_comp_channel(ep->ctx);
	if (!ep->channel)
		log_debug(
			"%s: no completion channel (%m): the target will poll",
			ep->name);
	ep->cq = ibv_create_cq(ep->ctx, cqe, NULL, ep->channel, 0);
	if (!ep->cq) {
		log_error("%s: ibv_create_cq failed: %m", ep->name);
		return errno ? -errno : -ENOMEM;
	}
	for (int q = 0; !ep->cm && q < ep->params.qps; q++)
		if ((ret = ep_create_qp(ep, q)))
			return ret;
	return 0;
}

/* --cm rdmacm: listen on the port's IP address for the peer's QPs. */
static int ep_cm_listen(struct dpath_endpoint *ep)
{
	struct sockaddr_storage local;
	char err[160];
	int ret = dpath_port_cm_addr(SYSFS_ROOT, &ep->port, &local, err,
				     sizeof(err));

	if (ret) {
		log_error("%s", err);
		return ret;
	}
	return dpath_cm_listen(&local, ep->name, &ep->cm, &ep->cm_addr);
}

static void verbs_endpoint_destroy(struct dpath_endpoint *ep)
{
	if (!ep)
		return;
	if (ep->cm) { /* its QPs first: they hold the CQ */
		dpath_cm_close(ep->cm);
		memset(ep->qp, 0, sizeof(ep->qp));
	}
	for (int q = 0; q < DPATH_MAX_QPS; q++)
		if (ep->qp[q] && ibv_destroy_qp(ep->qp[q]))
			log_warn("%s: ibv_destroy_qp failed: %m", ep->name);
	if (ep->cq && ibv_destroy_cq(ep->cq))
		log_warn("%s: ibv_destroy_cq failed: %m", ep->name);
	if (ep->channel && ibv_destroy_comp_channel(ep->channel))
		log_warn("%s: ibv_destroy_comp_channel failed: %m", ep->name);
	if (ep->mr && ibv_dereg_mr(ep->mr))
		log_warn("%s: ibv_dereg_mr failed: %m", ep->name);
	if (ep->pd && ibv_dealloc_pd(ep->pd))
		log_warn("%s: ibv_dealloc_pd failed: %m", ep->name);
	if (ep->ctx && ep->params.cm != DPATH_CM_RDMACM)
		ibv_close_device(ep->ctx); /* librdmacm's stays open */
	if (ep->buf)
		munmap(ep->buf, ep->buf_len);
	free(ep);
}

static int verbs_endpoint_create(const struct dpath_port *port,
				 const struct dpath_params *params,
				 struct dpath_endpoint **out)
{
	struct dpath_endpoint *ep;
	int ret;

	ret = dpath_verbs_check_params(port, params);
	if (ret)
		return ret;
	ep = calloc(1, sizeof(*ep));
	if (!ep)
		return -ENOMEM;
	ep->port = *port;
	ep->params = *params;
	snprintf(ep->name, sizeof(ep->name), "%s port %d", port->ca,
		 port->port);
	ret = ep_open(ep);
	if (!ret && params->cm == DPATH_CM_RDMACM)
		ret = ep_cm_listen(ep);
	if (!ret)
		ret = ep_alloc_buffer(ep);
	if (!ret)
		ret = ep_create_objects(ep);
	if (ret) {
		verbs_endpoint_destroy(ep);
		return ret;
	}
	*out = ep;
	return 0;
}

static void verbs_local_info(struct dpath_endpoint *ep,
			     struct dpath_conn_info *info)
{
	struct dpath_vconn c = {
		.lid = ep->port.lid,
		.gid_index = (int8_t)ep->port.gid_index,
		.mtu_code = (uint8_t)ep->mtu,
		.nqps = (uint8_t)ep->params.qps,
		.rkey = ep->mr->rkey,
		.src_addr = (uintptr_t)ep_src(ep, 0),
		.dst_addr = (uintptr_t)ep_dst(ep, 0),
		.msg_size = ep->params.msg_size,
		.seed = ep->seed,
	};

	memcpy(c.gid, ep->port.gid, sizeof(c.gid));
	for (int q = 0; !ep->cm && q < ep->params.qps; q++) {
		c.qpn[q] = ep->qp[q]->qp_num;
		c.psn[q] = ep->psn[q];
	}
	if (ep->cm)
		dpath_vconn_set_cm_addr(&c, &ep->cm_addr);
	dpath_vconn_encode(&c, info);
}

/* ------------------------------------------------------------ connect */

static int ep_qp_rtr(struct dpath_endpoint *ep, int q)
{
	const struct dpath_vconn *r = &ep->remote;
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = ep->mtu < r->mtu_code ? ep->mtu
						  : (enum ibv_mtu)r->mtu_code,
		.dest_qp_num = r->qpn[q],
		.rq_psn = r->psn[q],
		.max_dest_rd_atomic = (uint8_t)ep->rd_atom,
		.min_rnr_timer = 12,
	};

	dpath_vconn_av(r, ep->port.port, ep->port.gid_index, ep->params.sl,
		       &a.ah_attr);
	if (ibv_modify_qp(ep->qp[q], &a,
			  IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				  IBV_QP_MAX_DEST_RD_ATOMIC |
				  IBV_QP_MIN_RNR_TIMER)) {
		log_error("%s: ibv_modify_qp to RTR failed: %m", ep->name);
		return -errno;
	}
	return 0;
}

/* ACK timeout exponent of each try: --qp-timeout, else perftest's 14. */
static uint8_t ep_qp_timeout(const struct dpath_endpoint *ep)
{
	return (uint8_t)(ep->params.qp_timeout ? ep->params.qp_timeout
					       : QP_TIMEOUT_DEFAULT);
}

static int ep_qp_rts(struct dpath_endpoint *ep, int q)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTS,
		.timeout = ep_qp_timeout(ep),
		.retry_cnt = (uint8_t)ep->params.retry_cnt,
		.rnr_retry = 6, /* finite: 7 would retry forever */
		.sq_psn = ep->psn[q],
		.max_rd_atomic = (uint8_t)ep->rd_atom,
	};

	if (ibv_modify_qp(ep->qp[q], &a,
			  IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				  IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
				  IBV_QP_MAX_QP_RD_ATOMIC)) {
		log_error("%s: ibv_modify_qp to RTS failed: %m", ep->name);
		return -errno;
	}
	return 0;
}

/* --cm rdmacm: the end whose address sorts first connects. */
static int ep_cm_connect(struct dpath_endpoint *ep, char *err, size_t len)
{
	struct ibv_qp_init_attr init = ep_qp_init_attr(ep);
	struct dpath_cm_qp_attr attr = {
		.pd = ep->pd,
		.init = &init,
		.retry_cnt = (uint8_t)ep->params.retry_cnt,
		.rnr_retry = 6,
		.rd_atom = (uint8_t)ep->rd_atom,
		.ack_timeout = ep_qp_timeout(ep),
	};
	struct dpath_vconn mine = { 0 };
	struct sockaddr_storage peer;
	int ret;

	dpath_vconn_set_cm_addr(&mine, &ep->cm_addr);
	ret = dpath_vconn_get_cm_addr(&ep->remote, &peer);
	if (ret) {
		snprintf(err, len, "the peer did not send an rdma_cm address");
		log_error("%s: %s", ep->name, err);
		return ret;
	}
	ret = dpath_cm_connect(ep->cm, dpath_vconn_cm_first(&mine, &ep->remote),
			       &peer, ep->params.qps, &attr, ep->qp,
			       ep->params.connect_timeout_s, err, len);
	for (int i = 0; !ret && i < RECV_DEPTH; i++)
		ret = ep_post_recv(ep, 0) ? -EIO : 0;
	return ret;
}

static int verbs_connect(struct dpath_endpoint *ep,
			 const struct dpath_conn_info *remote,
			 struct dpath_result *res)
{
	int ret = dpath_vconn_decode(remote, &ep->remote);

	if (!ret)
		ret = dpath_verbs_check_peer(ep->name, &ep->params,
					     &ep->remote);
	if (!ret && ep->cm) {
		ret = ep_cm_connect(ep, res->error, sizeof(res->error));
		ep->connected = !ret;
		return ret;
	}
	for (int q = 0; !ret && q < ep->params.qps; q++) {
		ret = ep_qp_rtr(ep, q);
		if (!ret)
			ret = ep_qp_rts(ep, q);
	}
	ep->connected = !ret;
	return ret;
}

/* ------------------------------------------------------------ run */

static int vio_post_data(void *ctx, int q)
{
	struct dpath_endpoint *ep = ctx;
	bool write = ep->params.test == DPATH_TEST_WRITE;
	struct ibv_sge sge = {
		.addr = (uintptr_t)(write ? ep_src(ep, q) : ep_dst(ep, q)),
		.length = (uint32_t)ep->params.msg_size,
		.lkey = ep->mr->lkey,
	};
	struct ibv_send_wr wr = {
	    .wr_id = WR_DATA << 32 | (uint64_t)q,
	    .sg_list = &sge,
	    .num_sge = 1,
	    .opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ,
	    .send_flags = IBV_SEND_SIGNALED,
	    .wr.rdma =
		{
		    .remote_addr =
			(write ? ep->remote.dst_addr : ep->remote.src_addr) +
			(uint64_t)q * ep->slice,
		    .rkey = ep->remote.rkey,
		},
	};
	struct ibv_send_wr *bad;

	return -ibv_post_send(ep->qp[q], &wr, &bad);
}

static int vio_post_done(void *ctx)
{
	struct dpath_endpoint *ep = ctx;
	struct ibv_send_wr wr = {
		.wr_id = WR_DONE << 32,
		.opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.send_flags = IBV_SEND_SIGNALED,
		.imm_data = htobe32(DONE_IMM | (ep->run_seq & 0xff)),
		.wr.rdma = { .remote_addr = ep->remote.dst_addr,
			     .rkey = ep->remote.rkey },
	};
	struct ibv_send_wr *bad;

	return -ibv_post_send(ep->qp[0], &wr, &bad);
}

static int vio_poll(void *ctx, struct dpath_vcqe *out, int max)
{
	struct dpath_endpoint *ep = ctx;
	struct ibv_wc wc[32];
	int n = ibv_poll_cq(ep->cq, max < 32 ? max : 32, wc), k = 0;

	if (n < 0) {
		log_error("%s: ibv_poll_cq failed", ep->name);
		return -EIO;
	}
	for (int i = 0; i < n; i++) {
		uint64_t kind = wc[i].wr_id >> 32;
		struct dpath_vcqe *c = &out[k];

		c->qp = (int)(wc[i].wr_id & 0xffffffffu);
		c->ok = wc[i].status == IBV_WC_SUCCESS;
		c->status = ibv_wc_status_str(wc[i].status);
		c->bytes = ep->params.msg_size;
		c->kind = kind == WR_DATA   ? DPATH_CQE_DATA
			  : kind == WR_DONE ? DPATH_CQE_DONE_SENT
					    : DPATH_CQE_PEER_DONE;
		k++;
		if (kind != WR_RECV || !c->ok)
			continue;
		if (ep_post_recv(ep, c->qp))
			return -EIO;
		if (be32toh(wc[i].imm_data) !=
		    (DONE_IMM | (ep->run_seq & 0xff)))
			k--; /* the done signal of an earlier, failed run */
	}
	return k;
}

static int64_t vio_now_ns(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Nothing to poll: a target (which sees no completions until the peer's
 * done signal) sleeps on the completion channel instead of waking every
 * millisecond, which on a one-vCPU guest takes time from the kernel's
 * receive path. Arm first and return: the caller polls once more before
 * the next call sleeps, so a completion that raced the arming is not lost.
 * At most IDLE_WAIT_MS per call, so deadlines are still checked.
 */
static void vio_idle(void *ctx)
{
	struct dpath_endpoint *ep = ctx;
	struct timespec ts = { 0, 1000000 };
	struct pollfd pfd;
	struct ibv_cq *cq;
	void *cq_ctx;

	if (ep->channel && !ep->armed) {
		ep->armed = !ibv_req_notify_cq(ep->cq, 0);
		if (ep->armed)
			return;
	}
	if (!ep->channel || !ep->armed) {
		nanosleep(&ts, NULL);
		return;
	}
	pfd = (struct pollfd){ .fd = ep->channel->fd, .events = POLLIN };
	if (poll(&pfd, 1, IDLE_WAIT_MS) <= 0)
		return;
	if (!ibv_get_cq_event(ep->channel, &cq, &cq_ctx)) {
		ibv_ack_cq_events(cq, 1);
		ep->armed = false;
	}
}

/* The pattern the peer sent (WRITE) or we read (READ), then clear it. */
static int ep_verify(struct dpath_endpoint *ep, struct dpath_result *res)
{
	size_t len = ep->params.msg_size & ~(size_t)7;
	int ret = 0;

	for (int q = 0; q < ep->params.qps && !ret; q++) {
		long off = dpath_pattern_check(ep_dst(ep, q), len,
					       ep->remote.seed + (uint64_t)q);

		if (off < 0)
			continue;
		res->verify_failed = true;
		snprintf(res->error, sizeof(res->error),
			 "verify: data differs on qp %d at byte %ld", q, off);
		log_warn("%s: %s", ep->name, res->error);
		ret = -EBADMSG;
	}
	memset(ep_dst(ep, 0), 0, ep->params.qps * ep->slice);
	return ret;
}

static int verbs_run(struct dpath_endpoint *ep, enum dpath_role role,
		     struct dpath_result *res)
{
	const struct dpath_vio io = { ep,	vio_post_data, vio_post_done,
				      vio_poll, vio_now_ns,    vio_idle };
	bool write = ep->params.test == DPATH_TEST_WRITE;
	int ret;

	if (!ep->connected) {
		memset(res, 0, sizeof(*res));
		snprintf(res->error, sizeof(res->error), "not connected");
		return -ENOTCONN;
	}
	ret = dpath_vrun(&io, &ep->params, role, res);
	ep->run_seq++; /* both ends count runs alike */
	if (ret && res->error[0])
		log_debug("%s: %s", ep->name, res->error);
	if (!ret && ep->params.verify &&
	    (write ? role != DPATH_ROLE_INITIATOR : role != DPATH_ROLE_TARGET))
		ret = ep_verify(ep, res);
	return ret;
}

void dpath_verbs_set_warmup(struct dpath_endpoint *ep, double warmup_s)
{
	ep->params.warmup_s = warmup_s;
}

static int verbs_read_counters(const struct dpath_port *port,
			       char (*names)[DPATH_COUNTER_NAME_MAX],
			       uint64_t *values, int max, int *n)
{
	return dpath_port_sysfs_counters(SYSFS_ROOT, port->ca, port->port,
					 names, values, max, n);
}

const struct dpath_transport_ops dpath_verbs_ops = {
	.name = "verbs",
	.has_mad_port = true,
	.list_ports = verbs_list_ports,
	.endpoint_create = verbs_endpoint_create,
	.local_info = verbs_local_info,
	.connect = verbs_connect,
	.run = verbs_run,
	.endpoint_destroy = verbs_endpoint_destroy,
	.read_counters = verbs_read_counters,
};
