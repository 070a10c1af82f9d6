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
	const struct burnin_transport_ops *ops;
	struct burnin_endpoint *ep;
	enum burnin_role role;
	struct burnin_result res;
	int ret;
};

static void *side_run(void *arg)
{
	struct side *s = arg;

	s->ret = s->ops->run(s->ep, s->role, &s->res);
	return NULL;
}

/* One sample: b (target or both) in a thread, a here. */
static int loopback_sample(const struct burnin_port *port, struct side *a,
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

static int loopback_connect(const struct burnin_transport_ops *ops,
			    struct burnin_endpoint *a,
			    struct burnin_endpoint *b)
{
	struct burnin_conn_info ia, ib;
	struct burnin_result res = { 0 };
	int ret;

	ops->local_info(a, &ia);
	ops->local_info(b, &ib);
	ret = ops->connect(a, &ib, &res);
	return ret ? ret : ops->connect(b, &ia, &res);
}

int burnin_loopback_measure(const struct burnin_port *port,
			    const struct burnin_params *params, int samples,
			    double *gbps_samples)
{
	const struct burnin_transport_ops *ops = &burnin_verbs_ops;
	struct side a = { .ops = ops }, b = { .ops = ops };
	int ret;

	if (samples < 1)
		return -EINVAL;
	a.role = params->bidir ? BURNIN_ROLE_BOTH : BURNIN_ROLE_INITIATOR;
	b.role = params->bidir ? BURNIN_ROLE_BOTH : BURNIN_ROLE_TARGET;
	ret = ops->endpoint_create(port, params, &a.ep);
	if (ret)
		return ret;
	ret = ops->endpoint_create(port, params, &b.ep);
	if (ret)
		goto destroy_a;
	ret = loopback_connect(ops, a.ep, b.ep);
	for (int i = 0; !ret && i < samples; i++) {
		ret = loopback_sample(port, &a, &b, &gbps_samples[i]);
		burnin_verbs_set_warmup(a.ep, 0);
		burnin_verbs_set_warmup(b.ep, 0);
	}
	ops->endpoint_destroy(b.ep);
destroy_a:
	ops->endpoint_destroy(a.ep);
	return ret;
}
