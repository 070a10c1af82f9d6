// SPDX-License-Identifier: MIT
/*
 * burnin_verbs_probe: drives dpath_verbs_ops directly, without MPI, for the
 * vm tier and bench/burnin. Exit 0 ok, 1 a measurement failed, 2 usage,
 * 3 could not test.
 *   burnin_verbs_probe list [FILTER]
 *   burnin_verbs_probe loopback CA:PORT [--samples N] [OPTIONS]
 *   burnin_verbs_probe pair CA:PORT --role initiator|target --dir DIR [OPTIONS]
 * pair exchanges connection data through files in DIR (shared by both
 * hosts): ROLE.info, then ROLE.ready once connected.
 * OPTIONS: --test write|read --bidir --qps N --size BYTES --depth N
 *          --duration S --warmup S --stall S --retry N (3) --verify
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/cli.h"
#include "rdma/loopback.h"
#include "rdma/transport.h"

#define EXCHANGE_TIMEOUT_S 60

static const struct dpath_transport_ops *ops = &dpath_verbs_ops;

struct probe {
	struct dpath_params p;
	int samples;
	const char *role, *dir;
};

static int usage(void)
{
	fprintf(stderr, "usage: burnin_verbs_probe list [FILTER] | loopback "
			"CA:PORT [--samples N] | pair CA:PORT --role "
			"initiator|target --dir DIR  [--test write|read] "
			"[--bidir] [--qps N] [--size B] [--depth N] "
			"[--duration S] [--warmup S] [--stall S] [--retry N] "
			"[--verify]\n");
	return 2;
}

static int parse(int argc, char **argv, struct probe *pr)
{
	static const struct option opts[] = {
		{ "test", 1, 0, 't' },	 { "bidir", 0, 0, 'b' },
		{ "qps", 1, 0, 'q' },	 { "size", 1, 0, 's' },
		{ "depth", 1, 0, 'd' },	 { "duration", 1, 0, 'D' },
		{ "warmup", 1, 0, 'w' }, { "stall", 1, 0, 'S' },
		{ "verify", 0, 0, 'v' }, { "samples", 1, 0, 'n' },
		{ "role", 1, 0, 'r' },	 { "retry", 1, 0, 'R' },
		{ "dir", 1, 0, 'o' },	 { 0 },
	};
	long v;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (strcmp(optarg, "write") && strcmp(optarg, "read"))
				return -1;
			pr->p.test = strcmp(optarg, "read") ? DPATH_TEST_WRITE
							    : DPATH_TEST_READ;
			break;
		case 'b':
			pr->p.bidir = true;
			break;
		case 'q':
			if (cli_str_to_long(optarg, 0, INT_MAX, &v))
				return -1;
			pr->p.qps = (int)v;
			break;
		case 's':
			pr->p.msg_size = strtoul(optarg, NULL, 0);
			break;
		case 'd':
			if (cli_str_to_long(optarg, 0, INT_MAX, &v))
				return -1;
			pr->p.tx_depth = (int)v;
			break;
		case 'D':
			pr->p.duration_s = atof(optarg);
			break;
		case 'w':
			pr->p.warmup_s = atof(optarg);
			break;
		case 'S':
			pr->p.stall_s = atof(optarg);
			break;
		case 'v':
			pr->p.verify = true;
			break;
		case 'n':
			if (cli_str_to_long(optarg, 0, INT_MAX, &v))
				return -1;
			pr->samples = (int)v;
			break;
		case 'r':
			pr->role = optarg;
			break;
		case 'o':
			pr->dir = optarg;
			break;
		case 'R':
			if (cli_str_to_long(optarg, 0, INT_MAX, &v))
				return -1;
			pr->p.retry_cnt = (int)v;
			break;
		default:
			return -1;
		}
	}
	return 0;
}

static int find_port(const char *name, struct dpath_port *out)
{
	struct dpath_port *ports;
	int n;

	if (ops->list_ports(name, &ports, &n) || n != 1) {
		fprintf(stderr, "probe: port %s not found\n", name);
		return -ENODEV;
	}
	*out = ports[0];
	free(ports);
	return 0;
}

static int cmd_list(const char *filter)
{
	struct dpath_port *ports;
	int n;

	if (ops->list_ports(filter, &ports, &n))
		return 3;
	for (int i = 0; i < n; i++) {
		const struct dpath_port *p = &ports[i];

		printf("%s %s:%d rail %d guid 0x%016" PRIx64
		       " lid %u gid_index %d %s %s/%s rate %.1f Gb/s mtu %d "
		       "numa %d pci %s netdev %s\n",
		       p->host, p->ca, p->port, p->rail, p->guid, p->lid,
		       p->gid_index, p->ethernet ? "Ethernet" : "InfiniBand",
		       p->state, p->phys_state, p->rate_gbps, p->active_mtu,
		       p->numa_node, p->pci_addr[0] ? p->pci_addr : "-",
		       p->netdev[0] ? p->netdev : "-");
	}
	free(ports);
	return n ? 0 : 1;
}

static int cmd_loopback(const char *name, struct probe *pr)
{
	struct dpath_port port;
	double *g;
	int ret, bad = 0;

	if (find_port(name, &port))
		return 3;
	g = calloc((size_t)pr->samples, sizeof(*g));
	if (!g)
		return 3;
	ret = dpath_loopback_measure(&port, &pr->p, pr->samples, g);
	for (int i = 0; !ret && i < pr->samples; i++) {
		printf("loopback %s sample %d: %.3f Gb/s\n", name, i, g[i]);
		bad += !(g[i] > 0);
	}
	free(g);
	if (ret)
		fprintf(stderr, "probe: loopback failed: %s\n", strerror(-ret));
	return ret ? 1 : bad ? 1 : 0;
}

static int write_file(const char *dir, const char *name, const void *buf,
		      size_t len)
{
	char tmp[4096], path[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, name);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(tmp, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		return -errno;
	return rename(tmp, path) ? -errno : 0;
}

/* Wait (bounded) for DIR/NAME and read len bytes of it. */
static int wait_file(const char *dir, const char *name, void *buf, size_t len)
{
	struct timespec nap = { 0, 20000000 };
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (int i = 0; i < EXCHANGE_TIMEOUT_S * 50; i++) {
		FILE *f = fopen(path, "rb");

		if (f) {
			size_t got = fread(buf, 1, len, f);

			fclose(f);
			if (got == len)
				return 0;
		}
		nanosleep(&nap, NULL);
	}
	fprintf(stderr, "probe: %s did not appear within %d s\n", path,
		EXCHANGE_TIMEOUT_S);
	return -ETIMEDOUT;
}

static void print_result(const char *what, const struct dpath_result *r)
{
	printf("%s: gbps=%.3f gbps_min=%.3f bytes=%" PRIu64
	       " seconds=%.3f completions=%" PRIu64
	       " error_completions=%" PRIu64 " verify=%s error=\"%s\"\n",
	       what, r->gbps, r->gbps_min, r->bytes, r->seconds, r->completions,
	       r->error_completions, r->verify_failed ? "FAILED" : "ok",
	       r->error);
	for (int i = 0; i < r->n_errors; i++)
		printf("  %" PRIu64 " x %s\n", r->errors[i].count,
		       r->errors[i].status);
	fflush(stdout);
}

static int pair_connect(struct dpath_endpoint *ep, const struct probe *pr,
			bool initiator)
{
	const char *me = initiator ? "initiator" : "target";
	const char *peer = initiator ? "target" : "initiator";
	struct dpath_conn_info mine, theirs;
	char name[64];
	int ret;

	ops->local_info(ep, &mine);
	snprintf(name, sizeof(name), "%s.info", me);
	ret = write_file(pr->dir, name, &mine, sizeof(mine));
	snprintf(name, sizeof(name), "%s.info", peer);
	if (!ret)
		ret = wait_file(pr->dir, name, &theirs, sizeof(theirs));
	if (!ret)
		ret = ops->connect(ep, &theirs, &(struct dpath_result){ 0 });
	snprintf(name, sizeof(name), "%s.ready", me);
	if (!ret)
		ret = write_file(pr->dir, name, "1", 1);
	snprintf(name, sizeof(name), "%s.ready", peer);
	if (!ret)
		ret = wait_file(pr->dir, name, name, 1);
	return ret;
}

static int cmd_pair(const char *name, struct probe *pr)
{
	bool initiator = pr->role && !strcmp(pr->role, "initiator");
	enum dpath_role role = pr->p.bidir ? DPATH_ROLE_BOTH
			       : initiator ? DPATH_ROLE_INITIATOR
					   : DPATH_ROLE_TARGET;
	struct dpath_endpoint *ep;
	struct dpath_result res;
	struct dpath_port port;
	char what[128];
	int ret;

	if (!pr->dir || !pr->role || (!initiator && strcmp(pr->role, "target")))
		return usage();
	if (find_port(name, &port) || ops->endpoint_create(&port, &pr->p, &ep))
		return 3;
	ret = pair_connect(ep, pr, initiator);
	if (!ret) {
		ret = ops->run(ep, role, &res);
		snprintf(what, sizeof(what), "%s %s %s%s",
			 pr->p.test == DPATH_TEST_WRITE ? "write" : "read",
			 pr->role, name, pr->p.bidir ? " bidir" : "");
		print_result(what, &res);
	}
	ops->endpoint_destroy(ep);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct probe pr = {
		.p = { .test = DPATH_TEST_WRITE,
		       .msg_size = 65536,
		       .qps = 4,
		       .tx_depth = 16,
		       .duration_s = 2,
		       .warmup_s = 0.5,
		       .stall_s = 3,
		       .retry_cnt = 3 },
		.samples = 12,
	};
	const char *port;

	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "list"))
		return cmd_list(argc > 2 ? argv[2] : NULL);
	if (argc < 3)
		return usage();
	port = argv[2]; /* getopt_long permutes argv */
	if (parse(argc - 2, argv + 2, &pr) || optind != argc - 2)
		return usage();
	if (!strcmp(argv[1], "loopback"))
		return cmd_loopback(port, &pr);
	if (!strcmp(argv[1], "pair"))
		return cmd_pair(port, &pr);
	return usage();
}
