// SPDX-License-Identifier: MIT
/*
 * --baseline FILE: the `pcie` records of a previous run. Only the AER totals
 * are used, so that a run reports the errors that happened since then.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/record.h"
#include "common/text.h"
#include "pcie/pcie.h"

static const char *const kind_keys[PCIE_AER_KINDS] = {
	"correctable",
	"nonfatal",
	"fatal",
};

struct pcie_baseline {
	json_t *by_bdf; /* bdf -> {"correctable": n, ...} */
};

/* Takes rec's AER totals if it is a pcie record that has them. */
static int take(struct pcie_baseline *b, json_t *rec, const char *path,
		unsigned long line)
{
	const char *kind = json_string_value(json_object_get(rec, "kind"));
	const char *bdf = json_string_value(json_object_get(rec, "bdf"));
	json_t *aer = json_object_get(rec, "aer");

	if (!kind || strcmp(kind, "pcie") != 0 || !aer)
		return 0;
	if (!json_is_object(aer)) {
		fprintf(stderr,
			"%s:%lu: pcie record: field 'aer' must be an "
			"object\n",
			path, line);
		return -EINVAL;
	}
	for (int k = 0; k < PCIE_AER_KINDS; k++) {
		json_t *v = json_object_get(aer, kind_keys[k]);

		if (v && (!json_is_integer(v) || json_integer_value(v) < 0)) {
			fprintf(stderr,
				"%s:%lu: pcie record: 'aer.%s' must "
				"be a count\n",
				path, line, kind_keys[k]);
			return -EINVAL;
		}
	}
	return json_object_set(b->by_bdf, bdf, aer);
}

static int load_all(struct pcie_baseline *b, struct record_reader *r,
		    const char *path)
{
	json_t *rec;
	int ret;

	while ((ret = record_reader_next(r, &rec)) == 1) {
		ret = take(b, rec, path, record_reader_line(r));
		json_decref(rec);
		if (ret)
			return ret;
	}
	if (ret == -EINVAL) {
		text_term_fputs(record_reader_error(r), stderr);
		fputc('\n', stderr);
	} else if (ret < 0)
		log_error("%s: %s", path, strerror(-ret));
	return ret;
}

struct pcie_baseline *pcie_baseline_load(const char *path)
{
	struct pcie_baseline *b = calloc(1, sizeof(*b));
	struct record_reader *r;
	int ret;

	if (!b)
		return NULL;
	b->by_bdf = json_object();
	r = record_reader_open(path);
	if (!r) {
		ret = -errno;
		log_error("--baseline %s: %m", path);
		goto free_b;
	}
	ret = load_all(b, r, path);
	record_reader_close(r);
	if (ret)
		goto free_b;
	return b;
free_b:
	pcie_baseline_free(b);
	errno = -ret;
	return NULL;
}

void pcie_baseline_free(struct pcie_baseline *b)
{
	if (!b)
		return;
	json_decref(b->by_bdf);
	free(b);
}

bool pcie_baseline_aer(const struct pcie_baseline *b, const char *bdf,
		       enum pcie_aer_kind kind, uint64_t *total)
{
	json_t *v = json_object_get(json_object_get(b->by_bdf, bdf),
				    kind_keys[kind]);

	if (!json_is_integer(v))
		return false;
	*total = (uint64_t)json_integer_value(v);
	return true;
}
