// SPDX-License-Identifier: MIT
/*
 * bench_fabric_diff MODEL.topo SPEC [BIG_SPEC]: prints how long parsing the
 * spec and cabling_diff() take (best of 5), without any MAD traffic. The
 * model is ibnetdiscover topology text of the fabric under test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fabric/fabric_diff.h"
#include "fabric/fabric_topo.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double time_spec_load(const char *path, size_t *ncables)
{
	char err[FABRIC_ERR_LEN];
	struct fabric_spec *s;
	double best = 1e9, t;
	int i;

	for (i = 0; i < 5; i++) {
		t = now_ms();
		if (fabric_spec_load(path, &s, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			exit(2);
		}
		t = now_ms() - t;
		best = t < best ? t : best;
		*ncables = s->ncables;
		fabric_spec_free(s);
	}
	return best;
}

static double time_diff(const struct fabric *m, const struct fabric_spec *s,
			size_t *nfindings)
{
	struct fabric_findings fs = { 0 };
	double best = 1e9, t;
	int i;

	for (i = 0; i < 5; i++) {
		t = now_ms();
		if (cabling_diff(m, s, &fs))
			exit(3);
		t = now_ms() - t;
		best = t < best ? t : best;
		*nfindings = fs.n;
		fabric_findings_free(&fs);
	}
	return best;
}

int main(int argc, char **argv)
{
	char err[FABRIC_ERR_LEN];
	struct fabric_spec *s;
	struct fabric *m;
	size_t n, nf;
	double t;

	if (argc < 3) {
		fprintf(stderr, "usage: %s MODEL.topo SPEC [BIG_SPEC]\n",
			argv[0]);
		return 2;
	}
	if (fabric_topo_load(argv[1], &m, err, sizeof(err)) ||
	    fabric_spec_load(argv[2], &s, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	t = time_diff(m, s, &nf);
	printf("cabling_diff: %zu nodes, %zu cables: %.2f ms (%zu findings)\n",
	       m->nnodes, s->ncables, t, nf);
	t = time_spec_load(argv[2], &n);
	printf("spec parse: %zu cables: %.2f ms\n", n, t);
	if (argc > 3) {
		t = time_spec_load(argv[3], &n);
		printf("spec parse: %zu cables: %.2f ms\n", n, t);
	}
	fabric_spec_free(s);
	fabric_free(m);
	return 0;
}
