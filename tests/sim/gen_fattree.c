// SPDX-License-Identifier: MIT
/*
 * gen_fattree: write a two- or three-level fat tree as an ibsim net file,
 * the matching cabling spec (CSV) and a node-name-map.
 *
 *   gen_fattree --radix R --leaves L --spines S --hosts-per-leaf H
 *               [--hcas-per-host C] [--rails N] [--uplinks U]
 *               [--speed EDR] [--cage] [--spec-rail K]
 *               [--switch-desc TEXT] [--degrade NODE:PORT:w=N|e=N]...
 *               --net FILE --spec FILE [--map FILE]
 *   gen_fattree --levels 3 --pods P --leaves L --aggs-per-pod A --cores C
 *               --hosts-per-leaf H --radix R [the options above but --spines]
 *
 * Each rail is its own tree of L leaves and S spines. A host has C HCAs;
 * HCA c sits on rail c % N. A leaf has D = H*C/N down ports (1..D) and U
 * uplinks (default R-D; fewer leave ports free) spread round-robin over the
 * spines. Node names: leafNN[-rR],
 * spineNN[-rR], HCA "nodeNNN mlx5_K" (the first HCA is where ibsim clients
 * attach). --switch-desc gives every switch the same description (names
 * then come only from the map). --degrade sets w=/e= on both ends of the
 * cable at NODE:PORT in the net file only (the spec keeps the nominal value).
 * Each rail is its own subnet: --spec-rail K writes only rail K's cables,
 * the spec for a check run from a port on that rail.
 *
 * --levels 3: P pods, each of L leaves (--leaves counts per pod) and A
 * aggregation switches, under C core switches in A planes of C/A. A leaf's
 * U up-links (a multiple of A) go round-robin over its pod's aggregation
 * switches; aggregation switch a of every pod has one cable to each core
 * of plane a (its ports 1.. the leaves', then the cores'); core port p is
 * pod p's. Names aggNN, coreNN (numbered across pods), leaves numbered
 * pod by pod. Every switch has R ports; the radix must hold the down and
 * up ports of each level.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"

#define HCA_GUID_BASE 0x0008f10400000000ULL
#define SW_GUID_BASE 0x0008f10300000000ULL
#define MAX_DEGRADE 16

struct gen_node {
	char id[48]; /* ibsim node id */
	char name[48]; /* node name (map / spec) */
	uint64_t guid;
	int is_switch;
	int rail;
	int nports;
	int *peer; /* peer node index per port, -1 = none */
	int *peer_port;
	char **opt; /* extra port options per port (degrade) */
};

struct gen_params {
	int radix, leaves, spines, hosts, hcas, rails, uplinks, cage, ext_speed;
	int levels, pods, aggs, cores; /* --levels 3 */
	int spec_rail; /* -1: every rail in the spec */
	const char *speed_name, *switch_desc;
	const char *net, *spec, *map;
	const char *degrade[MAX_DEGRADE];
	int ndegrade;
};

static struct gen_node *nodes;
static int nnodes;

static void die(const char *msg)
{
	fprintf(stderr, "gen_fattree: %s\n", msg);
	exit(2);
}

static int add_node(int is_switch, int nports, uint64_t guid)
{
	struct gen_node *n = &nodes[nnodes];
	int p;

	n->is_switch = is_switch;
	n->nports = nports;
	n->guid = guid;
	n->peer = calloc(nports + 1, sizeof(*n->peer));
	n->peer_port = calloc(nports + 1, sizeof(*n->peer_port));
	n->opt = calloc(nports + 1, sizeof(*n->opt));
	if (!n->peer || !n->peer_port || !n->opt)
		die("out of memory");
	for (p = 0; p <= nports; p++)
		n->peer[p] = -1;
	return nnodes++;
}

static void connect(int a, int ap, int b, int bp)
{
	if (ap > nodes[a].nports || bp > nodes[b].nports)
		die("port out of range (check --radix)");
	nodes[a].peer[ap] = b;
	nodes[a].peer_port[ap] = bp;
	nodes[b].peer[bp] = a;
	nodes[b].peer_port[bp] = ap;
}

static void name_switch(int idx, const char *kind, int num,
			const struct gen_params *g, int rail)
{
	struct gen_node *n = &nodes[idx];

	if (g->rails > 1)
		snprintf(n->name, sizeof(n->name), "%s%02d-r%d", kind, num,
			 rail);
	else
		snprintf(n->name, sizeof(n->name), "%s%02d", kind, num);
	snprintf(n->id, sizeof(n->id), "%s", n->name);
	n->rail = rail;
}

/* Build all HCAs first (the first one is the ibsim attach point). */
static void build_hcas(const struct gen_params *g, int nhosts)
{
	int h, c, idx;

	for (h = 0; h < nhosts; h++) {
		for (c = 0; c < g->hcas; c++) {
			idx = add_node(0, 1,
				       HCA_GUID_BASE + ((uint64_t)nnodes << 4));
			snprintf(nodes[idx].name, sizeof(nodes[idx].name),
				 "node%03d mlx5_%d", h + 1, c);
			snprintf(nodes[idx].id, sizeof(nodes[idx].id),
				 "node%03d-mlx5_%d", h + 1, c);
			nodes[idx].rail = c % g->rails;
		}
	}
}

static void build_rail(const struct gen_params *g, int rail, int down)
{
	int up = g->uplinks ? g->uplinks : g->radix - down,
	    per_spine = up / g->spines;
	int leaf0 = nnodes, spine0, l, s, k, h, c, hca, port;

	for (l = 0; l < g->leaves; l++)
		name_switch(
			add_node(1, g->radix, SW_GUID_BASE + (uint64_t)nnodes),
			"leaf", l + 1, g, rail);
	spine0 = nnodes;
	for (s = 0; s < g->spines; s++)
		name_switch(
			add_node(1, g->radix, SW_GUID_BASE + (uint64_t)nnodes),
			"spine", s + 1, g, rail);
	for (l = 0; l < g->leaves; l++) {
		port = 1;
		for (h = 0; h < g->hosts; h++) {
			for (c = rail; c < g->hcas; c += g->rails) {
				hca = (l * g->hosts + h) * g->hcas + c;
				connect(leaf0 + l, port++, hca, 1);
			}
		}
		for (k = 0; k < up; k++)
			connect(leaf0 + l, down + 1 + k, spine0 + k % g->spines,
				l * per_spine + k / g->spines + 1);
	}
}

static void add_switches(const struct gen_params *g, int rail, const char *kind,
			 int n)
{
	int i;

	for (i = 0; i < n; i++)
		name_switch(
			add_node(1, g->radix, SW_GUID_BASE + (uint64_t)nnodes),
			kind, i + 1, g, rail);
}

/* Three levels: pods of leaves and aggregation switches, cores above. */
static void build_rail3(const struct gen_params *g, int rail, int down)
{
	int up = g->uplinks ? g->uplinks : g->radix - down;
	int per_agg = up / g->aggs, plane = g->cores / g->aggs;
	int nleaf = g->pods * g->leaves, leaf0 = nnodes, agg0, core0;
	int l, k, h, c, a, j, pod, port;

	add_switches(g, rail, "leaf", nleaf);
	agg0 = nnodes;
	add_switches(g, rail, "agg", g->pods * g->aggs);
	core0 = nnodes;
	add_switches(g, rail, "core", g->cores);
	for (l = 0; l < nleaf; l++) {
		pod = l / g->leaves;
		port = 1;
		for (h = 0; h < g->hosts; h++)
			for (c = rail; c < g->hcas; c += g->rails)
				connect(leaf0 + l, port++,
					(l * g->hosts + h) * g->hcas + c, 1);
		for (k = 0; k < up; k++)
			connect(leaf0 + l, down + 1 + k,
				agg0 + pod * g->aggs + k % g->aggs,
				(l % g->leaves) * per_agg + k / g->aggs + 1);
	}
	for (a = 0; a < g->pods * g->aggs; a++)
		for (j = 0; j < plane; j++)
			connect(agg0 + a, g->leaves * per_agg + 1 + j,
				core0 + (a % g->aggs) * plane + j,
				a / g->aggs + 1);
}

static int find_node(const char *name)
{
	int i;

	for (i = 0; i < nnodes; i++)
		if (!strcmp(nodes[i].name, name) || !strcmp(nodes[i].id, name))
			return i;
	return -1;
}

/* The number in s, or die naming what it is for. */
static int int_arg(const char *what, const char *s)
{
	long v;

	if (cli_str_to_long(s, -1000000, 1000000, &v)) {
		fprintf(stderr,
			"gen_fattree: %s: expected a number, got '%s'\n", what,
			s);
		exit(2);
	}
	return (int)v;
}

/* NODE:PORT:w=N or NODE:PORT:e=N; applied to both ends of the cable. */
static void apply_degrade(const char *arg)
{
	char buf[128], *node, *port, *opt;
	int n, p, peer;

	snprintf(buf, sizeof(buf), "%s", arg);
	node = strtok(buf, ":");
	port = strtok(NULL, ":");
	opt = strtok(NULL, "");
	if (!node || !port || !opt || (opt[0] != 'w' && opt[0] != 'e') ||
	    opt[1] != '=')
		die("--degrade wants NODE:PORT:w=N or NODE:PORT:e=N");
	int_arg("--degrade value", opt + 2);
	n = find_node(node);
	p = int_arg("--degrade port", port);
	if (n < 0 || p < 1 || p > nodes[n].nports || nodes[n].peer[p] < 0)
		die("--degrade names no connected port");
	peer = nodes[n].peer[p];
	nodes[n].opt[p] = strdup(opt);
	nodes[peer].opt[nodes[n].peer_port[p]] = strdup(opt);
}

static void port_opts(const struct gen_params *g, const struct gen_node *n,
		      int p, char *buf, size_t len)
{
	const char *o = n->opt[p];
	int w = 2, e = g->ext_speed;

	if (o && o[0] == 'w')
		w = int_arg("--degrade w", o + 2);
	if (o && o[0] == 'e')
		e = int_arg("--degrade e", o + 2);
	snprintf(buf, len, " w=%d e=%d", w, e);
}

static void write_net(const struct gen_params *g, FILE *f)
{
	const struct gen_node *n, *r;
	char opts[32];
	int i, p;

	fprintf(f, "# ibsim net file written by gen_fattree\n\n");
	for (i = 0; i < nnodes; i++) {
		n = &nodes[i];
		fprintf(f, "%s=0x%016" PRIx64 "\n",
			n->is_switch ? "switchguid" : "caguid", n->guid);
		fprintf(f, "%s %d \"%s\" # \"%s\"\n",
			n->is_switch ? "Switch" : "Hca", n->nports, n->id,
			n->is_switch && g->switch_desc ? g->switch_desc
						       : n->name);
		for (p = 1; p <= n->nports; p++) {
			if (n->peer[p] < 0)
				continue;
			r = &nodes[n->peer[p]];
			port_opts(g, n, p, opts, sizeof(opts));
			fprintf(f, "[%d] \"%s\"[%d]%s\n", p, r->id,
				n->peer_port[p], opts);
		}
		fprintf(f, "\n");
	}
}

static void port_name(const struct gen_params *g, const struct gen_node *n,
		      int p, char *buf, size_t len)
{
	if (g->cage && n->is_switch)
		snprintf(buf, len, "%d/%d", (p + 1) / 2, p % 2 ? 1 : 2);
	else
		snprintf(buf, len, "%d", p);
}

static void write_spec(const struct gen_params *g, FILE *f)
{
	const struct gen_node *n, *r;
	char ap[16], zp[16];
	int i, p, cable = 0;

	fprintf(f, "# cabling spec written by gen_fattree\n");
	fprintf(f, "a_node,a_port,z_node,z_port,speed,width,label,rack\n");
	for (i = 0; i < nnodes; i++) {
		n = &nodes[i];
		for (p = 1; p <= n->nports; p++) {
			if (n->peer[p] < i) /* each cable once */
				continue;
			if (g->spec_rail >= 0 && n->rail != g->spec_rail)
				continue;
			r = &nodes[n->peer[p]];
			port_name(g, n, p, ap, sizeof(ap));
			port_name(g, r, n->peer_port[p], zp, sizeof(zp));
			fprintf(f, "%s,%s,%s,%s,%s,4x,C%05d,%s\n", n->name, ap,
				r->name, zp, g->speed_name, ++cable,
				n->is_switch ? "R1" : "R2");
		}
	}
}

static void write_map(FILE *f)
{
	int i;

	fprintf(f, "# node-name-map written by gen_fattree\n");
	for (i = 0; i < nnodes; i++)
		fprintf(f, "0x%016" PRIx64 " \"%s\"\n", nodes[i].guid,
			nodes[i].name);
}

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "gen_fattree: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	return f;
}

static void write_file(const char *path, const struct gen_params *g, int what)
{
	FILE *f;

	if (!path)
		return;
	f = open_out(path);
	if (what == 0)
		write_net(g, f);
	else if (what == 1)
		write_spec(g, f);
	else
		write_map(f);
	if (fclose(f))
		die("write failed");
}

static const struct option gen_options[] = {
	{ "radix", required_argument, NULL, 'r' },
	{ "levels", required_argument, NULL, 'L' },
	{ "pods", required_argument, NULL, 'o' },
	{ "aggs-per-pod", required_argument, NULL, 'a' },
	{ "cores", required_argument, NULL, 'e' },
	{ "leaves", required_argument, NULL, 'l' },
	{ "spines", required_argument, NULL, 's' },
	{ "hosts-per-leaf", required_argument, NULL, 'H' },
	{ "hcas-per-host", required_argument, NULL, 'c' },
	{ "rails", required_argument, NULL, 'R' },
	{ "uplinks", required_argument, NULL, 'u' },
	{ "spec-rail", required_argument, NULL, 'P' },
	{ "speed", required_argument, NULL, 'S' },
	{ "cage", no_argument, NULL, 'C' },
	{ "switch-desc", required_argument, NULL, 'd' },
	{ "degrade", required_argument, NULL, 'D' },
	{ "net", required_argument, NULL, 'n' },
	{ "spec", required_argument, NULL, 'p' },
	{ "map", required_argument, NULL, 'm' },
	{ NULL, 0, NULL, 0 }
};

static void parse_speed(struct gen_params *g, const char *s)
{
	static const char *const names[] = { "FDR", "EDR", "HDR", "NDR" };
	int i;

	for (i = 0; i < 4; i++) {
		if (!strcmp(s, names[i])) {
			g->speed_name = names[i];
			g->ext_speed = 1 << i;
			return;
		}
	}
	die("--speed wants FDR, EDR, HDR or NDR");
}

static void parse_args(int argc, char **argv, struct gen_params *g)
{
	int c;

	while ((c = getopt_long(argc, argv, "", gen_options, NULL)) != -1) {
		switch (c) {
		case 'r':
			g->radix = int_arg("--radix", optarg);
			break;
		case 'l':
			g->leaves = int_arg("--leaves", optarg);
			break;
		case 'L':
			g->levels = int_arg("--levels", optarg);
			break;
		case 'o':
			g->pods = int_arg("--pods", optarg);
			break;
		case 'a':
			g->aggs = int_arg("--aggs-per-pod", optarg);
			break;
		case 'e':
			g->cores = int_arg("--cores", optarg);
			break;
		case 's':
			g->spines = int_arg("--spines", optarg);
			break;
		case 'H':
			g->hosts = int_arg("--hosts-per-leaf", optarg);
			break;
		case 'c':
			g->hcas = int_arg("--hcas-per-host", optarg);
			break;
		case 'R':
			g->rails = int_arg("--rails", optarg);
			break;
		case 'u':
			g->uplinks = int_arg("--uplinks", optarg);
			break;
		case 'P':
			g->spec_rail = int_arg("--spec-rail", optarg);
			break;
		case 'S':
			parse_speed(g, optarg);
			break;
		case 'C':
			g->cage = 1;
			break;
		case 'd':
			g->switch_desc = optarg;
			break;
		case 'D':
			if (g->ndegrade == MAX_DEGRADE)
				die("too many --degrade");
			g->degrade[g->ndegrade++] = optarg;
			break;
		case 'n':
			g->net = optarg;
			break;
		case 'p':
			g->spec = optarg;
			break;
		case 'm':
			g->map = optarg;
			break;
		default:
			die("bad option (see the comment at the top)");
		}
	}
}

static int check_shape3(const struct gen_params *g)
{
	int down = g->hosts * g->hcas / g->rails;
	int up = g->uplinks ? g->uplinks : g->radix - down;

	if (g->radix < 2 || g->pods < 1 || g->leaves < 1 || g->aggs < 1 ||
	    g->cores < 1 || g->hosts < 1 || g->hcas < 1 || g->rails < 1 ||
	    g->hcas % g->rails || g->spines)
		die("--levels 3 needs radix, pods, leaves, aggs-per-pod, cores, "
		    "hosts-per-leaf >= 1, hcas-per-host a multiple of rails "
		    "and no --spines");
	if (up < g->aggs || up % g->aggs || down + up > g->radix)
		die("uplinks per leaf (radix - down ports) must be a "
		    "multiple of aggs-per-pod");
	if (g->cores % g->aggs)
		die("cores must be a multiple of aggs-per-pod (one plane of "
		    "cores per aggregation switch of a pod)");
	if (g->leaves * (up / g->aggs) + g->cores / g->aggs > g->radix)
		die("aggregation switches have too few ports for their "
		    "leaves' up-links and their plane of cores");
	if (g->pods > g->radix)
		die("cores have too few ports for one cable per pod");
	return down;
}

static int check_shape(const struct gen_params *g)
{
	int down = g->hosts * g->hcas / g->rails;
	int up = g->uplinks ? g->uplinks : g->radix - down;

	if (g->radix < 2 || g->leaves < 1 || g->spines < 1 || g->hosts < 1 ||
	    g->hcas < 1 || g->rails < 1 || g->hcas % g->rails)
		die("need radix, leaves, spines, hosts-per-leaf >= 1 and "
		    "hcas-per-host a multiple of rails");
	if (up < g->spines || up % g->spines || down + up > g->radix)
		die("uplinks per leaf (radix - down ports) must be a "
		    "multiple of spines");
	if (g->leaves * (up / g->spines) > g->radix)
		die("spines have too few ports for all leaf uplinks");
	return down;
}

int main(int argc, char **argv)
{
	struct gen_params g = { .hcas = 1,
				.rails = 1,
				.speed_name = "EDR",
				.ext_speed = 2,
				.spec_rail = -1 };
	int down, r, i, nhosts, nsw;

	parse_args(argc, argv, &g);
	if (!g.net || !g.spec)
		die("--net FILE and --spec FILE are required");
	if (g.levels != 0 && g.levels != 2 && g.levels != 3)
		die("--levels wants 2 or 3");
	down = g.levels == 3 ? check_shape3(&g) : check_shape(&g);
	nsw = g.levels == 3 ? g.pods * (g.leaves + g.aggs) + g.cores
			    : g.leaves + g.spines;
	nhosts = g.leaves * g.hosts * (g.levels == 3 ? g.pods : 1);
	nodes = calloc((size_t)nhosts * g.hcas + (size_t)g.rails * nsw,
		       sizeof(*nodes));
	if (!nodes)
		die("out of memory");
	build_hcas(&g, nhosts);
	for (r = 0; r < g.rails; r++)
		if (g.levels == 3)
			build_rail3(&g, r, down);
		else
			build_rail(&g, r, down);
	for (i = 0; i < g.ndegrade; i++)
		apply_degrade(g.degrade[i]);
	write_file(g.net, &g, 0);
	write_file(g.spec, &g, 1);
	write_file(g.map, &g, 2);
	return 0;
}
