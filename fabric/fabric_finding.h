/* SPDX-License-Identifier: MIT */
/*
 * fabric_finding.h: findings as plain C results. The pure parts of fabric/
 * (cabling_diff, counter checks) produce these; fabric_report.c turns them
 * into `finding` records.
 */
#ifndef IBPROOF_FABRIC_FINDING_H
#define IBPROOF_FABRIC_FINDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric_model.h"

#define FABRIC_MAX_REFS 4
#define FABRIC_MAX_EV 10

/* One end of a cable: a model port, or what the spec names (guid 0). */
struct fabric_ref {
	char name[96];
	uint64_t guid; /* node GUID */
	uint64_t port_guid; /* CA port GUID, 0 for switches / unknown */
	int port;
	int type; /* enum fabric_node_type */
};

struct fabric_ev {
	const char *key; /* static string */
	char str[96];
	long long num;
	double real;
	enum {
		FABRIC_EV_STR,
		FABRIC_EV_NUM,
		FABRIC_EV_REAL,
		FABRIC_EV_BOOL
	} kind;
};

/*
 * refs[0], refs[1]: the subject (a cable's two ends; one end for a port).
 * refs[2], refs[3]: a second cable (swapped) or the expected peers.
 * With extra_role FABRIC_ROLE_COLLATERAL: refs[0] is the subject (a port)
 * and refs[1..nrefs) the other ports its module serves (evidence
 * `collateral`, an array of port references).
 */
#define FABRIC_ROLE_COLLATERAL "collateral"

struct fabric_finding {
	const char *severity; /* fail|warn|info */
	const char *category; /* kebab-case */
	const char *action; /* record action */
	struct fabric_ref refs[FABRIC_MAX_REFS];
	int nrefs;
	const char *extra_role; /* key for refs[2..3] in evidence */
	struct fabric_ev ev[FABRIC_MAX_EV];
	int nev;
	char message[512];
};

struct fabric_findings {
	struct fabric_finding *v;
	size_t n, cap;
};

struct fabric_finding *fabric_finding_add(struct fabric_findings *fs,
					  const char *severity,
					  const char *category,
					  const char *action);
void fabric_finding_port(struct fabric_finding *f, const struct fabric_port *p);
void fabric_finding_spec_end(struct fabric_finding *f, const char *name,
			     uint64_t guid, int port);
void fabric_finding_str(struct fabric_finding *f, const char *key,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void fabric_finding_num(struct fabric_finding *f, const char *key, long long v);
void fabric_finding_real(struct fabric_finding *f, const char *key, double v);
void fabric_finding_bool(struct fabric_finding *f, const char *key, bool v);
void fabric_finding_msg(struct fabric_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
size_t fabric_findings_count(const struct fabric_findings *fs,
			     const char *severity);
void fabric_findings_free(struct fabric_findings *fs);

/* "leaf04 port 5" for a model port. */
const char *fabric_port_str(const struct fabric_port *p, char *buf, size_t len);

#endif
