// SPDX-License-Identifier: MIT
/* ibport.c: port state, physical state and PMA counter names and widths. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/ibport.h"

static const char *const port_states[] = {
	"unknown", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
};

/*
 * Link records of fabric discover before the states had one table wrote
 * the MAD spelling; `report --previous` still reads such files.
 */
static const char *const port_states_old[] = {
	"NoChange", "Down", "Init", "Armed", "Active", "ActiveDefer",
};

static const char *const phys_states[] = {
	"unknown",
	"Sleep",
	"Polling",
	"Disabled",
	"PortConfigurationTraining",
	"LinkUp",
	"LinkErrorRecovery",
	"PhyTest",
};

#define NSTATES (int)(sizeof(port_states) / sizeof(port_states[0]))
#define NPHYS (int)(sizeof(phys_states) / sizeof(phys_states[0]))

const char *ib_port_state_name(int state)
{
	return state > 0 && state < NSTATES ? port_states[state]
					    : port_states[0];
}

int ib_port_state_from_name(const char *name)
{
	for (int i = 1; name && i < NSTATES; i++)
		if (!strcmp(name, port_states[i]) ||
		    !strcmp(name, port_states_old[i]))
			return i;
	return 0;
}

const char *ib_phys_state_name(int phys)
{
	return phys > 0 && phys < NPHYS ? phys_states[phys] : phys_states[0];
}

int ib_phys_state_from_name(const char *name)
{
	for (int i = 1; name && i < NPHYS; i++)
		if (!strcmp(name, phys_states[i]))
			return i;
	return 0;
}

const struct ib_pc_def ib_pc_defs[IB_PC_COUNT] = {
	{ "SymbolErrorCounter", "symbol_error", 16, true },
	{ "LinkErrorRecoveryCounter", "link_error_recovery", 8, true },
	{ "LinkDownedCounter", "link_downed", 8, true },
	{ "PortRcvErrors", "port_rcv_errors", 16, true },
	{ "PortRcvRemotePhysicalErrors", "port_rcv_remote_physical_errors", 16,
	  true },
	{ "PortRcvSwitchRelayErrors", "port_rcv_switch_relay_errors", 16,
	  true },
	{ "PortXmitDiscards", "port_xmit_discards", 16, true },
	{ "PortXmitConstraintErrors", "port_xmit_constraint_errors", 8, true },
	{ "PortRcvConstraintErrors", "port_rcv_constraint_errors", 8, true },
	{ "LocalLinkIntegrityErrors", "local_link_integrity_errors", 4, true },
	{ "ExcessiveBufferOverrunErrors", "excessive_buffer_overrun_errors", 4,
	  true },
	{ "VL15Dropped", "VL15_dropped", 16, true },
	{ "PortXmitWait", "port_xmit_wait", 32, false },
	{ "PortXmitData", "port_xmit_data", 32, false },
	{ "PortRcvData", "port_rcv_data", 32, false },
	{ "PortXmitPkts", "port_xmit_packets", 32, false },
	{ "PortRcvPkts", "port_rcv_packets", 32, false },
};

int ib_pc_index(const char *name)
{
	for (int i = 0; i < IB_PC_COUNT; i++)
		if (!strcmp(name, ib_pc_defs[i].name))
			return i;
	return -1;
}

int ib_pc_sysfs_index(const char *sysfs)
{
	for (int i = 0; i < IB_PC_COUNT; i++)
		if (!strcmp(sysfs, ib_pc_defs[i].sysfs))
			return i;
	return -1;
}

int ib_counter_bits(const char *sysfs)
{
	int i = ib_pc_sysfs_index(sysfs);

	return i >= 0 && ib_pc_defs[i].error ? ib_pc_defs[i].bits : 0;
}

bool ib_counter_is_error(const char *sysfs)
{
	return ib_counter_bits(sysfs) > 0;
}

bool ib_counter_saturated(const char *sysfs, uint64_t value)
{
	int bits = ib_counter_bits(sysfs);

	return bits && value == (1ull << bits) - 1;
}

int ib_state_from_sysfs(const char *text)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (end == text || errno || v < 0 || v > INT_MAX ||
	    (*end && *end != ':'))
		return 0;
	return (int)v;
}
