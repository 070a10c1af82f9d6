// SPDX-License-Identifier: MIT
/*
 * The fake transport's fabric (fake_fabric.h): the fake's ports from the
 * CA ports of the routes, each measured flow's rate from the flow model
 * over every flow of its step (found in the job's registry), planted
 * cable faults, and ibsim's counters kept in step with what the flows
 * carried. A model of the data plane, never a measurement: the fake's
 * records say transport "fake".
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "burnin/fake_console.h"
#include "burnin/fake_fabric.h"
#include "burnin/fake_flows.h"
#include "burnin/fake_registry.h"
#include "burnin/route_model.h"
#include "common/hashmap.h"
#include "common/log.h"

#define FABRIC_MAX_FAULTS 32
#define FABRIC_MAX_HOPS 64
#define FABRIC_MAX_SPREAD 512 /* cables of one flow spread by AR */
#define CONSOLE_TIMEOUT_S 30.0
#define STEP_SLACK_S 120.0 /* connect, exchange: flows of a step start apart */

enum cable_fault { CF_SLOW, CF_FLAKY, CF_ERRORS, N_CABLE_FAULT };

static const char *const cable_fault_names[N_CABLE_FAULT] = { "slow-cable",
							      "flaky-cable",
							      "errors-cable" };

struct cable_fault_spec {
	enum cable_fault kind;
	char where[160]; /* SWITCH:PORT */
	double value;
};

static struct {
	char routes[PATH_MAX], console[PATH_MAX], base[PATH_MAX];
	/* Where the cable totals live: FIFO.cables beside ibsim's console
	 * (they are ibsim's counters: they outlive a job), else the job's. */
	char totals[PATH_MAX];
	unsigned long long seed;
	struct cable_fault_spec specs[FABRIC_MAX_FAULTS];
	int n_specs;
	struct burnin_routes *r;
	double *capacity;
	struct burnin_flow_fault *faults;
	bool *shared_name; /* per CA port: its HOST:CA:PORT is another's too */
	int console_fd;
	bool console_warned;
	/* ar=all | ar=SWITCH[,SWITCH...]: adaptive routing at those switches */
	char ar[1024];
	bool ar_all;
	struct hashmap ar_guids; /* switch GUIDs with AR on */
} fab = { .console_fd = -1 };

static void fabric_reset(void)
{
	hashmap_free(&fab.ar_guids);
	burnin_routes_free(fab.r);
	free(fab.capacity);
	free(fab.faults);
	free(fab.shared_name);
	if (fab.console_fd >= 0)
		close(fab.console_fd);
	memset(&fab, 0, sizeof(fab));
	fab.console_fd = -1;
}

static int parse_cable_fault(enum cable_fault kind, const char *val, char *err,
			     size_t err_len)
{
	struct cable_fault_spec *s = &fab.specs[fab.n_specs];
	double max = kind == CF_ERRORS ? 1e9 : 1;
	int ret = fab.n_specs == FABRIC_MAX_FAULTS
			  ? -EINVAL
			  : dpath_fake_split_fault(val, s->where,
						   sizeof(s->where), &s->value);

	if (!ret && s->value > max)
		ret = -ERANGE;
	if (ret == -EINVAL)
		snprintf(err, err_len, "fake: '%s=%s': expected SWITCH:PORT@%s",
			 cable_fault_names[kind], val,
			 kind == CF_ERRORS ? "N" : "F");
	else if (ret)
		snprintf(err, err_len, "fake: '%s=%s': bad value '%s' (%s)",
			 cable_fault_names[kind], val, strrchr(val, '@') + 1,
			 kind == CF_ERRORS ? "a count"
					   : "a factor from 0 to 1");
	if (ret)
		return -EINVAL;
	s->kind = kind;
	fab.n_specs++;
	return 1;
}

static int copy_path(const char *key, const char *val, char *dst, size_t len,
		     char *err, size_t err_len)
{
	if (!*val || strlen(val) >= len) {
		snprintf(err, err_len, "fake: '%s=%s': expected a file name",
			 key, val);
		return -EINVAL;
	}
	snprintf(dst, len, "%s", val);
	return 1;
}

static int fabric_item(const char *key, const char *val, char *err,
		       size_t err_len)
{
	char *end;

	for (int k = 0; k < N_CABLE_FAULT; k++)
		if (!strcmp(key, cable_fault_names[k]))
			return parse_cable_fault(k, val, err, err_len);
	if (!strcmp(key, "routes"))
		return copy_path(key, val, fab.routes, sizeof(fab.routes), err,
				 err_len);
	if (!strcmp(key, "sim-console"))
		return copy_path(key, val, fab.console, sizeof(fab.console),
				 err, err_len);
	if (!strcmp(key, "ar"))
		return copy_path(key, val, fab.ar, sizeof(fab.ar), err,
				 err_len);
	if (strcmp(key, "seed"))
		return 0;
	fab.seed = strtoull(val, &end, 0);
	if (end == val || *end) {
		snprintf(err, err_len, "fake: 'seed=%s': expected a number",
			 val);
		return -EINVAL;
	}
	return 1;
}

/* The cable leaving node NAME (or GUID) by port PORT; -1 with err. */
static int find_cable(const char *where, char *err, size_t err_len)
{
	const char *colon = strrchr(where, ':');
	char node[160], *end;
	uint64_t guid = 0, first = 0;
	int port, found = -1;
	bool by_guid = !strncmp(where, "0x", 2) || !strncmp(where, "0X", 2);

	if (!colon || colon == where ||
	    (port = (int)strtol(colon + 1, &end, 10)) <= 0 || *end) {
		snprintf(err, err_len, "fake: '%s': expected SWITCH:PORT",
			 where);
		return -1;
	}
	snprintf(node, sizeof(node), "%.*s", (int)(colon - where), where);
	if (by_guid)
		guid = strtoull(node, NULL, 16);
	for (int c = 0; c < burnin_routes_n_cables(fab.r); c++) {
		const struct burnin_cable *k = burnin_routes_cable(fab.r, c);

		if (k->from_port != port ||
		    (by_guid ? k->from_guid != guid
			     : !k->from_name || strcmp(k->from_name, node)))
			continue;
		if (found >= 0 && k->from_guid != first) {
			snprintf(
				err, err_len,
				"fake: '%s': several nodes are named '%s' in %s; name it by its GUID",
				where, node, fab.routes);
			return -1;
		}
		found = c;
		first = k->from_guid;
	}
	if (found < 0)
		snprintf(err, err_len,
			 "fake: '%s': no cable leaves %s by port %d in %s",
			 where, node, port, fab.routes);
	return found;
}

static int plant_cable_faults(char *err, size_t err_len)
{
	for (int i = 0; i < fab.n_specs; i++) {
		const struct cable_fault_spec *s = &fab.specs[i];
		int c = find_cable(s->where, err, err_len);

		if (c < 0)
			return -EINVAL;
		if (s->kind == CF_SLOW)
			fab.faults[c].slow = s->value;
		else if (s->kind == CF_FLAKY)
			fab.faults[c].flaky = s->value;
		else
			fab.faults[c].errors = (uint32_t)s->value;
	}
	return 0;
}

/*
 * The CA port's names as the fabric gives them (issue 32): HOST and CA are
 * the two words of its NodeDescription ("node016 mlx5_0"), as fabric's
 * records split them; a description of one word is the host, and its CA
 * is then named by the node GUID (an empty one: both). Cut at the field's
 * size like every name (a name's bytes are text already, route_model).
 */
static void fabric_port_words(const struct burnin_route_ca *ca,
			      struct dpath_port *p)
{
	const char *name = ca->node_name ? ca->node_name : "";
	size_t host_len, ca_len;
	const char *word;

	name += strspn(name, " \t");
	host_len = strcspn(name, " \t");
	word = name + host_len + strspn(name + host_len, " \t");
	ca_len = strcspn(word, " \t");
	if (host_len)
		snprintf(p->host, sizeof(p->host), "%.*s", (int)host_len, name);
	else
		snprintf(p->host, sizeof(p->host), "0x%016llx",
			 (unsigned long long)ca->node_guid);
	if (ca_len)
		snprintf(p->ca, sizeof(p->ca), "%.*s", (int)ca_len, word);
	else
		snprintf(p->ca, sizeof(p->ca), "0x%016llx",
			 (unsigned long long)ca->node_guid);
	p->port = ca->port;
}

struct named_ca {
	struct dpath_port p; /* host, ca, port */
	int ca;
};

static int named_cmp(const void *x, const void *y)
{
	const struct named_ca *a = x, *b = y;
	int c = strcmp(a->p.host, b->p.host);

	if (!c)
		c = strcmp(a->p.ca, b->p.ca);
	return c ? c : a->p.port - b->p.port;
}

/*
 * CA ports whose description gives them the same HOST:CA:PORT (HCAs
 * left at their default NodeDescription, "MT4123 ConnectX6 ..."): their
 * host is then the node GUID, so every fake port has a name of its own.
 */
static int mark_shared_names(void)
{
	int n = burnin_routes_n_cas(fab.r);
	struct named_ca *v = calloc((size_t)n + 1, sizeof(*v));

	fab.shared_name = calloc((size_t)n + 1, sizeof(*fab.shared_name));
	if (!v || !fab.shared_name) {
		free(v);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		fabric_port_words(burnin_routes_ca(fab.r, i), &v[i].p);
		v[i].ca = i;
	}
	qsort(v, (size_t)n, sizeof(*v), named_cmp);
	for (int i = 1; i < n; i++)
		if (!named_cmp(&v[i - 1], &v[i]))
			fab.shared_name[v[i - 1].ca] =
				fab.shared_name[v[i].ca] = true;
	free(v);
	return 0;
}

static void fabric_port_names(int i, const struct burnin_route_ca *ca,
			      struct dpath_port *p)
{
	fabric_port_words(ca, p);
	if (fab.shared_name && fab.shared_name[i])
		snprintf(p->host, sizeof(p->host), "0x%016llx",
			 (unsigned long long)ca->node_guid);
}

/* The switch named name (the routes' node name): its GUID into *guid. */
static bool find_switch(const char *name, uint64_t *guid)
{
	for (int c = 0; c < burnin_routes_n_cables(fab.r); c++) {
		const struct burnin_cable *k = burnin_routes_cable(fab.r, c);

		if (burnin_routes_cable_ar(fab.r, c) && k->from_name &&
		    !strcmp(k->from_name, name)) {
			*guid = k->from_guid;
			return true;
		}
	}
	return false;
}

/* ar=all or ar=SWITCH[,SWITCH...]: every name must be a switch. */
static int plant_ar(char *err, size_t err_len)
{
	char list[sizeof(fab.ar)], *save = NULL, *name;
	uint64_t guid;

	if (!fab.ar[0])
		return 0;
	if (!strcmp(fab.ar, "all")) {
		fab.ar_all = true;
		return 0;
	}
	snprintf(list, sizeof(list), "%s", fab.ar);
	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		if (!find_switch(name, &guid)) {
			snprintf(err, err_len,
				 "fake: 'ar=%s': no switch '%s' in %s "
				 "(expected all, or switch names of the "
				 "routes)",
				 fab.ar, name, fab.routes);
			return -EINVAL;
		}
		if (hashmap_put(&fab.ar_guids, guid, 1))
			return -ENOMEM;
	}
	return 0;
}

static bool ar_at(uint64_t guid, void *arg)
{
	uint64_t v;

	(void)arg;
	return fab.ar_all || hashmap_get(&fab.ar_guids, guid, &v);
}

static int load_routes(char *err, size_t err_len)
{
	char why[256] = "";
	int n, ret = burnin_routes_load(fab.routes, NULL, &fab.r, why,
					sizeof(why));

	if (ret) {
		snprintf(err, err_len, "fake: routes=%s: %s", fab.routes,
			 why[0] ? why : strerror(-ret));
		return ret;
	}
	n = burnin_routes_n_cables(fab.r);
	fab.capacity = calloc((size_t)n + 1, sizeof(*fab.capacity));
	fab.faults = calloc((size_t)n + 1, sizeof(*fab.faults));
	if (!fab.capacity || !fab.faults)
		return -ENOMEM;
	for (int c = 0; c < n; c++) {
		fab.capacity[c] = burnin_routes_cable(fab.r, c)->capacity_gbps;
		fab.faults[c] = (struct burnin_flow_fault){ 1, 1, 0 };
	}
	if (mark_shared_names())
		return -ENOMEM;
	ret = plant_cable_faults(err, err_len);
	return ret ? ret : plant_ar(err, err_len);
}

static int open_console(char *err, size_t err_len)
{
	fab.console_fd = fake_console_open(fab.console);
	if (fab.console_fd >= 0)
		return 0;
	snprintf(err, err_len, "fake: sim-console=%s: %s%s", fab.console,
		 strerror(-fab.console_fd),
		 fab.console_fd == -ENXIO ? " (no ibsim reads it)" : "");
	return fab.console_fd;
}

static int fabric_ready(char *err, size_t err_len)
{
	int ret;

	if (!fab.routes[0]) {
		if (!fab.n_specs && !fab.console[0] && !fab.ar[0])
			return 0;
		snprintf(err, err_len, "fake: '%s' needs routes=FILE",
			 fab.n_specs ? cable_fault_names[fab.specs[0].kind]
				     : "sim-console");
		return -EINVAL;
	}
	ret = load_routes(err, err_len);
	if (ret)
		return ret;
	if (fake_registry_path(fab.base, sizeof(fab.base)))
		fake_registry_clear(fab.base); /* this process's own */
	fake_registry_join(fab.base);
	snprintf(fab.totals, sizeof(fab.totals), "%s",
		 fab.console[0] ? fab.console : fab.base);
	return fab.console[0] ? open_console(err, err_len) : 0;
}

static int fabric_n_ports(void)
{
	return fab.r ? burnin_routes_n_cas(fab.r) : 0;
}

static void fabric_port(int i, struct dpath_port *p)
{
	const struct burnin_route_ca *ca = burnin_routes_ca(fab.r, i);

	fabric_port_names(i, ca, p);
	p->guid = ca->port_guid;
	p->lid = ca->lid;
	if (ca->rate_gbps > 0)
		p->rate_gbps = ca->rate_gbps;
}

static int fabric_port_index(uint64_t port_guid)
{
	return fab.r ? burnin_routes_ca_by_guid(fab.r, port_guid) : -1;
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int fabric_flow_start(const struct dpath_fake_flow *f)
{
	struct fake_registry_flow e = { .step = f->step,
					.src = f->src_guid,
					.dst = f->dst_guid,
					.cap_gbps = f->cap_gbps,
					.t_wall = wall_now() };
	int ret = fake_registry_add(fab.base, &e);

	if (ret)
		log_error("fake fabric: %s.flows: %s", fab.base,
			  strerror(-ret));
	return ret;
}

/*
 * The cables from port GUID src to port GUID dst into path[FABRIC_MAX_SPREAD];
 * with ar=, spread over the equal-cost hops of the AR switches, each
 * cable's share of the flow into share (else share[0] = -1: every cable
 * carries all of it). -errno.
 */
static int flow_path(uint64_t src, uint64_t dst, int *path, double *share)
{
	int s = burnin_routes_ca_by_guid(fab.r, src),
	    d = burnin_routes_ca_by_guid(fab.r, dst);

	share[0] = -1;
	if (s < 0 || d < 0)
		return -ENOENT;
	if (fab.ar[0])
		return burnin_routes_spread(fab.r, s, d, ar_at, NULL, path,
					    share, FABRIC_MAX_SPREAD);
	return burnin_routes_path(fab.r, s, d, path, FABRIC_MAX_HOPS);
}

/* The flows of f's step, f itself at *mine. */
struct step_model {
	struct burnin_flow *flows;
	int *paths;
	double *shares;
	int n, mine;
};

static void step_model_free(struct step_model *m)
{
	free(m->flows);
	free(m->paths);
	free(m->shares);
}

static int step_model_add(struct step_model *m, uint64_t src, uint64_t dst,
			  double cap)
{
	int *path = &m->paths[m->n * FABRIC_MAX_SPREAD];
	double *share = &m->shares[m->n * FABRIC_MAX_SPREAD];
	int len = flow_path(src, dst, path, share);

	if (len < 0)
		return len;
	m->flows[m->n++] = (struct burnin_flow){ path, len, cap,
						 share[0] < 0 ? NULL : share };
	return 0;
}

static int step_model_build(const struct dpath_fake_flow *f,
			    struct step_model *m)
{
	double span = f->warmup_s + f->duration_s + f->stall_s + STEP_SLACK_S;
	struct fake_registry_flow *e = NULL;
	int k = 0, ret;

	memset(m, 0, sizeof(*m));
	m->mine = -1;
	ret = fake_registry_step(fab.base, f->step, wall_now(), span, &e, &k);
	if (ret) {
		log_error("fake fabric: %s.flows: %s; this flow alone",
			  fab.base, strerror(-ret));
		k = 0;
	}
	m->flows = calloc((size_t)k + 1, sizeof(*m->flows));
	m->paths = calloc(((size_t)k + 1) * FABRIC_MAX_SPREAD, sizeof(int));
	m->shares = calloc(((size_t)k + 1) * FABRIC_MAX_SPREAD, sizeof(double));
	if (!m->flows || !m->paths || !m->shares) {
		free(e);
		return -ENOMEM;
	}
	for (int i = 0; i < k; i++) {
		bool me = m->mine < 0 && e[i].src == f->src_guid &&
			  e[i].dst == f->dst_guid;

		if (step_model_add(m, e[i].src, e[i].dst, e[i].cap_gbps))
			continue; /* not on the fabric: a matter for its own end */
		if (me)
			m->mine = m->n - 1;
	}
	free(e);
	if (m->mine >= 0)
		return 0;
	ret = step_model_add(m, f->src_guid, f->dst_guid, f->cap_gbps);
	m->mine = m->n - 1;
	return ret;
}

static int fabric_flow_rates(const struct dpath_fake_flow *f, double *gbps,
			     int n, uint32_t *errors)
{
	int n_cables = burnin_routes_n_cables(fab.r), ret;
	struct step_model m;
	double *cap = NULL, *rates = NULL;
	bool flaky;

	ret = step_model_build(f, &m);
	if (ret)
		goto out;
	cap = calloc((size_t)n_cables + 1, sizeof(*cap));
	rates = calloc((size_t)m.n, sizeof(*rates));
	ret = -ENOMEM;
	if (!cap || !rates)
		goto out;
	flaky = burnin_flows_any_flaky(fab.faults, m.flows, m.n);
	for (int w = 0; w < n; w++) {
		if (w == 0 || flaky) { /* else every window is the first */
			burnin_flows_capacities(fab.capacity, fab.faults,
						n_cables, fab.seed, w, cap);
			ret = burnin_flows_maxmin(cap, n_cables, m.flows, m.n,
						  rates);
			if (ret)
				goto out;
		}
		gbps[w] = rates[m.mine];
	}
	*errors = burnin_flow_errors(fab.faults, &m.flows[m.mine]);
	ret = 0;
out:
	free(rates);
	free(cap);
	step_model_free(&m);
	return ret;
}

static uint64_t saturate(uint64_t v, uint64_t max)
{
	return v > max ? max : v;
}

/* One PerformanceSet; the first failure is said, later ones are not. */
static void console_set(const char *node, int port, const char *field,
			uint64_t value)
{
	char line[160];
	int ret;

	snprintf(line, sizeof(line), "PerformanceSet \"%s\"[%d] %s=%llu", node,
		 port, field, (unsigned long long)value);
	ret = fake_console_line(fab.console_fd, line, CONSOLE_TIMEOUT_S);
	if (ret && !fab.console_warned) {
		fab.console_warned = true;
		log_error("fake fabric: sim-console=%s: '%s' not written: %s",
			  fab.console, line, strerror(-ret));
	}
}

/* ibsim's counters of cable c: what it sent, what its far end received. */
static void console_cable(int c, const struct fake_cable_total *t, void *arg)
{
	const struct burnin_cable *k = burnin_routes_cable(fab.r, c);
	char from[96], to[96];

	(void)arg;
	if (fab.console_fd < 0 || !k->from_name || !k->to_name ||
	    fake_console_node_id(k->from_name, from, sizeof(from)) ||
	    fake_console_node_id(k->to_name, to, sizeof(to)))
		return;
	console_set(from, k->from_port, "PortCountersExtended.PortXmitData",
		    t->xmit_words);
	console_set(from, k->from_port, "PortCounters.PortXmitData",
		    saturate(t->xmit_words, UINT32_MAX));
	console_set(to, k->to_port, "PortCountersExtended.PortRcvData",
		    t->rcv_words);
	console_set(to, k->to_port, "PortCounters.PortRcvData",
		    saturate(t->rcv_words, UINT32_MAX));
	if (!t->errors)
		return;
	console_set(to, k->to_port, "PortCounters.SymbolErrorCounter",
		    saturate(t->errors, UINT16_MAX));
	console_set(to, k->to_port, "PortCounters.PortRcvErrors",
		    saturate(t->errors, UINT16_MAX));
}

static void fabric_flow_end(const struct dpath_fake_flow *f, uint64_t bytes)
{
	/* per call: the fake's rank threads end flows at the same time */
	int *path = malloc(FABRIC_MAX_SPREAD * sizeof(*path));
	double *share = malloc(FABRIC_MAX_SPREAD * sizeof(*share));
	uint32_t *errors = malloc(FABRIC_MAX_SPREAD * sizeof(*errors));
	int len = path && share && errors
			  ? flow_path(f->src_guid, f->dst_guid, path, share)
			  : -ENOMEM,
	    ret;

	for (int i = 0; i < len; i++)
		errors[i] = fab.faults[path[i]].errors;
	ret = len <= 0 ? len
		       : fake_registry_carry(fab.totals, path, len, bytes / 4,
					     share[0] < 0 ? NULL : share,
					     errors, console_cable, NULL);
	free(errors);
	free(share);
	free(path);
	if (len <= 0)
		return;
	if (ret)
		log_error("fake fabric: %s.cables: %s", fab.totals,
			  strerror(-ret));
	if (fab.console_fd >= 0 &&
	    fake_console_drain(fab.console_fd, CONSOLE_TIMEOUT_S))
		log_warn(
			"fake fabric: sim-console=%s: ibsim has not read it all after %.0f s",
			fab.console, CONSOLE_TIMEOUT_S);
}

const struct dpath_fake_fabric_ops burnin_fake_fabric_ops = {
	.item = fabric_item,
	.ready = fabric_ready,
	.n_ports = fabric_n_ports,
	.port = fabric_port,
	.port_index = fabric_port_index,
	.flow_start = fabric_flow_start,
	.flow_rates = fabric_flow_rates,
	.flow_end = fabric_flow_end,
	.reset = fabric_reset,
};
