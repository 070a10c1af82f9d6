// SPDX-License-Identifier: MIT
/*
 * scope.c: burnin's scope and its INCOMPLETE verdict (scope.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "burnin/scope.h"

static const char *const part_names[BURNIN_N_PARTS] = { "ports", "pairs",
							"cables" };

const char *burnin_part_name(enum burnin_part p)
{
	return p < BURNIN_N_PARTS ? part_names[p] : "?";
}

int burnin_accept_parse(const char *list, unsigned int *mask, char *err,
			size_t err_len)
{
	const char *p = list;

	*mask = 0;
	while (p && *p) {
		size_t len = strcspn(p, ",");
		int k;

		for (k = 0; k < BURNIN_N_PARTS; k++)
			if (len == strlen(part_names[k]) &&
			    !strncmp(p, part_names[k], len))
				break;
		if (k == BURNIN_N_PARTS) {
			snprintf(
				err, err_len,
				"--accept-untested: '%.*s' is no part of burnin's scope (expected ports, pairs or cables)",
				(int)len, p);
			return -EINVAL;
		}
		*mask |= 1u << k;
		p = p[len] ? p + len + 1 : NULL;
	}
	return 0;
}

bool burnin_scope_incomplete(const struct burnin_scope *s,
			     unsigned int accepted)
{
	for (int k = 0; k < BURNIN_N_PARTS; k++)
		if (s->has[k] && s->part[k].not_tested &&
		    !(accepted & (1u << k)))
			return true;
	return false;
}

/* ", 3 of 32 cables not tested" for each gap (accepted or not) into buf. */
static void gaps(const struct burnin_scope *s, unsigned int accepted,
		 bool want_accepted, char *buf, size_t len)
{
	size_t used = strlen(buf);

	for (int k = 0; k < BURNIN_N_PARTS && used < len; k++) {
		const struct burnin_scope_count *c = &s->part[k];

		if (!s->has[k] || !c->not_tested ||
		    !(accepted & (1u << k)) != !want_accepted)
			continue;
		snprintf(buf + used, len - used, "%s%ld of %ld %s not tested",
			 buf[used - 1] == ' ' ? "" : ", ", c->not_tested,
			 c->in_scope, part_names[k]);
		used = strlen(buf);
	}
}

void burnin_scope_line(const struct burnin_scope *s, unsigned int accepted,
		       char *buf, size_t len)
{
	char acc[256] = " ";

	buf[0] = '\0';
	if (burnin_scope_incomplete(s, accepted)) {
		snprintf(buf, len, "INCOMPLETE: ");
		gaps(s, accepted, false, buf, len);
	}
	gaps(s, accepted, true, acc, sizeof(acc));
	if (acc[1])
		snprintf(buf + strlen(buf), len - strlen(buf),
			 "%s(accepted:%s)", buf[0] ? " " : "", acc);
}

json_t *burnin_scope_json(const struct burnin_scope *s, unsigned int accepted)
{
	json_t *o = json_object();

	for (int k = 0; o && k < BURNIN_N_PARTS; k++) {
		const struct burnin_scope_count *c = &s->part[k];

		if (s->has[k])
			json_object_set_new(
				o, part_names[k],
				json_pack("{s:I,s:I,s:I,s:b}", "in_scope",
					  (json_int_t)c->in_scope, "tested",
					  (json_int_t)c->tested, "not_tested",
					  (json_int_t)c->not_tested, "accepted",
					  !!(accepted & (1u << k))));
	}
	return o;
}

json_t *burnin_accept_json(unsigned int accepted)
{
	json_t *a = json_array();

	for (int k = 0; a && k < BURNIN_N_PARTS; k++)
		if (accepted & (1u << k))
			json_array_append_new(a, json_string(part_names[k]));
	return a;
}
