// SPDX-License-Identifier: MIT
/*
 * fabric_lftdump.c: forwarding tables from the ecosystem's dumps, into
 * struct fabric_routes. Two dialects, told apart line by line:
 *
 *   opensm-lfts.dump (opensm -D 0x43 --dump_files_dir DIR):
 *     Unicast lids [0-8] of switch Lid 2 guid 0x0008f10300000004 ('leaf01'):
 *     0x0001 001 # Channel Adapter portguid 0x...: 'node001 mlx5_0'
 *     8 lids dumped
 *   ibroute / dump_lfts / dump_fts:
 *     Unicast lids [0x0-0x8] of switch Lid 2 guid 0x0008f10300000004 (leaf01):
 *       Lid  Out   Destination
 *            Port     Info
 *     0x0001 001 : (Channel Adapter portguid 0x...: 'node001 mlx5_0')
 *     8 valid lids dumped
 *
 * LIDs not listed are 255 (no route). Multicast sections are skipped.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/lines.h"
#include "fabric/fabric_route.h"

struct dump_ctx {
	struct fabric_routes *r;
	struct lines *in;
	const struct fabric_node *sw; /* the table being read */
	uint16_t top;
	size_t nswitches; /* headers read */
	bool multicast;
	uint8_t port[FABRIC_LFT_MAX_LID + 1];
};

static int commit(struct dump_ctx *c)
{
	int rc = 0;

	if (c->sw)
		rc = fabric_routes_set(c->r, c->sw, c->top, c->port);
	c->sw = NULL;
	return rc;
}

static int parse_header(struct dump_ctx *c, const char *line)
{
	const char *g = strstr(line, " guid 0x");
	unsigned long lo, hi;
	unsigned long long guid;
	char *end;
	int rc;

	if ((rc = commit(c)))
		return rc;
	lo = strtoul(line + strlen("Unicast lids ["), &end, 0);
	if (*end != '-')
		return lines_error(c->in, "expected \"[LO-HI]\" after "
					  "\"Unicast lids\"");
	hi = strtoul(end + 1, &end, 0);
	if (*end != ']' || lo > hi || hi > FABRIC_LFT_MAX_LID)
		return lines_error(c->in, "expected \"[LO-HI]\" with HI a "
					  "unicast LID (at most 0xbfff)");
	if (!g)
		return lines_error(c->in, "expected \"guid 0x...\" in the "
					  "switch header");
	guid = strtoull(g + 6, &end, 16);
	if (end == g + 8 || (*end && *end != ' '))
		return lines_error(c->in, "expected a hex GUID after \"guid\"");
	c->sw = fabric_find_guid(c->r->m, guid);
	if (!c->sw || c->sw->type != FABRIC_NODE_SWITCH)
		return lines_error(c->in,
				   "expected a switch of the topology, "
				   "0x%016llx is not one",
				   guid);
	c->top = (uint16_t)hi;
	c->nswitches++;
	memset(c->port, FABRIC_LFT_NONE, sizeof(c->port));
	return 0;
}

static int parse_entry(struct dump_ctx *c, const char *line)
{
	unsigned long lid, port;
	char *end;

	lid = strtoul(line, &end, 16);
	if (end == line + 2 || *end != ' ')
		return lines_error(c->in, "expected \"0xLID PORT\"");
	port = strtoul(end, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end && *end != '#' && *end != ':')
		return lines_error(c->in, "expected \"0xLID PORT\" then "
					  "\"#\" or \":\"");
	if (!c->sw)
		return lines_error(c->in, "expected a \"Unicast lids\" "
					  "header before the entries");
	if (lid > c->top || port > 255)
		return lines_error(c->in,
				   "expected a LID up to the header's 0x%x "
				   "and a port up to 255",
				   c->top);
	c->port[lid] = (uint8_t)port;
	return 0;
}

static bool trailer(const char *line)
{
	char *end;

	strtoul(line, &end, 10);
	return end != line && (!strncmp(end, " lids dumped", 12) ||
			       !strncmp(end, " valid lids dumped", 18));
}

static int dump_line(void *arg, char *line)
{
	struct dump_ctx *c = arg;

	if (!strncmp(line, "Unicast lids [", 14)) {
		c->multicast = false;
		return parse_header(c, line);
	}
	if (!strncmp(line, "Multicast mlids", 15)) {
		c->multicast = true;
		return commit(c);
	}
	if (c->multicast)
		return 0;
	if (!strncmp(line, "0x", 2))
		return parse_entry(c, line);
	if (trailer(line) || !strncmp(line, "Lid ", 4) ||
	    !strncmp(line, "Port ", 5))
		return 0;
	return lines_error(c->in, "expected a \"Unicast lids\" header, a "
				  "\"0xLID PORT\" entry or \"N lids dumped\"");
}

int fabric_lft_load(struct fabric_routes *r, const char *path, char *err,
		    size_t errlen)
{
	struct dump_ctx *c = calloc(1, sizeof(*c));
	struct lines in = { 0 };
	int rc;

	if (!c) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	c->r = r;
	c->in = &in;
	rc = lines_open(&in, path, err, errlen);
	if (!rc)
		rc = lines_each(&in, dump_line, c);
	if (!rc)
		rc = commit(c);
	if (!rc && !c->nswitches && !in.line) /* no line to name */
		rc = snprintf(err, errlen,
			      "%s: empty file: expected a switch "
			      "table dump",
			      path) < 0
			     ? -EINVAL
			     : 1;
	else if (!rc && !c->nswitches)
		rc = lines_error(&in, "expected a \"Unicast lids [LO-HI] of "
				      "switch ... guid 0x...\" header");
	lines_close(&in);
	free(c);
	return rc < 0 ? rc : rc ? -EINVAL : 0;
}
