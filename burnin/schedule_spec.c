// SPDX-License-Identifier: MIT
/*
 * The --schedule string: picks the builder it names (schedule.c for the
 * generated schedules, schedule_file.c for node: and pairs:) and checks its
 * argument. Every call goes down from here; the builders never call back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/burnin.h"

int burnin_schedule_build(const char *spec, const struct dpath_port *ports,
			  int n, uint64_t seed, struct burnin_schedule *s,
			  char *err, size_t err_len)
{
	char *end;
	long r;

	memset(s, 0, sizeof(*s));
	snprintf(err, err_len, "out of memory");
	if (!strcmp(spec, "all-pairs"))
		return burnin_schedule_all_pairs(ports, n, seed, s);
	if (!strcmp(spec, "rail"))
		return burnin_schedule_rail(ports, n, seed, s);
	if (!strcmp(spec, "intra"))
		return burnin_schedule_intra(ports, n, seed, s);
	if (!strcmp(spec, "shift"))
		return burnin_schedule_shift(n, s);
	if (!strncmp(spec, "random:", 7)) {
		r = strtol(spec + 7, &end, 10);
		if (end != spec + 7 && !*end && r > 0 && r <= 100000)
			return burnin_schedule_random(n, r, seed, s);
		snprintf(err, err_len,
			 "random:R expects R from 1 to 100000, got '%s'",
			 spec + 7);
		return -EINVAL;
	}
	if (!strcmp(spec, "cover")) {
		snprintf(err, err_len,
			 "cover plans over the routes: give --routes FILE");
		return -EINVAL;
	}
	if (!strncmp(spec, "node:", 5))
		return burnin_schedule_node(spec + 5, ports, n, s, err,
					    err_len);
	if (!strncmp(spec, "pairs:", 6))
		return burnin_schedule_pairs_file(spec + 6, ports, n, s, err,
						  err_len);
	snprintf(
		err, err_len,
		"unknown schedule '%s' (expected all-pairs, rail, shift, random:R, node:HOST[,HOST...], intra or pairs:FILE)",
		spec);
	return -EINVAL;
}
