/* SPDX-License-Identifier: MIT */
/*
 * namemap.h: rdma-core's node-name-map, the one parser fabric and report
 * share.
 *
 *	# comment                       skipped, as are blank lines
 *	0x0008f10300000144 "leaf #1"    quoted: the name is what the quotes hold
 *	0x0008f10300000145 leaf 02      unquoted: to '#' or the line end,
 *	                                trailing blanks dropped
 *
 * rdma-core keeps trailing blanks and cuts a quoted name at '#'; here a name
 * never ends in blanks and a quoted name is all the quotes hold.
 *
 * The GUID is hex with 0x (rdma-core reads it with strtoull base 0, where a
 * leading 0 means octal and no prefix decimal: a GUID without 0x is refused
 * rather than read as another number). A GUID given twice keeps its first
 * name, as rdma-core does. A line that does not fit is an error naming
 * FILE:LINE.
 */
#ifndef IBPROOF_COMMON_NAMEMAP_H
#define IBPROOF_COMMON_NAMEMAP_H

#include <stddef.h>
#include <stdint.h>

struct namemap;

/*
 * Reads a node-name-map file. 0, or -EINVAL with "path:line: expected
 * 0xGUID \"name\"..." in err, or -errno ("path: cannot read: why").
 */
int namemap_load(const char *path, struct namemap **out, char *err,
		 size_t errlen);
/* The same from text in memory, named path in errors. */
int namemap_parse(const char *path, const char *text, struct namemap **out,
		  char *err, size_t errlen);
/* The name of guid, or NULL (also when m is NULL). */
const char *namemap_lookup(const struct namemap *m, uint64_t guid);
void namemap_free(struct namemap *m);

#endif
