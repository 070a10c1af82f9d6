// SPDX-License-Identifier: MIT
/*
 * Loopback through one port (see loopback.h): endpoints a and b on the same
 * port, a -> b. Both sides run at once, one in a thread, so that bidir and
 * the done handshake work exactly as between two hosts. Uses the verbs ops
 * table only; no ibv_* here.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "rdma/loopback.h"
#include "rdma/verbs_internal.h"
#include "common/log.h"

struct side {
	const struct dpath_transport_ops *ops;
	struct dpath_endpoint *ep;
	enum dpath_role role;
	struct dpath_result res;
	int ret;
};

static void *side_run(void *arg)
{
	struct side *s = arg;

	s->ret = s->ops->run(s->ep, s->role, &s->res);
	return NULL;
}

/* One sample: b (target or both) in a thread, a here. */
static int loopback_sample(const struct dpath_port *port, struct side *a,
			   struct side *b, double *gbps)
{
	pthread_t t;
	int ret = pthread_create(&t, NULL, side_run, b);

	if (ret) {
		log_error("%s port %d: loopback: pthread_create: %s", port->ca,
			  port->port, strerror(ret));
		return -ret;
	}
	side_run(a);
	pthread_join(t, NULL);
	ret = a->ret ? a->ret : b->ret;
	if (ret) {
		log_error("%s port %d: loopback: %s", port->ca, port->port,
			  a->ret ? a->res.error : b->res.error);
		return ret;
	}
	*gbps = a->res.gbps + b->res.gbps;
	return 0;
}

static int loopback_connect(const struct dpath_transport_ops *ops,
			    struct dpath_endpoint *a, struct dpath_endpoint *b)
{
	struct dpath_conn_info ia, ib;
	struct dpath_result res = { 0 };
	int ret;

	ops->local_info(a, &ia);
	ops->local_info(b, &ib);
	ret = ops->connect(a, &ib, &res);
	return ret ? ret : ops->connect(b, &ia, &res);
}

int dpath_loopback_measure(const struct dpath_port *port,
			   const struct dpath_params *params, int samples,
			   double *gbps_samples)
{
	const struct dpath_transport_ops *ops = &dpath_verbs_ops;
	struct side a = { .ops = ops }, b = { .ops = ops };
	int ret;

	if (samples < 1)
		return -EINVAL;
	a.role = params->bidir ? DPATH_ROLE_BOTH : DPATH_ROLE_INITIATOR;
	b.role = params->bidir ? DPATH_ROLE_BOTH : DPATH_ROLE_TARGET;
	ret = ops->endpoint_create(port, params, &a.ep);
	if (ret)
		return ret;
	ret = ops->endpoint_create(port, params, &b.ep);
	if (ret)
		goto destroy_a;
	ret = loopback_connect(ops, a.ep, b.ep);
	for (int i = 0; !ret && i < samples; i++) {
		ret = loopback_sample(port, &a, &b, &gbps_samples[i]);
		dpath_verbs_set_warmup(a.ep, 0);
		dpath_verbs_set_warmup(b.ep, 0);
	}
	ops->endpoint_destroy(b.ep);
destroy_a:
	ops->endpoint_destroy(a.ep);
	return ret;
}
