// SPDX-License-Identifier: MIT
/*
 * fabric_topo_format.c: which topology output a text is (fabric_topo.h),
 * and what its readers (fabric_topo.c, fabric_topo_rows.c) share.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/lines.h"
#include "common/log.h"
#include "common/record.h"
#include "fabric/fabric_topo_priv.h"

static const char *const topo_keys[] = {
	"vendid=", "devid=", "sysimgguid=", "switchguid=", "caguid=", "rtguid=",
	"Switch",  "Ca\t",   "Ca ",	    "Rt\t",	   "Rt "
};

/* "0x" and 16 hex digits, then a blank: iblinkinfo --line. */
static bool guid_token(const char *p)
{
	if (strncmp(p, "0x", 2)) /* first: p may be shorter than 2 bytes */
		return false;
	return strspn(p + 2, "0123456789abcdefABCDEF") == 16 &&
	       isspace((unsigned char)p[18]);
}

/* "CA    18  1 0x...": ibnetdiscover -p. */
static bool ports_line(const char *p)
{
	if (strncmp(p, "CA ", 3) && strncmp(p, "SW ", 3) &&
	    strncmp(p, "RT ", 3))
		return false;
	p += strspn(p + 2, " ") + 2;
	return isdigit((unsigned char)*p);
}

enum fabric_topo_format fabric_topo_format(const char *text)
{
	const char *p = text;
	size_t i;

	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p != '#')
			break;
		p += strcspn(p, "\n");
	}
	if (!strncmp(p, "Switch: 0x", 10) || !strncmp(p, "CA: ", 4) ||
	    !strncmp(p, "Router: ", 8))
		return FABRIC_TOPO_IBLINKINFO;
	for (i = 0; i < sizeof(topo_keys) / sizeof(topo_keys[0]); i++)
		if (!strncmp(p, topo_keys[i], strlen(topo_keys[i])))
			return FABRIC_TOPO_IBNETDISCOVER;
	if (guid_token(p))
		return FABRIC_TOPO_IBLINKINFO_LINE;
	if (ports_line(p))
		return FABRIC_TOPO_PORTS;
	return FABRIC_TOPO_NONE;
}

const char *fabric_topo_format_name(enum fabric_topo_format fmt)
{
	static const char *const names[] = {
		[FABRIC_TOPO_NONE] = "unknown",
		[FABRIC_TOPO_IBNETDISCOVER] = "ibnetdiscover",
		[FABRIC_TOPO_PORTS] = "ibnetdiscover -p",
		[FABRIC_TOPO_IBLINKINFO] = "iblinkinfo",
		[FABRIC_TOPO_IBLINKINFO_LINE] = "iblinkinfo --line",
	};

	return (unsigned)fmt < sizeof(names) / sizeof(names[0]) ? names[fmt]
								: "unknown";
}

bool fabric_topo_detect(const char *text)
{
	return fabric_topo_format(text) != FABRIC_TOPO_NONE;
}

int topo_unknown_node(struct lines *in, bool strict, const char *what)
{
	if (strict)
		return lines_error(in,
				   "link to %s, a node the file never "
				   "defines (--strict)",
				   what);
	log_warn("%s:%d: link to %s, a node the file never defines: kept "
		 "as an unknown node",
		 in->path, in->line, what);
	return 0;
}

/* The GUID in the n bytes at s: at most 16 hex digits ("0x" allowed),
 * nothing else. 0 or -EINVAL. */
int topo_guid(const char *s, size_t n, uint64_t *guid)
{
	char buf[24];

	if (n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return record_guid_parse(buf, guid);
}
