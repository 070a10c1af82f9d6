// SPDX-License-Identifier: MIT
/*
 * proof_step: one step of burnin's load proof (burnin/load_proof_run.h)
 * against ibsim through the real libibmad ops, without a data path: the
 * routes of `ibproof fabric routes --records`, pairs of their CAs, a WRITE
 * step whose pairs each moved MOVED bytes. It reads the counters of the
 * step's cables, writes each flow's planned cables to PLAN
 * ("FLOW NODE PORT LID", NODE as ibsim names it: spaces made '-'), waits
 * for a file GO to appear (the test moves ibsim's counters meanwhile with
 * PerformanceSet), reads again and writes the cable-load records and
 * cable-not-loaded findings to OUT.
 *
 *   proof_step ROUTES PLAN GO OUT MOVED GUID:GUID...  (CA port GUIDs)
 *
 * Exit 0 after the step, 1 when the proof cannot run, 2 on bad arguments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "burnin/load_proof_run.h"
#include "burnin/route_model.h"
#include "common/record.h"

#define MAX_PAIRS 64

/* "GUID:GUID" (port GUIDs of two CAs of the routes) -> CA indices. */
static int parse_pair(const struct burnin_routes *r, const char *arg,
		      struct burnin_pair *p)
{
	char a[40], b[40];
	uint64_t ga, gb;
	const char *colon = strchr(arg, ':');

	if (!colon || colon - arg >= (long)sizeof(a) ||
	    strlen(colon + 1) >= sizeof(b))
		return -EINVAL;
	snprintf(a, sizeof(a), "%.*s", (int)(colon - arg), arg);
	snprintf(b, sizeof(b), "%s", colon + 1);
	if (record_guid_parse(a, &ga) || record_guid_parse(b, &gb))
		return -EINVAL;
	p->a = burnin_routes_ca_by_guid(r, ga);
	p->b = burnin_routes_ca_by_guid(r, gb);
	return p->a < 0 || p->b < 0 || p->a == p->b ? -EINVAL : 0;
}

static void write_plan(FILE *f, const struct burnin_routes *r,
		       const struct burnin_pair *p, int n)
{
	for (int i = 0; i < n; i++) {
		int path[64],
			k = burnin_routes_path(r, p[i].a, p[i].b, path, 64);

		for (int j = 0; j < k; j++) {
			const struct burnin_cable *c =
				burnin_routes_cable(r, path[j]);
			char node[128];

			snprintf(node, sizeof(node), "%s", c->from_name);
			for (char *s = node; *s; s++)
				if (*s == ' ')
					*s = '-';
			fprintf(f, "%d %s %d %u\n", i, node, c->from_port,
				c->from_lid);
		}
	}
}

static int wait_for(const char *path)
{
	for (int i = 0; i < 1200; i++) {
		if (!access(path, F_OK))
			return 0;
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	return -ETIMEDOUT;
}

/* The inventory: every CA port of the routes, in their order. */
static struct dpath_port *inventory(const struct burnin_routes *r)
{
	int n = burnin_routes_n_cas(r);
	struct dpath_port *inv = calloc((size_t)n, sizeof(*inv));

	for (int i = 0; inv && i < n; i++) {
		inv[i].guid = burnin_routes_ca(r, i)->port_guid;
		inv[i].port = burnin_routes_ca(r, i)->port;
		inv[i].rate_gbps = burnin_routes_ca(r, i)->rate_gbps;
	}
	return inv;
}

static int run(const struct burnin_routes *r, char **argv, int n)
{
	const struct burnin_load_proof_params prm = { .timeout_s = 1,
						      .budget_s = 20 };
	struct burnin_pair pairs[MAX_PAIRS];
	uint64_t ab[MAX_PAIRS], ba[MAX_PAIRS] = { 0 };
	struct burnin_load_step s = {
		.test = "write", .seconds = 1, .pairs = pairs, .n_pairs = n
	};
	struct dpath_port *inv = inventory(r);
	struct burnin_load_proof *lp;
	struct record_writer *w;
	char why[400];
	FILE *plan;
	int rc;

	if (!inv)
		return 2;
	for (int i = 0; i < n; i++) {
		if (parse_pair(r, argv[6 + i], &pairs[i])) {
			fprintf(stderr, "%s: expected GUID:GUID of two CAs\n",
				argv[6 + i]);
			free(inv);
			return 2;
		}
	}
	for (int i = 0; i < n; i++)
		ab[i] = strtoull(argv[5], NULL, 10);
	if (burnin_load_proof_open(r, inv, burnin_routes_n_cas(r), &prm, &lp,
				   why, sizeof(why))) {
		fprintf(stderr, "proof_step: %s\n", why);
		return 1;
	}
	rc = burnin_load_proof_begin(lp, &s);
	plan = fopen(argv[2], "w");
	if (!rc && plan) {
		write_plan(plan, r, pairs, n);
		fclose(plan);
	}
	if (!rc)
		rc = wait_for(argv[3]);
	w = rc ? NULL : record_writer_open(argv[4], false);
	s.moved_ab = ab;
	s.moved_ba = ba;
	if (w)
		rc = burnin_load_proof_end(lp, &s, w) || record_writer_close(w);
	printf("not-loaded %d\n", burnin_load_proof_not_loaded(lp));
	burnin_load_proof_close(lp);
	free(inv);
	return rc || !w ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct burnin_routes *r;
	char err[400];
	int rc;

	if (argc < 7 || argc - 6 > MAX_PAIRS) {
		fprintf(stderr, "usage: proof_step ROUTES PLAN GO OUT MOVED "
				"GUID:GUID...\n");
		return 2;
	}
	if (burnin_routes_load(argv[1], NULL, &r, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	rc = run(r, argv, argc - 6);
	burnin_routes_free(r);
	return rc;
}
