// SPDX-License-Identifier: MIT
/*
 * `ibproof burnin`: options, then one burnin_run() per rank: under an MPI
 * launcher one process per port (bootstrap_mpi.c), otherwise one thread
 * per local port in this process (bootstrap_threads.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/bootstrap.h"
#include "burnin/burnin.h"
#include "burnin/scope.h"
#include "burnin/fake_fabric.h"
#include "rdma/fake_transport.h"
#include "common/cli.h"
#include "common/log.h"
#include "common/subcommands.h"
#include "judge/judge_options.h"

enum {
	OPT_PORTS = CLI_KEY_COMMAND_FIRST,
	OPT_TRANSPORT,
	OPT_SCHEDULE,
	OPT_SEED,
	OPT_TEST,
	OPT_BIDIR,
	OPT_SIZE,
	OPT_QPS,
	OPT_TX_DEPTH,
	OPT_DURATION,
	OPT_WARMUP,
	OPT_STALL,
	OPT_RETRY,
	OPT_QP_TIMEOUT,
	OPT_SL,
	OPT_ALLOW_ADAPTIVE,
	OPT_VERIFY,
	OPT_DRY_RUN,
	OPT_INVENTORY,
	OPT_RESUME,
	OPT_RETESTS,
	OPT_FAKE,
	OPT_NO_PROGRESS,
	OPT_NO_PIN,
	OPT_CM,
	OPT_TOPOLOGY,
	OPT_LINK_RATE,
	OPT_PROVE_LOAD,
	OPT_NO_PROVE_LOAD,
	OPT_ROUTES,
	OPT_LFTS,
	OPT_CA_ORDER,
	OPT_COVERAGE,
	OPT_PLAN,
	OPT_MAX_ROUNDS,
	OPT_PLAN_AROUND_UNREAD,
	OPT_ACCEPT_UNTESTED,
};

static const struct cli_opt burnin_opts[] = {
	{ "ports", OPT_PORTS, "LIST",
	  "ports to test, e.g. mlx5_0:1,mlx5_1:1 (default: all ACTIVE)" },
	{ "transport", OPT_TRANSPORT, "NAME",
	  "verbs (default) or fake (no device; for tests)" },
	{ "schedule", OPT_SCHEDULE, "SPEC",
	  "all-pairs (default), rail, shift, random:R, node:HOST[,HOST], intra, pairs:FILE; cover (with --routes)" },
	{ "topology", OPT_TOPOLOGY, "FILE",
	  "ibnetdiscover output: the leaf switch of each port; node:HOST spreads partners over leaves" },
	{ "routes", OPT_ROUTES, "FILE",
	  "records of `ibproof fabric routes --records` (or, with --lfts, an ibnetdiscover topology): route-aware all-pairs and cover" },
	{ "lfts", OPT_LFTS, "FILE",
	  "with --routes TOPOLOGY: the tables (opensm-lfts.dump, ibroute / dump_lfts)" },
	{ "ftree-ca-order", OPT_CA_ORDER, "FILE",
	  "with --routes: opensm-ftree-ca-order.dump, the ftree engine's host order" },
	{ "coverage", OPT_COVERAGE, "FILE",
	  "with --routes: the coverage certificate as JSON Lines ('-': stdout)" },
	{ "plan", OPT_PLAN, "FILE",
	  "with --routes: the rounds in the pairs:FILE format" },
	{ "max-rounds", OPT_MAX_ROUNDS, "N",
	  "with --routes and all-pairs: at most N rounds; past them flows share cables, the fewest (default: as many rounds as keep every flow alone on each cable it crosses)" },
	{ "plan-around-unread", OPT_PLAN_AROUND_UNREAD, NULL,
	  "with --routes, cover or all-pairs: plan although some switches' tables were not read (their cables are not tested); refused without it (exit 2)" },
	{ "accept-untested", OPT_ACCEPT_UNTESTED, "LIST",
	  "accept known gaps of these parts (ports, pairs, cables): listed, never an INCOMPLETE verdict (default: a gap is INCOMPLETE, exit 1)" },
	{ "seed", OPT_SEED, "N",
	  "seed of the schedule (default 0: inventory order)" },
	{ "test", OPT_TEST, "LIST",
	  "write, read or write,read (default write)" },
	{ "cm", OPT_CM, "NAME",
	  "how QPs connect: mpi (default: QP numbers over the launcher) or rdmacm (librdmacm resolves each port's IP address: RoCE GID or IPoIB)" },
	{ "bidir", OPT_BIDIR, NULL, "both ends post (bidirectional)" },
	{ "size", OPT_SIZE, "BYTES",
	  "message size (K, M suffixes; default 1M)" },
	{ "qps", OPT_QPS, "N", "RC QPs per pair (default 4)" },
	{ "tx-depth", OPT_TX_DEPTH, "N",
	  "outstanding work requests per QP (default 16)" },
	{ "duration", OPT_DURATION, "SECONDS",
	  "measurement window per test (default 10)" },
	{ "warmup", OPT_WARMUP, "SECONDS",
	  "warm-up before the window, excluded (default 1)" },
	{ "stall", OPT_STALL, "SECONDS",
	  "no completion for this long: pair error stalled (default 5)" },
	{ "retry-cnt", OPT_RETRY, "N",
	  "RC retry count, 0-6 (default 3: a dead link errors fast)" },
	{ "qp-timeout", OPT_QP_TIMEOUT, "N",
	  "RC ACK timeout 4.096 us x 2^N per try, 1-31 (default 14: 67 ms)" },
	{ "sl", OPT_SL, "N",
	  "service level of every QP, 0-15 (default 0): with --routes, a path through a switch whose adaptive routing covers this SL is adaptive" },
	{ "allow-adaptive", OPT_ALLOW_ADAPTIVE, NULL,
	  "with --routes: plan cover / all-pairs over adaptive paths anyway; the certificate then says the plan is not contention-free" },
	{ "verify", OPT_VERIFY, NULL, "check a data pattern end to end" },
	{ "dry-run", OPT_DRY_RUN, NULL,
	  "print rounds, pairs and predicted wall time; no traffic" },
	{ "inventory", OPT_INVENTORY, "FILE",
	  "--dry-run from the port records in FILE (touches no device)" },
	{ "resume", OPT_RESUME, "FILE",
	  "skip the rounds recorded in FILE and append to it" },
	{ "retests", OPT_RETESTS, "N",
	  "extra rounds to retest suspects (default 2)" },
	{ "link-rate", OPT_LINK_RATE, "GBPS",
	  "every port's active rate: slower is degraded-width/-speed (default auto: what 3/4 of its rail's ports run at; off: no check)" },
	{ "prove-load", OPT_PROVE_LOAD, NULL,
	  "with --routes: read each cable's PMA counters around every step; a cable that sent under half its flows' bytes is cable-not-loaded (default: on when umad answers; an error here when it cannot)" },
	{ "no-prove-load", OPT_NO_PROVE_LOAD, NULL,
	  "no load proof (no PMA reads during the run)" },
	{ "fake", OPT_FAKE, "SPEC",
	  "fake transport setup and faults (see docs/burnin.md; env IBP_FAKE)" },
	{ "no-progress", OPT_NO_PROGRESS, NULL, "no progress lines on stderr" },
	{ "no-pin", OPT_NO_PIN, NULL,
	  "do not pin ranks to their port's NUMA node" },
	{ NULL },
};

static const struct cli_cmd burnin_cmd = {
	.name = "burnin",
	.synopsis = "[OPTIONS]   (under mpirun/srun: one rank per HCA port)",
	.description =
		"RDMA WRITE/READ bandwidth over every pair of HCA ports, round by round,\n"
		"judged against the expected rate and the other pairs of the same link\n"
		"class. A port is blamed only after it was slow with two partners that\n"
		"were fine elsewhere. Records are written as each round ends; SIGINT,\n"
		"SIGTERM or SIGUSR1 finish the round and exit 3 (under mpirun send\n"
		"SIGUSR1 to mpirun: it forwards that one and kills its ranks 1 s after\n"
		"the others); --resume continues a run.\n"
		"Without an MPI launcher the ports of this node are tested against each\n"
		"other, one thread per port. Run mpirun with --mca orte_enable_recovery 1\n"
		"so that a dead rank does not take the others down.\n",
	.opts = burnin_opts,
	.shared_opts = judge_cli_opts,
	.common = CLI_COMMON_RECORDS | CLI_COMMON_TIMEOUT | CLI_COMMON_CA |
		  CLI_COMMON_PORT,
};

struct cli_state {
	struct burnin_config cfg;
	const char *transport, *fake;
};

static int parse_size(const char *arg, size_t *out)
{
	char *end;
	double v = strtod(arg, &end);
	double mult = 1;

	if (end == arg)
		return cli_usage_error(&burnin_cmd,
				       "--size: '%s' is not a size", arg);
	if (*end == 'K' || *end == 'k')
		mult = 1024, end++;
	else if (*end == 'M' || *end == 'm')
		mult = 1024 * 1024, end++;
	else if (*end == 'G' || *end == 'g')
		mult = 1024.0 * 1024 * 1024, end++;
	if (*end || v * mult < 1 || v * mult > 1024.0 * 1024 * 1024)
		return cli_usage_error(
			&burnin_cmd, "--size: '%s' must be 1 byte to 1G", arg);
	*out = (size_t)(v * mult);
	return 0;
}

static int parse_tests(struct burnin_config *cfg, const char *arg)
{
	char *copy = strdup(arg), *save = NULL, *t;
	int ret = 0;

	cfg->n_tests = 0;
	for (t = strtok_r(copy, ",", &save); t && !ret;
	     t = strtok_r(NULL, ",", &save)) {
		if (cfg->n_tests == 2)
			ret = cli_usage_error(&burnin_cmd,
					      "--test: at most write,read");
		else if (!strcmp(t, "write"))
			cfg->tests[cfg->n_tests++] = DPATH_TEST_WRITE;
		else if (!strcmp(t, "read"))
			cfg->tests[cfg->n_tests++] = DPATH_TEST_READ;
		else
			ret = cli_usage_error(
				&burnin_cmd,
				"--test: '%s' is not write or read", t);
	}
	if (!ret && !cfg->n_tests)
		ret = cli_usage_error(
			&burnin_cmd,
			"--test: expected write, read or write,read");
	free(copy);
	return ret;
}

static int parse_cm(struct dpath_params *p, const char *arg)
{
	if (!strcmp(arg, "mpi"))
		p->cm = DPATH_CM_BOOTSTRAP;
	else if (!strcmp(arg, "rdmacm"))
		p->cm = DPATH_CM_RDMACM;
	else
		return cli_usage_error(&burnin_cmd,
				       "--cm: '%s' is not mpi or rdmacm", arg);
	return 0;
}

static int parse_link_rate(const char *arg, double *out)
{
	if (!strcmp(arg, "auto")) {
		*out = -1;
		return 0;
	}
	if (!strcmp(arg, "off")) {
		*out = 0;
		return 0;
	}
	return cli_parse_double(&burnin_cmd, "--link-rate", arg, 0.001, 1e5,
				out);
}

static int parse_int(const char *opt, const char *arg, long min, long max,
		     int *out)
{
	long v;

	if (cli_parse_long(&burnin_cmd, opt, arg, min, max, &v))
		return -EINVAL;
	*out = (int)v;
	return 0;
}

static int on_opt(void *p, int key, const char *arg)
{
	struct cli_state *st = p;
	struct burnin_config *c = &st->cfg;
	long seed;
	int ret = judge_option_parse(&burnin_cmd, &c->judge.pairs, NULL, key,
				     arg);

	if (ret <= 0)
		return ret;
	switch (key) {
	case OPT_PORTS:
		c->ports_filter = arg;
		return 0;
	case OPT_TRANSPORT:
		st->transport = arg;
		return 0;
	case OPT_SCHEDULE:
		c->schedule = arg;
		return 0;
	case OPT_SEED:
		if (cli_parse_long(&burnin_cmd, "--seed", arg, 0, 0x7fffffffL,
				   &seed))
			return -EINVAL;
		c->seed = (uint64_t)seed;
		return 0;
	case OPT_TEST:
		return parse_tests(c, arg);
	case OPT_CM:
		return parse_cm(&c->params, arg);
	case OPT_BIDIR:
		c->params.bidir = true;
		return 0;
	case OPT_SIZE:
		return parse_size(arg, &c->params.msg_size);
	case OPT_QPS:
		return parse_int("--qps", arg, 1, DPATH_MAX_QPS,
				 &c->params.qps);
	case OPT_TX_DEPTH:
		return parse_int("--tx-depth", arg, 1, 4096,
				 &c->params.tx_depth);
	case OPT_DURATION:
		return cli_parse_double(&burnin_cmd, "--duration", arg, 0, 1e6,
					&c->params.duration_s);
	case OPT_WARMUP:
		return cli_parse_double(&burnin_cmd, "--warmup", arg, 0, 3600,
					&c->params.warmup_s);
	case OPT_STALL:
		return cli_parse_double(&burnin_cmd, "--stall", arg, 0.01, 3600,
					&c->params.stall_s);
	case OPT_RETRY:
		return parse_int("--retry-cnt", arg, 0, 6,
				 &c->params.retry_cnt);
	case OPT_QP_TIMEOUT:
		return parse_int("--qp-timeout", arg, 1, 31,
				 &c->params.qp_timeout);
	case OPT_SL:
		return parse_int("--sl", arg, 0, 15, &c->params.sl);
	case OPT_ALLOW_ADAPTIVE:
		c->allow_adaptive = true;
		return 0;
	case OPT_VERIFY:
		c->params.verify = true;
		return 0;
	case OPT_DRY_RUN:
		c->dry_run = true;
		return 0;
	case OPT_INVENTORY:
		c->inventory = arg;
		return 0;
	case OPT_ROUTES:
		c->routes = arg;
		return 0;
	case OPT_LFTS:
		c->lfts = arg;
		return 0;
	case OPT_CA_ORDER:
		c->ftree_ca_order = arg;
		return 0;
	case OPT_COVERAGE:
		c->coverage = arg;
		return 0;
	case OPT_PLAN:
		c->plan_out = arg;
		return 0;
	case OPT_MAX_ROUNDS:
		return parse_int("--max-rounds", arg, 1, 0x7fffffffL,
				 &c->max_rounds);
	case OPT_PLAN_AROUND_UNREAD:
		c->plan_around_unread = true;
		return 0;
	case OPT_ACCEPT_UNTESTED: {
		char err[160];

		if (burnin_accept_parse(arg, &c->accept_untested, err,
					sizeof(err)))
			return cli_usage_error(&burnin_cmd, "%s", err);
		return 0;
	}
	case OPT_TOPOLOGY:
		c->topology = arg;
		return 0;
	case OPT_RESUME:
		c->resume = arg;
		return 0;
	case OPT_RETESTS:
		return parse_int("--retests", arg, 0, 100, &c->retest_rounds);
	case OPT_LINK_RATE:
		return parse_link_rate(arg, &c->judge.link_rate);
	case OPT_FAKE:
		st->fake = arg;
		return 0;
	case OPT_PROVE_LOAD:
	case OPT_NO_PROVE_LOAD:
		c->prove_load = key == OPT_PROVE_LOAD;
		return 0;
	case OPT_NO_PROGRESS:
		c->progress = false;
		return 0;
	case OPT_NO_PIN:
		c->pin_numa = false;
		return 0;
	}
	return -EINVAL;
}

void burnin_config_defaults(struct burnin_config *c)
{
	memset(c, 0, sizeof(*c));
	c->params = (struct dpath_params){ .test = DPATH_TEST_WRITE,
					   .msg_size = 1 << 20,
					   .qps = 4,
					   .tx_depth = 16,
					   .duration_s = 10,
					   .warmup_s = 1,
					   .stall_s = 5,
					   .retry_cnt = 3,
					   .qp_timeout = 14 };
	c->tests[0] = DPATH_TEST_WRITE;
	c->n_tests = 1;
	c->schedule = "all-pairs";
	burnin_judge_defaults(&c->judge);
	c->retest_rounds = 2;
	c->timeout_s = 30;
	c->progress = true;
	c->pin_numa = true;
	c->prove_load = -1;
}

static int choose_transport(struct cli_state *st)
{
	const char *name = st->transport ? st->transport : "verbs";
	char err[256];

	st->cfg.ops = dpath_transport_find(name);
	if (!st->cfg.ops)
		return cli_usage_error(&burnin_cmd,
				       "--transport: '%s' is not verbs or fake",
				       name);
	if (strcmp(name, "fake")) /* the fake's spec and fabric below */
		return 0;
	dpath_fake_set_fabric(&burnin_fake_fabric_ops); /* routes=FILE */
	if (dpath_fake_configure(st->fake, err, sizeof(err)))
		return cli_usage_error(&burnin_cmd, "%s", err);
	return 0;
}

/* --ca NAME [--port N] become a --ports filter. */
static int ports_from_ca(struct cli_state *st, const struct cli_common *co,
			 char *buf, size_t len)
{
	if (!co->ca && !co->port)
		return 0;
	if (st->cfg.ports_filter || !co->ca)
		return cli_usage_error(
			&burnin_cmd,
			"--ca/--port: give --ca NAME [--port N], or --ports");
	snprintf(buf, len, "%s:%d", co->ca, co->port ? co->port : 1);
	st->cfg.ports_filter = buf;
	return 0;
}

static char *join_argv(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	for (int i = 0; s && i < argc; i++) {
		strcat(s, argv[i]);
		if (i + 1 < argc)
			strcat(s, " ");
	}
	return s;
}

static int dry_run_inventory(const struct burnin_config *cfg)
{
	struct burnin_schedule s = { 0 };
	struct dpath_port *inv;
	int n, code, ret = burnin_inventory_load(cfg->inventory, &inv, &n);

	if (ret)
		return ret == -EINVAL ? IBP_EXIT_USAGE : IBP_EXIT_RUNTIME;
	if (n < 2) { /* a plan of no pairs is no plan (D23), as in a run */
		log_error("%s: %d port record(s): burnin needs at least 2 "
			  "ports",
			  cfg->inventory, n);
		free(inv);
		return IBP_EXIT_USAGE;
	}
	code = burnin_plan(cfg, inv, n, &s);
	if (code == IBP_EXIT_PASS)
		burnin_print_plan(cfg, inv, n, &s);
	burnin_schedule_free(&s);
	free(inv);
	return code;
}

static int run_mpi(const struct burnin_config *cfg, int *argc, char ***argv)
{
	struct burnin_bootstrap *bs = burnin_bootstrap_mpi_open(argc, argv);
	int code;

	if (!bs)
		return IBP_EXIT_RUNTIME;
	code = burnin_run(cfg, bs);
	bs->ops->close(bs, code == IBP_EXIT_RUNTIME);
	return code;
}

int burnin_main(int argc, char **argv)
{
	struct cli_state st = { 0 };
	struct cli_common co;
	char filter[DPATH_NAME_MAX + 16], *line;
	int idx, code;

	burnin_config_defaults(&st.cfg);
	idx = cli_parse(&burnin_cmd, argc, argv, &co, on_opt, &st);
	if (idx < 0)
		return cli_parse_exit(idx);
	if (idx < argc)
		return cli_usage_error(&burnin_cmd, "unexpected argument '%s'",
				       argv[idx]),
		       IBP_EXIT_USAGE;
	if (choose_transport(&st) ||
	    ports_from_ca(&st, &co, filter, sizeof(filter)))
		return IBP_EXIT_USAGE;
	if (!st.cfg.routes && (st.cfg.lfts || st.cfg.ftree_ca_order ||
			       st.cfg.coverage || st.cfg.plan_out))
		return cli_usage_error(&burnin_cmd,
				       "--lfts, --ftree-ca-order, --coverage "
				       "and --plan go with --routes FILE"),
		       IBP_EXIT_USAGE;
	if (st.cfg.max_rounds &&
	    (!st.cfg.routes || strcmp(st.cfg.schedule, "all-pairs")))
		return cli_usage_error(&burnin_cmd,
				       "--max-rounds goes with --routes FILE "
				       "and --schedule all-pairs"),
		       IBP_EXIT_USAGE;
	if (st.cfg.params.sl && st.cfg.params.cm == DPATH_CM_RDMACM)
		return cli_usage_error(&burnin_cmd,
				       "--sl goes with --cm bootstrap: with "
				       "rdma_cm the SL is the SA's path "
				       "record's (the SM's QoS policy)"),
		       IBP_EXIT_USAGE;
	if (st.cfg.allow_adaptive && !st.cfg.routes)
		return cli_usage_error(&burnin_cmd,
				       "--allow-adaptive goes with --routes "
				       "FILE"),
		       IBP_EXIT_USAGE;
	if (st.cfg.inventory && !st.cfg.dry_run)
		return cli_usage_error(&burnin_cmd,
				       "--inventory goes with --dry-run"),
		       IBP_EXIT_USAGE;
	st.cfg.records = co.records;
	if (st.cfg.resume && !st.cfg.records)
		st.cfg.records = st.cfg.resume;
	if (co.timeout_s > 0)
		st.cfg.timeout_s = co.timeout_s;
	if (st.cfg.inventory)
		return dry_run_inventory(&st.cfg);
	line = join_argv(argc, argv);
	st.cfg.argv_line = line ? line : "burnin";
	burnin_install_signal_handlers();
	if (burnin_bootstrap_mpi_launched())
		code = run_mpi(&st.cfg, &argc, &argv);
	else
		code = burnin_run_local(&st.cfg);
	free(line);
	return code;
}
