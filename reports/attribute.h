/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_REPORTS_ATTRIBUTE_H
#define IBPROOF_REPORTS_ATTRIBUTE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Who is to blame for low pairs: a pure function on plain arrays. A pair
 * result blames no one alone; a port is blamed once it was low with at
 * least min_witnesses different partners that were fine with others.
 */
enum attr_verdict { ATTR_OK, ATTR_LOW, ATTR_UNTESTED };

struct attr_pair {
	uint32_t a, b; /* port indexes */
	uint8_t verdict; /* enum attr_verdict */
};

struct attr_params {
	unsigned int min_witnesses; /* default 2 */
	double fine_max_low; /* a partner is fine when at most this
				       share of its other pairs is low: 0.25 */
	double noise_alpha; /* a port's low pairs must have less than
				       this chance (over all ports) at the
				       rest's low rate: 1e-3 */
};

struct attr_port {
	uint32_t n_meas; /* measured pairs (ok or low) */
	uint32_t n_low; /* low measured pairs */
	uint32_t n_low_partners; /* distinct partners low with */
	uint32_t witnesses; /* low partners that were fine with others */
	uint8_t blamed;
	uint8_t suspect; /* low with >= 2 partners, not attributable */
	float confidence; /* 0..1 */
};

/*
 * Fills ports[0..nports) from pairs[0..npairs). The same two ports may be
 * measured many times (tests, directions, rounds). 0 or -errno.
 */
int attribute_ports(const struct attr_pair *pairs, size_t npairs,
		    struct attr_port *ports, size_t nports,
		    const struct attr_params *params);

void attribute_default_params(struct attr_params *p);

#endif
