// SPDX-License-Identifier: MIT
/*
 * The verdict line, first on stdout: `node gpu017: PASS` or
 * `node gpu017: FAIL — mlx5_3 port 1 at 2x width; PCIe 0000:c1:00.0 at Gen1`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node/node.h"

/* The findings whose string field key is value. */
static int count_with(const json_t *findings, const char *key,
		      const char *value)
{
	size_t i;
	json_t *f;
	int n = 0;

	json_array_foreach(findings, i, f)
	{
		const char *s = json_string_value(json_object_get(f, key));

		n += s && !strcmp(s, value);
	}
	return n;
}

int node_count_severity(const json_t *findings, const char *severity)
{
	return count_with(findings, "severity", severity);
}

static const char *gen_of(double gts)
{
	static const struct {
		double gts;
		const char *gen;
	} t[] = {
		{ 2.5, "Gen1" }, { 5, "Gen2" },	 { 8, "Gen3" },
		{ 16, "Gen4" },	 { 32, "Gen5" }, { 64, "Gen6" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (gts > 0 && gts <= t[i].gts + 0.01 && gts >= t[i].gts - 0.01)
			return t[i].gen;
	return NULL;
}

/* pcie findings: "PCIe 0000:c1:00.0 at Gen1", "PCIe 0000:c1:00.0 at x8". */
static const char *pcie_short(const json_t *f, const char *cat, char *buf,
			      size_t len)
{
	const json_t *ev = json_object_get(f, "evidence");
	const char *bdf = json_string_value(
		json_object_get(json_object_get(f, "subject"), "bdf"));
	double gts =
		json_number_value(json_object_get(ev, "current_speed_GTps"));
	int width =
		(int)json_integer_value(json_object_get(ev, "current_width"));

	if (!bdf)
		return NULL;
	if (!strcmp(cat, "pcie-degraded-speed") && gen_of(gts))
		snprintf(buf, len, "PCIe %s at %s", bdf, gen_of(gts));
	else if (!strcmp(cat, "pcie-degraded-width") && width > 0)
		snprintf(buf, len, "PCIe %s at x%d", bdf, width);
	else
		snprintf(buf, len, "PCIe %s %s", bdf, cat + 5);
	return buf;
}

/* port findings of burnin: "rxe0 port 1 low-bandwidth". */
static const char *port_short(const json_t *f, const char *cat, char *buf,
			      size_t len)
{
	const json_t *subj = json_object_get(f, "subject");
	const char *ca = json_string_value(json_object_get(subj, "ca"));
	json_int_t port = json_integer_value(json_object_get(subj, "port"));

	if (!ca)
		return NULL;
	snprintf(buf, len, "%s port %lld %s", ca, (long long)port, cat);
	return buf;
}

const char *node_finding_short(const json_t *f, char *buf, size_t len)
{
	const char *s = json_string_value(
		json_object_get(json_object_get(f, "evidence"), "short"));
	const char *cat = json_string_value(json_object_get(f, "category"));
	const char *r = NULL;

	if (s)
		return s;
	if (cat && !strncmp(cat, "pcie-", 5))
		r = pcie_short(f, cat, buf, len);
	else if (cat)
		r = port_short(f, cat, buf, len);
	if (r)
		return r;
	s = json_string_value(json_object_get(f, "message"));
	return s ? s : "(finding without a message)";
}

static int append(char **line, size_t *len, const char *text)
{
	size_t add = strlen(text);
	char *p = realloc(*line, *len + add + 1);

	if (!p)
		return -ENOMEM;
	memcpy(p + *len, text, add + 1);
	*line = p;
	*len += add;
	return 0;
}

int node_count_not_tested(const json_t *findings)
{
	return count_with(findings, "category", "not-tested");
}

/* The findings the line names: the fails, or (no fail) what was not
 * tested: INCOMPLETE is never PASS (issue 32). */
static bool named(const json_t *f, bool incomplete)
{
	const char *sev = json_string_value(json_object_get(f, "severity"));
	const char *cat = json_string_value(json_object_get(f, "category"));

	if (incomplete)
		return cat && !strcmp(cat, "not-tested");
	return sev && !strcmp(sev, "fail");
}

char *node_verdict_line(const char *host, const json_t *findings)
{
	bool fail = node_count_severity(findings, "fail") > 0;
	bool incomplete = !fail && node_count_not_tested(findings) > 0;
	size_t len = 0, i;
	char *line = NULL, buf[256];
	int n = 0, ret;
	json_t *f;

	ret = append(&line, &len, "node ");
	ret = ret ? ret : append(&line, &len, host);
	ret = ret ? ret
		  : append(&line, &len,
			   fail		? ": FAIL \u2014 "
			   : incomplete ? ": INCOMPLETE \u2014 "
					: ": PASS");
	json_array_foreach(findings, i, f)
	{
		const char *s;
		char *hit;

		if (ret || !named(f, incomplete))
			continue;
		s = node_finding_short(f, buf, sizeof(buf));
		hit = strstr(line, s);
		if (hit && (hit[strlen(s)] == ';' || hit[strlen(s)] == '\0'))
			continue; /* said once */
		ret = n++ ? append(&line, &len, "; ") : 0;
		ret = ret ? ret : append(&line, &len, s);
	}
	if (ret) {
		free(line);
		errno = -ret;
		return NULL;
	}
	return line;
}
