// SPDX-License-Identifier: MIT
/*
 * route_tables.c: the switches whose tables the routes lack (issue 32,
 * route_tables.h).
 */
#include <stdlib.h>
#include <string.h>

#include "burnin/burnin.h"
#include "burnin/route_model.h"
#include "burnin/route_tables.h"
#include "common/cli.h"
#include "common/log.h"
#include "common/record.h"

#define NAMED_MAX 8 /* switches named in the message; then a count */

static const char *str_at(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* A `not-tested` finding on a switch's table: the subject's node GUID. */
static bool table_not_tested(const json_t *rec, uint64_t *guid)
{
	const json_t *ev = json_object_get(rec, "evidence");
	const char *g = str_at(json_object_get(rec, "subject"), "guid");

	return str_at(rec, "kind") && !strcmp(str_at(rec, "kind"), "finding") &&
	       str_at(rec, "category") &&
	       !strcmp(str_at(rec, "category"), "not-tested") &&
	       str_at(ev, "part") && !strcmp(str_at(ev, "part"), "tables") &&
	       g && !record_guid_parse(g, guid);
}

/* Appends "name 0xGUID" to msg for the first NAMED_MAX, counts the rest. */
static void name_switch(char *msg, size_t len, int k, const char *name,
			uint64_t guid)
{
	size_t used = strlen(msg);

	if (k >= NAMED_MAX) /* the log escapes it for the terminal */
		return;
	snprintf(msg + used, len - used, "%s%.80s 0x%016llx", k ? ", " : "",
		 name ? name : "", (unsigned long long)guid);
}

/*
 * The switches of the routes file's not-tested table findings that still
 * have a table (one without is counted already: fabric routes writes no
 * lft record and a finding for the same switch).
 */
static int from_findings(const struct burnin_routes *r, const char *path,
			 char *msg, size_t len, int k)
{
	struct record_reader *rd = record_reader_open(path);
	json_t *rec;
	uint64_t guid;

	if (!rd)
		return k;
	while (record_reader_next(rd, &rec) == 1) {
		if (table_not_tested(rec, &guid) &&
		    !burnin_routes_table_unread(r, guid))
			name_switch(
				msg, len, k++,
				str_at(json_object_get(rec, "subject"), "node"),
				guid);
		json_decref(rec);
	}
	record_reader_close(rd);
	return k;
}

int burnin_route_tables_check(const struct burnin_config *cfg,
			      const struct burnin_routes *r)
{
	int nodes[NAMED_MAX], n, k;
	char msg[1024] = "";

	if (strcmp(cfg->schedule, "cover") &&
	    strcmp(cfg->schedule, "all-pairs"))
		return IBP_EXIT_PASS; /* not planned by route */
	n = burnin_routes_unread_switches(r, nodes, NAMED_MAX);
	for (k = 0; k < n && k < NAMED_MAX; k++) {
		uint64_t guid;
		const char *name;

		burnin_routes_switch(r, nodes[k], &guid, &name);
		name_switch(msg, sizeof(msg), k, name, guid);
	}
	k = cfg->lfts ? n : from_findings(r, cfg->routes, msg, sizeof(msg), n);
	if (!k)
		return IBP_EXIT_PASS;
	if (k > NAMED_MAX)
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
			 " and %d more", k - NAMED_MAX);
	if (cfg->plan_around_unread) {
		log_warn(
			"--routes %s: the tables of %d switch(es) were not read (%s): planned around them, their cables not tested",
			cfg->routes, k, msg);
		return IBP_EXIT_PASS;
	}
	log_error(
		"--routes %s: the tables of %d switch(es) were not read (%s): a %s plan through them would rest on guesses; read them again (ibproof fabric routes), or --plan-around-unread to plan without them (their cables not tested)",
		cfg->routes, k, msg, cfg->schedule);
	return IBP_EXIT_USAGE;
}
