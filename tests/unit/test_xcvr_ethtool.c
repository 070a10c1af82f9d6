// SPDX-License-Identifier: MIT
/*
 * The kernel's module EEPROM path (fabric/xcvr_ethtool.c) through its seam
 * with a fake that answers from module images: netlink by page and bank;
 * the ioctl's flat view when netlink is refused; every failure said as a
 * sentence; a driver that never returns ends within the timeout. And the
 * real kernel on this machine's loopback: no module ops, said plainly.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "common/clock.h"
#include "fabric/xcvr_ethtool.h"
#include "xcvr_fake_ethtool.h"

static void test_netlink_sff8636(void **state)
{
	struct fake_module m;
	struct xcvr_info x;

	(void)state;
	fm_sff8636(&m);
	fake = (struct fake_eth){ .m = &m };
	assert_int_equal(0, xcvr_ethtool_module(&fake_ops, "eth2", 5, &x));
	assert_true(x.present);
	assert_string_equal("ethtool-netlink", x.source);
	assert_string_equal("", x.why);
	assert_string_equal("Mellanox", x.vendor);
	assert_string_equal("MMA1B00-E100", x.part_number);
	assert_string_equal("MT2231FT0042", x.serial);
	assert_float_equal(35.0, x.temp_c, 1e-9);
	assert_float_equal(3.3, x.vcc_v, 1e-9);
	for (int l = 0; l < 4; l++)
		assert_float_equal(0.5, x.lane[XCVR_RX_POWER][l], 1e-9);
	assert_float_equal(0.1, x.thresh[XCVR_RX_POWER].low_alarm, 1e-9);
	/* lower page, pages 00h and 03h; nothing through the ioctl */
	assert_int_equal(3, fake.nl_reads);
	assert_int_equal(0, fake.flat_reads);
	assert_int_equal(0, fake.bad_i2c);
	assert_int_equal(1, fake.closed);
}

static void test_netlink_cmis_page_11h(void **state)
{
	struct fake_module m;
	struct xcvr_info x;

	(void)state;
	fm_cmis(&m);
	fake = (struct fake_eth){ .m = &m };
	assert_int_equal(0, xcvr_ethtool_module(&fake_ops, "eth2", 5, &x));
	assert_string_equal("NVIDIA", x.vendor);
	assert_string_equal("MT2301FT0001", x.serial);
	assert_int_equal(8, x.lanes);
	for (int l = 0; l < 8; l++) {
		assert_float_equal(0.8, x.lane[XCVR_RX_POWER][l], 1e-9);
		assert_float_equal(12.0, x.lane[XCVR_TX_BIAS][l], 1e-9);
	}
	assert_string_equal("", x.why);
	/* banked page 11h is asked for in bank 0 (lanes 1-8) */
	assert_int_equal(5, fake.nl_reads);
	assert_int_equal(0, fake.bad_bank);
}

static void test_cmis_page_11h_fails(void **state)
{
	struct fake_module m;
	struct xcvr_info x;

	(void)state;
	fm_cmis(&m);
	m.fail_pages = 1u << 0x11;
	fake = (struct fake_eth){ .m = &m };
	assert_int_equal(0, xcvr_ethtool_module(&fake_ops, "eth2", 5, &x));
	assert_true(x.present);
	assert_string_equal("MT2301FT0001", x.serial);
	assert_false(x.has[XCVR_RX_POWER]);
	assert_string_equal("page 11h: eth2: the module did not answer (an "
			    "empty cage, or an I2C error) (Input/output "
			    "error)",
			    x.why);
}

static void test_no_module_ops(void **state)
{
	struct xcvr_info x;

	(void)state;
	/* netlink and the ioctl both: the driver has no module ops */
	fake = (struct fake_eth){ .nl_rc = -EOPNOTSUPP,
				  .info_rc = -EOPNOTSUPP };
	assert_int_equal(-EOPNOTSUPP,
			 xcvr_ethtool_module(&fake_ops, "ib0", 5, &x));
	assert_false(x.present);
	assert_string_equal("ib0: the driver has no module EEPROM ops (so "
			    "for IPoIB netdevs by design, virtual "
			    "interfaces, NICs without a cage) (Operation not "
			    "supported)",
			    x.why);
	/* the ioctl may need CAP_NET_ADMIN: netlink's answer stands */
	fake = (struct fake_eth){ .nl_rc = -EOPNOTSUPP,
				  .kmsg = "module info not supported",
				  .info_rc = -EPERM };
	assert_int_equal(-EOPNOTSUPP,
			 xcvr_ethtool_module(&fake_ops, "ib0", 5, &x));
	assert_non_null(strstr(x.why, "ib0: the driver has no module EEPROM "
				      "ops"));
	assert_non_null(strstr(x.why, "; kernel: module info not supported"));
}

static void test_no_module_and_no_interface(void **state)
{
	struct fake_module m;
	struct xcvr_info x;

	(void)state;
	fm_sff8636(&m);
	fake = (struct fake_eth){ .m = &m, .nl_rc = -EIO };
	assert_int_equal(-EIO, xcvr_ethtool_module(&fake_ops, "eth2", 5, &x));
	assert_false(x.present);
	assert_string_equal("eth2: the module did not answer (an empty cage, "
			    "or an I2C error) (Input/output error)",
			    x.why);
	assert_int_equal(0, fake.flat_reads); /* EIO is not a refusal */

	fake = (struct fake_eth){ .m = &m, .nl_rc = -ENODEV };
	assert_int_equal(-ENODEV,
			 xcvr_ethtool_module(&fake_ops, "eth2", 5, &x));
	assert_non_null(strstr(x.why, "eth2: no module answered"));

	fake = (struct fake_eth){ .m = &m, .open_rc = -ENODEV };
	assert_int_equal(-ENODEV,
			 xcvr_ethtool_module(&fake_ops, "eth9", 5, &x));
	assert_string_equal("eth9: no such network interface", x.why);
}

static void test_ioctl_fallback_sff8636(void **state)
{
	struct fake_module m;
	struct xcvr_info x;

	(void)state;
	fm_sff8636(&m);
	/* a kernel without the ethtool netlink family (before 5.6) */
	fake = (struct fake_eth){ .m = &m,
				  .nl_rc = -EPROTONOSUPPORT,
				  .flat_type = XCVR_ETH_SFF_8636,
				  .flat_len = 640 };
	assert_int_equal(0, xcvr_ethtool_module(&fake_ops, "eth2", 5, &x));
	assert_string_equal("ethtool-ioctl", x.source);
	assert_string_equal("MT2231FT0042", x.serial);
	assert_float_equal(6.0, x.lane[XCVR_TX_BIAS][2], 1e-9);
	/* page 03h from flat offset 512: the thresholds */
	assert_float_equal(75.0, x.thresh[XCVR_TEMP].high_alarm, 1e-9);
	assert_float_equal(3.4, x.thresh[XCVR_RX_POWER].high_alarm, 1e-9);
	assert_string_equal("", x.why);
	assert_int_equal(1, fake.nl_reads); /* not asked again */
	assert_int_equal(3, fake.flat_reads);
}

static void test_ioctl_fallback_cmis_short_view(void **state)
{
	struct fake_module m;
	struct xcvr_info x;

	(void)state;
	fm_cmis(&m);
	/* a kernel before 5.13 (no MODULE_EEPROM_GET), 256 bytes flat */
	fake = (struct fake_eth){ .m = &m,
				  .nl_rc = -EOPNOTSUPP,
				  .flat_type = XCVR_ETH_SFF_8636,
				  .flat_len = 256 };
	assert_int_equal(0, xcvr_ethtool_module(&fake_ops, "eth2", 5, &x));
	assert_string_equal("ethtool-ioctl", x.source);
	assert_string_equal("NVIDIA", x.vendor);
	assert_float_equal(40.5, x.temp_c, 1e-9);
	assert_false(x.has[XCVR_RX_POWER]);
	assert_string_equal("page 01h: eth2: page 01h is not in the ioctl's "
			    "view of the module (256 bytes; the kernel has no "
			    "netlink module API for it)",
			    x.why);
}

static void test_hung_driver_ends_in_time(void **state)
{
	struct fake_module m;
	struct xcvr_info x;
	double t0 = clock_mono_now(), took;

	(void)state;
	fm_sff8636(&m);
	fake = (struct fake_eth){ .m = &m, .hang_s = 1.5 };
	assert_int_equal(-ETIMEDOUT,
			 xcvr_ethtool_module(&fake_ops, "eth2", 0.2, &x));
	took = clock_mono_now() - t0;
	assert_true(took < 0.2 + 0.3);
	assert_false(x.present);
	assert_string_equal("eth2: the kernel did not return the module "
			    "EEPROM within 0.2 s (the read is left behind)",
			    x.why);
	/* the worker finishes on its own and frees what it shares */
	for (int i = 0;
	     i < 100 && !__atomic_load_n(&fake.closed, __ATOMIC_SEQ_CST); i++) {
		struct timespec ts = { 0, 50000000L };

		nanosleep(&ts, NULL);
	}
	assert_int_equal(1, fake.closed);
}

static void test_strerror_keeps_kernel_words(void **state)
{
	char why[XCVR_WHY_LEN];

	(void)state;
	xcvr_ethtool_strerror(-EINVAL, "eth2",
			      "reading cross half page boundary is illegal",
			      why, sizeof(why));
	assert_string_equal("eth2: the kernel refused the page or range asked "
			    "for (Invalid argument); kernel: reading cross "
			    "half page boundary is illegal",
			    why);
	xcvr_ethtool_strerror(-ENOSPC, "eth2", NULL, why, sizeof(why));
	assert_string_equal("eth2: No space left on device", why);
}

/* The real kernel: lo has no module, and no module ops. */
static void test_kernel_loopback(void **state)
{
	struct xcvr_info x;
	int rc;

	(void)state;
	rc = xcvr_ethtool_module(&xcvr_ethtool_kernel_ops, "lo", 5, &x);
	assert_int_equal(-EOPNOTSUPP, rc);
	assert_false(x.present);
	assert_non_null(strstr(x.why, "lo: the driver has no module EEPROM "
				      "ops"));
	rc = xcvr_ethtool_module(&xcvr_ethtool_kernel_ops, "ibproof-none0", 5,
				 &x);
	assert_int_equal(-ENODEV, rc);
	assert_string_equal("ibproof-none0: no such network interface", x.why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_netlink_sff8636),
		cmocka_unit_test(test_netlink_cmis_page_11h),
		cmocka_unit_test(test_cmis_page_11h_fails),
		cmocka_unit_test(test_no_module_ops),
		cmocka_unit_test(test_no_module_and_no_interface),
		cmocka_unit_test(test_ioctl_fallback_sff8636),
		cmocka_unit_test(test_ioctl_fallback_cmis_short_view),
		cmocka_unit_test(test_hung_driver_ends_in_time),
		cmocka_unit_test(test_strerror_keeps_kernel_words),
		cmocka_unit_test(test_kernel_loopback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
