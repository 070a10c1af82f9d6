// SPDX-License-Identifier: MIT
/*
 * xcvr_text.c: the values of the module fact files (xcvr_text.h), shared
 * by the ibdiagnet2.db_csv, ibdiagnet2.cables and mlxlink readers.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fabric/xcvr_text.h"

/* "", "N/A" or "NA": not known. */
bool xcvr_is_na(const char *s)
{
	return !*s || !strcasecmp(s, "N/A") || !strcasecmp(s, "NA");
}

/* Printable ASCII of at most size - 1 bytes; N/A is "". */
void xcvr_text_field(char *dst, size_t size, const char *s)
{
	size_t len = 0;

	if (!s || xcvr_is_na(s)) {
		dst[0] = '\0';
		return;
	}
	for (; *s && len + 1 < size; s++)
		dst[len++] =
			(unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f
				? *s
				: '?';
	while (len && dst[len - 1] == ' ')
		len--;
	dst[len] = '\0';
}

/* A number with an optional unit after it ("42C", "-3.1 dBm"). */
bool xcvr_num_unit(const char *s, double *v, const char **unit)
{
	char *end;

	if (!s || xcvr_is_na(s))
		return false;
	*v = strtod(s, &end);
	if (end == s || !isfinite(*v))
		return false;
	while (*end == ' ')
		end++;
	*unit = end;
	return true;
}

/* Power in mW: "dBm", "mW", "uW", or bare (the module's 0.1 uW units). */
bool xcvr_power_mw(const char *s, double *mw)
{
	const char *u;
	double v;

	if (!xcvr_num_unit(s, &v, &u))
		return false;
	if (!strncasecmp(u, "dBm", 3))
		*mw = pow(10.0, v / 10.0);
	else if (!strncasecmp(u, "mW", 2))
		*mw = v;
	else if (!strncasecmp(u, "uW", 2))
		*mw = v / 1000.0;
	else
		*mw = v / 10000.0;
	return true;
}

/* Value of a quantity from its text: degC, V, mA or mW. */
bool xcvr_qty_value(enum xcvr_qty q, const char *s, double *out)
{
	const char *u;

	if (q == XCVR_RX_POWER || q == XCVR_TX_POWER)
		return xcvr_power_mw(s, out);
	if (!xcvr_num_unit(s, out, &u))
		return false;
	if ((q == XCVR_VCC && !strncasecmp(u, "mV", 2)) ||
	    (q == XCVR_TX_BIAS && !strncasecmp(u, "uA", 2)))
		*out /= 1000.0;
	return true;
}

/* The SFF-8024 identifier of a name ("OSFP"), 0 unknown. */
uint8_t xcvr_identifier_of(const char *name)
{
	static const uint8_t ids[] = { 0x19, 0x18, 0x11, 0x0d, 0x0c, 0x03 };

	for (size_t i = 0; name && i < sizeof(ids); i++)
		if (!strcasecmp(name, xcvr_identifier_name(ids[i])))
			return ids[i];
	return 0;
}

/* A DAC or an AOC, from a type text ("Passive copper cable"). */
bool xcvr_one_part_text(const char *s)
{
	return s && (strcasestr(s, "copper") ||
		     strcasestr(s, "active optical") || strcasestr(s, "AOC"));
}

void xcvr_strip_sgr(char *s)
{
	char *out = s;

	while (*s) {
		if (*s == 0x1b && s[1] == '[') {
			s += 2;
			while (*s && !isalpha((unsigned char)*s))
				s++;
			if (*s)
				s++;
			continue;
		}
		*out++ = *s++;
	}
	*out = '\0';
}
