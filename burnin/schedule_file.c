// SPDX-License-Identifier: MIT
/*
 * The two schedules that take outside input: node:HOST[,HOST] (post-repair
 * validation against reference ports, spread over leaves when the ports'
 * leaves are known) and pairs:FILE (explicit rounds).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/burnin.h"
#include "common/array.h"
#include "common/cli.h"
#include "common/lines.h"
#include "common/sysfs.h"

#define NODE_PARTNERS 3
#define NODE_MAX_ROUNDS 256

/* Every listed host must own a port; 0 or -EINVAL with a message. */
static int check_hosts(const char *hosts, const struct dpath_port *ports, int n,
		       char *err, size_t err_len)
{
	char *copy = strdup(hosts), *save = NULL, *h;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (h = strtok_r(copy, ",", &save); h && !ret;
	     h = strtok_r(NULL, ",", &save)) {
		int found = 0;

		for (int i = 0; i < n; i++)
			found |= !strcmp(ports[i].host, h);
		if (!found) {
			snprintf(
				err, err_len,
				"node:%s: no port of host '%s' in the inventory",
				hosts, h);
			ret = -EINVAL;
		}
	}
	free(copy);
	return ret;
}

struct node_plan {
	bool *target, *same_rail, *used;
	int *met, *n_met, *want;
};

static bool met_before(const struct node_plan *np, int t, int q)
{
	for (int j = 0; j < np->n_met[t]; j++)
		if (np->met[t * NODE_PARTNERS + j] == q)
			return true;
	return false;
}

/* May target t meet reference port q at all (any round)? */
static bool node_candidate(const struct node_plan *np,
			   const struct dpath_port *ports, int t, int q)
{
	if (np->target[q] || met_before(np, t, q))
		return false;
	return !np->same_rail[t] || ports[q].rail == ports[t].rail;
}

/* 1 when q is on a known leaf that none of t's partners so far is on. */
static int leaf_gain(const struct node_plan *np, const struct dpath_port *ports,
		     int t, int q)
{
	if (!ports[q].leaf_guid)
		return 0;
	for (int j = 0; j < np->n_met[t]; j++)
		if (ports[np->met[t * NODE_PARTNERS + j]].leaf_guid ==
		    ports[q].leaf_guid)
			return 0;
	return 1;
}

/*
 * The first candidate for t in round r's rotation order among those with
 * the most leaf gain; only ports still free in the round when free_only.
 * -1 when none; *gain is its leaf gain.
 */
static int node_best(const struct node_plan *np, const struct dpath_port *ports,
		     int n, int t, int r, bool free_only, int *gain)
{
	int best = -1;

	*gain = -1;
	for (int k = 0; k < n; k++) {
		int q = (t + r + 1 + k) % n, g;

		if ((free_only && np->used[q]) ||
		    !node_candidate(np, ports, t, q))
			continue;
		g = leaf_gain(np, ports, t, q);
		if (g > *gain)
			best = q, *gain = g;
	}
	return best;
}

/*
 * The reference port that target t meets in round r, or -1. A target
 * whose only new leaf is busy this round waits for a later round: each
 * wait lets another target meet that port, so the rounds stay finite.
 */
static int node_pick(const struct node_plan *np, const struct dpath_port *ports,
		     int n, int t, int r)
{
	int gain, any_gain;
	int q = node_best(np, ports, n, t, r, true, &gain);

	if (q >= 0 && node_best(np, ports, n, t, r, false, &any_gain) >= 0 &&
	    any_gain > gain)
		return -1;
	return q;
}

static void node_wants(struct node_plan *np, const struct dpath_port *ports,
		       int n)
{
	for (int t = 0; t < n; t++) {
		int all = 0, rail = 0;

		for (int q = 0; q < n; q++) {
			all += !np->target[q];
			rail += !np->target[q] &&
				ports[q].rail == ports[t].rail;
		}
		np->same_rail[t] = rail > 0;
		np->want[t] = np->target[t] ? (rail ? rail : all) : 0;
		if (np->want[t] > NODE_PARTNERS)
			np->want[t] = NODE_PARTNERS;
	}
}

static int node_rounds(struct node_plan *np, const struct dpath_port *ports,
		       int n, struct burnin_schedule *s)
{
	for (int r = 0; r < NODE_MAX_ROUNDS; r++) {
		if (burnin_schedule_new_round(s))
			return -ENOMEM;
		memset(np->used, 0, (size_t)n * sizeof(*np->used));
		for (int t = 0; t < n; t++) {
			int q;

			if (np->n_met[t] >= np->want[t])
				continue;
			q = node_pick(np, ports, n, t, r);
			if (q < 0)
				continue;
			np->used[q] = true;
			np->met[t * NODE_PARTNERS + np->n_met[t]++] = q;
			if (burnin_schedule_add(s, t, q))
				return -ENOMEM;
		}
		if (!burnin_schedule_round_size(s, s->n_rounds - 1)) {
			s->n_rounds--;
			break;
		}
	}
	return 0;
}

int burnin_schedule_node(const char *hosts, const struct dpath_port *ports,
			 int n, struct burnin_schedule *s, char *err,
			 size_t err_len)
{
	struct node_plan np = { 0 };
	int ret = check_hosts(hosts, ports, n, err, err_len), refs = 0;
	size_t m = (size_t)(n ? n : 1);

	if (ret)
		return ret;
	np.target = calloc(m, sizeof(bool));
	np.same_rail = calloc(m, sizeof(bool));
	np.used = calloc(m, sizeof(bool));
	np.met = calloc(m * NODE_PARTNERS, sizeof(int));
	np.n_met = calloc(m, sizeof(int));
	np.want = calloc(m, sizeof(int));
	ret = -ENOMEM;
	if (!np.target || !np.same_rail || !np.used || !np.met || !np.n_met ||
	    !np.want)
		goto out;
	for (int i = 0; i < n; i++) {
		np.target[i] = cli_list_has(hosts, ports[i].host);
		refs += !np.target[i];
	}
	ret = -EINVAL;
	if (!refs) {
		snprintf(err, err_len,
			 "node:%s: no reference ports on other hosts", hosts);
		goto out;
	}
	node_wants(&np, ports, n);
	ret = node_rounds(&np, ports, n, s);
out:
	free(np.target);
	free(np.same_rail);
	free(np.used);
	free(np.met);
	free(np.n_met);
	free(np.want);
	return ret;
}

struct file_pair {
	long round;
	int a, b;
	int line;
};

static int file_pair_cmp(const void *x, const void *y)
{
	const struct file_pair *a = x, *b = y;

	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* Parses one line (never blank: lines_next() skips those) into fp; 0 or
 * -EINVAL. */
static int parse_pair_line(struct lines *in, char *line,
			   const struct dpath_port *ports, int n,
			   struct file_pair *fp)
{
	char round[32], a[256], b[256], extra[2];
	int k;

	line[strcspn(line, "#")] = '\0';
	/* the round as text first: sscanf's %ld has no defined result for a
	 * number past LONG_MAX (D23) */
	k = sscanf(line, "%31s %255s %255s %1s", round, a, b, extra);
	fp->line = in->line;
	if (k != 3 || sysfs_parse_long(round, 10, &fp->round) || fp->round < 0)
		return lines_error(
			in, "expected 'ROUND A_HOST:CA:PORT B_HOST:CA:PORT'");
	fp->a = burnin_inventory_find(ports, n, a);
	fp->b = burnin_inventory_find(ports, n, b);
	if (fp->a < 0 || fp->b < 0)
		return lines_error(in, "port '%s' is not in the inventory",
				   fp->a < 0 ? a : b);
	if (fp->a == fp->b)
		return lines_error(in, "a port cannot meet itself ('%s')", a);
	return 0;
}

static int read_pairs(const char *path, const struct dpath_port *ports, int n,
		      struct file_pair **out, int *n_out, char *err,
		      size_t err_len)
{
	struct lines in;
	struct file_pair *fp = NULL;
	size_t cap = 0, k = 0;
	char *line;
	int ret = lines_open(&in, path, err, err_len) ? -EINVAL : 0;

	while (!ret && (ret = lines_next(&in, &line)) > 0) {
		ret = array_reserve(&fp, &cap, k, sizeof(*fp));
		if (!ret)
			ret = parse_pair_line(&in, line, ports, n, &fp[k]);
		if (!ret)
			k++;
	}
	if (!ret && !k && !in.line) { /* an empty file: no line to name */
		snprintf(err, err_len, "%s: no pairs in the file", path);
		ret = -EINVAL;
	} else if (!ret && !k) {
		ret = lines_error(&in, "no pairs in the file");
	}
	lines_close(&in);
	if (ret)
		free(fp);
	else
		*out = fp, *n_out = (int)k;
	return ret;
}

/*
 * A round may be full-duplex: a port at most once initiator (A) and at most
 * once target (B). A port that is both in a round makes the schedule
 * duplex. 0, or -EINVAL with FILE:LINE in err.
 */
static int check_file_pair(const struct file_pair *fp, int round, int *as_a,
			   int *as_b, struct burnin_schedule *s,
			   const char *path, char *err, size_t err_len)
{
	struct lines at = {
		.path = path, .line = fp->line, .err = err, .errlen = err_len
	};

	if (as_a[fp->a] == round || as_b[fp->b] == round)
		return lines_error(
			&at,
			"port already %s in a pair of round %ld (a port is at most once A and once B in a round)",
			as_a[fp->a] == round ? "A (initiator)" : "B (target)",
			fp->round);
	if (as_b[fp->a] == round || as_a[fp->b] == round)
		s->duplex = true;
	as_a[fp->a] = as_b[fp->b] = round;
	return 0;
}

int burnin_schedule_pairs_file(const char *path, const struct dpath_port *ports,
			       int n, struct burnin_schedule *s, char *err,
			       size_t err_len)
{
	struct file_pair *fp;
	int k, ret, *as_a = calloc((size_t)(n ? n : 1), sizeof(*as_a)),
		    *as_b = calloc((size_t)(n ? n : 1), sizeof(*as_b));

	ret = as_a && as_b ? 0 : -ENOMEM;
	if (!ret)
		ret = read_pairs(path, ports, n, &fp, &k, err, err_len);
	if (ret)
		goto out_busy;
	qsort(fp, (size_t)k, sizeof(*fp), file_pair_cmp);
	for (int i = 0; i < k && !ret; i++) {
		if (!i || fp[i].round != fp[i - 1].round)
			ret = burnin_schedule_new_round(s);
		if (!ret)
			ret = check_file_pair(&fp[i], s->n_rounds, as_a, as_b,
					      s, path, err, err_len);
		if (!ret)
			ret = burnin_schedule_add(s, fp[i].a, fp[i].b);
	}
	free(fp);
out_busy:
	free(as_a);
	free(as_b);
	if (ret)
		burnin_schedule_free(s);
	return ret;
}
