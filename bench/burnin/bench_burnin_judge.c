// SPDX-License-Identifier: MIT
/*
 * bench_burnin_judge [PORTS...]: wall time of burnin_judge() over one
 * all-pairs test of PORTS ports (default 64 128 256 512), one port slow:
 * rank 0 judges before each retest round and at the end, while every other
 * rank waits for its next instruction. Prints figures; asserts nothing.
 */
#include <stdio.h>
#include <stdlib.h>

#include "burnin/bootstrap.h"
#include "burnin/burnin.h"
#include "common/cli.h"

static void bench(int n_ports)
{
	int n_m = n_ports * (n_ports - 1) / 2, k = 0;
	struct burnin_measure *m = calloc((size_t)n_m, sizeof(*m));
	struct burnin_port_verdict *v = calloc((size_t)n_ports, sizeof(*v));
	struct burnin_judge_params jp;
	int blamed = 0;
	double t0;

	if (!m || !v) {
		fprintf(stderr, "out of memory at %d ports\n", n_ports);
		exit(1);
	}
	burnin_judge_defaults(&jp);
	for (int a = 0; a < n_ports; a++)
		for (int b = a + 1; b < n_ports; b++, k++) {
			double g = a == 7 || b == 7 ? 45 : 95 + (k % 7) * 0.1;

			m[k] = (struct burnin_measure){ .a = a,
							.b = b,
							.status =
								BURNIN_PAIR_OK,
							.gbps = g,
							.gbps_min = g - 1,
							.expected_gbps = 100 };
		}
	t0 = clock_mono_now();
	burnin_judge(&jp, m, n_m, v, n_ports);
	for (int p = 0; p < n_ports; p++)
		blamed += v[p].blame != 0;
	printf("%4d ports, %6d pairs: judged in %8.3f s, %d port(s) blamed\n",
	       n_ports, n_m, clock_mono_now() - t0, blamed);
	free(m);
	free(v);
}

/* A port count from the command line; exits 2 on anything else. */
static int port_count(const char *s)
{
	long v;

	if (cli_str_to_long(s, 2, 1000000, &v)) {
		fprintf(stderr,
			"bench_burnin_judge: '%s': expected a port "
			"count from 2 to 1000000\n",
			s);
		exit(2);
	}
	return (int)v;
}

int main(int argc, char **argv)
{
	static const int dflt[] = { 64, 128, 256, 512 };

	if (argc > 1)
		for (int i = 1; i < argc; i++)
			bench(port_count(argv[i]));
	else
		for (size_t i = 0; i < sizeof(dflt) / sizeof(dflt[0]); i++)
			bench(dflt[i]);
	return 0;
}
