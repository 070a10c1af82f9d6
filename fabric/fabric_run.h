/* SPDX-License-Identifier: MIT */
/*
 * fabric_run.h: the parsed options of a fabric subcommand and the runs
 * fabric_cli.c calls (fabric_run.c, fabric_counters_run.c).
 */
#ifndef IBPROOF_FABRIC_RUN_H
#define IBPROOF_FABRIC_RUN_H

#include <stdbool.h>

#include "common/cli.h"
#include "common/record.h"
#include "fabric/fabric_finding.h"
#include "fabric/fabric_ibdiag_conf.h"
#include "fabric/fabric_model.h"
#include "fabric/fabric_ops.h"
#include "fabric/fabric_scope.h"

#define FABRIC_MAX_MLXLINK 256
/* `fabric counters`' default window: NVIDIA's method is minutes of traffic
 * between a clear and the read (docs/fabric.md). */
#define FABRIC_COUNTERS_WINDOW_S 60

struct fabric_args {
	const char *tool; /* "fabric check" ... for `run` records */
	struct cli_common common;
	const char *spec, *load_cache, *topology, *cache_out;
	const char *baseline, *thresholds;
	const char *lfts, *paths; /* routes: a table dump, "A B" lines */
	const char *path_from, *path_to; /* routes --path A B */
	bool reset;
	/* counters: the window's length; or since the last clear */
	double window_s;
	bool window_given, since_clear;
	/* fabric cables */
	const char *from_ibdiagnet, *approved_vendors;
	const char *from_mlxlink[FABRIC_MAX_MLXLINK];
	int n_mlxlink;
	bool strict; /* --strict: no link to an undefined node */
	/* --m-key KEY / ibdiag.conf m_key= (a secret: never printed) */
	struct fabric_mkey mkey;
	bool mkey_arg; /* from --m-key (over the file) */
	const char *ibdiag_conf; /* --ibdiag-conf FILE (NULL: the default) */
	struct fabric_scope accept; /* --accept-untested names (only) */
};

/* The ops in use (the real libraries; tests may swap them). */
extern const struct fabric_disc_ops *fabric_disc;
extern const struct fabric_pma_ops *fabric_pma;
extern const struct fabric_smp_ops *fabric_smp;

/* Each returns an exit code (IBP_EXIT_*). */
int fabric_load_model(const struct fabric_args *a, struct fabric **out);
int fabric_apply_map_file(const struct fabric_args *a, struct fabric *m);
int fabric_open_records(const struct fabric_args *a, struct record_writer **w);
int fabric_finish(const struct fabric_args *a, struct record_writer *w,
		  const char *what, const struct fabric *m,
		  const struct fabric_findings *fs);
/*
 * fabric_finish() with the run's scope: the end record carries `scope`
 * (and `accepted_untested`), the text the grouped not-tested findings and
 * an INCOMPLETE verdict; exit 1 when a gap is left (scope NULL: none).
 */
int fabric_finish_scope(const struct fabric_args *a, struct record_writer *w,
			const char *what, const struct fabric *m,
			const struct fabric_findings *fs,
			const struct fabric_scope *scope);
/* A scope that starts with the run's --accept-untested names. */
void fabric_scope_init(const struct fabric_args *a, struct fabric_scope *s);
/* The M_Key for the SMP ops of a run, when one was given. */
void fabric_smp_use_mkey(const struct fabric_args *a, struct fabric_smp *h);
/* One `link` record per cable (nothing when w is NULL); 0 or -errno. */
int fabric_emit_links(struct record_writer *w, const struct fabric *m);
/* The subcommands: `discover`, `check` (a->spec set), `counters`. */
int fabric_discover_run(const struct fabric_args *a);
int fabric_check_run(const struct fabric_args *a);
int fabric_counters_run(const struct fabric_args *a);
int fabric_routes_run(const struct fabric_args *a);
int fabric_cables_run(const struct fabric_args *a);

#endif
