/* SPDX-License-Identifier: MIT */
/*
 * fabric_spec.h: the expected cabling (spec).
 *
 * A spec is a list of cables between (node name, port) ends. It is read from
 * a CSV cable list or from an ibnetdiscover topology file (then every end
 * also carries the node GUID). Loaders report bad input as
 * "file:line: what was expected" in err and return -EINVAL.
 */
#ifndef IBPROOF_FABRIC_SPEC_H
#define IBPROOF_FABRIC_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric_model.h"

#define FABRIC_ERR_LEN 512

struct fabric_spec_end {
	char *node; /* node name or description */
	uint64_t guid; /* 0 = not given */
	int port;
};

struct fabric_cable {
	struct fabric_spec_end a, z;
	int speed, width; /* enum ib_speed, lanes; 0 = any */
	char *label, *rack;
	int line;
};

struct fabric_spec {
	char *path;
	struct fabric_cable *cables;
	size_t ncables, cap;
};

/* strict: a topology file's link to a node it never defines is an error. */
int fabric_spec_load_opts(const char *path, bool strict,
			  struct fabric_spec **out, char *err, size_t errlen);
int fabric_spec_load(const char *path, struct fabric_spec **out, char *err,
		     size_t errlen);
int fabric_spec_parse_csv(const char *path, const char *text,
			  struct fabric_spec **out, char *err, size_t errlen);
/* Every link of a known-good model becomes a cable (ends keep GUIDs). */
int fabric_spec_from_model(const struct fabric *f, const char *path,
			   struct fabric_spec **out);
void fabric_spec_free(struct fabric_spec *s);
int fabric_port_parse(const char *s);

/* Appends a zeroed cable; NULL when out of memory. */
struct fabric_cable *fabric_spec_add(struct fabric_spec *s);

#endif
