// SPDX-License-Identifier: MIT
/*
 * Module facts from ibdiagnet2.cables (fabric/xcvr_cables.c): the blocks
 * of the fixture parsed to exactly their figures, keys by name in the
 * spellings of other versions, every bad block FILE:LINE (a 10 MB line
 * too), and `fabric cables --from-ibdiagnet` placing each block at its
 * port through a topology (a CA's by its port GUID).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/subcommands.h"
#include "fabric/fabric_run.h"
#include "fabric/xcvr.h"
#include "xcvr_scratch.h"

#define FX FIXTURES_DIR "/xcvr/"

struct rows {
	struct xcvr_row v[8];
	char names[8][96];
	int n;
};

static int take_row(void *ctx, const struct xcvr_row *row)
{
	struct rows *r = ctx;

	if (r->n == 8)
		return -ENOSPC;
	r->v[r->n] = *row;
	/* the name lives in the reader: keep a copy */
	snprintf(r->names[r->n], sizeof(r->names[0]), "%s",
		 row->port_name ? row->port_name : "");
	r->n++;
	return 0;
}

static void test_cables_sample(void **state)
{
	struct rows r = { .n = 0 };
	char err[256] = "";
	const struct xcvr_info *x;

	(void)state;
	assert_int_equal(0, xcvr_load_cables(FX "ibdiagnet2.cables", take_row,
					     &r, err, sizeof(err)));
	assert_int_equal(4, r.n);

	x = &r.v[0].info;
	assert_int_equal(0, r.v[0].node_guid); /* the caller places it */
	assert_int_equal(0x0002c90300001000ULL, r.v[0].port_guid);
	assert_int_equal(1, r.v[0].port);
	assert_int_equal(2, r.v[0].line);
	assert_string_equal("leaf01/P1", r.names[0]);
	assert_fixture_sr4(x);
	assert_true(x->has[XCVR_TEMP]);
	for (int l = 0; l < 4; l++) {
		assert_float_equal(0.5, x->lane[XCVR_RX_POWER][l], 1e-9);
		assert_float_equal(6.0, x->lane[XCVR_TX_BIAS][l], 1e-9);
		assert_float_equal(0.6, x->lane[XCVR_TX_POWER][l], 1e-9);
	}
	assert_string_equal("", x->why);

	x = &r.v[1].info;
	assert_int_equal(2, r.v[1].port);
	assert_int_equal(33, r.v[1].line);
	assert_string_equal("MT2231FT0043", x->serial);
	assert_float_equal(41.0, x->temp_c, 1e-9);
	assert_float_equal(0.08, x->lane[XCVR_RX_POWER][1], 1e-9);
	assert_false(x->has[XCVR_TX_POWER]);

	x = &r.v[2].info; /* a DAC on a CA port: GUID= is the port's */
	assert_int_equal(0x0002c90300000011ULL, r.v[2].port_guid);
	assert_string_equal("node01 HCA-1/P1", r.names[2]);
	assert_string_equal("NVIDIA", x->vendor);
	assert_string_equal("MCP1650-H001E30", x->part_number);
	assert_true(x->one_part);
	assert_float_equal(1.0, x->length_m, 1e-9);
	/* "0.000 mW, -999.999 dBm" and a copper cable's bias: no reading */
	assert_false(x->has[XCVR_TEMP]);
	assert_false(x->has[XCVR_RX_POWER]);
	assert_false(x->has[XCVR_TX_BIAS]);

	x = &r.v[3].info; /* a block that names no module */
	assert_int_equal(3, r.v[3].port);
	assert_false(x->present);
	assert_string_equal("ibdiagnet2.cables line 78: no vendor, part "
			    "number or serial for this port",
			    x->why);
}

static void test_cables_other_spellings(void **state)
{
	struct rows r = { .n = 0 };
	char err[256] = "";
	const struct xcvr_info *x;
	const char *p = scratch(
		"cmis.cables",
		"# ibdiagnet2.cables\n"
		"Port=17 GUID=0xb83fd203008d6780 Lid=0x0003 Port Name=sw/P17\n"
		"Vendor Name : NVIDIA\n"
		"Part Number : MMA4Z00-NS\n"
		"Serial Number : MT2301FT0001\n"
		"Revision : B1\n"
		"Identifier : OSFP (CMIS)\n"
		"Module Temperature : 40.5 C\n"
		"Supply Voltage : 3.25 V\n"
		"RX8 Power : -0.969 dBm\n"
		"TX8 Bias : 12.000 mA\n");

	(void)state;
	assert_true(xcvr_is_cables_file(p));
	assert_int_equal(0,
			 xcvr_load_cables(p, take_row, &r, err, sizeof(err)));
	unlink(p);
	assert_int_equal(1, r.n);
	x = &r.v[0].info;
	assert_int_equal(17, r.v[0].port);
	assert_string_equal("NVIDIA", x->vendor);
	assert_string_equal("MMA4Z00-NS", x->part_number);
	assert_string_equal("MT2301FT0001", x->serial);
	assert_string_equal("B1", x->revision);
	assert_int_equal(0x19, x->identifier);
	assert_float_equal(40.5, x->temp_c, 1e-9);
	assert_float_equal(3.25, x->vcc_v, 1e-9);
	assert_int_equal(8, x->lanes);
	assert_float_equal(0.8, x->lane[XCVR_RX_POWER][7], 1e-3);
	assert_float_equal(12.0, x->lane[XCVR_TX_BIAS][7], 1e-9);
	assert_false(xcvr_is_cables_file(FX "ibdiagnet2.db_csv"));
}

/* Found by fuzz_cables: a later "Vendor: N/A" undoes the name. */
static void test_cables_identity_undone(void **state)
{
	struct rows r = { .n = 0 };
	char err[256] = "";
	const char *p = scratch("undone.cables", "Port=1 GUID=0x1 Port Name=x\n"
						 "Vendor: Mellanox\n"
						 "Vendor: N/A\n");

	(void)state;
	assert_int_equal(0,
			 xcvr_load_cables(p, take_row, &r, err, sizeof(err)));
	unlink(p);
	assert_int_equal(1, r.n);
	assert_false(r.v[0].info.present);
	assert_string_equal("", r.v[0].info.vendor);
}

static int load_err(const char *path, char *err, size_t len)
{
	struct rows r = { .n = 0 };
	int rc = xcvr_load_cables(path, take_row, &r, err, len);

	unlink(path);
	return rc;
}

static void expect_err(const char *name, const char *text, const char *what)
{
	char err[256], want[400];
	const char *p = scratch(name, text);

	snprintf(want, sizeof(want), "%s%s", p, what);
	assert_int_equal(-EINVAL, load_err(p, err, sizeof(err)));
	assert_string_equal(want, err);
}

static void test_cables_errors(void **state)
{
	char err[256];
	const char *p;

	(void)state;
	expect_err("nohdr.cables", "Vendor: Mellanox\n",
		   ":1: expected a block header \"Port=N Lid=... GUID=0x... "
		   "Port Name=...\" before \"Vendor: Mellanox\"");
	expect_err("port.cables",
		   "----\nPort=300 Lid=0x1 GUID=0x1 Port Name=x\n",
		   ":2: Port=: expected a port number 1-255, got \"300\"");
	expect_err("guid.cables",
		   "Port=1 Lid=0x1 GUID=leaf01 Port Name=x\nSN: MT1\n",
		   ":1: GUID=: expected the port's GUID like "
		   "0xf45214030046a0a1, got \"leaf01\"");
	expect_err("noguid.cables", "Port=1 Lid=0x1 Port Name=x\n",
		   ":1: GUID=: expected the port's GUID like "
		   "0xf45214030046a0a1, got \"\"");
	expect_err("nocolon.cables",
		   "Port=1 GUID=0x1\nVendor: Mellanox\nMT1739VS02126\n",
		   ":3: expected \"Key: value\" in the block of line 1, got "
		   "\"MT1739VS02126\"");
	p = scratch("empty.cables", "\n# nothing\n");
	assert_int_equal(-ENOENT, load_err(p, err, sizeof(err)));
	assert_non_null(strstr(err, ": no \"Port=... GUID=...\" block"));
}

/* A 10 MB line is an error with FILE:LINE, read past, never kept. */
static void test_cables_huge_line(void **state)
{
	(void)state;
	expect_huge_line(xcvr_load_cables, "huge.cables",
			 "Port=1 GUID=0x1 Port Name=x\nVendor: Mellanox\nPN: ",
			 "\nSN: MT1\n");
}

/* leaf01 port 1 cabled to node01 mlx5_0 (port GUID ...11). */
static const char topo[] =
	"vendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x2c90300001000\n"
	"switchguid=0x2c90300001000(2c90300001000)\n"
	"Switch\t4 \"S-0002c90300001000\"\t\t# \"leaf01\" base port 0 lid 1 "
	"lmc 0\n"
	"[1]\t\"H-0002c90300000010\"[1](2c90300000011) \t\t# \"node01 "
	"mlx5_0\" lid 5 4xEDR\n\n"
	"vendid=0x2c9\ndevid=0x1017\nsysimgguid=0x2c90300000010\n"
	"caguid=0x2c90300000010\n"
	"Ca\t1 \"H-0002c90300000010\"\t\t# \"node01 mlx5_0\"\n"
	"[1](2c90300000011) \t\"S-0002c90300001000\"[1]\t\t# lid 5 lmc 0 "
	"\"leaf01\" lid 1 4xEDR\n";

static int count_lines(const char *path, const char *a, const char *b)
{
	char line[8192];
	FILE *f = fopen(path, "r");
	int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, a) && (!b || strstr(line, b));
	fclose(f);
	return n;
}

static void test_fabric_cables_from_cables_file(void **state)
{
	char recs[] = "/tmp/ibproof-cables-run-XXXXXX", tpath[300];
	struct fabric_args a = { 0 };
	int fd = mkstemp(recs);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	snprintf(tpath, sizeof(tpath), "%s", scratch("leaf.topo", topo));
	a.tool = "fabric cables";
	a.common.records = recs;
	a.from_ibdiagnet = FX "ibdiagnet2.cables";
	a.topology = tpath;
	assert_int_equal(IBP_EXIT_PASS, fabric_cables_run(&a));
	unlink(tpath);
	assert_int_equal(4,
			 count_lines(recs, "\"kind\":\"transceiver\"", NULL));
	/* the CA port's block, placed by its port GUID */
	assert_int_equal(1, count_lines(recs, "\"serial\":\"MT2301VS0007\"",
					"\"node\":\"node01 mlx5_0\""));
	assert_int_equal(1, count_lines(recs, "\"serial\":\"MT2231FT0042\"",
					"\"node\":\"leaf01\""));
	/* port 2 is not cabled in the topology, but leaf01 has it */
	assert_int_equal(1, count_lines(recs, "\"serial\":\"MT2231FT0043\"",
					"\"node\":\"leaf01\",\"port\":2"));
	assert_int_equal(1, count_lines(recs, "\"present\":false",
					"no vendor, part number or serial"));

	/* no topology: each block named by its own port name and GUID */
	a.topology = NULL;
	assert_int_equal(IBP_EXIT_PASS, fabric_cables_run(&a));
	assert_int_equal(1, count_lines(recs, "\"serial\":\"MT2301VS0007\"",
					"\"node\":\"node01 HCA-1/P1\",\"port\":"
					"1,\"type\":\"unknown\",\"guid\":"
					"\"0x0002c90300000011\""));
	unlink(recs);
}

/* fabric cables --from-mlxlink leaf01:1=FILE on a model: the figures in
 * the port's transceiver record, judged at the model's speed (4x EDR:
 * the real capture's raw 2E-9 is over the NRZ bound), the finding at the
 * port; the same from mlxlink --json; a malformed figure is an input
 * error. */
static void test_cables_run_joins_ber(void **state)
{
	char recs[] = "/tmp/ibproof-phy-ber-XXXXXX", arg[512];
	const char *from[1] = { arg };
	struct fabric_args a = { 0 };
	int fd = mkstemp(recs);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	snprintf(arg, sizeof(arg), "leaf01:1=%s",
		 FIXTURES_DIR "/phy/mlxlink-c-400g.txt");
	a.tool = "fabric cables";
	a.common.records = recs;
	a.topology = FIXTURES_DIR "/fabric/small.topo";
	memcpy(a.from_mlxlink, from, sizeof(from));
	a.n_mlxlink = 1;
	assert_int_equal(IBP_EXIT_PASS, fabric_cables_run(&a));
	assert_int_equal(
		1,
		count_lines(
			recs, "\"kind\":\"transceiver\"",
			"\"raw_errors_per_lane\":[3946476397.0,5120336064.0"));
	assert_int_equal(1, count_lines(recs, "\"category\":\"ber-raw\"",
					"\"node\":\"leaf01\",\"port\":1"));
	assert_int_equal(1, count_lines(recs, "\"category\":\"ber-raw\"",
					"\"speed\":\"EDR\""));
	/* mlxlink -m -c --json: module and figures from one file, one record */
	snprintf(arg, sizeof(arg), "leaf01:1=%s",
		 FIXTURES_DIR "/phy/mlxlink-json-400g-dr4.json");
	assert_int_equal(IBP_EXIT_PASS, fabric_cables_run(&a));
	assert_int_equal(1, count_lines(recs, "\"serial\":\"S00XXX000000\"",
					"\"raw_errors_per_lane\":[3017647.0,"
					"15132549.0,7368641.0,9233545.0]"));
	assert_int_equal(1, count_lines(recs, "\"category\":\"ber-raw\"",
					"SN S00XXX000000): raw BER 5e-10"));
	snprintf(arg, sizeof(arg), "leaf01:1=%s",
		 FIXTURES_DIR "/fabric/small.topo");
	assert_int_equal(IBP_EXIT_PASS, fabric_cables_run(&a)); /* no block */
	unlink(recs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cables_sample),
		cmocka_unit_test(test_cables_other_spellings),
		cmocka_unit_test(test_cables_identity_undone),
		cmocka_unit_test(test_cables_errors),
		cmocka_unit_test(test_cables_huge_line),
		cmocka_unit_test(test_fabric_cables_from_cables_file),
		cmocka_unit_test(test_cables_run_joins_ber),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
