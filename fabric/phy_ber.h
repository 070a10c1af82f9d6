/* SPDX-License-Identifier: MIT */
/*
 * phy_ber.h: a port's physical-layer error figures (raw, effective and
 * symbol BER, raw errors per lane) from the "Physical Counters and BER
 * Info" block of `mlxlink -c` text, and their judgement per link speed
 * (docs/fabric.md, "BER before FEC"). The raw BER is the one early warning
 * of a link near its FEC's limit: SymbolErrorCounter counts only what FEC
 * left. Pure: the text comes from a file an operator captured.
 */
#ifndef IBPROOF_FABRIC_PHY_BER_H
#define IBPROOF_FABRIC_PHY_BER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "common/ibrate.h"
#include "fabric/fabric_finding.h"

#define PHY_BER_LANES 8

struct phy_ber {
	bool present; /* the block (or one of its figures) was read */
	enum ib_speed speed; /* "Speed : IB-NDR"; unknown when not said */
	double minutes; /* Time Since Last Clear [Min]; < 0 not said */
	bool has_raw, has_eff, has_sym;
	double raw_ber, eff_ber, sym_ber;
	bool has_eff_errors, has_sym_errors;
	uint64_t eff_errors, sym_errors;
	int lanes; /* raw errors per lane read */
	uint64_t lane_errors[PHY_BER_LANES];
	int link_down, link_recovery; /* -1 not said */
};

/*
 * Reads the figures of `mlxlink -c` text at path (other blocks are
 * skipped). A figure that is not a number (N/A, nan, an exponent out of
 * range, more lanes than a port has) is refused: -EINVAL with
 * "FILE:LINE: ..." in err. 0 with b->present false when the file has no
 * such block.
 */
int phy_ber_load_mlxlink(const char *path, struct phy_ber *b, char *err,
			 size_t errlen);
/* The same from text in memory (tests, fuzzing); path names it. */
int phy_ber_parse_text(const char *path, const char *text, struct phy_ber *b,
		       char *err, size_t errlen);

/* The limits a speed's figures are judged against, and their sources. */
struct phy_ber_limits {
	double post_fec; /* symbol (HDR+) or effective BER: fail above */
	const char *post_fec_source;
	double raw_warn, raw_fail; /* raw BER; 0: not judged */
	const char *raw_source;
};

void phy_ber_limits_of(enum ib_speed speed, struct phy_ber_limits *l);

/*
 * Findings of one port's figures: `ber-post-fec` (fail, replace-cable)
 * when the errors left after FEC exceed the speed's bound; `ber-raw`
 * (warn, reseat: near the FEC's limit; fail, replace-cable: at it) when
 * the raw BER is over the speed's limits, however clean the symbol count.
 * where: the port's (and its module's) name for the message; ref the port.
 * speed: the model's, used when the file did not say. 0 or -ENOMEM.
 */
int phy_ber_judge(const struct phy_ber *b, enum ib_speed speed,
		  const struct fabric_ref *ref, const char *where,
		  struct fabric_findings *fs);

/* The figures as the `ber` object of a transceiver record
 * (docs/records.md); NULL when none were read. */
json_t *phy_ber_json(const struct phy_ber *b);

#endif
