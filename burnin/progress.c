// SPDX-License-Identifier: MIT
/*
 * What a person sees: progress on stderr after each step (round i/N, pairs
 * done, ETA, worst pair so far; a bar on a TTY, plain lines otherwise), the
 * summary at the end, and the --dry-run plan.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "burnin/coord.h"
#include "common/progress.h"
#include "common/text.h"

static void track_worst(struct burnin_coord *co, int from)
{
	char a[2 * DPATH_NAME_MAX + 16], b[2 * DPATH_NAME_MAX + 16], *shown;

	for (int i = from; i < co->n_m; i++) {
		const struct burnin_measure *m = &co->m[i];
		/* Soft-RoCE over a netdev of unknown speed: no expected rate */
		double ratio = m->expected_gbps > 0 ? m->gbps / m->expected_gbps
						    : m->gbps;

		if (m->status != BURNIN_PAIR_OK ||
		    (co->worst[0] && ratio >= co->worst_ratio))
			continue;
		co->worst_ratio = ratio;
		burnin_port_name(&co->inv[m->a], a, sizeof(a));
		burnin_port_name(&co->inv[m->b], b, sizeof(b));
		snprintf(co->worst, sizeof(co->worst), "%s<->%s %.1f/%.0f Gb/s",
			 a, b, m->gbps, m->expected_gbps);
		shown = text_term_dup(co->worst); /* D9: printed to a tty */
		if (shown)
			snprintf(co->worst, sizeof(co->worst), "%s", shown);
		text_trim(co->worst);
		free(shown);
	}
}

void burnin_progress_step(struct burnin_coord *co, int round, int n_rounds,
			  int test, int ok, int n)
{
	bool tty = isatty(STDERR_FILENO);
	double el = clock_mono_now() - co->start, eta;
	char eta_s[32];
	int total = 0, done;

	track_worst(co, co->n_m - n);
	co->pairs_done += n;
	done = co->pairs_done + co->pairs_resumed;
	for (int r = 0; r < co->sched.n_rounds; r++)
		total += burnin_schedule_round_size(&co->sched, r) *
			 co->ctx->cfg->n_tests;
	/* the pace of this run's pairs, over what is left */
	eta = co->pairs_done ? el * (total - done) / co->pairs_done : 0;
	progress_fmt_duration(eta > 0 ? eta : 0, eta_s, sizeof(eta_s));
	if (!co->ctx->cfg->progress)
		return;
	if (tty) {
		char bar[21];
		int fill = total && done < total ? 20 * done / total : 20;

		memset(bar, '#', 20);
		memset(bar + fill, '.', (size_t)(20 - fill));
		bar[20] = '\0';
		fprintf(stderr,
			"\r[%s] round %d/%d %s: %d/%d ok, %d/%d pairs, ETA %s, worst %s\033[K",
			bar, round + 1, n_rounds, burnin_test_name(test), ok, n,
			done, total, eta_s, co->worst[0] ? co->worst : "-");
	} else {
		fprintf(stderr,
			"burnin: round %d/%d %s: %d/%d pairs ok, %d/%d pairs done, ETA %s, worst %s\n",
			round + 1, n_rounds, burnin_test_name(test), ok, n,
			done, total, eta_s, co->worst[0] ? co->worst : "-");
	}
}

void burnin_progress_done(struct burnin_coord *co)
{
	FILE *out = co->ctx->cfg->records && !strcmp(co->ctx->cfg->records, "-")
			    ? stderr
			    : stdout;
	int n[3] = { 0 };
	char el[32];

	if (co->ctx->cfg->progress && isatty(STDERR_FILENO))
		fputc('\n', stderr);
	for (int i = 0; i < co->n_m; i++)
		n[co->m[i].status]++;
	progress_fmt_duration(clock_mono_now() - co->start, el, sizeof(el));
	fprintf(out,
		"burnin: %d ports, %d rounds, %d pairs: %d ok, %d error, %d not-tested; %s%s; worst %s\n",
		co->n_inv, co->sched.n_rounds, co->n_m, n[0], n[1], n[2], el,
		co->stopped ? " (interrupted)" : "",
		co->worst[0] ? co->worst : "-");
}

double burnin_predict_seconds(const struct burnin_config *cfg, int n_rounds,
			      int n_ports)
{
	return n_rounds * cfg->n_tests *
	       (cfg->params.warmup_s + cfg->params.duration_s +
		burnin_step_overhead_s(n_ports));
}

/*
 * ", leaf 0x0008f10300000018 port 3 \"leaf01\"", ", leaf unknown", or ""
 * when no port's leaf is known.
 */
static void leaf_label(const struct dpath_port *p, bool leaves, char *buf,
		       size_t len)
{
	if (p->leaf_guid)
		snprintf(buf, len, ", leaf 0x%016llx port %d \"%s\"",
			 (unsigned long long)p->leaf_guid, p->leaf_port,
			 p->leaf_name);
	else
		snprintf(buf, len, "%s", leaves ? ", leaf unknown" : "");
}

/* Is pair i the first of target t's pairs on its partner's leaf? */
static bool new_leaf(const struct dpath_port *inv,
		     const struct burnin_schedule *s, int i)
{
	const struct burnin_pair *p = &s->pairs[i];

	for (int j = 0; j < i; j++)
		if (s->pairs[j].a == p->a &&
		    inv[s->pairs[j].b].leaf_guid == inv[p->b].leaf_guid)
			return false;
	return inv[p->b].leaf_guid != 0;
}

/* D9: names from the fabric and the inventory reach a terminal: one
 * line's text through the terminal escaper (common/text.h). */
static void plan_printf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static void plan_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_term_vfprintf(stdout, fmt, ap);
	va_end(ap);
}

/* node:HOST plans: each target port's partners and their leaves. */
static void print_partners(const struct dpath_port *inv, int n_inv, bool leaves,
			   const struct burnin_schedule *s)
{
	char name[2 * DPATH_NAME_MAX + 16], leaf[DPATH_NAME_MAX + 64];

	for (int t = 0; t < n_inv; t++) {
		int k = 0, n_leaves = 0;

		for (int i = 0; i < s->n_pairs; i++)
			if (s->pairs[i].a == t)
				k++, n_leaves += new_leaf(inv, s, i);
		if (!k)
			continue;
		burnin_port_name(&inv[t], name, sizeof(name));
		leaf_label(&inv[t], leaves, leaf, sizeof(leaf));
		plan_printf("target %s%s: %d partners", name, leaf, k);
		if (leaves)
			printf(" on %d known leaves", n_leaves);
		printf("\n");
		for (int r = 0; r < s->n_rounds; r++)
			for (int i = s->start[r]; i < s->start[r + 1]; i++) {
				const struct dpath_port *b =
					&inv[s->pairs[i].b];

				if (s->pairs[i].a != t)
					continue;
				burnin_port_name(b, name, sizeof(name));
				leaf_label(b, leaves, leaf, sizeof(leaf));
				plan_printf("  round %d: %s%s", r + 1, name,
					    leaf);
				putchar('\n');
			}
	}
}

void burnin_print_plan(const struct burnin_config *cfg,
		       const struct dpath_port *inv, int n_inv,
		       const struct burnin_schedule *s)
{
	char a[2 * DPATH_NAME_MAX + 16], b[2 * DPATH_NAME_MAX + 16], t[32];
	char leaf[DPATH_NAME_MAX + 64];
	bool leaves = false;

	for (int i = 0; i < n_inv; i++)
		leaves |= inv[i].leaf_guid != 0;
	printf("burnin plan: %d ports, schedule %s, seed %llu, %d rounds, %d pairs, %d test(s) per pair\n",
	       n_inv, cfg->schedule, (unsigned long long)cfg->seed, s->n_rounds,
	       s->n_pairs, cfg->n_tests);
	for (int i = 0; i < n_inv; i++) {
		burnin_port_name(&inv[i], a, sizeof(a));
		leaf_label(&inv[i], leaves, leaf, sizeof(leaf));
		plan_printf("  port %d: %s rail %d %.1f Gb/s%s", i, a,
			    inv[i].rail, inv[i].rate_gbps, leaf);
		putchar('\n');
	}
	for (int r = 0; r < s->n_rounds; r++) {
		printf("round %d:", r + 1);
		for (int i = s->start[r]; i < s->start[r + 1]; i++) {
			burnin_port_name(&inv[s->pairs[i].a], a, sizeof(a));
			burnin_port_name(&inv[s->pairs[i].b], b, sizeof(b));
			plan_printf(" %s->%s", a, b);
		}
		printf("\n");
	}
	if (!strncmp(cfg->schedule, "node:", 5))
		print_partners(inv, n_inv, leaves, s);
	progress_fmt_duration(burnin_predict_seconds(cfg, s->n_rounds, n_inv),
			      t, sizeof(t));
	printf("predicted wall time: %s (%d steps x (%.1f s warm-up + %.1f s + ~%.3f s overhead at %d ports, measured model)), plus up to %d retest round(s)\n",
	       t, s->n_rounds * cfg->n_tests, cfg->params.warmup_s,
	       cfg->params.duration_s, burnin_step_overhead_s(n_inv), n_inv,
	       cfg->retest_rounds);
}
