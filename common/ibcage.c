// SPDX-License-Identifier: MIT
/*
 * ibcage.c: the one cage table. Sources (docs/fabric.md says more):
 * - Quantum-2 reports NodeInfo DeviceID 0xd2f2: a public ibnetdiscover of
 *   an MQM9700 (`devid=0xd2f2 ... Switch 129 ... MQM9700`), hosts at 2xNDR
 *   on IB ports 1, 2, 3, 4: four split ports in the first cage.
 * - MLNX-OS names a Quantum-2 port ASIC/cage/port ("interface ib 1/3/1
 *   and 1/3/2 ... ports 1 & 2 located within cage 3"), and splitting a
 *   port x/y gives x/y/1 and x/y/2 (MLNX-OS User Manual, InfiniBand
 *   Interface).
 * - A twin-port OSFP module carries 8 lanes, two 4-lane engines behind two
 *   MPO connectors, one per logical port; that port 1 takes lanes 1-4 and
 *   port 2 lanes 5-8 is our reading of the module's layout, not a
 *   published table (medium confidence); a 1:2 splitter gives each half 2
 *   lanes, in order (lower confidence).
 * - 65 ports unsplit and 129 split: 64 (128) data ports plus the switch's
 *   aggregation-node port, which sits in no cage.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/ibcage.h"

static const struct ib_cage_model models[] = {
	{ IB_CAGE_DEVID_QUANTUM2, 65, 2, 64,
	  "Quantum-2 (QM97xx) twin-port OSFP" },
	{ IB_CAGE_DEVID_QUANTUM2, 64, 2, 64,
	  "Quantum-2 (QM97xx) twin-port OSFP" },
	{ IB_CAGE_DEVID_QUANTUM2, 129, 4, 128,
	  "Quantum-2 (QM97xx) split-ready, 1:2 split twin-port OSFP" },
	{ IB_CAGE_DEVID_QUANTUM2, 128, 4, 128,
	  "Quantum-2 (QM97xx) split-ready, 1:2 split twin-port OSFP" },
};

const struct ib_cage_model *ib_cage_model_of(uint16_t device_id, int nports)
{
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (models[i].device_id == device_id &&
		    models[i].nports == nports)
			return &models[i];
	return NULL;
}

void ib_cage_position(const struct ib_cage_model *m, int port,
		      struct ib_cage_pos *pos)
{
	*pos = (struct ib_cage_pos){ 0 };
	if (!m || port < 1 || port > m->data_ports)
		return;
	pos->cage = (port - 1) / m->per_cage + 1;
	pos->slot = (port - 1) % m->per_cage;
	if (m->per_cage == 4) {
		pos->port = pos->slot / 2 + 1;
		pos->split = pos->slot % 2 + 1;
	} else {
		pos->port = pos->slot + 1;
	}
}

int ib_cage_first_port(const struct ib_cage_model *m, int port)
{
	struct ib_cage_pos pos;

	ib_cage_position(m, port, &pos);
	return pos.cage ? (pos.cage - 1) * m->per_cage + 1 : port;
}

unsigned ib_cage_lane_mask(const struct ib_cage_model *m, int port,
			   int module_lanes)
{
	struct ib_cage_pos pos;
	int per;

	ib_cage_position(m, port, &pos);
	if (!pos.cage || module_lanes < m->per_cage || module_lanes > 32)
		return 0;
	per = module_lanes / m->per_cage;
	return ((1u << per) - 1) << (pos.slot * per);
}

const char *ib_cage_label(const struct ib_cage_model *m, int port, char buf[32])
{
	struct ib_cage_pos pos;

	ib_cage_position(m, port, &pos);
	if (!pos.cage)
		buf[0] = '\0';
	else if (pos.split)
		snprintf(buf, 32, "1/%d/%d/%d", pos.cage, pos.port, pos.split);
	else
		snprintf(buf, 32, "%d/%d", pos.cage, pos.port);
	return buf;
}

/* Up to 4 numbers separated by '/': their count, or -EINVAL. */
static int numbers(const char *s, long v[4])
{
	int n = 0;
	char *end;

	for (;;) {
		if (n == 4 || !isdigit((unsigned char)*s))
			return -EINVAL;
		v[n++] = strtol(s, &end, 10);
		if (*end == '\0')
			return n;
		if (*end != '/')
			return -EINVAL;
		s = end + 1;
	}
}

int ib_cage_port_parse(const char *s)
{
	long v[4];
	int n = numbers(s, v);

	if (n == 1)
		return v[0] >= 1 && v[0] <= 255 ? (int)v[0] : -EINVAL;
	if (n == 3 || n == 4) { /* ASIC/cage/port[/split]: ASIC 1 only */
		if (v[0] != 1)
			return -EINVAL;
		v[0] = v[1];
		v[1] = v[2];
		v[2] = n == 4 ? v[3] : 0;
	}
	if (n < 2 || v[0] < 1 || v[1] < 1 || v[1] > 2)
		return -EINVAL;
	if (n == 4) { /* split-ready numbering: 4 IB ports per cage */
		if (v[2] < 1 || v[2] > 2 || v[0] > 63)
			return -EINVAL;
		return (int)(4 * (v[0] - 1) + 2 * (v[1] - 1) + v[2]);
	}
	return v[0] <= 127 ? (int)(2 * v[0] - 2 + v[1]) : -EINVAL;
}
