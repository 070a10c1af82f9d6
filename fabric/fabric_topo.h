/* SPDX-License-Identifier: MIT */
/*
 * fabric_topo.h: read the ecosystem's topology outputs into a fabric model:
 * ibnetdiscover (topology text, and -p), iblinkinfo (default, --line, -S).
 * The format is found from the content.
 */
#ifndef IBPROOF_FABRIC_TOPO_H
#define IBPROOF_FABRIC_TOPO_H

#include <stdbool.h>
#include <stddef.h>

#include "fabric/fabric_model.h"

enum fabric_topo_format {
	FABRIC_TOPO_NONE = 0,
	FABRIC_TOPO_IBNETDISCOVER, /* topology text */
	FABRIC_TOPO_PORTS, /* ibnetdiscover -p */
	FABRIC_TOPO_IBLINKINFO, /* default and -S */
	FABRIC_TOPO_IBLINKINFO_LINE, /* --line */
};

/* The format of text (its first line that is not blank or '#'). */
enum fabric_topo_format fabric_topo_format(const char *text);
/* "ibnetdiscover", "ibnetdiscover -p", "iblinkinfo", "iblinkinfo --line" */
const char *fabric_topo_format_name(enum fabric_topo_format fmt);
bool fabric_topo_detect(const char *text);

/*
 * A link to a node the capture never defines (an excerpt, iblinkinfo -S)
 * is kept as a link to a node known only by what the line says, with a
 * warning naming FILE:LINE; with strict it is an error. The format read
 * is logged at info level (-v).
 */
int fabric_topo_parse_opts(const char *path, const char *text, bool strict,
			   struct fabric **out, char *err, size_t errlen);
int fabric_topo_load_opts(const char *path, bool strict, struct fabric **out,
			  char *err, size_t errlen);
/* The same, not strict. */
int fabric_topo_parse(const char *path, const char *text, struct fabric **out,
		      char *err, size_t errlen);
int fabric_topo_load(const char *path, struct fabric **out, char *err,
		     size_t errlen);

#endif
