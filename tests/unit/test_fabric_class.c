// SPDX-License-Identifier: MIT
/*
 * Links judged against their class when the spec gives no rate (issue 18):
 * a link below what 3/4 of its class (CA-leaf, leaf-spine, spine-core)
 * runs at is degraded-width / degraded-speed; nothing else is reported.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fabric/fabric_diff.h"
#include "fabric/fabric_topo.h"

/*
 * Two leaves (0x100, 0x101) with two CAs each, two spines (0x200, 0x201),
 * each leaf cabled to each spine. rate[i] is the rate of link i: CA-leaf
 * links 0-3, leaf-spine links 4-7.
 */
static struct fabric *fat_tree(const char *const rate[8])
{
	char text[4096], err[FABRIC_ERR_LEN];
	struct fabric *f = NULL;
	size_t n = 0;
	int l, s, h;

	for (l = 0; l < 2; l++) {
		n += snprintf(text + n, sizeof(text) - n,
			      "switchguid=0x10%d\nSwitch 4 \"S-10%d\" "
			      "# \"leaf%d\" base port 0 lid %d lmc 0\n",
			      l, l, l + 1, l + 1);
		for (h = 0; h < 2; h++)
			n += snprintf(text + n, sizeof(text) - n,
				      "[%d] \"H-30%d\"[1](30%d) # \"h%d\" lid "
				      "9 %s\n",
				      h + 1, 2 * l + h, 2 * l + h, 2 * l + h,
				      rate[2 * l + h]);
		for (s = 0; s < 2; s++)
			n += snprintf(text + n, sizeof(text) - n,
				      "[%d] \"S-20%d\"[%d] # \"spine%d\" lid 5 "
				      "%s\n",
				      s + 3, s, l + 1, s + 1,
				      rate[4 + 2 * l + s]);
	}
	for (s = 0; s < 2; s++) {
		n += snprintf(text + n, sizeof(text) - n,
			      "switchguid=0x20%d\nSwitch 4 \"S-20%d\" "
			      "# \"spine%d\" base port 0 lid %d lmc 0\n",
			      s, s, s + 1, s + 5);
		for (l = 0; l < 2; l++)
			n += snprintf(text + n, sizeof(text) - n,
				      "[%d] \"S-10%d\"[%d] # \"leaf%d\" lid 1 "
				      "%s\n",
				      l + 1, l, s + 3, l + 1,
				      rate[4 + 2 * l + s]);
	}
	for (h = 0; h < 4; h++)
		n += snprintf(text + n, sizeof(text) - n,
			      "caguid=0x30%d\nCa 1 \"H-30%d\" # \"h%d\"\n"
			      "[1](30%d) \"S-10%d\"[%d] # lid 9 %s\n",
			      h, h, h, h, h / 2, h % 2 + 1, rate[h]);
	assert_true(n < sizeof(text));
	assert_int_equal(
		0, fabric_topo_parse("t.topo", text, &f, err, sizeof(err)));
	return f;
}

static const char *ev_str(const struct fabric_finding *f, const char *key)
{
	int i;

	for (i = 0; i < f->nev; i++)
		if (!strcmp(f->ev[i].key, key))
			return f->ev[i].str;
	return "";
}

static void one_each(struct fabric_findings *fs)
{
	assert_int_equal(2, fs->n);
	assert_string_equal("degraded-width", fs->v[0].category);
	assert_string_equal("CA-leaf", ev_str(&fs->v[0], "class"));
	assert_string_equal("1x", ev_str(&fs->v[0], "actual"));
	assert_string_equal("4x", ev_str(&fs->v[0], "expected"));
	assert_string_equal("degraded-speed", fs->v[1].category);
	assert_string_equal("leaf-spine", ev_str(&fs->v[1], "class"));
	assert_string_equal("FDR", ev_str(&fs->v[1], "actual"));
	assert_string_equal("EDR", ev_str(&fs->v[1], "expected"));
	assert_non_null(strstr(fs->v[1].message,
			       "(3/4 of the leaf-spine links run at it)"));
}

static const char *const degraded[8] = { "4xEDR", "1xEDR", "4xEDR", "4xEDR",
					 "4xEDR", "4xEDR", "4xFDR", "4xEDR" };

/* The spec names the cables but gives no rate. */
static const char spec_text[] =
	"a_node,a_port,z_node,z_port\n"
	"leaf1,1,h0,1\nleaf1,2,h1,1\nleaf2,1,h2,1\nleaf2,2,h3,1\n"
	"leaf1,3,spine1,1\nleaf1,4,spine2,1\nleaf2,3,spine1,2\n"
	"leaf2,4,spine2,2\n";

static void test_class_check_no_rates(void **state)
{
	char err[FABRIC_ERR_LEN];
	struct fabric *m = fat_tree(degraded);
	struct fabric_spec *s = NULL;
	struct fabric_findings fs = { 0 };

	(void)state;
	assert_int_equal(0, fabric_spec_parse_csv("s.csv", spec_text, &s, err,
						  sizeof(err)));
	assert_int_equal(0, cabling_diff(m, s, &fs));
	one_each(&fs);
	fabric_findings_free(&fs);
	fabric_spec_free(s);
	fabric_free(m);
}

static void test_class_discover(void **state)
{
	struct fabric *m = fat_tree(degraded);
	struct fabric_findings fs = { 0 };

	(void)state;
	assert_int_equal(0, fabric_model_check(m, &fs));
	one_each(&fs);
	fabric_findings_free(&fs);
	fabric_free(m);
}

/* A clean fabric, and a class split 2 to 2, give nothing. */
static void test_class_quiet(void **state)
{
	static const char *const clean[8] = { "4xEDR", "4xEDR", "4xEDR",
					      "4xEDR", "4xEDR", "4xEDR",
					      "4xEDR", "4xEDR" };
	static const char *const split[8] = { "1xEDR", "1xEDR", "4xEDR",
					      "4xEDR", "4xFDR", "4xFDR",
					      "4xEDR", "4xEDR" };
	struct fabric_findings fs = { 0 };
	struct fabric *m;

	(void)state;
	m = fat_tree(clean);
	assert_int_equal(0, fabric_model_check(m, &fs));
	assert_int_equal(0, fs.n);
	fabric_free(m);
	m = fat_tree(split);
	assert_int_equal(0, fabric_model_check(m, &fs));
	assert_int_equal(0, fs.n);
	fabric_free(m);
	fabric_findings_free(&fs);
}

/* XDR (issue 34): a CA-leaf link trained at NDR among XDR is degraded. */
static void test_class_xdr(void **state)
{
	static const char *const xdr[8] = {
		"4xXDR", "4xXDR", "4xNDR", "4xXDR",
		"4xXDR", "4xXDR", "4xXDR", "4xXDR"
	};
	struct fabric *m = fat_tree(xdr);
	struct fabric_findings fs = { 0 };

	(void)state;
	assert_int_equal(0, fabric_model_check(m, &fs));
	assert_int_equal(1, fs.n);
	assert_string_equal("degraded-speed", fs.v[0].category);
	assert_string_equal("CA-leaf", ev_str(&fs.v[0], "class"));
	assert_string_equal("NDR", ev_str(&fs.v[0], "actual"));
	assert_string_equal("XDR", ev_str(&fs.v[0], "expected"));
	fabric_findings_free(&fs);
	fabric_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_class_check_no_rates),
		cmocka_unit_test(test_class_discover),
		cmocka_unit_test(test_class_quiet),
		cmocka_unit_test(test_class_xdr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
