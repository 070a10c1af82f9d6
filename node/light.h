/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_NODE_LIGHT_H
#define IBPROOF_NODE_LIGHT_H

/*
 * ibproof node --light: the periodic check of a node in production (a
 * systemd timer), no traffic, about a second (docs/node.md, "Light
 * periodic checks"):
 *   ports (node_ports_scan, node_judge_ports) + PCIe hops and AER
 *   (pcie_topo_scan, pcie_audit_links, pcie_audit_aer) + error counter and
 *   kernel-log deltas since the last run (the state under --state-dir)
 *   + at most every --sample-every seconds one DMA loopback sample per HCA
 *   port, judged by light_bw_judge() on the mean of the last K
 *   -> node_report() and a node_exporter textfile (light_prom.c).
 * light_bw_judge() and light_gpu_speed_alarm() are pure (unit-tested).
 */
#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#define LIGHT_MEAN_K 12 /* --mean-of: samples averaged */
#define LIGHT_SAMPLE_EVERY_S 3600.0 /* --sample-every */
#define LIGHT_DMA_SAMPLES 3 /* loopback runs in one sample (median) */
#define LIGHT_STATE_DIR "/var/lib/ibproof"
#define LIGHT_STATE_FILE "light-state.json"
#define LIGHT_AER_FILE "light-pcie.jsonl" /* AER baseline of the next run */

/* ---- light_mean.c: the averaging rule ---- */

struct light_sample {
	double t; /* UTC seconds */
	double GBps; /* the lower of the WRITE and READ medians */
};

enum light_bw_state {
	LIGHT_BW_OK, /* the mean of the last K is at or over the floor */
	LIGHT_BW_LOW, /* the mean of the last K is under the floor: alarm */
	LIGHT_BW_COLLECTING, /* fewer than K samples: not judged */
	LIGHT_BW_NO_FLOOR, /* no PCIe capability known: not judged */
};

struct light_bw_verdict {
	enum light_bw_state state;
	int used; /* samples in the mean: min(n, K) */
	double mean_GBps, min_GBps;
	int low; /* samples under the floor among those used */
	int missing; /* samples due in the span of those used but not taken */
	double span_s; /* oldest to newest of those used */
};

/*
 * Judges the last K of n samples (oldest first) against floor_GBps: an
 * alarm only when K samples exist and their mean is under the floor; one
 * low sample does not. every_s (the sampling period) counts the samples
 * missing within the span (a sample more than 1.5 periods after the one
 * before means one or more were not taken).
 */
void light_bw_judge(const struct light_sample *s, int n, int k,
		    double floor_GBps, double every_s,
		    struct light_bw_verdict *v);
const char *light_bw_state_name(enum light_bw_state s);

/*
 * GPUs lower their PCIe link speed when idle, and both ends of a link
 * report the speed it runs at, so one reading cannot tell idle from
 * degraded. A GPU link under its capable speed is an alarm only when no run
 * within window_s saw it at its capable speed, and runs have watched it
 * that long: first_t, the first run that saw the GPU; full_t, the last run
 * that saw it at its capable speed (0: never).
 */
bool light_gpu_speed_alarm(double first_t, double full_t, double now,
			   double window_s);

/* ---- light_state.c: what the runs keep under the state dir ---- */

/*
 * DIR/light-state.json as a JSON object (an empty one when there is none).
 * A file that does not parse is moved to light-state.json.bad and said in
 * notes; the run starts afresh. NULL + errno only when out of memory.
 */
json_t *light_state_load(const char *dir, json_t *notes);
/* Writes the state atomically (temporary file, rename); 0 or -errno. */
int light_state_save(const char *dir, const json_t *state);
/* "DIR/NAME" in buf; -ENAMETOOLONG. */
int light_state_path(const char *dir, const char *name, char *buf, size_t len);
/* mkdir -p of DIR (mode 0755); 0 or -errno. */
int light_state_mkdir(const char *dir);

/* ---- light_prom.c: the node_exporter textfile ---- */

struct light_metric_set; /* built while the run goes */

struct light_metric_set *light_metrics_new(void);
void light_metrics_free(struct light_metric_set *m);
/*
 * One sample of metric name (declared by light_prom.c's table) with labels
 * as NULL-ended name, value pairs of strings (bytes: made valid UTF-8 and
 * escaped when written).
 */
void light_metric(struct light_metric_set *m, const char *name, double value,
		  ...) __attribute__((sentinel));
/* Writes the set in the text exposition format. */
void light_metrics_write(FILE *f, const struct light_metric_set *m);
/* Writes path atomically (path.tmp, rename); 0 or -errno (logged). */
int light_metrics_save(const char *path, const struct light_metric_set *m);

/* ---- light_run.c ---- */

struct node_run_opts;
struct pcie_dma_ops;

struct light_opts {
	const char *state_dir; /* LIGHT_STATE_DIR */
	const char *textfile; /* NULL: none */
	int mean_of; /* K */
	double sample_every_s;
	double now; /* UTC seconds; 0: time(NULL) (tests set it) */
	const struct pcie_dma_ops *dma; /* NULL: loopback on /sys only */
};

/* The whole light check; prints the verdict and detail. An exit code. */
int light_run(struct node_run_opts *o, const struct light_opts *lo);

/* ---- shared by light_run.c, light_pcie.c and light_dma.c ---- */

struct node_ctx;

struct light_ctx {
	struct node_ctx *c; /* options, findings, skipped, notes, ports */
	const struct light_opts *lo;
	json_t *state; /* of the last run (light_state_load) */
	json_t *next; /* what this run keeps */
	double now, last; /* UTC seconds; last = 0: no run before */
	struct light_metric_set *m;
};

/* light_pcie.c: the hops, AER since the last run, the GPUs' speed. */
void light_pcie(struct light_ctx *x);
/* light_dma.c: a bandwidth sample when one is due, the mean judged. */
struct pcie_topo;
void light_dma(struct light_ctx *x, const struct pcie_topo *t);

#endif
