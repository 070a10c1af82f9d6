// SPDX-License-Identifier: MIT
/*
 * fabric_limits.c: the counter limits table and its judgement. Sources of
 * each figure: docs/judging.md, "Counter limits".
 */
#include <string.h>

#include "fabric/fabric_limits.h"

/*
 * The count thresholds since the last clear are ibqueryerrors' example
 * error_thresholds (as before issue 35); per window, a link that went down
 * or retrained while we watched is a finding.
 */
const struct fabric_limit fabric_limits[IB_PC_COUNT] = {
	[IB_PC_SYMBOL_ERRORS] = { "symbol-errors", "fail", "replace-cable",
				  FABRIC_LIMIT_BER, 10, 10 },
	[IB_PC_LINK_ERROR_RECOVERY] = { "link-error-recovery", "fail", "reseat",
					FABRIC_LIMIT_COUNT, 10, 0 },
	[IB_PC_LINK_DOWNED] = { "link-downed", "fail", "reseat",
				FABRIC_LIMIT_COUNT, 10, 0 },
	[IB_PC_RCV_ERRORS] = { "rcv-errors", "fail", "replace-cable",
			       FABRIC_LIMIT_BER, 10, 10 },
	[IB_PC_RCV_REMOTE_PHYS_ERRORS] = { "rcv-remote-phys-errors", "warn",
					   "none", FABRIC_LIMIT_COUNT, 100,
					   100 },
	[IB_PC_RCV_SWITCH_RELAY_ERRORS] = { "rcv-switch-relay-errors", "warn",
					    "none", FABRIC_LIMIT_COUNT, 100,
					    100 },
	[IB_PC_XMIT_DISCARDS] = { "xmit-discards", "warn", "none",
				  FABRIC_LIMIT_COUNT, 100, 100 },
	[IB_PC_XMIT_CONSTRAINT_ERRORS] = { "xmit-constraint-errors", "warn",
					   "none", FABRIC_LIMIT_COUNT, 100,
					   100 },
	[IB_PC_RCV_CONSTRAINT_ERRORS] = { "rcv-constraint-errors", "warn",
					  "none", FABRIC_LIMIT_COUNT, 100,
					  100 },
	[IB_PC_LOCAL_LINK_INTEGRITY_ERRORS] = { "link-integrity-errors", "fail",
						"replace-cable",
						FABRIC_LIMIT_COUNT, 10, 10 },
	[IB_PC_BUFFER_OVERRUN_ERRORS] = { "buffer-overrun", "fail", "reseat",
					  FABRIC_LIMIT_COUNT, 10, 10 },
	[IB_PC_VL15_DROPPED] = { "vl15-dropped", "warn", "none",
				 FABRIC_LIMIT_COUNT, 100, 100 },
	[IB_PC_XMIT_WAIT] = { "xmit-wait", "warn", "none", FABRIC_LIMIT_WAIT,
			      1000, 1000 },
};

double fabric_ber_limit(enum ib_speed speed, const char **source)
{
	if (speed >= IB_SPEED_HDR) {
		*source = "post-FEC symbol BER 1e-14: NVIDIA UFM PDR "
			  "deterministic plugin";
		return 1e-14;
	}
	*source = "BER 1e-12: IBTA link BER, ibdiagnet --ber_test default";
	return 1e-12;
}

const char *fabric_severity_max(const char *a, const char *b)
{
	static const char *const order[] = { "fail", "warn", "info" };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if ((a && !strcmp(a, order[i])) || (b && !strcmp(b, order[i])))
			return order[i];
	return NULL;
}

static void judge_count(int id, const struct fabric_limit_in *in,
			struct fabric_limit_out *out)
{
	out->how = FABRIC_JUDGED_COUNT;
	out->figure = (double)in->count;
	out->limit = (double)in->threshold;
	if (in->count > in->threshold)
		out->severity = fabric_limits[id].severity;
}

/* One tick is at least one symbol time: a byte on one lane (ibdiagnet's
 * manual, "Congestion Assessment on InfiniBand Links"; SDR: 4 ns). A
 * device's tick is a multiple of it, so the share is a lower bound. */
static void judge_wait(int id, const struct fabric_limit_in *in,
		       struct fabric_limit_out *out)
{
	double lane = ib_speed_lane_gbps(in->speed), tick_s, share;

	if (in->seconds <= 0 || lane <= 0) {
		judge_count(id, in, out);
		return;
	}
	tick_s = 8.0 / (lane * 1e9);
	share = (double)in->count * tick_s / in->seconds;
	out->how = FABRIC_JUDGED_WAIT;
	out->figure = share;
	out->limit = FABRIC_WAIT_WARN;
	out->severity = share >= FABRIC_WAIT_WARN   ? "warn"
			: share >= FABRIC_WAIT_INFO ? "info"
						    : NULL;
}

static void judge_ber(int id, const struct fabric_limit_in *in,
		      struct fabric_limit_out *out)
{
	double line = ib_data_rate_gbps(in->speed, in->lanes) * 1e9 *
		      (in->seconds > 0 ? in->seconds : 0);
	double bits = in->data_bits > line ? in->data_bits : line;

	if (bits <= 0) {
		judge_count(id, in, out);
		return;
	}
	out->how = FABRIC_JUDGED_BER;
	out->bits = bits;
	out->figure = (double)in->count / bits;
	out->limit = fabric_ber_limit(in->speed, &out->source);
	if (in->count >= FABRIC_BER_MIN_ERRORS && out->figure > out->limit)
		out->severity = fabric_limits[id].severity;
}

void fabric_limit_judge(int id, const struct fabric_limit_in *in,
			struct fabric_limit_out *out)
{
	memset(out, 0, sizeof(*out));
	if (id < 0 || id >= IB_PC_XMIT_DATA)
		return;
	switch (fabric_limits[id].kind) {
	case FABRIC_LIMIT_BER:
		judge_ber(id, in, out);
		break;
	case FABRIC_LIMIT_WAIT:
		judge_wait(id, in, out);
		break;
	default:
		judge_count(id, in, out);
	}
}
