// SPDX-License-Identifier: MIT
/* The fake transport with a fabric (burnin/fake_fabric.c): its ports are
 * the CA ports of the routes of an ibsim ftree fabric (16 HCAs, 4x EDR),
 * and flows of one step running at once share cables max-min fairly,
 * with planted slow, flaky and erroring cables. The flows are picked
 * from the same routes, so the expected figures are exact. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "burnin/fake_fabric.h"
#include "burnin/fake_flows.h"
#include "burnin/route_model.h"
#include "rdma/fake_transport.h"

#define ROUTES FIXTURES_DIR "/fake-routes/ftree-16.jsonl"
#define EPS 1e-6
#define HOPS 16

static const struct dpath_transport_ops *ops = &dpath_fake_ops;
static struct burnin_routes *routes;
static struct dpath_port *ports;
static int n_ports;

struct flow_run {
	int src, dst; /* fake port indexes */
	int step;
	double duration;
	struct dpath_endpoint *a, *b;
	struct dpath_result res;
	int rc;
	pthread_t thread;
};

static int setup(void **state)
{
	char err[256] = "";

	(void)state;
	dpath_fake_set_fabric(&burnin_fake_fabric_ops);
	if (burnin_routes_load(ROUTES, NULL, &routes, err, sizeof(err)))
		fail_msg("%s: %s", ROUTES, err);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(ports);
	dpath_fake_reset();
	dpath_fake_set_fabric(NULL);
	burnin_routes_free(routes);
	return 0;
}

static void configure(const char *fmt, ...)
{
	char spec[512], err[256] = "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(spec, sizeof(spec), fmt, ap);
	va_end(ap);
	if (dpath_fake_configure(spec, err, sizeof(err)))
		fail_msg("%s: %s", spec, err);
	free(ports);
	ports = NULL;
	assert_int_equal(0, ops->list_ports(NULL, &ports, &n_ports));
}

/* The route model's CA index of fake port i. */
static int ca_of(int i)
{
	return burnin_routes_ca_by_guid(routes, ports[i].guid);
}

static int path_of(int i, int j, int *path)
{
	int n = burnin_routes_path(routes, ca_of(i), ca_of(j), path, HOPS);

	assert_true(n > 0);
	return n;
}

static bool share_a_cable(int i, int j, int k, int l)
{
	int p[HOPS], q[HOPS], n = path_of(i, j, p), m = path_of(k, l, q);

	for (int x = 0; x < n; x++)
		for (int y = 0; y < m; y++)
			if (p[x] == q[y])
				return true;
	return false;
}

/* An inter-switch cable on the path from i to j, -1 none. */
static int switch_cable_or_none(int i, int j)
{
	int p[HOPS], n = path_of(i, j, p);

	for (int x = 0; x < n; x++)
		if (burnin_routes_cable(routes, p[x])->inter_switch)
			return p[x];
	return -1;
}

static int switch_cable(int i, int j)
{
	int c = switch_cable_or_none(i, j);

	if (c < 0)
		fail_msg("no switch-to-switch cable from %s to %s",
			 ports[i].host, ports[j].host);
	return c;
}

static void *run_initiator(void *arg)
{
	struct flow_run *f = arg;

	f->rc = ops->run(f->a, DPATH_ROLE_INITIATOR, &f->res);
	return NULL;
}

static void start(struct flow_run *f)
{
	struct dpath_params params = { .msg_size = 65536,
				       .qps = 1,
				       .tx_depth = 4,
				       .duration_s = f->duration,
				       .warmup_s = 0.05,
				       .stall_s = 1,
				       .step = f->step };
	struct dpath_conn_info ia, ib;
	struct dpath_result res = { 0 };

	assert_int_equal(0,
			 ops->endpoint_create(&ports[f->src], &params, &f->a));
	assert_int_equal(0,
			 ops->endpoint_create(&ports[f->dst], &params, &f->b));
	ops->local_info(f->a, &ia);
	ops->local_info(f->b, &ib);
	assert_int_equal(0, ops->connect(f->a, &ib, &res));
	assert_int_equal(0, ops->connect(f->b, &ia, &res));
	assert_int_equal(0, pthread_create(&f->thread, NULL, run_initiator, f));
}

static void finish(struct flow_run *f)
{
	pthread_join(f->thread, NULL);
	ops->endpoint_destroy(f->a);
	ops->endpoint_destroy(f->b);
}

/* Runs flows[n] at once; each one's result in it. */
static void run_flows(struct flow_run *flows, int n)
{
	for (int i = 0; i < n; i++)
		start(&flows[i]);
	for (int i = 0; i < n; i++)
		finish(&flows[i]);
}

/* Two flows (i -> j, k -> l) on four ports that share a cable or not;
 * the first crosses a switch-to-switch cable. */
static void pick(bool shared, int *i, int *j, int *k, int *l)
{
	for (*i = 0; *i < n_ports; (*i)++)
		for (*j = 0; *j < n_ports; (*j)++)
			for (*k = 0; *k < n_ports; (*k)++)
				for (*l = 0; *l < n_ports; (*l)++) {
					if (*i == *j || *k == *l || *i == *k ||
					    *i == *l || *j == *k || *j == *l)
						continue;
					if (share_a_cable(*i, *j, *k, *l) ==
						    shared &&
					    switch_cable_or_none(*i, *j) >= 0)
						return;
				}
	fail_msg("no such pair of flows in %s", ROUTES);
}

static void ports_are_the_cas_of_the_routes(void **state)
{
	(void)state;
	configure("routes=%s", ROUTES);
	assert_int_equal(n_ports, 16);
	assert_int_equal(n_ports, burnin_routes_n_cas(routes));
	for (int i = 0; i < n_ports; i++) {
		const struct burnin_route_ca *ca =
			burnin_routes_ca(routes, ca_of(i));

		assert_true(ca_of(i) >= 0);
		assert_int_equal(ports[i].lid, ca->lid);
		/* named as the routes name the CA: "node016 mlx5_0" port 1 */
		assert_int_equal(0, strncmp(ca->node_name, ports[i].host,
					    strlen(ports[i].host)));
		assert_string_equal(ca->node_name + strlen(ports[i].host) + 1,
				    ports[i].ca);
		assert_int_equal(ports[i].port, ca->port);
		assert_null(strstr(ports[i].ca, "fake"));
		assert_float_equal(ports[i].rate_gbps, 100, EPS); /* 4x EDR */
		assert_float_equal(ports[i].rate_gbps, ca->rate_gbps, EPS);
	}
	configure("routes=%s;ports=4", ROUTES);
	assert_int_equal(n_ports, 4);
}

static void a_flow_alone_runs_at_its_link(void **state)
{
	struct flow_run f = { .src = 0, .dst = 15, .step = 1, .duration = 0.3 };

	(void)state;
	configure("routes=%s", ROUTES);
	run_flows(&f, 1);
	assert_int_equal(f.rc, 0);
	assert_float_equal(f.res.gbps, 95, EPS); /* 100 x efficiency 0.95 */
	assert_float_equal(f.res.gbps_min, 95, EPS);
}

static void two_flows_on_one_cable_share_it(void **state)
{
	struct flow_run f[2] = { { .step = 2, .duration = 0.3 },
				 { .step = 2, .duration = 0.3 } };

	(void)state;
	configure("routes=%s", ROUTES);
	pick(true, &f[0].src, &f[0].dst, &f[1].src, &f[1].dst);
	run_flows(f, 2);
	assert_float_equal(f[0].res.gbps, 47.5, EPS);
	assert_float_equal(f[1].res.gbps, 47.5, EPS);
}

static void flows_of_other_steps_do_not_share(void **state)
{
	struct flow_run f[2] = { { .step = 3, .duration = 0.3 },
				 { .step = 4, .duration = 0.3 } };

	(void)state;
	configure("routes=%s", ROUTES);
	pick(true, &f[0].src, &f[0].dst, &f[1].src, &f[1].dst);
	run_flows(f, 2);
	assert_float_equal(f[0].res.gbps, 95, EPS);
	assert_float_equal(f[1].res.gbps, 95, EPS);
}

static void flows_apart_run_at_full_rate(void **state)
{
	struct flow_run f[2] = { { .step = 5, .duration = 0.3 },
				 { .step = 5, .duration = 0.3 } };

	(void)state;
	configure("routes=%s", ROUTES);
	pick(false, &f[0].src, &f[0].dst, &f[1].src, &f[1].dst);
	run_flows(f, 2);
	assert_float_equal(f[0].res.gbps, 95, EPS);
	assert_float_equal(f[1].res.gbps, 95, EPS);
}

static void a_slow_cable_slows_its_flows_only(void **state)
{
	struct flow_run f[2] = { { .step = 6, .duration = 0.3 },
				 { .step = 6, .duration = 0.3 } };
	const struct burnin_cable *c;

	(void)state;
	configure("routes=%s", ROUTES);
	pick(false, &f[0].src, &f[0].dst, &f[1].src, &f[1].dst);
	c = burnin_routes_cable(routes, switch_cable(f[0].src, f[0].dst));
	configure("routes=%s;slow-cable=%s:%d@0.5", ROUTES, c->from_name,
		  c->from_port);
	run_flows(f, 2);
	assert_float_equal(f[0].res.gbps, 47.5, EPS);
	assert_float_equal(f[1].res.gbps, 95, EPS);
	/* the same cable by its node GUID */
	configure("routes=%s;slow-cable=0x%016llx:%d@0.25", ROUTES,
		  (unsigned long long)c->from_guid, c->from_port);
	f[0].step = f[1].step = 7;
	run_flows(f, 2);
	assert_float_equal(f[0].res.gbps, 23.75, EPS);
	assert_float_equal(f[1].res.gbps, 95, EPS);
}

static void a_flaky_cable_dips_in_its_windows(void **state)
{
	struct flow_run f = { .src = 0, .dst = 15, .step = 8, .duration = 1 };
	const struct burnin_cable *c;
	int cable = -1, dips = 0;

	(void)state;
	configure("routes=%s", ROUTES);
	cable = switch_cable(f.src, f.dst);
	c = burnin_routes_cable(routes, cable);
	configure("routes=%s;seed=7;flaky-cable=%s:%d@0.5", ROUTES,
		  c->from_name, c->from_port);
	for (long w = 0; w < 10; w++)
		dips += burnin_flows_dip(7, cable, w);
	assert_true(dips > 0 && dips < 10); /* seed 7: a mix, as planted */
	run_flows(&f, 1);
	assert_int_equal(f.rc, 0);
	assert_float_equal(f.res.gbps_min, 47.5, EPS);
	assert_float_equal(f.res.gbps, 95 * (10 - dips * 0.5) / 10, EPS);
}

static void an_erroring_cable_fails_its_flows(void **state)
{
	struct flow_run f = { .src = 0, .dst = 15, .step = 9, .duration = 0.2 };
	const struct burnin_cable *c;

	(void)state;
	configure("routes=%s", ROUTES);
	c = burnin_routes_cable(routes, switch_cable(f.src, f.dst));
	configure("routes=%s;errors-cable=%s:%d@4", ROUTES, c->from_name,
		  c->from_port);
	run_flows(&f, 1);
	assert_int_equal(f.rc, -EIO);
	assert_int_equal(f.res.error_completions, 4);
}

/* A planted HCA fault names the port as the routes do (issue 32). */
static void a_fault_on_a_routes_port_is_planted(void **state)
{
	struct flow_run f = {
		.src = 0, .dst = 15, .step = 10, .duration = 0.2
	};

	(void)state;
	configure("routes=%s", ROUTES);
	assert_string_equal(ports[0].host, "node016");
	assert_string_equal(ports[0].ca, "mlx5_0");
	configure("routes=%s;slow=node016:mlx5_0:1@0.4", ROUTES);
	run_flows(&f, 1);
	assert_int_equal(f.rc, 0);
	assert_float_equal(f.res.gbps, 95 * 0.4, EPS);
	/* by the port GUID: the same port */
	configure("routes=%s;slow=0x%016llx@0.5", ROUTES,
		  (unsigned long long)ports[0].guid);
	f.step = 11;
	run_flows(&f, 1);
	assert_float_equal(f.res.gbps, 95 * 0.5, EPS);
}

/* A fault naming no port of the routes, or several, is refused: it would
 * plant nothing and the run would pass (issue 32). */
static void a_fault_naming_no_port_is_refused(void **state)
{
	static const char *const refused[] = {
		"slow=fake3:1@0.5",	     "flaky=gpu0022:mlx5_0:1@0.5",
		"errors=node016:mlx5_0:2@3", "die=node099:mlx5_0:1@1",
		"slow=mlx5_0:1@0.5", /* every host's: several ports */
	};
	char spec[256], err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(spec, sizeof(spec), "routes=%s;%s", ROUTES,
			 refused[i]);
		err[0] = '\0';
		assert_int_equal(-EINVAL,
				 dpath_fake_configure(spec, err, sizeof(err)));
		assert_non_null(strstr(err, refused[i]));
	}
	assert_non_null(strstr(err, "names 16 ports"));
	/* ports=4 serves the first 4 CA ports: node012 is not one */
	assert_int_equal(-EINVAL, dpath_fake_configure(
					  "routes=" ROUTES
					  ";ports=4;slow=node012:mlx5_0:1@0.5",
					  err, sizeof(err)));
	assert_non_null(strstr(err, "no port node012:mlx5_0:1"));
}

/*
 * ar=all: every switch sprays each flow over its equal-cost next hops.
 * A cable at half its capacity on the flow's static path then carries a
 * share of it only, and the flow runs at its link's rate: the weak cable
 * is routed around and passes, as on a fabric with AR on.
 */
static void adaptive_routing_hides_a_slow_up_link(void **state)
{
	struct flow_run f = {
		.src = 0, .dst = 15, .step = 20, .duration = 0.2
	};
	const struct burnin_cable *c;

	(void)state;
	configure("routes=%s", ROUTES);
	c = burnin_routes_cable(routes, switch_cable(f.src, f.dst));
	configure("routes=%s;slow-cable=%s:%d@0.5", ROUTES, c->from_name,
		  c->from_port);
	run_flows(&f, 1);
	assert_float_equal(f.res.gbps, 47.5, EPS);
	configure("routes=%s;slow-cable=%s:%d@0.5;ar=all", ROUTES, c->from_name,
		  c->from_port);
	f.step = 21;
	run_flows(&f, 1);
	assert_float_equal(f.res.gbps, 95, EPS);
	configure("routes=%s;slow-cable=%s:%d@0.5;ar=%s", ROUTES, c->from_name,
		  c->from_port, c->from_name);
	f.step = 22;
	run_flows(&f, 1);
	assert_float_equal(f.res.gbps, 95, EPS);
}

static void bad_fabric_specs_are_named(void **state)
{
	char err[256] = "";

	(void)state;
	assert_int_equal(-EINVAL,
			 dpath_fake_configure("slow-cable=leaf01:5@0.5", err,
					      sizeof(err)));
	assert_non_null(strstr(err, "needs routes=FILE"));
	assert_int_equal(-EINVAL,
			 dpath_fake_configure("routes=" ROUTES
					      ";slow-cable=nosuch:5@0.5",
					      err, sizeof(err)));
	assert_non_null(strstr(err, "no cable leaves nosuch by port 5"));
	assert_int_equal(-EINVAL,
			 dpath_fake_configure("routes=" ROUTES
					      ";flaky-cable=leaf01@0.5",
					      err, sizeof(err)));
	assert_int_equal(-EINVAL, dpath_fake_configure("routes=" ROUTES
						       ";slow-cable=leaf01:5@2",
						       err, sizeof(err)));
	assert_non_null(strstr(err, "a factor from 0 to 1"));
	assert_true(dpath_fake_configure("routes=/nonexistent/routes.jsonl",
					 err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "/nonexistent/routes.jsonl"));
	assert_true(dpath_fake_configure("routes=" ROUTES
					 ";sim-console=/nonexistent/fifo",
					 err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "sim-console=/nonexistent/fifo"));
	assert_int_equal(-EINVAL,
			 dpath_fake_configure("routes=" ROUTES ";ar=nosuch",
					      err, sizeof(err)));
	assert_non_null(strstr(err, "no switch 'nosuch'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ports_are_the_cas_of_the_routes),
		cmocka_unit_test(adaptive_routing_hides_a_slow_up_link),
		cmocka_unit_test(a_flow_alone_runs_at_its_link),
		cmocka_unit_test(two_flows_on_one_cable_share_it),
		cmocka_unit_test(flows_of_other_steps_do_not_share),
		cmocka_unit_test(flows_apart_run_at_full_rate),
		cmocka_unit_test(a_slow_cable_slows_its_flows_only),
		cmocka_unit_test(a_flaky_cable_dips_in_its_windows),
		cmocka_unit_test(an_erroring_cable_fails_its_flows),
		cmocka_unit_test(a_fault_on_a_routes_port_is_planted),
		cmocka_unit_test(a_fault_naming_no_port_is_refused),
		cmocka_unit_test(bad_fabric_specs_are_named),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
