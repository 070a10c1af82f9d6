/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_REPORTS_REPORT_H
#define IBPROOF_REPORTS_REPORT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "common/hashmap.h"
#include "common/ibport.h"
#include "common/strtab.h"
#include "judge/judge_options.h"
#include "judge/pairjudge.h"

/*
 * The report's model: everything the record files said, aggregated while
 * they stream by. Strings are interned; pairs are kept as two compact
 * arrays (attribution input, figures); other records are few and kept.
 */

/*
 * Strings are interned in common/strtab.h (equal strings share one
 * pointer, freed with the table); index maps are common/hashmap.h.
 */

struct report_xcvr {
	const char *vendor, *part_number, *serial; /* NULL when unknown */
	const char *unreadable; /* why the module was not read, or NULL */
};

/* One end of a cable: a switch port or an HCA port. */
struct report_end {
	const char *name; /* switch name, or "host ca" */
	const char *host, *ca; /* HCA ends */
	uint64_t guid; /* node GUID (switch), port GUID (HCA) */
	int port;
	char type; /* 's' switch, 'c' CA, 'r' router, 0 unknown */
	const char *alias; /* "17/1" for twin-port cages, or NULL */
	struct report_xcvr xcvr;
};

struct report_hport { /* an HCA port seen in the records */
	const char *host, *ca;
	int port;
	uint64_t guid;
	int rail; /* -1 unknown */
	double rate_gbps;
	int link; /* index in links, -1 unknown */
	struct report_xcvr xcvr;
	/* figures over its measured pairs */
	uint32_t n_ok, n_low, n_untested;
	double sum_gbps;
	float min_gbps;
};

struct report_link {
	struct report_end a, b;
	const char *width, *speed, *state, *phys_state;
};

/*
 * The per-cable figures (issue 35, report_cables.c): what a port's
 * `counters` record says of its window, and what a `transceiver` record's
 * `ber` says before FEC. A figure not read is NAN (a string NULL): the
 * outputs say "not read", never a blank that reads as zero.
 */
struct report_window {
	struct report_end at; /* the port read */
	const char *stamp; /* when: its end, else the record's time */
	const char *mode; /* window, since-clear, baseline; NULL: none said */
	const char *start, *end; /* RFC 3339, as the record said, or NULL */
	double seconds, xmit_bits, rcv_bits;
	double ber_bits, ber, ber_limit; /* symbol errors per bit, judged */
	const char *ber_source;
	uint64_t errors[IB_PC_COUNT]; /* rise in the window, by enum ib_pc */
	uint32_t errors_known, errors_saturated; /* bit i: counter i */
};

struct report_phy {
	struct report_end at; /* the port read */
	const char *stamp; /* the record's time */
	const char *source, *speed; /* the record's, or NULL */
	double raw, effective, symbol; /* BER */
	double effective_errors, symbol_errors, minutes; /* since the clear */
};

/* One cable of the per-cable view, and the figures read at each end. */
struct report_cable_row {
	struct report_end a, b; /* b all zero: its far end is not known */
	int window[2], phy[2]; /* indexes into the report's, -1: not read */
	bool notable; /* an error counted in a window, or BER before FEC */
};

/* A pair as judging sees it: its two ports, and its verdict. */
enum attr_verdict { ATTR_OK, ATTR_LOW, ATTR_UNTESTED };

struct attr_pair {
	uint32_t a, b; /* port indexes */
	uint8_t verdict; /* enum attr_verdict: ATTR_LOW is bad in any way */
};

/* The figures of one measured pair; its ports live beside it. */
struct report_meas {
	float gbps, gbps_min, expected;
	uint32_t round;
	uint8_t test; /* 0 write, 1 read */
	uint8_t dir; /* 0 uni, 1 bi */
	uint8_t status; /* 0 ok, 1 error, 2 not-tested */
	uint8_t why; /* enum judge_why */
	uint8_t retest; /* measured in a retest round */
	uint8_t adaptive; /* its path is adaptive: no route evidence */
	uint16_t run; /* the record file it came from: its link classes */
	uint32_t error_completions;
	const char *error; /* interned, when not ok */
};

struct report_params {
	struct judge_params judge; /* the pair judge's (docs/judging.md) */
	unsigned int judge_given; /* bit i: judge_options[i] given */
	unsigned int group_min; /* common cause from this many: 4 */
	int threads; /* readers at once, 0 = online CPUs */
	bool no_fast_path; /* every line through jansson (for tests) */
	long split_min; /* files this big are read in parts (0: 32 MiB) */
	double timeout_s; /* --timeout: give up reading after this, 0 = none */
	/* --accept-untested LIST: parts whose gaps are accepted ("unknown":
	 * runs that wrote no scope), or NULL */
	const char *accept_untested;
};

/* A burnin run start record: the params it judged its pairs with. */
struct report_run_start {
	uint16_t file; /* index of its record file */
	unsigned long line;
	json_t *params; /* the record's params object (a reference) */
};

/* Where a judging option's value came from (report --json: judging). */
enum report_judging_from {
	REPORT_FROM_DEFAULT,
	REPORT_FROM_RECORDS,
	REPORT_FROM_COMMAND_LINE,
};

/* A finding taken in from a record file, or made by the report. */
struct report_finding {
	json_t *rec; /* the finding record (kind finding) */
	unsigned int count; /* times seen (deduplicated) */
	bool own; /* made by the report, not taken in */
};

/* One row of the coverage block: a tool's part, summed over its runs. */
struct report_coverage {
	const char *tool, *part; /* interned; part NULL: wrote no scope */
	long long in_scope, tested, not_tested;
	unsigned int runs;
	unsigned int unended; /* part NULL: runs started with no end record */
	bool accepted; /* its gaps accepted (the run's or the report's) */
};

enum report_entry_kind { ENTRY_PORT, ENTRY_NODE };

/* One line of the disable list. */
#define REPORT_ALSO_MAX 3 /* a cage of four split ports: three others */

struct report_entry {
	enum report_entry_kind kind;
	const char *key; /* stable identity, for --previous */
	struct report_end port; /* the port to take out of service */
	struct report_end
		peer; /* the other end of its cable (type 0: unknown) */
	const char *host, *device; /* ENTRY_NODE: host and PCI device */
	const char *action;
	/* swap-cables: the second cable, whose far end goes to port's cable */
	struct report_end swap_port, swap_peer;
	/* the other ports the same module serves (a twin-port or split cage:
	 * a finding's evidence.collateral) and their far ends: replacing the
	 * module takes them down too, so they are disabled with port */
	struct report_end also[REPORT_ALSO_MAX], also_peer[REPORT_ALSO_MAX];
	int n_also;
	/* locate: every candidate (the finding's evidence.candidates; port
	 * and peer are the first cable's ends) and the retest that separates
	 * them (an object {a, b}, or null: none known); NULL otherwise */
	json_t *candidates, *retest;
	json_t *reasons; /* array of {category, message, figures} */
	json_t *evidence; /* object */
	double confidence; /* bandwidth attribution, else 1 */
	const char *group; /* common cause it belongs to, or NULL */
	bool is_new;
};

struct report {
	struct report_params params;
	pthread_mutex_t lock; /* ingest threads share the model */
	struct strtab strs;
	struct report_hport *hports;
	size_t n_hports, cap_hports;
	struct hashmap hport_by_guid;
	struct hashmap hport_by_name; /* hash of host/ca/port */
	struct report_link *links;
	size_t n_links, cap_links;
	struct hashmap link_by_end; /* hash of (node guid, port) */
	struct report_xcvr *xcvrs; /* from `transceiver` records */
	size_t n_xcvrs, cap_xcvrs;
	struct hashmap xcvr_by_end; /* hash of (guid, port) -> xcvrs */
	struct report_window *windows; /* from `counters` records */
	size_t n_windows, cap_windows;
	struct hashmap window_by_end; /* hash of (guid, port) -> windows */
	struct report_phy *phys; /* `ber` of `transceiver` records */
	size_t n_phys, cap_phys;
	struct hashmap phy_by_end; /* hash of (guid, port) -> phys */
	struct report_cable_row *cable_rows; /* report_cable_rows_build() */
	size_t n_cable_rows, cap_cable_rows, n_cable_notable;
	struct namemap *node_names; /* --node-name-map, or NULL */
	struct attr_pair *pairs;
	struct report_meas *meas;
	size_t n_pairs, cap_pairs;
	struct judge_port *attr; /* per hport, after judging */
	struct report_routes *routes; /* pair paths, cable records; or NULL */
	struct report_finding *findings;
	size_t n_findings, cap_findings;
	json_t *finding_keys; /* dedup: key -> index */
	json_t *twin_switches; /* node guid string -> true */
	json_t *pcie; /* pcie records kept: array */
	json_t *runs; /* run end records: array */
	struct report_coverage *coverage; /* report_coverage.c */
	size_t n_coverage, cap_coverage;
	json_t *untested; /* not-tested findings: part -> reason -> count */
	json_t *run_lines; /* "FILE\tTOOL" -> [last start, last end line] */
	json_t *run_ends; /* "FILE\tTOOL" -> its last run end record */
	struct report_run_start *run_starts; /* burnin's */
	size_t n_run_starts, cap_run_starts;
	json_t *judging; /* each judging option: value, from (or NULL) */
	struct report_entry *entries;
	size_t n_entries, cap_entries;
	json_t *entry_keys; /* key -> index */
	json_t *reenable; /* array, from --previous */
	json_t *still_disabled; /* disabled before, not tested now */
	json_t *groups; /* common causes found: array */
	json_t *events; /* `event` records (kernel log): array */
	size_t n_records;
	unsigned int n_untested_ports;
	int fast_error; /* -ENOMEM in the fast path */
	char error[640]; /* first input error, file:line */
};

int report_init(struct report *r);
void report_fini(struct report *r);
void report_sort(struct report *r);
/*
 * The whole analysis: read files, judge, build the disable list, group,
 * compare with a previous report (may be NULL), order for output. 0,
 * -ENODATA (no records), -EINVAL (bad input: r->error), -errno.
 */
int report_analyse(struct report *r, char **files, int n, const char *previous);

/* Model (report_model.c): lookups and inserts; callers hold r->lock. */
int report_hport_get(struct report *r, const char *host, const char *ca,
		     int port, uint64_t guid, uint32_t *idx);
int report_link_add(struct report *r, const struct report_link *l);
/* The link at (node or port GUID, port), or -1. */
int report_link_find(const struct report *r, uint64_t guid, int port);
void report_link_hports(struct report *r);
int report_pair_add(struct report *r, const struct attr_pair *p,
		    const struct report_meas *m);
int report_finding_take(struct report *r, json_t *rec);
const char *report_node_name(struct report *r, uint64_t guid,
			     const char *fallback);
int report_load_node_name_map(struct report *r, const char *path);
uint64_t report_end_key(uint64_t guid, int port);

/* Reading (report_ingest.c). 0, -EINVAL (message in r->error), -errno. */
int report_ingest_files(struct report *r, char **paths, int n);
int report_ingest_record(struct report *r, json_t *rec);
void report_xcvr_from(struct report *r, const json_t *obj,
		      struct report_xcvr *x);
int report_end_from(struct report *r, const json_t *ref, struct report_end *e);
void report_end_alias(struct report *r, struct report_end *e);

/*
 * The judging options (report_run_params.c): those not given on the
 * command line (params.judge_given) from burnin's run start records when
 * they agree, else the defaults, with a warning naming the files. 0, or
 * -EINVAL for a value no option takes (r->error names FILE:LINE).
 */
int report_run_start_take(struct report *r, const json_t *rec, uint16_t file,
			  unsigned long line);
int report_judging_from_runs(struct report *r, char **files, int n);

/* Judging (report_judge.c): pair verdicts, attribution, own findings. */
int report_judge(struct report *r);

/*
 * Judging by route (report_route.c): the `cables`/`cables_ba` of pair
 * `pair` (callers hold r->lock), the `cable` records, and judge_cables()
 * on the judged pairs, its findings appended to the array findings (a
 * cable it cannot place: null). take_scan takes the fast scanner's paths
 * (report_scan.h), take_load a `cable-load` record's error rises at both
 * ends into the cable of its egress end. Each 0 or -errno.
 */
int report_route_take_pair(struct report *r, const json_t *rec, size_t pair);
int report_route_take_cable(struct report *r, const json_t *rec);
int report_route_take_load(struct report *r, const json_t *rec);
/* A routes-not-followed finding of record file run: its step (evidence
 * round and test) is no route evidence to the cable judge. 0, -ENOMEM. */
int report_route_take_finding(struct report *r, const json_t *rec,
			      uint16_t run);
struct scan_path;
/*
 * A reading thread's own cable id -> index table, so that a pair's ids
 * are looked up without r->lock (8.4 M pair records hold 67 M ids); a
 * miss takes the lock and asks the report's table. Zeroed: empty.
 */
struct report_route_cache {
	struct strtab ids; /* id -> index + 1 */
};
void report_route_cache_free(struct report_route_cache *c);
/* The cable indexes of both paths' ids into idx (not under r->lock). */
int report_route_resolve_scan(struct report *r, struct report_route_cache *c,
			      const struct scan_path *path, uint32_t idx[][16]);
/* Pair `pair`'s paths as resolved (under r->lock, like take_pair). */
int report_route_take_scan(struct report *r, const struct scan_path *path,
			   uint32_t idx[][16], size_t pair);
int report_route_judge(struct report *r, const struct judge_pair *pairs,
		       struct judge_result *res, json_t *findings);
/* Pair `pair` is bad and a blamed or ambiguous cable explains it. */
bool report_route_explained(const struct report *r, size_t pair);
void report_route_free(struct report *r);

/* The disable list (report_blame.c). */
int report_build_disable_list(struct report *r);
int report_add_finding(struct report *r, json_t *finding);
struct report_entry *report_entry_get(struct report *r,
				      const struct report_end *port,
				      const struct report_end *peer,
				      bool *created);
void report_entry_reason(struct report *r, struct report_entry *e,
			 const char *action, const json_t *finding);
int report_group_common_causes(struct report *r);
int report_group_rounds(struct report *r);
/* Kernel log events: common causes by peer NID and by time (2 min). */
int report_group_events(struct report *r);
/* "this node only" / "part of a common cause" for a kernel log finding. */
const char *report_scope_text(const json_t *finding);
int report_apply_previous(struct report *r, const char *path);

/*
 * Coverage (report_coverage.c, issue 32): built from the run end records'
 * `scope` and the not-tested findings taken in, after reading. INCOMPLETE
 * when a gap is not accepted, a run wrote no scope, or a not-tested
 * finding's part is counted by no run's scope.
 */
int report_coverage_build(struct report *r);
/* While reading: a run record at line of file (a run that started and
 * has no later end record is coverage unknown). 0 or -ENOMEM. */
int report_coverage_note_run(struct report *r, const json_t *rec, uint16_t file,
			     unsigned long line);
bool report_incomplete(const struct report *r);
/* "INCOMPLETE: burnin: 8 of 32 cables not tested; ..." */
void report_incomplete_text(const struct report *r, char *buf, size_t len);
json_t *report_coverage_json(const struct report *r);
/* The text block: one line per row, then the not-tested by reason. */
struct report_buf;
void report_coverage_lines(const struct report *r, struct report_buf *b);

/*
 * The per-cable view (issue 35). While reading (report_cable_take.c, r->lock
 * held): a `counters` record's window and errors, and the `ber` of a
 * `transceiver` record, each at end e (its port reference, resolved by the
 * caller). After reading (report_cables.c): one row per cable of the
 * `link` records that has a figure at either end, then one per port read
 * on no known cable, ordered by ends. Each 0 or -ENOMEM.
 */
int report_window_take(struct report *r, const json_t *rec,
		       const struct report_end *e);
int report_phy_take(struct report *r, const json_t *rec,
		    const struct report_end *e);
int report_cable_rows_build(struct report *r);
/* The window's figures at end e (guid, port), or NULL: not read. */
const struct report_window *report_window_at(const struct report *r,
					     const struct report_end *e);
const struct report_phy *report_phy_at(const struct report *r,
				       const struct report_end *e);
/*
 * "window 3.0 s from START to END: sent 3e+11 bits, received 1e+10 bits;
 * errors: SymbolErrorCounter 50; BER 1.7e-10 over 3e+11 bits (limit
 * 1e-12)", or "counters not read" (w NULL).
 */
void report_window_text(struct report_buf *b, const struct report_window *w);
/* "BER before FEC (mlxlink, NDR, over 12 min): raw 1.2e-06, effective
 * 3e-12, symbol 1.5e-254 (0 symbol errors)", or "... not read". */
void report_phy_text(struct report_buf *b, const struct report_phy *p);
/* The rows as JSON (report --json: `cables`). */
json_t *report_cable_rows_json(const struct report *r);

/* Verdict and counts. */
bool report_passed(const struct report *r);
void report_verdict_line(const struct report *r, char *buf, size_t len);

/* Escaping (report_escape.c): each appends to a growing buffer. */
struct report_buf {
	char *s;
	size_t len, cap;
	bool oom;
};
void report_buf_puts(struct report_buf *b, const char *s);
void report_buf_printf(struct report_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void report_buf_free(struct report_buf *b);
void report_html_escape(struct report_buf *b, const char *s);
void report_xml_escape(struct report_buf *b, const char *s);
void report_shell_quote(struct report_buf *b, const char *s);
void report_csv_field(struct report_buf *b, const char *s);
void report_prom_label(struct report_buf *b, const char *s);
void report_term_text(struct report_buf *b, const char *s);
void report_comment_text(struct report_buf *b, const char *s);
/* JSON safe inside <script>: '<', '>', '&' as \\u escapes. */
void report_script_json(struct report_buf *b, const char *json);
/* "node[01-16],gpu7": hosts compressed into ranges. */
void report_host_ranges(struct report_buf *b, const char **hosts, size_t n);
/* "Mellanox MMA1B00-E100 SN MT1" or "unknown (not readable: why)". */
void report_xcvr_text(struct report_buf *b, const struct report_xcvr *x);
/* The module a `transceiver` record put at (guid, port), or NULL. */
const struct report_xcvr *report_xcvr_at(const struct report *r, uint64_t guid,
					 int port);
/* "leaf01 port 33 (cage 17/1)" or "node01 mlx5_0 port 1". */
void report_end_text(struct report_buf *b, const struct report_end *e);
/* "A <-> B" (and " and C <-> D" for swap-cables), "host device", or a
 * locate entry's report_locate_text(). */
void report_entry_ends_text(struct report_buf *b, const struct report_entry *e);
/* "one of 3: A <-> B; C <-> D; host ca port 1 (retest E with F)". */
void report_locate_text(struct report_buf *b, const struct report_entry *e);

/* Outputs. Each 0 or -errno (logged, naming the file). */
int report_print_text(const struct report *r, FILE *out);
json_t *report_to_json(const struct report *r);
json_t *report_entry_json(const struct report_entry *e);
json_t *report_end_json(const struct report_end *e);
int report_write_json(const struct report *r, const char *path);
int report_write_csv(const struct report *r, const char *path);
int report_write_script(const struct report *r, const char *path);
int report_write_prometheus(const struct report *r, const char *path);
int report_write_junit(const struct report *r, const char *path);
int report_write_html(const struct report *r, const char *path);
int report_write_file(const char *path, const struct report_buf *b);

#endif
