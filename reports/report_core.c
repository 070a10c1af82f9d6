// SPDX-License-Identifier: MIT
/* The report's life: set up, order for output, tear down. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/namemap.h"
#include "reports/report.h"

/*
 * The lock the reading threads place records under: held for about a
 * microsecond a record, so a waiter spins briefly before it sleeps
 * (sleeping and waking on every record cost a fifth of the CPU of a
 * report on 8.4 M pair records).
 */
static int report_lock_init(pthread_mutex_t *lock)
{
	pthread_mutexattr_t a;
	int rc = pthread_mutexattr_init(&a);

	if (rc)
		return rc;
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
	rc = pthread_mutex_init(lock, &a);
	pthread_mutexattr_destroy(&a);
	return rc;
}

int report_init(struct report *r)
{
	memset(r, 0, sizeof(*r));
	if (report_lock_init(&r->lock))
		return -ENOMEM;
	r->finding_keys = json_object();
	r->twin_switches = json_object();
	r->pcie = json_array();
	r->runs = json_array();
	r->untested = json_object();
	r->run_lines = json_object();
	r->run_ends = json_object();
	r->entry_keys = json_object();
	r->reenable = json_array();
	r->still_disabled = json_array();
	r->groups = json_array();
	r->events = json_array();
	if (!r->finding_keys || !r->twin_switches || !r->pcie || !r->runs ||
	    !r->untested || !r->run_lines || !r->run_ends || !r->entry_keys ||
	    !r->reenable || !r->still_disabled || !r->groups || !r->events) {
		report_fini(r);
		return -ENOMEM;
	}
	return 0;
}

void report_fini(struct report *r)
{
	report_route_free(r);
	for (size_t i = 0; i < r->n_findings; i++)
		json_decref(r->findings[i].rec);
	for (size_t i = 0; i < r->n_entries; i++) {
		json_decref(r->entries[i].reasons);
		json_decref(r->entries[i].candidates);
		json_decref(r->entries[i].retest);
		json_decref(r->entries[i].evidence);
	}
	for (size_t i = 0; i < r->n_run_starts; i++)
		json_decref(r->run_starts[i].params);
	free(r->run_starts);
	json_decref(r->judging);
	free(r->findings);
	free(r->entries);
	free(r->hports);
	free(r->links);
	free(r->xcvrs);
	hashmap_free(&r->xcvr_by_end);
	free(r->windows);
	hashmap_free(&r->window_by_end);
	free(r->phys);
	hashmap_free(&r->phy_by_end);
	free(r->cable_rows);
	free(r->pairs);
	free(r->meas);
	free(r->attr);
	hashmap_free(&r->hport_by_guid);
	hashmap_free(&r->hport_by_name);
	hashmap_free(&r->link_by_end);
	namemap_free(r->node_names);
	json_decref(r->finding_keys);
	json_decref(r->twin_switches);
	json_decref(r->pcie);
	json_decref(r->runs);
	json_decref(r->untested);
	json_decref(r->run_lines);
	json_decref(r->run_ends);
	free(r->coverage);
	json_decref(r->entry_keys);
	json_decref(r->reenable);
	json_decref(r->still_disabled);
	json_decref(r->groups);
	json_decref(r->events);
	strtab_free(&r->strs);
	pthread_mutex_destroy(&r->lock);
	memset(r, 0, sizeof(*r));
}

static int severity_rank(const json_t *f)
{
	const char *s = json_string_value(json_object_get(f, "severity"));

	return !strcmp(s, "fail") ? 0 : !strcmp(s, "warn") ? 1 : 2;
}

static int finding_cmp(const void *x, const void *y)
{
	const json_t *a = ((const struct report_finding *)x)->rec;
	const json_t *b = ((const struct report_finding *)y)->rec;
	int c = severity_rank(a) - severity_rank(b);

	if (c)
		return c;
	c = strcmp(json_string_value(json_object_get(a, "category")),
		   json_string_value(json_object_get(b, "category")));
	return c ? c
		 : strcmp(json_string_value(json_object_get(a, "message")),
			  json_string_value(json_object_get(b, "message")));
}

static int entry_cmp(const void *x, const void *y)
{
	const struct report_entry *a = x, *b = y;

	return strcmp(a->key, b->key);
}

/* Output order does not depend on file or thread order. Call last. */
void report_sort(struct report *r)
{
	if (r->n_findings)
		qsort(r->findings, r->n_findings, sizeof(*r->findings),
		      finding_cmp);
	if (r->n_entries)
		qsort(r->entries, r->n_entries, sizeof(*r->entries), entry_cmp);
	json_object_clear(r->finding_keys);
	json_object_clear(r->entry_keys);
}

int report_analyse(struct report *r, char **files, int n, const char *previous)
{
	int ret = report_ingest_files(r, files, n);

	if (ret)
		return ret;
	if (!r->n_pairs && !r->n_records)
		return -ENODATA;
	ret = report_coverage_build(r) ?: report_cable_rows_build(r) ?:
	      report_judging_from_runs(r, files, n) ?: report_judge(r) ?:
	      report_build_disable_list(r) ?:
	      report_group_common_causes(r) ?: report_group_events(r);
	if (!ret && previous)
		ret = report_apply_previous(r, previous);
	if (!ret)
		report_sort(r);
	return ret;
}
