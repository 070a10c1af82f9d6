/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_JUDGE_PAIRJUDGE_H
#define IBPROOF_JUDGE_PAIRJUDGE_H

/*
 * The one pair judge (docs/judging.md): which measured pairs are bad, and
 * which port is to blame. burnin's rank 0 calls it before each retest
 * round and at the end; `ibproof report` calls it once on the pair
 * records. Same params, same defaults, same verdicts.
 *
 * Its own folder, judge/, between common/ and {burnin, reports}: it is a
 * policy (what "low" and "blamed" mean), not a utility every layer needs,
 * and reports/ may not include burnin/ nor burnin/ reports/. Pure: no
 * I/O, no device, no globals. Its options (and their defaults) are the
 * rows of judge/judge_options.h.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum judge_status { JUDGE_PAIR_OK, JUDGE_PAIR_ERROR, JUDGE_PAIR_NOT_TESTED };

/* The ways a pair (and so a port) is bad: bits of judge_out.bad. */
enum judge_kind { JUDGE_K_LOW, JUDGE_K_DIP, JUDGE_K_ERR, JUDGE_N_KINDS };
#define JUDGE_LOW (1u << JUDGE_K_LOW) /* low-bandwidth */
#define JUDGE_DIP (1u << JUDGE_K_DIP) /* intermittent */
#define JUDGE_ERR (1u << JUDGE_K_ERR) /* completion-errors */

/* Why a pair is bad, the strongest reason (for the evidence). */
enum judge_why {
	JUDGE_WHY_FINE,
	JUDGE_WHY_ERROR, /* status error or error completions */
	JUDGE_WHY_FLOOR, /* under floor x expected */
	JUDGE_WHY_OUTLIER, /* under median - max(k x sigma, spread) */
	JUDGE_WHY_CLASS_FLOOR, /* under class_floor x class median */
	JUDGE_WHY_DIP, /* a window under dip_floor x reference */
	JUDGE_WHY_NOT_TESTED,
};

/* One measured (or not) pair: plain figures, ports as indexes. */
struct judge_pair {
	uint32_t a, b; /* port indexes, < n_ports */
	uint32_t round;
	uint16_t run; /* a run of burnin (the report: a record file) */
	uint8_t test; /* 0 write, 1 read: part of the link class */
	uint8_t bidir;
	uint8_t status; /* enum judge_status */
	uint8_t retest; /* a retest round: never a class of its own */
	float expected; /* Gb/s, 0 unknown */
	float gbps, gbps_min; /* average, lowest 100 ms window */
	uint64_t error_completions;
};

struct judge_params {
	double floor; /* low under floor x expected: 0.9 (0 off) */
	double mad_k; /* outlier under median - k x 1.4826 MAD: 3 */
	double min_spread; /* ... and at least this share under: 0.05 */
	double class_floor; /* low under this x class median: 0.5 */
	double dip_floor; /* dip: a window under this x reference: 0.5 */
	unsigned int min_witnesses; /* partners fine elsewhere: 2 */
	double fine_max_bad; /* "fine elsewhere": at most this share of
				* its other pairs bad: 0.25 */
	double noise_alpha; /* chance at the background bad rate must be
			       * under this / ports: 1e-3 (0 off) */
};

void judge_defaults(struct judge_params *jp);

/* Per pair, out. */
struct judge_out {
	uint8_t bad; /* JUDGE_LOW | JUDGE_DIP | JUDGE_ERR */
	uint8_t why; /* enum judge_why */
};

/* Per port, out: the verdict and the evidence behind it. */
struct judge_port {
	uint8_t blame; /* JUDGE_LOW | JUDGE_DIP | JUDGE_ERR */
	bool suspect; /* bad with a partner not blamed; not blamed */
	bool tested; /* at least one pair ok */
	uint32_t n_pairs, n_meas; /* all; measured (ok or error) */
	uint32_t n_ok, n_bad, n_low, n_dip, n_err; /* pairs */
	/* partners bad with it, not blamed, fine elsewhere: per kind and
	 * in any way (JUDGE_N_KINDS) */
	uint32_t witnesses[JUDGE_N_KINDS + 1];
	uint32_t bad_partners; /* distinct, not blamed */
	float confidence; /* 0..1, for blamed ports */
	float worst_gbps; /* -1: no pair ok */
	double sum_gbps; /* over its ok pairs */
};

/*
 * The verdicts. ports[n_ports], out[n_pairs]; the pairs of each port as
 * CSR arrays of pair indexes (ascending): all of them in
 * pair_idx[pair_start[p] .. pair_start[p + 1]), the bad ones in
 * bad_idx[bad_start[p] .. bad_start[p + 1]).
 */
struct judge_result {
	struct judge_port *ports;
	struct judge_out *out;
	uint32_t *pair_start, *pair_idx;
	uint32_t *bad_start, *bad_idx;
	size_t n_ports, n_pairs;
};

/*
 * Judges pairs[0..n_pairs) of ports 0..n_ports (a pair naming a port out
 * of range, or a port with itself, is left out). O(P log P) time, O(P)
 * memory. 0 or -ENOMEM (res then empty). Free with judge_result_free().
 */
int judge_pairs(const struct judge_params *jp, const struct judge_pair *pairs,
		size_t n_pairs, size_t n_ports, struct judge_result *res);
void judge_result_free(struct judge_result *res);

/* The partner of port p in pair i (p one of its ends). */
static inline uint32_t judge_partner(const struct judge_pair *pr, uint32_t p)
{
	return pr->a == p ? pr->b : pr->a;
}

/* "low-bandwidth", "intermittent", "completion-errors". */
const char *judge_kind_category(enum judge_kind k);
const char *judge_why_name(uint8_t why);

/* A sort key and the index it belongs to; judge_cmp_keyed() orders by
 * key, then index (qsort). */
struct judge_keyed {
	uint64_t key;
	uint32_t idx;
};

int judge_cmp_keyed(const void *x, const void *y);

#endif
