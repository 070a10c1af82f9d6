// SPDX-License-Identifier: MIT
/*
 * Connection setup through librdmacm: the ONLY file of ibproof with rdma_*
 * calls. One event channel per endpoint, polled with a deadline (never a
 * blocking rdma_get_cm_event); one listener; one CM id per QP. The active
 * end connects its QPs one by one and names each in the private data; the
 * passive end accepts whatever QP index arrives.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/rdma_cma.h>

#include "common/clock.h"
#include "rdma/cm_addr.h"
#include "rdma/rdmacm.h"
#include "rdma/transport.h"
#include "common/log.h"

#define CM_MAGIC 0x49425043u /* "IBPC" in the private data */

struct dpath_cm {
	char name[DPATH_NAME_MAX + 16];
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listen;
	struct rdma_cm_id *id[DPATH_MAX_QPS];
	struct sockaddr_storage local;
};

struct cm_private {
	uint32_t magic;
	uint32_t qp;
};

static int ms_left(double deadline)
{
	double left = deadline - clock_mono_now();

	return left <= 0 ? 0 : left > 60 ? 60000 : (int)(left * 1000) + 1;
}

struct ibv_context *dpath_cm_device(const char *ca)
{
	struct ibv_context **list, *found = NULL;
	int n = 0;

	list = rdma_get_devices(&n);
	for (int i = 0; list && i < n && !found; i++)
		if (!strcmp(list[i]->device->name, ca))
			found = list[i];
	if (list)
		rdma_free_devices(list);
	return found;
}

static void set_port(struct sockaddr_storage *a, uint16_t port_be)
{
	if (a->ss_family == AF_INET6)
		((struct sockaddr_in6 *)a)->sin6_port = port_be;
	else
		((struct sockaddr_in *)a)->sin_port = port_be;
}

static int cm_error(struct dpath_cm *cm, const char *call)
{
	int ret = errno ? -errno : -EIO;

	log_error("%s: %s failed: %m", cm->name, call);
	return ret;
}

int dpath_cm_listen(const struct sockaddr_storage *local, const char *name,
		    struct dpath_cm **out, struct sockaddr_storage *bound)
{
	struct dpath_cm *cm = calloc(1, sizeof(*cm));
	int ret = -ENOMEM;

	if (!cm)
		return ret;
	snprintf(cm->name, sizeof(cm->name), "%s", name);
	cm->local = *local;
	set_port(&cm->local, 0);
	cm->ch = rdma_create_event_channel();
	if (!cm->ch) {
		ret = cm_error(cm, "rdma_create_event_channel");
		goto fail;
	}
	if (fcntl(cm->ch->fd, F_SETFL,
		  fcntl(cm->ch->fd, F_GETFL) | O_NONBLOCK) ||
	    rdma_create_id(cm->ch, &cm->listen, cm, RDMA_PS_TCP)) {
		ret = cm_error(cm, "rdma_create_id");
		goto fail;
	}
	if (rdma_bind_addr(cm->listen, (struct sockaddr *)&cm->local) ||
	    rdma_listen(cm->listen, DPATH_MAX_QPS)) {
		ret = cm_error(cm, "rdma_bind_addr/rdma_listen");
		goto fail;
	}
	*bound = cm->local;
	set_port(bound, rdma_get_src_port(cm->listen));
	*out = cm;
	return 0;
fail:
	dpath_cm_close(cm);
	return ret;
}

/* The next event within the deadline: 0, -ETIMEDOUT or -errno. */
static int next_event(struct dpath_cm *cm, double deadline,
		      struct rdma_cm_event **ev)
{
	for (;;) {
		struct pollfd p = { .fd = cm->ch->fd, .events = POLLIN };
		int ms;

		if (!rdma_get_cm_event(cm->ch, ev))
			return 0;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		ms = ms_left(deadline);
		if (!ms)
			return -ETIMEDOUT;
		if (poll(&p, 1, ms) < 0 && errno != EINTR)
			return -errno;
	}
}

/* An event other than the one awaited: its errno-like meaning. */
static int event_errno(enum rdma_cm_event_type type)
{
	switch (type) {
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		return -EHOSTUNREACH;
	case RDMA_CM_EVENT_REJECTED:
		return -ECONNREFUSED;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		return -ENODEV;
	default:
		return -ECONNABORTED;
	}
}

/* Waits for event `want` on id; other ids' events are dropped. */
static int wait_event(struct dpath_cm *cm, struct rdma_cm_id *id,
		      enum rdma_cm_event_type want, double deadline, char *err,
		      size_t len)
{
	struct rdma_cm_event *ev;
	enum rdma_cm_event_type type;
	int ret, status;

	do {
		ret = next_event(cm, deadline, &ev);
		if (ret) {
			snprintf(err, len, "rdma_cm: no %s: %s",
				 rdma_event_str(want), strerror(-ret));
			return ret;
		}
		type = ev->event;
		status = ev->status;
		ret = ev->id == id;
		rdma_ack_cm_event(ev);
	} while (!ret);
	if (type == want)
		return 0;
	snprintf(err, len, "rdma_cm: %s (status %d) instead of %s",
		 rdma_event_str(type), status, rdma_event_str(want));
	return event_errno(type);
}

/* The QP on id, with the CM's path and our retry/timeout settings. */
static int create_qp(struct dpath_cm *cm, struct rdma_cm_id *id,
		     const struct dpath_cm_qp_attr *attr, char *err, size_t len)
{
	uint8_t timeout = attr->ack_timeout;

	if (rdma_create_qp(id, attr->pd, attr->init)) {
		snprintf(err, len, "rdma_create_qp failed: %s",
			 strerror(errno));
		return errno ? -errno : -EIO;
	}
	if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT,
			    &timeout, sizeof(timeout)))
		log_debug("%s: ACK timeout option refused: %m", cm->name);
	return 0;
}

static struct rdma_conn_param conn_param(const struct dpath_cm_qp_attr *attr,
					 const struct cm_private *priv)
{
	return (struct rdma_conn_param){
		.private_data = priv,
		.private_data_len = sizeof(*priv),
		.responder_resources = attr->rd_atom,
		.initiator_depth = attr->rd_atom,
		.retry_count = attr->retry_cnt,
		.rnr_retry_count = attr->rnr_retry,
	};
}

static int connect_one(struct dpath_cm *cm, int q,
		       const struct sockaddr_storage *peer,
		       const struct dpath_cm_qp_attr *attr, double deadline,
		       char *err, size_t len)
{
	struct cm_private priv = { CM_MAGIC, (uint32_t)q };
	struct rdma_conn_param param = conn_param(attr, &priv);
	struct rdma_cm_id *id;
	int ret;

	if (rdma_create_id(cm->ch, &cm->id[q], cm, RDMA_PS_TCP)) {
		snprintf(err, len, "rdma_create_id failed: %s",
			 strerror(errno));
		return -errno;
	}
	id = cm->id[q];
	if (rdma_resolve_addr(id, (struct sockaddr *)&cm->local,
			      (struct sockaddr *)peer, ms_left(deadline))) {
		snprintf(err, len, "rdma_resolve_addr failed: %s",
			 strerror(errno));
		return -errno;
	}
	ret = wait_event(cm, id, RDMA_CM_EVENT_ADDR_RESOLVED, deadline, err,
			 len);
	if (!ret && rdma_resolve_route(id, ms_left(deadline))) {
		snprintf(err, len, "rdma_resolve_route failed: %s",
			 strerror(errno));
		return -errno;
	}
	if (!ret)
		ret = wait_event(cm, id, RDMA_CM_EVENT_ROUTE_RESOLVED, deadline,
				 err, len);
	if (!ret)
		ret = create_qp(cm, id, attr, err, len);
	if (!ret && rdma_connect(id, &param)) {
		snprintf(err, len, "rdma_connect failed: %s", strerror(errno));
		return -errno;
	}
	return ret ? ret
		   : wait_event(cm, id, RDMA_CM_EVENT_ESTABLISHED, deadline,
				err, len);
}

/* A connection request for QP index q: its QP, then accept. */
static int accept_one(struct dpath_cm *cm, struct rdma_cm_event *ev, int nqps,
		      const struct dpath_cm_qp_attr *attr, char *err,
		      size_t len)
{
	const struct cm_private *got = ev->param.conn.private_data;
	struct cm_private priv = { CM_MAGIC, 0 };
	struct rdma_conn_param param = conn_param(attr, &priv);
	int ret;

	if (!got || ev->param.conn.private_data_len < sizeof(*got) ||
	    got->magic != CM_MAGIC || got->qp >= (uint32_t)nqps ||
	    cm->id[got->qp]) {
		rdma_reject(ev->id, NULL, 0);
		snprintf(err, len,
			 "rdma_cm: a connection request that is not "
			 "one of the peer's %d QPs",
			 nqps);
		return -EPROTO;
	}
	priv.qp = got->qp;
	ret = create_qp(cm, ev->id, attr, err, len);
	if (!ret && rdma_accept(ev->id, &param)) {
		snprintf(err, len, "rdma_accept failed: %s", strerror(errno));
		ret = -errno;
	}
	if (ret) {
		if (ev->id->qp)
			rdma_destroy_qp(ev->id);
		rdma_reject(ev->id, NULL, 0);
		return ret;
	}
	cm->id[got->qp] = ev->id; /* ours now: closed with the others */
	return 0;
}

static int id_index(const struct dpath_cm *cm, const struct rdma_cm_id *id)
{
	for (int q = 0; q < DPATH_MAX_QPS; q++)
		if (cm->id[q] == id)
			return q;
	return -1;
}

static int accept_all(struct dpath_cm *cm, int nqps,
		      const struct dpath_cm_qp_attr *attr, double deadline,
		      char *err, size_t len)
{
	int established = 0, ret = 0;

	while (!ret && established < nqps) {
		struct rdma_cm_event *ev;
		struct rdma_cm_id *reject = NULL;

		ret = next_event(cm, deadline, &ev);
		if (ret) {
			snprintf(err, len,
				 "rdma_cm: %d of %d QPs connected: %s",
				 established, nqps, strerror(-ret));
			break;
		}
		if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
			ret = accept_one(cm, ev, nqps, attr, err, len);
			if (ret && id_index(cm, ev->id) < 0)
				reject = ev->id;
		} else if (ev->event == RDMA_CM_EVENT_ESTABLISHED &&
			   id_index(cm, ev->id) >= 0) {
			established++;
		} else if (id_index(cm, ev->id) >= 0) {
			snprintf(err, len,
				 "rdma_cm: %s (status %d) while accepting",
				 rdma_event_str(ev->event), ev->status);
			ret = event_errno(ev->event);
		}
		rdma_ack_cm_event(ev);
		if (reject)
			rdma_destroy_id(reject); /* after its event is acked */
	}
	return ret;
}

int dpath_cm_connect(struct dpath_cm *cm, bool active,
		     const struct sockaddr_storage *peer, int nqps,
		     const struct dpath_cm_qp_attr *attr, struct ibv_qp **qps,
		     double timeout_s, char *err, size_t len)
{
	double deadline = clock_mono_now() + timeout_s;
	char where[64];
	int ret = 0;

	if (nqps < 1 || nqps > DPATH_MAX_QPS)
		return -EINVAL;
	for (int q = 0; active && !ret && q < nqps; q++)
		ret = connect_one(cm, q, peer, attr, deadline, err, len);
	if (!active)
		ret = accept_all(cm, nqps, attr, deadline, err, len);
	for (int q = 0; !ret && q < nqps; q++)
		qps[q] = cm->id[q]->qp;
	if (ret) {
		dpath_sockaddr_str(peer, where, sizeof(where));
		log_warn("%s: %s with %s %s", cm->name,
			 active ? "connecting" : "accepting", where, err);
	}
	return ret;
}

void dpath_cm_close(struct dpath_cm *cm)
{
	if (!cm)
		return;
	for (int q = 0; q < DPATH_MAX_QPS; q++) {
		if (!cm->id[q])
			continue;
		if (cm->id[q]->qp)
			rdma_destroy_qp(cm->id[q]);
		rdma_destroy_id(cm->id[q]);
	}
	if (cm->listen)
		rdma_destroy_id(cm->listen);
	if (cm->ch)
		rdma_destroy_event_channel(cm->ch);
	free(cm);
}
