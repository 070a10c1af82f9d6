/* SPDX-License-Identifier: MIT */
/* fabric_topo_priv.h: shared by the topology readers (fabric_topo*.c). */
#ifndef IBPROOF_FABRIC_TOPO_PRIV_H
#define IBPROOF_FABRIC_TOPO_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "common/lines.h"
#include "fabric/fabric_topo.h"

/* Made-up GUIDs of nodes a capture names but never defines by GUID. */
#define TOPO_GUID_MADE_UP 0xfffe000000000000ULL

/* At most 16 hex digits ("0x" allowed) in the n bytes at s. 0 or -EINVAL. */
int topo_guid(const char *s, size_t n, uint64_t *guid);
/* A link to a node the capture never defines: a warning naming FILE:LINE,
 * or with strict the error (-EINVAL). */
int topo_unknown_node(struct lines *in, bool strict, const char *what);
/* iblinkinfo (default, --line, -S) and ibnetdiscover -p: closes in. */
int topo_rows_read(struct lines *in, enum fabric_topo_format fmt, bool strict,
		   struct fabric **out);

#endif
