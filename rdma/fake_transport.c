// SPDX-License-Identifier: MIT
/*
 * The fake transport: the orchestration's test double (fio's engines/null.c
 * model). Time is real: run() sleeps the whole warm-up and measurement
 * window, 100 ms at a time, so rounds, deadlines and stall handling behave
 * as on hardware. Figures come from the configuration (fake_transport.h),
 * never from a device, and its ports are named fakeN (with routes=FILE,
 * the routes' host, CA and port: fake_fabric.c).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "rdma/fake_transport.h"
#include "rdma/transport.h"
#include "common/cli.h"
#include "common/ibport.h"
#include "common/log.h"
#include "common/record.h"

#define FAKE_MAX_FAULTS 32
#define FAKE_MAX_PORTS 4096 /* a 4,096-port fabric of routes= */
#define FAKE_MAGIC "ibpfake1"

enum fault_kind {
	F_SLOW,
	F_FLAKY,
	F_ERRORS,
	F_SYMERR,
	F_DIE,
	F_HANG,
	F_STUCK_TEARDOWN,
	F_COUNTER_RESET,
	F_WIDTH,
	F_SYMERR_AT,
	N_FAULT
};

static const char *const fault_names[N_FAULT] = {
	"slow", "flaky",	  "errors",	   "symerr", "die",
	"hang", "stuck-teardown", "counter-reset", "width",  "symerr-at",
};

struct fault {
	enum fault_kind kind;
	char port[2 * DPATH_NAME_MAX + 16];
	double value;
	int index; /* with routes: the port it names (resolve_faults()) */
};

static struct {
	bool configured;
	int ports, rails;
	bool ports_set; /* ports= given: with a fabric, its first N */
	double rate, efficiency, hang_s, judge_s;
	long fail_create, fail_connect;
	struct fault faults[FAKE_MAX_FAULTS];
	int n_faults;
} cfg;

static const struct dpath_fake_fabric_ops *fabric;
static atomic_long n_create, n_connect;
static atomic_long n_runs[FAKE_MAX_PORTS], n_destroys[FAKE_MAX_PORTS];
static atomic_ullong symbol_errors[FAKE_MAX_PORTS], xmit_words[FAKE_MAX_PORTS];

struct fake_wire {
	char magic[8];
	char name[2 * DPATH_NAME_MAX + 16];
	double rate, slow, flaky;
	uint32_t errors;
	uint64_t guid;
};

static double dpath_fake_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct dpath_endpoint {
	struct dpath_port port;
	struct dpath_params params;
	struct fake_wire local, remote;
	bool connected;
};

double dpath_fake_judge_delay(void)
{
	return cfg.judge_s;
}

void dpath_fake_set_fabric(const struct dpath_fake_fabric_ops *ops)
{
	fabric = ops;
}

/* A fabric with ports: routes= was given. */
static bool fabric_active(void)
{
	return fabric && fabric->n_ports() > 0;
}

/* Port p's index among the fake's ports (its counters, its faults). */
static int port_index(const struct dpath_port *p)
{
	char *end;
	long i;

	if (fabric_active()) {
		i = fabric->port_index(p->guid);
		return i >= 0 && i < FAKE_MAX_PORTS ? (int)i : 0;
	}
	i = strtol(p->ca + 4, &end, 10);
	return end != p->ca + 4 && i >= 0 && i < FAKE_MAX_PORTS ? (int)i : 0;
}

void dpath_fake_reset(void)
{
	if (fabric)
		fabric->reset();
	memset(&cfg, 0, sizeof(cfg));
	cfg.ports = 4;
	cfg.rails = 1;
	cfg.rate = 100;
	cfg.efficiency = 0.95;
	cfg.hang_s = 30;
	atomic_store(&n_create, 0);
	atomic_store(&n_connect, 0);
	for (int i = 0; i < FAKE_MAX_PORTS; i++) {
		atomic_store(&n_runs[i], 0);
		atomic_store(&n_destroys[i], 0);
		atomic_store(&symbol_errors[i], 0);
		atomic_store(&xmit_words[i], 0);
	}
}

int dpath_fake_split_fault(const char *val, char *where, size_t len,
			   double *value)
{
	const char *at = strrchr(val, '@');
	char *end;

	if (!at || at == val || (size_t)(at - val) >= len)
		return -EINVAL;
	*value = strtod(at + 1, &end);
	if (end == at + 1 || *end || *value < 0)
		return -ERANGE;
	snprintf(where, len, "%.*s", (int)(at - val), val);
	return 0;
}

static int parse_fault(enum fault_kind kind, const char *val, char *err,
		       size_t err_len)
{
	struct fault *f = &cfg.faults[cfg.n_faults];
	int ret = cfg.n_faults == FAKE_MAX_FAULTS
			  ? -EINVAL
			  : dpath_fake_split_fault(val, f->port,
						   sizeof(f->port), &f->value);

	if (ret == -EINVAL)
		snprintf(err, err_len, "fake: '%s=%s': expected PORT@VALUE",
			 fault_names[kind], val);
	else if (ret)
		snprintf(err, err_len, "fake: '%s=%s': bad value '%s'",
			 fault_names[kind], val, strrchr(val, '@') + 1);
	if (ret)
		return -EINVAL;
	f->kind = kind;
	f->index = -1;
	cfg.n_faults++;
	return 0;
}

static int parse_number(const char *key, const char *val, double min,
			double max, double *out, char *err, size_t err_len)
{
	char *end;

	*out = strtod(val, &end);
	if (end == val || *end || !(*out >= min && *out <= max)) {
		snprintf(err, err_len,
			 "fake: '%s=%s': expected a number from %g to %g", key,
			 val, min, max);
		return -EINVAL;
	}
	return 0;
}

static int parse_item(const char *key, const char *val, char *err,
		      size_t err_len)
{
	double v;
	int ret;

	for (int k = 0; k < N_FAULT; k++)
		if (!strcmp(key, fault_names[k]))
			return parse_fault(k, val, err, err_len);
	if (fabric) {
		ret = fabric->item(key, val, err, err_len);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	if (!strcmp(key, "rate"))
		return parse_number(key, val, 0, 1e5, &cfg.rate, err, err_len);
	if (!strcmp(key, "efficiency"))
		return parse_number(key, val, 0, 1, &cfg.efficiency, err,
				    err_len);
	if (!strcmp(key, "hang-s"))
		return parse_number(key, val, 0, 1e6, &cfg.hang_s, err,
				    err_len);
	if (!strcmp(key, "judge-s"))
		return parse_number(key, val, 0, 1e6, &cfg.judge_s, err,
				    err_len);
	ret = parse_number(key, val, 0, FAKE_MAX_PORTS, &v, err, err_len);
	if (ret)
		return ret;
	if (!strcmp(key, "ports")) {
		cfg.ports = (int)v;
		cfg.ports_set = true;
	} else if (!strcmp(key, "rails"))
		cfg.rails = v >= 1 ? (int)v : 1;
	else if (!strcmp(key, "fail-create"))
		cfg.fail_create = (long)v;
	else if (!strcmp(key, "fail-connect"))
		cfg.fail_connect = (long)v;
	else {
		snprintf(err, err_len, "fake: unknown item '%s'", key);
		return -EINVAL;
	}
	return 0;
}

/* The fake's ports: the routes' first cfg.ports CA ports, or its own. */
static void settle_ports(void)
{
	int n = fabric_active() ? fabric->n_ports() : 0;

	if (n && (!cfg.ports_set || cfg.ports > n))
		cfg.ports = n < FAKE_MAX_PORTS ? n : FAKE_MAX_PORTS;
}

static void fake_port(struct dpath_port *p, int i);

/*
 * Does fault text name port p (index i)? "HOST:CA:PORT", "CA:PORT", or
 * with routes the port GUID "0x...". Without routes a HOST other than
 * this one is another node's port of the same index: the fake's ports are
 * the same on every node, so it names a port still (*other_host).
 */
static bool fault_names_port(const char *text, const struct dpath_port *p,
			     bool *other_host)
{
	char full[2 * DPATH_NAME_MAX + 16], local[DPATH_NAME_MAX + 16];
	const char *colon;

	snprintf(full, sizeof(full), "%s:%s:%d", p->host, p->ca, p->port);
	snprintf(local, sizeof(local), "%s:%d", p->ca, p->port);
	*other_host = false;
	if (!strcmp(text, full) || !strcmp(text, local))
		return true;
	if (fabric_active()) {
		char guid[24];

		snprintf(guid, sizeof(guid), "0x%016llx",
			 (unsigned long long)p->guid);
		return !strcasecmp(text, guid);
	}
	colon = strchr(text, ':');
	*other_host = colon && !strcmp(colon + 1, local);
	return *other_host;
}

/*
 * Every planted port fault names exactly one of the fake's ports (issue
 * 32): one naming none would plant nothing and the run would pass, a
 * test that can never fail. 0; -EINVAL with err naming it.
 */
static int resolve_faults(char *err, size_t err_len)
{
	settle_ports();
	for (int f = 0; f < cfg.n_faults; f++) {
		struct fault *ft = &cfg.faults[f];
		int hits = 0;

		for (int i = 0; i < cfg.ports; i++) {
			struct dpath_port p;
			bool elsewhere;

			fake_port(&p, i);
			if (!fault_names_port(ft->port, &p, &elsewhere))
				continue;
			if (!hits++)
				ft->index = i;
		}
		if (hits == 1)
			continue;
		if (hits)
			snprintf(
				err, err_len,
				"fake: '%s=%s@%g': '%s' names %d ports of %s; name one as HOST:CA:PORT",
				fault_names[ft->kind], ft->port, ft->value,
				ft->port, hits,
				fabric_active() ? "the routes" : "the fake");
		else
			snprintf(
				err, err_len,
				"fake: '%s=%s@%g': no port %s among the fake's %d (%s)",
				fault_names[ft->kind], ft->port, ft->value,
				ft->port, cfg.ports,
				fabric_active()
					? "the routes' CA ports, HOST:CA:PORT"
					: "fakeI:1 or HOST:fakeI:1");
		return -EINVAL;
	}
	return 0;
}

int dpath_fake_configure(const char *spec, char *err, size_t err_len)
{
	char *copy, *save = NULL, *item;
	int ret = 0;

	dpath_fake_reset();
	cfg.configured = true;
	if (!spec)
		spec = getenv("IBP_FAKE");
	if (!spec)
		return 0;
	copy = strdup(spec);
	if (!copy)
		return -ENOMEM;
	for (item = strtok_r(copy, "; \t\n", &save); item && !ret;
	     item = strtok_r(NULL, "; \t\n", &save)) {
		char *eq = strchr(item, '=');

		if (!eq) {
			snprintf(err, err_len, "fake: '%s': expected KEY=VALUE",
				 item);
			ret = -EINVAL;
			break;
		}
		*eq = '\0';
		ret = parse_item(item, eq + 1, err, err_len);
	}
	free(copy);
	if (!ret && fabric)
		ret = fabric->ready(err, err_len);
	if (!ret)
		ret = resolve_faults(err, err_len);
	return ret;
}

/* The fault of kind planted on port p; 0 if none. */
static double fault_value(const struct dpath_port *p, enum fault_kind kind,
			  double none)
{
	char full[2 * DPATH_NAME_MAX + 16], local[DPATH_NAME_MAX + 16];

	snprintf(full, sizeof(full), "%s:%s:%d", p->host, p->ca, p->port);
	snprintf(local, sizeof(local), "%s:%d", p->ca, p->port);
	for (int i = 0; i < cfg.n_faults; i++) {
		const struct fault *f = &cfg.faults[i];

		if (f->kind != kind)
			continue;
		if (fabric_active()
			    ? f->index == port_index(p)
			    : !strcmp(f->port, full) || !strcmp(f->port, local))
			return f->value;
	}
	return none;
}

static void fake_port(struct dpath_port *p, int i)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->host, sizeof(p->host), "%s", record_hostname());
	snprintf(p->ca, sizeof(p->ca), "fake%d", i);
	p->port = 1;
	p->guid = 0xfa4e000000000000ull | (uint64_t)i;
	for (const char *h = p->host; *h; h++)
		p->guid += (uint64_t)(unsigned char)*h << 20;
	p->lid = (uint16_t)(i + 1);
	p->rate_gbps = cfg.rate;
	if (fabric_active()) /* the CA port's names, GUID, LID and rate */
		fabric->port(i, p);
	p->gid_index = -1;
	snprintf(p->state, sizeof(p->state), "%s",
		 ib_port_state_name(IB_PORT_STATE_ACTIVE));
	snprintf(p->phys_state, sizeof(p->phys_state), "%s",
		 ib_phys_state_name(IB_PHYS_STATE_LINKUP));
	p->width = (int)fault_value(p, F_WIDTH, 4); /* trained to fewer lanes */
	p->rate_gbps = p->rate_gbps * p->width / 4;
	p->active_mtu = 4096;
	p->numa_node = -1;
	p->rail = i % cfg.rails;
}

static int fake_list_ports(const char *filter, struct dpath_port **ports,
			   int *n_ports)
{
	struct dpath_port *p;
	char err[160], name[DPATH_NAME_MAX + 16], full[2 * DPATH_NAME_MAX + 16];
	int k = 0;

	if (strlen(record_hostname()) >= sizeof(p->host)) {
		/* cut, two hosts would merge (D16) */
		log_error("IBPROOF_HOST: a host name of %zu bytes, longer "
			  "than %zu",
			  strlen(record_hostname()), sizeof(p->host) - 1);
		return -EINVAL;
	}
	if (!cfg.configured && dpath_fake_configure(NULL, err, sizeof(err))) {
		log_error("IBP_FAKE: %s", err);
		return -EINVAL;
	}
	settle_ports();
	if (fabric_active() && fabric->n_ports() > cfg.ports && !cfg.ports_set)
		log_warn(
			"fake: the routes have %d CA ports; the fake serves the first %d",
			fabric->n_ports(), cfg.ports);
	p = calloc((size_t)(cfg.ports ? cfg.ports : 1), sizeof(*p));
	if (!p)
		return -ENOMEM;
	for (int i = 0; i < cfg.ports; i++) {
		fake_port(&p[k], i);
		snprintf(name, sizeof(name), "%s:%d", p[k].ca, p[k].port);
		snprintf(full, sizeof(full), "%s:%s", p[k].host, name);
		if (!filter || cli_list_has(filter, name) ||
		    cli_list_has(filter, full))
			k++;
	}
	*ports = p;
	*n_ports = k;
	return 0;
}

static int fake_endpoint_create(const struct dpath_port *port,
				const struct dpath_params *params,
				struct dpath_endpoint **ep)
{
	long call = atomic_fetch_add(&n_create, 1) + 1;
	struct dpath_endpoint *e;

	if (cfg.fail_create && call == cfg.fail_create) {
		log_error(
			"%s port %d: endpoint_create failed (fake: planted fault, call %ld)",
			port->ca, port->port, call);
		return -ENOMEM;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->port = *port;
	e->params = *params;
	memcpy(e->local.magic, FAKE_MAGIC, sizeof(e->local.magic));
	snprintf(e->local.name, sizeof(e->local.name), "%s:%s:%d", port->host,
		 port->ca, port->port);
	e->local.rate = port->rate_gbps;
	e->local.slow = fault_value(port, F_SLOW, 1);
	e->local.flaky = fault_value(port, F_FLAKY, 1);
	e->local.errors = (uint32_t)fault_value(port, F_ERRORS, 0);
	e->local.guid = port->guid;
	*ep = e;
	return 0;
}

static void fake_local_info(struct dpath_endpoint *ep,
			    struct dpath_conn_info *info)
{
	_Static_assert(sizeof(struct fake_wire) <= sizeof(info->bytes),
		       "fake_wire fits a dpath_conn_info");
	memset(info, 0, sizeof(*info));
	memcpy(info->bytes, &ep->local, sizeof(ep->local));
}

static int fake_connect(struct dpath_endpoint *ep,
			const struct dpath_conn_info *remote,
			struct dpath_result *res)
{
	long call = atomic_fetch_add(&n_connect, 1) + 1;

	memcpy(&ep->remote, remote->bytes, sizeof(ep->remote));
	if (memcmp(ep->remote.magic, FAKE_MAGIC, sizeof(ep->remote.magic))) {
		log_error(
			"%s port %d: connect: the peer is not a fake endpoint",
			ep->port.ca, ep->port.port);
		return -EPROTO;
	}
	if (cfg.fail_connect && call == cfg.fail_connect) {
		snprintf(res->error, sizeof(res->error),
			 "connect refused (fake: planted fault, call %ld)",
			 call);
		log_error("%s port %d: %s", ep->port.ca, ep->port.port,
			  res->error);
		return -ECONNREFUSED;
	}
	ep->connected = true;
	return 0;
}

static void sleep_s(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The flow this end measures: WRITE sends its data, READ fetches it. */
static void fabric_flow(const struct dpath_endpoint *ep,
			struct dpath_fake_flow *f)
{
	bool sends = ep->params.test == DPATH_TEST_WRITE;

	memset(f, 0, sizeof(*f));
	f->src_guid = sends ? ep->local.guid : ep->remote.guid;
	f->dst_guid = sends ? ep->remote.guid : ep->local.guid;
	f->cap_gbps = fmin(ep->local.rate, ep->remote.rate) *
		      fmin(ep->local.slow, ep->remote.slow);
	f->step = ep->params.step;
	f->warmup_s = ep->params.warmup_s;
	f->duration_s = ep->params.duration_s;
	f->stall_s = ep->params.stall_s;
}

static int window_count(double duration_s)
{
	double n = ceil(duration_s / (DPATH_WINDOW_MS / 1000.0) - 1e-9);

	return n > 0 ? (int)n : 0;
}

/*
 * Each window's rate before the HCA faults and the efficiency: the
 * fabric's, or the slower port's x planted slow. -errno with res->error.
 */
static int window_rates(struct dpath_endpoint *ep,
			const struct dpath_fake_flow *f, double *gbps, int n,
			uint32_t *errors)
{
	*errors = 0;
	if (!f) {
		for (int w = 0; w < n; w++)
			gbps[w] = fmin(ep->local.rate, ep->remote.rate) *
				  fmin(ep->local.slow, ep->remote.slow);
		return 0;
	}
	return fabric->flow_rates(f, gbps, n, errors);
}

/* ret (a fabric's refusal: no route) said in res->error. */
static int fake_fabric_failed(const struct dpath_endpoint *ep,
			      struct dpath_result *res, int ret)
{
	if (ret && !res->error[0])
		snprintf(res->error, sizeof(res->error),
			 "fake fabric: no flow from %.60s to %.60s: %s",
			 ep->local.name, ep->remote.name, strerror(-ret));
	return ret;
}

/* The figures of the measured windows (flaky HCA: every 4th at F). */
static void account(struct dpath_endpoint *ep, const double *gbps, int n,
		    struct dpath_result *res)
{
	double flaky = fmin(ep->local.flaky, ep->remote.flaky);
	double left = ep->params.duration_s, win = DPATH_WINDOW_MS / 1000.0;
	double sum = 0;

	res->gbps_min = -1;
	for (int w = 0; w < n; w++, left -= win) {
		double len = fmin(win, left);
		double g = gbps[w] * cfg.efficiency * (w % 4 == 3 ? flaky : 1);

		sum += g * len;
		if (len >= win * 0.999 &&
		    (res->gbps_min < 0 || g < res->gbps_min))
			res->gbps_min = g;
	}
	if (res->gbps_min < 0) /* only a short window */
		res->gbps_min = n ? gbps[0] * cfg.efficiency : 0;
	res->gbps = sum / ep->params.duration_s;
	res->bytes = (uint64_t)(res->gbps * 1e9 / 8 * ep->params.duration_s);
	res->completions =
		res->bytes / (ep->params.msg_size ? ep->params.msg_size : 1);
}

/*
 * Sleeps through the warm-up and the window 100 ms at a time, then
 * accounts each window. The error completions the fabric's cables plant
 * go to *errors. -errno with res->error set.
 */
static int simulate(struct dpath_endpoint *ep, bool measure,
		    struct dpath_result *res, uint32_t *errors)
{
	double left = ep->params.duration_s, win = DPATH_WINDOW_MS / 1000.0;
	int n = window_count(ep->params.duration_s), ret = 0;
	struct dpath_fake_flow flow, *f = NULL;
	double t0, *gbps;

	*errors = 0;
	if (measure && fabric_active()) {
		fabric_flow(ep, &flow);
		f = &flow;
		ret = fabric->flow_start(f);
	}
	sleep_s(ep->params.warmup_s);
	t0 = dpath_fake_clock();
	for (; left > 1e-9; left -= win)
		sleep_s(fmin(win, left));
	res->seconds = dpath_fake_clock() - t0;
	if (!measure || n == 0 || ret)
		return fake_fabric_failed(ep, res, ret);
	gbps = calloc((size_t)n, sizeof(*gbps));
	if (!gbps)
		return -ENOMEM;
	ret = window_rates(ep, f, gbps, n, errors);
	if (!ret)
		account(ep, gbps, n, res);
	free(gbps);
	if (!ret && f)
		fabric->flow_end(f, res->bytes);
	return fake_fabric_failed(ep, res, ret);
}

static int fake_run(struct dpath_endpoint *ep, enum dpath_role role,
		    struct dpath_result *res)
{
	int idx = port_index(&ep->port);
	long nth = atomic_fetch_add(&n_runs[idx], 1) + 1;
	uint32_t errors = ep->local.errors > ep->remote.errors
				  ? ep->local.errors
				  : ep->remote.errors,
		 cable_errors;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!ep->connected)
		return -ENOTCONN;
	if (fault_value(&ep->port, F_DIE, 0) == (double)nth)
		raise(SIGKILL); /* a planted dead rank: nothing after this runs */
	if (fault_value(&ep->port, F_HANG, 0) == (double)nth)
		sleep_s(cfg.hang_s);
	ret = simulate(ep, role != DPATH_ROLE_TARGET, res, &cable_errors);
	if (ret)
		return ret;
	if (cable_errors > errors)
		errors = cable_errors; /* planted on a cable of its path */
	atomic_fetch_add(&xmit_words[idx], res->bytes / 4);
	if (fault_value(&ep->port, F_COUNTER_RESET, 0) == (double)nth) {
		atomic_store(&xmit_words[idx],
			     0); /* perfquery -R late in the step */
		atomic_store(&symbol_errors[idx], 0);
	}
	atomic_fetch_add(&symbol_errors[idx], (unsigned long long)fault_value(
						      &ep->port, F_SYMERR, 0));
	if (errors && role != DPATH_ROLE_TARGET) {
		res->error_completions = errors;
		snprintf(res->error, sizeof(res->error),
			 "%u error completions (fake: planted)", errors);
		return -EIO;
	}
	return 0;
}

static void fake_endpoint_destroy(struct dpath_endpoint *ep)
{
	long nth = atomic_fetch_add(&n_destroys[port_index(&ep->port)], 1) + 1;

	if (fault_value(&ep->port, F_STUCK_TEARDOWN, 0) == (double)nth)
		sleep_s(cfg.hang_s); /* a destroy call blocked in the kernel */
	free(ep);
}

static int fake_read_counters(const struct dpath_port *port,
			      char (*names)[DPATH_COUNTER_NAME_MAX],
			      uint64_t *values, int max, int *n)
{
	int idx = port_index(port);

	*n = 0;
	if (max < 2)
		return -ENOSPC;
	snprintf(names[0], DPATH_COUNTER_NAME_MAX, "%s",
		 ib_pc_defs[IB_PC_XMIT_DATA].sysfs);
	values[0] = atomic_load(&xmit_words[idx]);
	snprintf(names[1], DPATH_COUNTER_NAME_MAX, "%s",
		 ib_pc_defs[IB_PC_SYMBOL_ERRORS].sysfs);
	/* a 16-bit PMA counter: it saturates, never wraps */
	values[1] = (uint64_t)fault_value(port, F_SYMERR_AT, 0) +
		    atomic_load(&symbol_errors[idx]);
	if (values[1] > 65535)
		values[1] = 65535;
	*n = 2;
	return 0;
}

const struct dpath_transport_ops dpath_fake_ops = {
	.name = "fake",
	.has_mad_port = false,
	.judge_delay_s = dpath_fake_judge_delay,
	.list_ports = fake_list_ports,
	.endpoint_create = fake_endpoint_create,
	.local_info = fake_local_info,
	.connect = fake_connect,
	.run = fake_run,
	.endpoint_destroy = fake_endpoint_destroy,
	.read_counters = fake_read_counters,
};
