// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the records file of `burnin --resume FILE`
 * (burnin/resume.c) against the plan of a fixed inventory (the 16 ports of
 * FUZZ_INVENTORY, schedule all-pairs, tests write and read). Oracles: a
 * refused file is logged as "PATH:LINE: ..." (the error is the last line
 * on stderr, captured); a resumed one holds measures of inventory ports
 * only, never a port with itself, and marks done only steps of the plan.
 */
#include "burnin/coord.h"
#include "burnin/resume.h"
#include "common/log.h"
#include "fuzz.h"

#ifndef FUZZ_INVENTORY
#error "FUZZ_INVENTORY: the port records the resumed runs are read against"
#endif

static const char prefix[] = "ibproof: error: ";

static struct burnin_config cfg;
static struct burnin_ctx ctx;
static struct dpath_port *inv;
static int n_inv;
static struct burnin_schedule plan; /* planned once, only read */

static void setup(void)
{
	burnin_config_defaults(&cfg);
	cfg.schedule = "all-pairs";
	cfg.tests[0] = DPATH_TEST_WRITE;
	cfg.tests[1] = DPATH_TEST_READ;
	cfg.n_tests = 2;
	ctx.cfg = &cfg;
	log_set_level(LOG_LEVEL_ERROR);
	if (burnin_inventory_load(FUZZ_INVENTORY, &inv, &n_inv) ||
	    burnin_plan(&cfg, inv, n_inv, &plan))
		abort();
}

/* The last line of what was logged: "ibproof: error: PATH:LINE: ...". */
static void check_logged(const char *path, char *log, size_t len)
{
	char *last;

	while (len && log[len - 1] == '\n')
		log[--len] = '\0';
	last = strrchr(log, '\n');
	last = last ? last + 1 : log;
	if (strncmp(last, prefix, sizeof(prefix) - 1)) {
		fprintf(stderr, "oracle: no error logged: \"%.200s\"\n", last);
		abort();
	}
	fuzz_check_path_err(path, last + sizeof(prefix) - 1);
}

static void check_resumed(const struct burnin_coord *co)
{
	for (int i = 0; i < co->n_m; i++) {
		const struct burnin_measure *m = &co->m[i];

		if (m->a < 0 || m->b < 0 || m->a >= n_inv || m->b >= n_inv ||
		    m->a == m->b) {
			fprintf(stderr, "oracle: measure %d: ports %d-%d\n", i,
				m->a, m->b);
			abort();
		}
	}
	for (int s = 0; s < co->n_done_steps; s++)
		if (co->done_steps[s] &&
		    s / cfg.n_tests >= co->sched.n_rounds) {
			fprintf(stderr, "oracle: step %d done, not planned\n",
				s);
			abort();
		}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct burnin_coord co;
	FILE *saved = stderr, *log;
	char *logged = NULL;
	size_t len = 0;
	int ret;

	if (!inv)
		setup();
	burnin_coord_init(&co, &ctx);
	co.inv = inv;
	co.n_inv = n_inv;
	co.sched = plan;
	co.n_main_rounds = co.sched.n_rounds;
	log = open_memstream(&logged, &len);
	if (!log)
		abort();
	stderr = log; /* sanitizer reports go to fd 2 still */
	ret = burnin_resume_load(&co, path);
	stderr = saved;
	fclose(log);
	if (ret == -EINVAL)
		check_logged(path, logged, len);
	else if (ret)
		abort();
	else
		check_resumed(&co);
	free(logged);
	free(co.done_steps);
	free(co.m);
	return 0;
}
