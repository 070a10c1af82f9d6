// SPDX-License-Identifier: MIT
/*
 * The CableInfo SMP path through its seam (fabric_smp_ops.read_cableinfo) with a
 * fake that answers from module images: 48 bytes a MAD, never across
 * offset 256; every CableInfo status code 1-9 said as a sentence; a read
 * that never answers ends within the deadline; `fabric cables` over a
 * walked model ends within --timeout.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/clock.h"
#include "fabric/fabric_run.h"
#include "fabric/xcvr_cableinfo.h"
#include "xcvr_images.h"

struct fake_smp {
	struct fake_module *m;
	int status; /* answer every MAD with this CableInfo status */
	bool silent; /* never answer: wait the whole timeout */
	int mads, max_len;
	bool crossed; /* a MAD read across offset 256 */
};

static struct fake_smp fake;

static int fake_open(const char *ca, int port, unsigned timeout_ms, int retries,
		     struct fabric_smp **out)
{
	(void)ca;
	(void)port;
	(void)timeout_ms;
	(void)retries;
	*out = (struct fabric_smp *)&fake;
	return 0;
}

static int fake_read(struct fabric_smp *h, const uint8_t *path, int hops,
		     int port, int i2c, int page, int offset, int len,
		     unsigned timeout_ms, uint8_t *buf, int *status)
{
	struct fake_smp *f = (struct fake_smp *)h;
	char why[64];

	(void)path;
	(void)hops;
	(void)port;
	f->mads++;
	f->max_len = len > f->max_len ? len : f->max_len;
	f->crossed = f->crossed || offset + len > 256 || i2c != 0x50;
	if (f->silent) {
		struct timespec ts = { timeout_ms / 1000,
				       (long)(timeout_ms % 1000) * 1000000L };

		nanosleep(&ts, NULL);
		return -ETIMEDOUT;
	}
	if (f->status) {
		*status = f->status;
		return -EIO;
	}
	return fm_read(f->m, page, offset, len, buf, why, sizeof(why));
}

static void fake_close(struct fabric_smp *h)
{
	(void)h;
}

static const struct fabric_smp_ops fake_ops = {
	.open = fake_open,
	.read_cableinfo = fake_read,
	.close = fake_close,
};

static struct xcvr_cableinfo ci_of(double timeout_s)
{
	static const uint8_t path[64] = { 0, 1, 3 };

	return (struct xcvr_cableinfo){
		.ops = &fake_ops,
		.h = (struct fabric_smp *)&fake,
		.path = path,
		.hops = 2,
		.port = 17,
		.deadline = timeout_s > 0 ? clock_mono_now() + timeout_s : 0,
		.mad_timeout_ms = 1000,
	};
}

static void test_reads_in_48_byte_mads(void **state)
{
	struct fake_module m;
	struct xcvr_cableinfo ci = ci_of(0);
	struct xcvr_image img;
	struct xcvr_info x;

	(void)state;
	fm_cmis(&m);
	fake = (struct fake_smp){ .m = &m };
	assert_int_equal(0, xcvr_read_image(xcvr_cableinfo_read, &ci, &img));
	assert_int_equal(0, xcvr_decode(&img, &x));
	assert_string_equal("MT2301FT0001", x.serial);
	assert_float_equal(80.0, x.thresh[XCVR_TEMP].high_alarm, 1e-9);
	/* CableInfo addresses pages 0-15: CMIS page 11h is out of its reach */
	assert_false(x.has[XCVR_TX_BIAS]);
	assert_string_equal("page 11h: page 17 offset 128 size 128: page "
			    "number is greater than 15",
			    x.why);
	/* lower page + pages 00h, 01h, 02h: 4 x 128 bytes, 3 MADs each */
	assert_int_equal(12, fake.mads);
	assert_int_equal(12, ci.mads);
	assert_int_equal(48, fake.max_len);
	assert_false(fake.crossed);
}

static void test_every_status_code(void **state)
{
	static const char *const want[10] = {
		NULL,
		"invalid port (the port does not take a module)",
		"operation not supported on this port (internal or CX4 port)",
		"cable is not connected",
		"the cable has no EEPROM (a passive copper cable)",
		"page number is greater than 15",
		"invalid address or size (size 0, or address + size past 256)",
		"invalid I2C slave address",
		"a module violates the QSFP specification and ignores ModSel",
		"I2C bus is constantly busy",
	};
	struct fake_module m;
	struct xcvr_image img;
	struct xcvr_info x;
	char msg[200];

	(void)state;
	fm_sff8636(&m);
	for (int s = 1; s <= 9; s++) {
		struct xcvr_cableinfo ci = ci_of(0);
		int rc;

		fake = (struct fake_smp){ .m = &m, .status = s };
		rc = xcvr_read_image(xcvr_cableinfo_read, &ci, &img);
		/* nothing to read (no cable, no EEPROM), no module by
		 * construction, or a failed read (a gap) */
		assert_int_equal(s == 3 || s == 4   ? -ENODEV
				 : s == 1 || s == 2 ? -ENOTSUP
						    : -EIO,
				 rc);
		assert_string_equal(want[s], xcvr_cableinfo_status_str(s));
		snprintf(msg, sizeof(msg), "%s (CableInfo status %d)", want[s],
			 s);
		assert_string_equal(msg, img.why);
		assert_int_equal(-ENODEV, xcvr_decode(&img, &x));
		assert_string_equal(msg, x.why);
		assert_int_equal(1, fake.mads); /* stops at the first */
	}
	assert_string_equal("unknown CableInfo status",
			    xcvr_cableinfo_status_str(10));
	/* a MAD status without a CableInfo one: refused, decoded */
	{
		struct xcvr_cableinfo ci = ci_of(0);

		fake = (struct fake_smp){ .m = &m, .status = -0x0c };
		assert_int_equal(
			-EIO, xcvr_read_image(xcvr_cableinfo_read, &ci, &img));
		assert_string_equal("CableInfo refused: MAD status 0x000c "
				    "(unsupported attribute or modifier)",
				    img.why);
	}
}

static void test_silent_read_ends_in_time(void **state)
{
	struct fake_module m;
	struct xcvr_cableinfo ci = ci_of(0.3);
	struct xcvr_image img;
	double t0 = clock_mono_now(), took;

	(void)state;
	fm_sff8636(&m);
	fake = (struct fake_smp){ .m = &m, .silent = true };
	assert_int_equal(-ETIMEDOUT,
			 xcvr_read_image(xcvr_cableinfo_read, &ci, &img));
	took = clock_mono_now() - t0;
	assert_true(took < 0.3 + 0.2);
	assert_string_equal("CableInfo MAD not answered in time", img.why);
}

/* A walked model: leaf01 ports 1-2 cabled to two CAs, by directed route. */
static int fake_discover(const struct fabric_disc_params *p,
			 struct fabric **out)
{
	struct fabric *f = fabric_new();
	struct fabric_node *sw, *ca;

	(void)p;
	sw = fabric_add_node(f, 0x1000, FABRIC_NODE_SWITCH, "leaf01", 4);
	sw->dr_hops = 1;
	sw->dr_path[1] = 1;
	for (int i = 1; i <= 2; i++) {
		char name[32];

		snprintf(name, sizeof(name), "node%02d mlx5_0", i);
		ca = fabric_add_node(f, 0x2000 + (uint64_t)i, FABRIC_NODE_CA,
				     name, 1);
		ca->ports[1].guid = 0x2000 + (uint64_t)i + 0x100;
		ca->dr_hops = 2;
		ca->dr_path[1] = 1;
		ca->dr_path[2] = (uint8_t)i;
		fabric_connect(&sw->ports[i], &ca->ports[1]);
	}
	*out = f;
	return 0;
}

static const struct fabric_disc_ops fake_disc = { .discover = fake_discover };

static void test_fabric_cables_live_timeout(void **state)
{
	char recs[] = "/tmp/ibproof-cables-XXXXXX";
	struct fabric_args a = { 0 };
	struct fake_module m;
	double t0, took;
	int fd = mkstemp(recs);
	char line[8192];
	FILE *f;
	int unreadable = 0, n = 0, gaps = 0, scope = 0;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	fm_sff8636(&m);
	fabric_disc = &fake_disc;
	fabric_smp = &fake_ops;
	a.tool = "fabric cables";
	a.common.records = recs;

	/* answered: 4 modules (both ends of 2 cables), all clean */
	fake = (struct fake_smp){ .m = &m };
	assert_int_equal(IBP_EXIT_PASS, fabric_cables_run(&a));

	/* never answered: the whole run ends within --timeout, and it is
	 * INCOMPLETE: no module was tested */
	fake = (struct fake_smp){ .m = &m, .silent = true };
	a.common.timeout_s = 0.4;
	t0 = clock_mono_now();
	assert_int_equal(IBP_EXIT_FAIL, fabric_cables_run(&a));
	took = clock_mono_now() - t0;
	assert_true(took < 0.4 + 0.3);
	f = fopen(recs, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		n += strstr(line, "\"kind\":\"transceiver\"") != NULL;
		unreadable += strstr(line, "not answered in time") != NULL;
		gaps += strstr(line, "\"category\":\"not-tested\"") &&
			strstr(line, "\"reason\":\"no-answer\"");
		scope += strstr(line, "\"modules\":{\"in_scope\":4,"
				      "\"tested\":0,\"not_tested\":4") != NULL;
	}
	fclose(f);
	unlink(recs);
	assert_int_equal(4, n);
	assert_true(unreadable >= 4); /* records and findings */
	assert_int_equal(4, gaps);
	assert_int_equal(1, scope);
}

/* A Quantum-2 leaf (DeviceID 0xd2f2, 65 ports): cage 17 holds ports 33
 * and 34; port 33 cabled, up; port 34 cabled only when both. */
static bool twin_both;

static int fake_discover_twin(const struct fabric_disc_params *p,
			      struct fabric **out)
{
	struct fabric *f = fabric_new();
	struct fabric_node *sw, *ca;

	(void)p;
	sw = fabric_add_node(f, 0x1000, FABRIC_NODE_SWITCH, "leaf01", 65);
	sw->device_id = 0xd2f2;
	sw->dr_hops = 1;
	sw->dr_path[1] = 1;
	for (int i = 1; i <= (twin_both ? 2 : 1); i++) {
		char name[32];

		snprintf(name, sizeof(name), "node%02d mlx5_0", i);
		ca = fabric_add_node(f, 0x2000 + (uint64_t)i, FABRIC_NODE_CA,
				     name, 1);
		ca->ports[1].guid = 0x2000 + (uint64_t)i + 0x100;
		ca->dr_hops = -1; /* only the switch's modules are read */
		fabric_connect(&sw->ports[32 + i], &ca->ports[1]);
		for (int k = 0; k < 2; k++) {
			struct fabric_port *fp =
				k ? &ca->ports[1] : &sw->ports[32 + i];

			fp->valid = true;
			fp->state = IB_PORT_STATE_ACTIVE;
			fp->phys_state = IB_PHYS_STATE_LINKUP;
		}
	}
	*out = f;
	return 0;
}

static const struct fabric_disc_ops fake_disc_twin = {
	.discover = fake_discover_twin
};

/* Findings of one `fabric cables` run over the twin leaf: their lines. */
static int twin_run(struct fake_module *m, char *found, size_t len)
{
	char recs[] = "/tmp/ibproof-cables-XXXXXX", line[8192];
	struct fabric_args a = { 0 };
	int fd = mkstemp(recs), n = 0;
	FILE *f;

	assert_true(fd >= 0);
	close(fd);
	fabric_disc = &fake_disc_twin;
	fabric_smp = &fake_ops;
	a.tool = "fabric cables";
	a.common.records = recs;
	fake = (struct fake_smp){ .m = m };
	fabric_cables_run(&a);
	found[0] = '\0';
	f = fopen(recs, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "\"kind\":\"finding\"")) {
			n++;
			snprintf(found + strlen(found), len - strlen(found),
				 "%s", line);
		}
	fclose(f);
	unlink(recs);
	return n;
}

/*
 * CableInfo reads pages 0-15 only, so a CMIS module's lane monitors (page
 * 11h) are not read in-band: its module-wide figures are. A cage's module
 * is read once and each finding made once for its ports.
 */
static void test_fabric_cables_twin_cage(void **state)
{
	struct fake_module m;
	char found[16384];
	int mads_one;

	(void)state;
	fm_cmis(&m);
	fm_put16(&m, 0, 14, 0x5500); /* 85 C: past its 80 C alarm */
	twin_both = false;
	assert_int_equal(2, twin_run(&m, found, sizeof(found)));
	assert_non_null(strstr(found, "transceiver-alarm"));
	assert_null(strstr(found, "collateral"));
	mads_one = fake.mads;

	/* both ports of cage 17 cabled: one module, read once, each finding
	 * once, on port 33, naming port 34 */
	twin_both = true;
	assert_int_equal(2, twin_run(&m, found, sizeof(found)));
	assert_int_equal(mads_one, fake.mads);
	assert_non_null(strstr(found, "leaf01 port 33 (module of ports 33, "
				      "34): NVIDIA MMA4Z00-NS SN MT2301FT0001: "
				      "module alarm"));
	assert_non_null(strstr(found, "\"collateral\":[{"));
	assert_non_null(strstr(found, "\"port\":34"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_in_48_byte_mads),
		cmocka_unit_test(test_every_status_code),
		cmocka_unit_test(test_silent_read_ends_in_time),
		cmocka_unit_test(test_fabric_cables_live_timeout),
		cmocka_unit_test(test_fabric_cables_twin_cage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
