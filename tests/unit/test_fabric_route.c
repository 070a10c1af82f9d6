// SPDX-License-Identifier: MIT
/*
 * fabric_route_path(), fabric_route_check() and fabric_lft_load() on the
 * 8-node tree captured from ibsim (fixtures/fabric/routes.topo: leaf01,
 * leaf02 with two HCAs each, spine01, spine02; tables routed by
 * opensm -R ftree in routes-lfts.dump), edited per test.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/log.h"
#include "fabric/fabric_route.h"
#include "fabric/fabric_run.h"
#include "fabric/fabric_topo.h"

#define FX FIXTURES_DIR "/fabric/"
#define LEAF1 0x0008f10300000004ULL
#define LEAF2 0x0008f10300000005ULL
#define SPINE1 0x0008f10300000006ULL
#define NODE1 0x0008f10400000000ULL
#define LID_NODE3 7

struct ctx {
	struct fabric *m;
	struct fabric_routes r;
	struct fabric_findings fs;
	struct fabric_path p;
	char err[256];
};

static int setup(void **state)
{
	static struct ctx c;

	memset(&c, 0, sizeof(c));
	if (fabric_topo_load(FX "routes.topo", &c.m, c.err, sizeof(c.err)) ||
	    fabric_routes_init(&c.r, c.m) ||
	    fabric_lft_load(&c.r, FX "routes-lfts.dump", c.err, sizeof(c.err)))
		return -1;
	*state = &c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	fabric_findings_free(&c->fs);
	fabric_routes_free(&c->r);
	fabric_free(c->m);
	return 0;
}

static struct fabric_node *N(struct ctx *c, uint64_t guid)
{
	return fabric_find_guid(c->m, guid);
}

static struct fabric_lft *T(struct ctx *c, uint64_t guid)
{
	return &c->r.lft[N(c, guid)->idx];
}

static const struct fabric_port *src(struct ctx *c)
{
	return &N(c, NODE1)->ports[1];
}

static void test_path_clean(void **state)
{
	struct ctx *c = *state;
	const struct fabric_path *p = &c->p;

	assert_int_equal(0, fabric_route_path(&c->r, src(c), LID_NODE3, &c->p));
	/* as ibsim's Route 1 7: [1] -> leaf01[1] [3] -> spine01[1]
	 * [4] -> leaf02[3] [1] -> node003[1] */
	assert_int_equal(4, p->n);
	assert_int_equal(1, p->hop[0].out->num);
	assert_int_equal(LEAF1, p->hop[0].in->node->guid);
	assert_int_equal(1, p->hop[0].in->num);
	assert_int_equal(3, p->hop[1].out->num);
	assert_int_equal(SPINE1, p->hop[1].in->node->guid);
	assert_int_equal(1, p->hop[1].in->num);
	assert_int_equal(4, p->hop[2].out->num);
	assert_int_equal(LEAF2, p->hop[2].in->node->guid);
	assert_int_equal(3, p->hop[2].in->num);
	assert_int_equal(1, p->hop[3].out->num);
	assert_int_equal(LID_NODE3, p->hop[3].in->lid);
	/* to a switch's own LID (leaf02, 3) and to itself */
	assert_int_equal(0, fabric_route_path(&c->r, src(c), 3, &c->p));
	assert_int_equal(3, p->n);
	assert_int_equal(0, fabric_route_path(&c->r, src(c), 1, &c->p));
	assert_int_equal(0, p->n);
	assert_int_equal(0, fabric_route_check(&c->r, &c->fs));
	assert_int_equal(0, c->fs.n);
}

static void test_missing_entry(void **state)
{
	struct ctx *c = *state;

	T(c, SPINE1)->port[LID_NODE3] = FABRIC_LFT_NONE;
	assert_int_equal(-ENOENT,
			 fabric_route_path(&c->r, src(c), LID_NODE3, &c->p));
	assert_int_equal(SPINE1, c->p.stuck->guid);
	assert_int_equal(0, fabric_route_check(&c->r, &c->fs));
	assert_int_equal(1, c->fs.n);
	assert_string_equal("route-missing", c->fs.v[0].category);
	assert_string_equal("spine01 has no route to LID 7 (node003 mlx5_0 "
			    "port 1): its table entry is 255",
			    c->fs.v[0].message);
}

static void test_down_port(void **state)
{
	struct ctx *c = *state;
	struct fabric_port *sp = &N(c, SPINE1)->ports[4];

	sp->phys_state = IB_PHYS_STATE_POLLING; /* leaf02 port 3 unplugged */
	sp->remote->phys_state = IB_PHYS_STATE_POLLING;
	assert_int_equal(-ENOLINK,
			 fabric_route_path(&c->r, src(c), LID_NODE3, &c->p));
	assert_int_equal(0, fabric_route_check(&c->r, &c->fs));
	/* spine01 port 4 carried LID 7 down, leaf02 port 3 carried LID 1
	 * up: each entry named */
	assert_int_equal(2, c->fs.n);
	assert_string_equal("route-missing", c->fs.v[0].category);
	assert_string_equal("leaf02 routes LID 1 (node001 mlx5_0 port 1) to "
			    "port 3, which is down",
			    c->fs.v[0].message);
	assert_string_equal("spine01 routes LID 7 (node003 mlx5_0 port 1) to "
			    "port 4, which is down",
			    c->fs.v[1].message);
}

static void test_loop(void **state)
{
	struct ctx *c = *state;

	/* leaf01 sends LID 7 up port 3 to spine01, spine01 sends it back */
	T(c, SPINE1)->port[LID_NODE3] = 1;
	assert_int_equal(-ELOOP,
			 fabric_route_path(&c->r, src(c), LID_NODE3, &c->p));
	assert_int_equal(FABRIC_ROUTE_MAX_HOPS + 1, c->p.n);
	assert_int_equal(0, fabric_route_check(&c->r, &c->fs));
	assert_int_equal(1, c->fs.n);
	assert_string_equal("route-loop", c->fs.v[0].category);
	assert_string_equal("LID 7 (node003 mlx5_0) loops: spine01 port 1 -> "
			    "leaf01 port 3 -> spine01",
			    c->fs.v[0].message);
}

static void test_imbalance(void **state)
{
	struct ctx *c = *state;
	struct fabric_lft *t = T(c, LEAF1);

	/* leaf01 sends both remote HCAs (LIDs 7, 8) up port 3: 2 against 0
	 * on its other up-links (1 against 0, as routed, is no imbalance) */
	t->port[7] = 3;
	t->port[8] = 3;
	assert_int_equal(0, fabric_route_check(&c->r, &c->fs));
	assert_int_equal(1, c->fs.n);
	assert_string_equal("route-imbalance", c->fs.v[0].category);
	assert_string_equal("info", c->fs.v[0].severity);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void bad_dump(struct ctx *c, const char *text, const char *want)
{
	char path[] = "/tmp/ibproof-lftXXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	write_file(path, text);
	assert_int_equal(-EINVAL,
			 fabric_lft_load(&c->r, path, c->err, sizeof(c->err)));
	unlink(path);
	close(fd);
	assert_non_null(strstr(c->err, want));
	assert_non_null(strstr(c->err, path));
}

#define HDR "Unicast lids [0-8] of switch Lid 2 guid 0x0008f10300000004 (x):\n"

static void test_dump_errors(void **state)
{
	struct ctx *c = *state;

	bad_dump(c, "", ": empty file: expected a switch table dump");
	bad_dump(c, "# only a comment\n",
		 ":1: expected a \"Unicast lids [LO-HI] of switch ... guid");
	bad_dump(c, "0x0001 001\n",
		 ":1: expected a \"Unicast lids\" header before the entries");
	bad_dump(c, HDR "0x0009 001\n",
		 ":2: expected a LID up to the header's 0x8");
	bad_dump(c, HDR "0x0001 001 !\n", ":2: expected \"0xLID PORT\" then");
	bad_dump(c, HDR "hello\n", ":2: expected a \"Unicast lids\" header, a");
	bad_dump(c,
		 "Unicast lids [0-8] of switch guid 0x0008f10400000000 "
		 "(n):\n",
		 ":1: expected a switch of the topology, 0x0008f10400000000");
	bad_dump(c, "Unicast lids [0-zz] of switch guid 0x1 (n):\n",
		 ":1: expected \"[LO-HI]\" with HI a unicast LID");
}

static void test_ibroute_dialect(void **state)
{
	struct ctx *c = *state;
	char path[] = "/tmp/ibproof-lftXXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	write_file(path, "Unicast lids [0x0-0x8] of switch DR path slid 0; "
			 "dlid 0; 0,1 guid 0x0008f10300000004 (leaf01):\n"
			 "  Lid  Out   Destination\n"
			 "       Port     Info \n"
			 "0x0001 001 : (Channel Adapter portguid "
			 "0x0008f10400000001: 'node001 mlx5_0')\n"
			 "0x0007 005 : (...)\n"
			 "2 valid lids dumped \n");
	assert_int_equal(0,
			 fabric_lft_load(&c->r, path, c->err, sizeof(c->err)));
	unlink(path);
	close(fd);
	assert_int_equal(8, T(c, LEAF1)->top);
	assert_int_equal(1, T(c, LEAF1)->port[1]);
	assert_int_equal(5, T(c, LEAF1)->port[7]);
	assert_int_equal(FABRIC_LFT_NONE, T(c, LEAF1)->port[6]);
}

static void test_endpoints(void **state)
{
	struct ctx *c = *state;

	assert_ptr_equal(src(c),
			 fabric_routes_endpoint(&c->r, "node001:mlx5_0:1"));
	assert_ptr_equal(src(c),
			 fabric_routes_endpoint(&c->r, "0x0008f10400000001"));
	assert_ptr_equal(src(c), fabric_routes_endpoint(&c->r, "1"));
	assert_ptr_equal(&N(c, LEAF2)->ports[0],
			 fabric_routes_endpoint(&c->r, "3"));
	assert_null(fabric_routes_endpoint(&c->r, "node001:mlx5_1:1"));
	assert_null(fabric_routes_endpoint(&c->r, "node00:mlx5_0:1"));
	assert_null(fabric_routes_endpoint(&c->r, "99"));
}

/* Fakes behind the ops tables: the fixture model (each switch's directed
 * route "0,IDX"), tables from the fixture dump, spine02 silent. */
static struct ctx *fake; /* the fixture, from setup() */
static int fake_reads;

static int fake_discover(const struct fabric_disc_params *p,
			 struct fabric **out)
{
	char err[256];
	size_t i;

	(void)p;
	if (fabric_topo_load(FX "routes.topo", out, err, sizeof(err)))
		return -EINVAL;
	for (i = 0; i < (*out)->nnodes; i++) {
		(*out)->nodes[i]->dr_hops = 1;
		(*out)->nodes[i]->dr_path[1] = (uint8_t)i;
	}
	return 0;
}

static int refuse_status; /* leaf02 answers with this MAD status */
static uint64_t fake_mkey;
static int fake_mkey_calls;

static int fake_smp_open(const char *ca, int port, unsigned t, int retries,
			 struct fabric_smp **out)
{
	(void)ca;
	(void)port;
	(void)t;
	assert_true(retries > 0);
	*out = (struct fabric_smp *)fake;
	return 0;
}

static int fake_read_lft(struct fabric_smp *h, const uint8_t *path, int hops,
			 uint16_t *top, uint8_t *ports, int *mad_status)
{
	const struct fabric_node *n;
	const struct fabric_lft *t;

	(void)h;
	assert_int_equal(1, hops);
	assert_int_equal(0, path[0]);
	n = fake->m->nodes[path[1]];
	assert_int_equal(FABRIC_NODE_SWITCH, n->type);
	fake_reads++;
	if (n->guid == SPINE1 + 1) /* spine02 */
		return -ETIMEDOUT;
	if (refuse_status && n->guid == LEAF2) {
		*mad_status = refuse_status;
		return -EREMOTEIO;
	}
	t = &fake->r.lft[n->idx];
	*top = t->top;
	memcpy(ports, t->port, (size_t)t->top + 1);
	return 0;
}

/*
 * AdaptiveRoutingInfo: leaf01 answers AR on for every SL, leaf02 AR
 * capable but off, spine01 refuses the vendor attribute (MAD status 0x1c,
 * invalid attribute or modifier: a switch without AR), spine02 answers
 * nothing.
 */
static int fake_read_ar_info(struct fabric_smp *h, const uint8_t *path,
			     int hops, uint8_t *buf, int *status)
{
	const struct fabric_node *n = fake->m->nodes[path[1]];

	(void)h;
	assert_int_equal(1, hops);
	memset(buf, 0, FABRIC_AR_INFO_BYTES);
	*status = 0;
	if (n->guid == SPINE1) {
		*status = 0x1c;
		return -EREMOTEIO;
	}
	if (n->guid != LEAF1 && n->guid != LEAF2)
		return -ETIMEDOUT;
	buf[3] = n->guid == LEAF1; /* E */
	buf[7] = 0x10; /* GroupCap */
	return 0;
}

static void fake_smp_close(struct fabric_smp *h)
{
	assert_ptr_equal(fake, h);
}

static void fake_set_mkey(struct fabric_smp *h, uint64_t mkey)
{
	assert_ptr_equal(fake, h);
	fake_mkey = mkey;
	fake_mkey_calls++;
}

static const struct fabric_disc_ops fake_disc = { .discover = fake_discover };
static const struct fabric_smp_ops fake_smp = {
	.open = fake_smp_open,
	.read_lft = fake_read_lft,
	.read_ar_info = fake_read_ar_info,
	.close = fake_smp_close,
	.set_mkey = fake_set_mkey,
};

static size_t count_lines(const char *path, const char *needle)
{
	char line[8192];
	size_t n = 0;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, needle) != NULL;
	fclose(f);
	return n;
}

/* Runs fabric routes with stdout and stderr into out; its exit code. */
static int run_captured(struct fabric_args *a, const char *out)
{
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int o = dup(1), e = dup(2), rc;

	assert_true(fd >= 0 && o >= 0 && e >= 0);
	fflush(stdout);
	fflush(stderr);
	dup2(fd, 1);
	dup2(fd, 2);
	rc = fabric_routes_run(a);
	fflush(stdout);
	fflush(stderr);
	dup2(o, 1);
	dup2(e, 2);
	close(fd);
	close(o);
	close(e);
	return rc;
}

/* The fixture of the fabric_routes_run() tests: the fake tree behind
 * both seams, a records file and an output file, and the run's args. */
struct run_fix {
	void *st;
	char recs[32];
	char out[40];
	struct fabric_args a;
};

static int run_setup(void **state)
{
	struct run_fix *r = calloc(1, sizeof(*r));
	int fd, fo;

	assert_non_null(r);
	assert_int_equal(0, setup(&r->st));
	snprintf(r->recs, sizeof(r->recs), "/tmp/ibproof-routes-XXXXXX");
	snprintf(r->out, sizeof(r->out), "/tmp/ibproof-routes-out-XXXXXX");
	fd = mkstemp(r->recs);
	fo = mkstemp(r->out);
	assert_true(fd >= 0 && fo >= 0);
	close(fd);
	close(fo);
	fake = r->st;
	fake_reads = 0;
	refuse_status = 0;
	fake_mkey_calls = 0;
	fabric_disc = &fake_disc;
	fabric_smp = &fake_smp;
	r->a.tool = "fabric routes";
	r->a.common.records = r->recs;
	*state = r;
	return 0;
}

static int run_teardown(void **state)
{
	struct run_fix *r = *state;

	unlink(r->recs);
	unlink(r->out);
	teardown(&r->st);
	free(r);
	return 0;
}

/*
 * A switch that does not answer is named, not tested; the others are
 * still read. The run is INCOMPLETE (exit 1) with no fail finding, its
 * end record counts the tables, and --accept-untested names the gap
 * away (listed, never silent).
 */
static void test_run_silent_switch(void **state)
{
	struct run_fix *r = *state;
	const char *recs = r->recs, *out = r->out;
	char accept[] = "spine02";

	assert_int_equal(IBP_EXIT_FAIL, run_captured(&r->a, out));
	assert_int_equal(4, fake_reads);
	assert_int_equal(3, count_lines(recs, "\"kind\":\"lft\""));
	assert_int_equal(16, count_lines(recs, "\"kind\":\"link\""));
	assert_int_equal(1, count_lines(recs, "\"category\":\"not-tested\""));
	assert_int_equal(1, count_lines(recs, "\"reason\":\"no-answer\""));
	assert_int_equal(1, count_lines(recs, "\"action\":\"check-access\""));
	assert_int_equal(1, count_lines(recs, "\"subject\":{\"node\":"
					      "\"spine02\""));
	assert_int_equal(1, count_lines(recs, "\"kind\":\"finding\""));
	/* AR as each switch said it; refused or silent is unknown, not off */
	assert_int_equal(1, count_lines(recs, "\"adaptive_routing\":\"on\""));
	assert_int_equal(1, count_lines(recs, "\"adaptive_routing\":\"off\""));
	assert_int_equal(1,
			 count_lines(recs, "\"adaptive_routing\":\"unknown\""));
	assert_int_equal(2, count_lines(recs, "\"ar\":{"));
	assert_int_equal(1, count_lines(recs, "\"outcome\":\"incomplete\""));
	assert_int_equal(1, count_lines(recs, "\"tables\":{\"in_scope\":4,"
					      "\"tested\":3,\"not_tested\":1,"
					      "\"accepted\":0}"));
	assert_int_equal(1, count_lines(out, "INCOMPLETE: 1 of 4 tables not "
					     "tested"));
	assert_int_equal(1, count_lines(out, "not-tested           1 tables"));

	/* the same gap, accepted by name: exit 0, said in the end record */
	fake_reads = 0;
	assert_int_equal(0, fabric_scope_accept_arg(&r->a.accept, accept));
	assert_int_equal(IBP_EXIT_PASS, run_captured(&r->a, out));
	assert_int_equal(1, count_lines(recs, "\"accepted_untested\":["
					      "\"spine02\"]"));
	assert_int_equal(1, count_lines(recs, "\"severity\":\"info\","
					      "\"category\":\"not-tested\""));
	assert_int_equal(0, count_lines(out, "INCOMPLETE"));
	assert_int_equal(1, count_lines(out, "(accepted)"));
	fabric_scope_accept_free(&r->a.accept);
}

/*
 * A switch that refuses (a MAD status) is named with the status and its
 * meaning, apart from the silent one; a busy switch is to be retested.
 */
static void test_run_refusing_switch(void **state)
{
	struct run_fix *r = *state;
	const char *recs = r->recs, *out = r->out;

	refuse_status = 0x0c; /* unsupported attribute */
	assert_int_equal(IBP_EXIT_FAIL, run_captured(&r->a, out));
	assert_int_equal(2, count_lines(recs, "\"category\":\"not-tested\""));
	assert_int_equal(1, count_lines(recs, "\"mad_status\":12,"
					      "\"mad_status_text\":"
					      "\"unsupported attribute or "
					      "modifier\""));
	assert_int_equal(1, count_lines(out, "switch leaf02 (0x"));
	/* the log line, and the group of the summary */
	assert_int_equal(2, count_lines(out, "MAD status 0x000c (unsupported "
					     "attribute or modifier)"));
	assert_int_equal(1, count_lines(out, "INCOMPLETE: 2 of 4 tables not "
					     "tested"));
	refuse_status = 0x01; /* busy */
	assert_int_equal(IBP_EXIT_FAIL, run_captured(&r->a, out));
	assert_int_equal(1, count_lines(recs, "\"action\":\"retest\""));
	assert_int_equal(1, count_lines(recs, "\"mad_status_text\":"
					      "\"busy\""));
	refuse_status = 0;
}

/* --paths through a switch whose table was not read: "not tested", never
 * "no route" (exit 1 either way). */
static void test_paths_unread_table(void **state)
{
	struct run_fix *r = *state;
	char paths[] = "/tmp/ibproof-routes-paths-XXXXXX";
	static const int lids[] = { 1, 6, 7, 8 };
	int fp = mkstemp(paths);
	FILE *f;

	assert_true(fp >= 0);
	f = fdopen(fp, "w");
	assert_non_null(f);
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			if (i != j)
				fprintf(f, "%d %d\n", lids[i], lids[j]);
	fclose(f);
	r->a.common.records = NULL;
	r->a.paths = paths;
	assert_int_equal(1, run_captured(&r->a, r->out));
	assert_true(count_lines(r->out, "at spine02: its forwarding table was "
					"not read (not tested)") > 0);
	assert_int_equal(0, count_lines(r->out, "No route"));
	unlink(paths);
}

/*
 * --m-key reaches the SMP seam, and neither the records nor anything the
 * run prints holds it (hex or decimal).
 */
static void test_run_mkey_secret(void **state)
{
	struct run_fix *r = *state;
	const char *recs = r->recs, *out = r->out;

	r->a.common.verbose = 2;
	r->a.mkey.set = true;
	r->a.mkey.key = 0x1122334455667788ull;
	log_set_level(LOG_LEVEL_DEBUG);
	assert_int_equal(IBP_EXIT_FAIL, run_captured(&r->a, out));
	log_set_level(LOG_LEVEL_WARN);
	assert_int_equal(1, fake_mkey_calls);
	assert_true(fake_mkey == 0x1122334455667788ull);
	assert_int_equal(0, count_lines(recs, "1122334455667788"));
	assert_int_equal(0, count_lines(recs, "1234605616436508552"));
	assert_int_equal(0, count_lines(out, "1122334455667788"));
	assert_int_equal(0, count_lines(out, "1234605616436508552"));
	assert_true(count_lines(out, "spine02") > 0); /* it did print */
	/* no key given: none set */
	r->a.mkey.set = false;
	fake_mkey_calls = 0;
	run_captured(&r->a, out);
	assert_int_equal(0, fake_mkey_calls);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_path_clean, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_missing_entry, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_down_port, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_imbalance, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_dump_errors, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_ibroute_dialect, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_endpoints, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_run_silent_switch,
						run_setup, run_teardown),
		cmocka_unit_test_setup_teardown(test_run_refusing_switch,
						run_setup, run_teardown),
		cmocka_unit_test_setup_teardown(test_run_mkey_secret, run_setup,
						run_teardown),
		cmocka_unit_test_setup_teardown(test_paths_unread_table,
						run_setup, run_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
