// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the pairs file of `--schedule pairs:FILE`
 * (burnin/schedule_file.c) over a fixed inventory of six ports. Oracles:
 * a refused file is "PATH:LINE: ..." (an empty one "PATH: no pairs ..."); an
 * accepted one is a schedule of real pairs: ports of the inventory, never a
 * port with itself, never a port twice in one round (in a full-duplex
 * schedule: never twice as initiator, never twice as target).
 */
#include "burnin/burnin.h"
#include "fuzz.h"

#define N_PORTS 6

static void fuzz_inventory(struct dpath_port *p)
{
	static const char *const hosts[] = { "node001", "node002", "gpu-17" };

	memset(p, 0, N_PORTS * sizeof(*p));
	for (int i = 0; i < N_PORTS; i++) {
		snprintf(p[i].host, sizeof(p[i].host), "%s", hosts[i / 2]);
		snprintf(p[i].ca, sizeof(p[i].ca), "mlx5_%d", i % 2);
		p[i].port = 1;
		p[i].numa_node = -1;
		p[i].gid_index = -1;
	}
	burnin_inventory_sort(p, N_PORTS);
}

static void check_schedule(const struct burnin_schedule *s)
{
	for (int r = 0; r < s->n_rounds; r++) {
		int as_a[N_PORTS] = { 0 }, as_b[N_PORTS] = { 0 };

		for (int i = s->start[r];
		     i < s->start[r] + burnin_schedule_round_size(s, r); i++) {
			int a = s->pairs[i].a, b = s->pairs[i].b;

			if (a < 0 || b < 0 || a >= N_PORTS || b >= N_PORTS ||
			    a == b || as_a[a]++ || as_b[b]++ ||
			    (!s->duplex && (as_b[a] || as_a[b]))) {
				fprintf(stderr,
					"oracle: round %d: bad pair %d-%d\n", r,
					a, b);
				abort();
			}
		}
	}
	if (!s->n_rounds || !s->n_pairs) {
		fprintf(stderr, "oracle: accepted a file without pairs\n");
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dpath_port ports[N_PORTS];
	const char *path = fuzz_file(data, size);
	struct burnin_schedule s = { 0 };
	char err[512] = "", empty[600];
	int rc;

	if (!ports[0].port)
		fuzz_inventory(ports);
	rc = burnin_schedule_pairs_file(path, ports, N_PORTS, &s, err,
					sizeof(err));
	snprintf(empty, sizeof(empty), "%s: no pairs in the file", path);
	if (!rc) {
		check_schedule(&s);
		burnin_schedule_free(&s);
	} else if (rc != -EINVAL) {
		fprintf(stderr, "oracle: rc %d: \"%s\"\n", rc, err);
		abort();
	} else if (strcmp(err, empty)) {
		fuzz_check_path_err(path, err);
	} else if (size) {
		fprintf(stderr, "oracle: a file of %zu bytes has no line\n",
			size);
		abort();
	}
	return 0;
}
