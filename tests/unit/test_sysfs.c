// SPDX-License-Identifier: MIT
/*
 * common/sysfs.c, the one reader of /sys: links resolved inside the root,
 * loops caught, nothing above the root reached (by "..", a relative link or
 * an absolute one), directory listings in a chosen order, the port-attribute
 * helper and the walk of class/infiniband.
 */
#include <setjmp.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/sysfs.h"

#define IB_NODE FIXTURES_DIR "/sysfs-ib/ib-node"

static char top[64]; /* holds root and what lies outside it */
static char root[80]; /* top/root */

static void put(const char *rel, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void dir(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static void lnk(const char *target, const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(symlink(target, p), 0);
}

/* top/secret and top/outdir/secret: real files, but above the root. */
static void put_outside(void)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/outdir", top);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/secret", top);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("outside the root\n", f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/outdir/secret", top);
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
}

static int setup_root(void **state)
{
	char target[160];

	(void)state;
	snprintf(top, sizeof(top), "/tmp/ibproof-test-sysfs-XXXXXX");
	assert_non_null(mkdtemp(top));
	snprintf(root, sizeof(root), "%s/root", top);
	assert_int_equal(mkdir(root, 0755), 0);
	put_outside();
	dir("devices");
	dir("devices/pci0000:00");
	dir("devices/pci0000:00/0000:00:01.0");
	put("devices/pci0000:00/0000:00:01.0/vendor", "0x15b3\n");
	dir("etc");
	put("etc/secret", "inside the root\n");
	dir("bus");
	lnk("../devices/pci0000:00/0000:00:01.0", "bus/dev");
	lnk("../../../../../../../../etc", "bus/up");
	lnk("/sys/devices/pci0000:00", "bus/abs");
	lnk("loop2", "bus/loop1");
	lnk("loop1", "bus/loop2");
	lnk("../../secret", "bus/out_rel");
	snprintf(target, sizeof(target), "%s/secret", top);
	lnk(target, "bus/out_abs");
	snprintf(target, sizeof(target), "%s/outdir", top);
	lnk(target, "bus/out_dir");
	dir("net");
	dir("net/ib10");
	dir("net/ib2");
	dir("net/.hidden");
	put("net/ib1", "");
	return 0;
}

static int teardown_root(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_resolve(void **state)
{
	char out[256], buf[64];

	(void)state;
	assert_int_equal(
		sysfs_resolve(root, "bus/dev/vendor", out, sizeof(out)), 0);
	assert_string_equal(out, "devices/pci0000:00/0000:00:01.0/vendor");
	assert_int_equal(sysfs_read(root, "bus/dev/vendor", buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "0x15b3");
	/* ".." above the root stays at the root: this is root's etc */
	assert_int_equal(sysfs_resolve(root, "bus/up/secret", out, sizeof(out)),
			 0);
	assert_string_equal(out, "etc/secret");
	assert_int_equal(
		sysfs_resolve(root, "../../../etc/secret", out, sizeof(out)),
		0);
	assert_string_equal(out, "etc/secret");
	/* absolute "/sys/..." targets mean the root's */
	assert_int_equal(
		sysfs_resolve(root, "bus/abs/0000:00:01.0", out, sizeof(out)),
		0);
	assert_string_equal(out, "devices/pci0000:00/0000:00:01.0");
	assert_int_equal(sysfs_resolve(root, "bus/loop1/x", out, sizeof(out)),
			 -ELOOP);
	assert_int_equal(sysfs_read(root, "bus/dev/nothing", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(sysfs_read(root, "bus/dev", buf, sizeof(buf)),
			 -EISDIR);
}

static int count_name(void *ctx, const char *name)
{
	(void)name;
	++*(int *)ctx;
	return 0;
}

/* What lies above the root is never read nor listed, however it is named. */
static void test_confined(void **state)
{
	char buf[64];
	int n = 0;

	(void)state;
	assert_int_equal(sysfs_read(root, "etc/secret", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "inside the root");
	/* top/secret is there, one ".." above the root */
	assert_int_equal(sysfs_read(root, "../secret", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(sysfs_read(root, "bus/../../secret", buf, sizeof(buf)),
			 -ENOENT);
	/* a relative link that climbs out: bus/../../secret */
	assert_int_equal(sysfs_read(root, "bus/out_rel", buf, sizeof(buf)),
			 -ENOENT);
	/* an absolute link to top/secret is the root's top/secret */
	assert_int_equal(sysfs_read(root, "bus/out_abs", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(sysfs_read_bin(root, "bus/out_abs", buf, sizeof(buf)),
			 -ENOENT);
	/* directories: the same */
	assert_int_equal(sysfs_list(root, "bus/out_dir", NULL, count_name, &n),
			 -ENOENT);
	assert_int_equal(sysfs_list(root, "../outdir", NULL, count_name, &n),
			 -ENOENT);
	assert_int_equal(n, 0);
}

struct names {
	char buf[128];
	int stop_at; /* 0: never */
	int seen;
};

static int collect_name(void *ctx, const char *name)
{
	struct names *c = ctx;
	size_t len = strlen(c->buf);

	snprintf(c->buf + len, sizeof(c->buf) - len, "%s ", name);
	return ++c->seen == c->stop_at ? 42 : 0;
}

static void test_list(void **state)
{
	struct names c = { "", 0, 0 };

	(void)state;
	assert_int_equal(sysfs_list(root, "net", strverscmp, collect_name, &c),
			 0);
	assert_string_equal(c.buf, "ib1 ib2 ib10 "); /* no .hidden */
	memset(&c, 0, sizeof(c));
	assert_int_equal(sysfs_list(root, "net", strcmp, collect_name, &c), 0);
	assert_string_equal(c.buf, "ib1 ib10 ib2 ");
	/* fn's first non-zero return stops the walk */
	memset(&c, 0, sizeof(c));
	c.stop_at = 2;
	assert_int_equal(sysfs_list(root, "net", strcmp, collect_name, &c), 42);
	assert_string_equal(c.buf, "ib1 ib10 ");
	/* through a link, inside the root */
	memset(&c, 0, sizeof(c));
	assert_int_equal(sysfs_list(root, "bus/dev", NULL, collect_name, &c),
			 0);
	assert_string_equal(c.buf, "vendor ");
	assert_int_equal(sysfs_list(root, "net/ib1", NULL, collect_name, &c),
			 -ENOTDIR);
	assert_int_equal(sysfs_list(root, "nothing", NULL, collect_name, &c),
			 -ENOENT);
	/* a fixture tree: class/net in version order */
	memset(&c, 0, sizeof(c));
	assert_int_equal(
		sysfs_list(IB_NODE, "class/net", strverscmp, collect_name, &c),
		0);
	assert_string_equal(c.buf, "eno1 ib0 ib0.8001 ib1 ");
}

/* class/infiniband/CA/ports/PORT/ATTR, built once, read in the root. */
static void test_port_attr(void **state)
{
	char rel[64], buf[64], ca[80];

	(void)state;
	assert_int_equal(sysfs_port_rel(rel, sizeof(rel), "mlx5_0", 1, "state"),
			 0);
	assert_string_equal(rel, "class/infiniband/mlx5_0/ports/1/state");
	assert_int_equal(sysfs_port_read(IB_NODE, "mlx5_0", 1, "state", buf,
					 sizeof(buf)),
			 0);
	assert_string_equal(buf, "4: ACTIVE");
	assert_int_equal(sysfs_port_read(IB_NODE, "mlx5_0", 1, "gids/0", buf,
					 sizeof(buf)),
			 0);
	assert_string_equal(buf, "fe80:0000:0000:0000:0c42:a103:00a1:b2c1");
	assert_int_equal(sysfs_port_read(IB_NODE, "mlx5_0", 2, "state", buf,
					 sizeof(buf)),
			 -ENOENT);
	assert_int_equal(sysfs_port_read(IB_NODE, "mlx5_0", -1, "state", buf,
					 sizeof(buf)),
			 -EINVAL);
	assert_int_equal(
		sysfs_port_read(IB_NODE, "mlx5_0", 1, "", buf, sizeof(buf)),
		-EINVAL);
	assert_int_equal(sysfs_port_read(IB_NODE, "../../etc", 1, "passwd", buf,
					 sizeof(buf)),
			 -ENOENT);
	memset(ca, 'x', sizeof(ca) - 1);
	ca[sizeof(ca) - 1] = '\0';
	assert_int_equal(sysfs_port_rel(rel, sizeof(rel), ca, 1, "state"),
			 -ENAMETOOLONG);
	assert_int_equal(
		sysfs_ca_read(IB_NODE, "mlx5_0", "node_guid", buf, sizeof(buf)),
		0);
	assert_string_equal(buf, "0c42:a103:00a1:b2c0");
}

static int collect_port(void *ctx, const char *ca, int port)
{
	char *buf = ctx;
	size_t len = strlen(buf);

	snprintf(buf + len, 256 - len, "%s:%d ", ca, port);
	return 0;
}

static int stop_at_first(void *ctx, const char *ca, int port)
{
	(void)ctx;
	(void)ca;
	(void)port;
	return -EINTR;
}

/* One walk of class/infiniband for node and pcie: order, filter, errors. */
static void test_ib_ports(void **state)
{
	const char *tree = GEN_FIXTURES_DIR "/sysfs-node/healthy";
	char buf[256] = "";

	(void)state;
	assert_int_equal(0, sysfs_ib_ports(tree, NULL, collect_port, buf));
	assert_string_equal("mlx5_0:1 mlx5_1:1 ", buf);
	buf[0] = '\0';
	assert_int_equal(0, sysfs_ib_ports(tree, "mlx5_1", collect_port, buf));
	assert_string_equal("mlx5_1:1 ", buf);
	assert_int_equal(-EINTR,
			 sysfs_ib_ports(tree, NULL, stop_at_first, NULL));
	assert_int_equal(-ENOENT, sysfs_ib_ports("/nonexistent", NULL,
						 collect_port, buf));
}

static void test_parse_long(void **state)
{
	long v;

	(void)state;
	assert_int_equal(sysfs_parse_long("4", 10, &v), 0);
	assert_int_equal(v, 4);
	assert_int_equal(sysfs_parse_long("-1", 10, &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(sysfs_parse_long("0x1a", 0, &v), 0);
	assert_int_equal(v, 0x1a);
	assert_int_equal(sysfs_parse_long("4: ACTIVE", 10, &v), -EINVAL);
	assert_int_equal(sysfs_parse_long("", 10, &v), -EINVAL);
	assert_int_equal(sysfs_parse_long("N/A", 10, &v), -EINVAL);
	assert_int_equal(sysfs_parse_long("99999999999999999999", 10, &v),
			 -ERANGE);
	assert_int_equal(v, 0x1a); /* left as it was */
}

/*
 * D3: a FIFO in place of an attribute blocked open() forever; every sysfs
 * attribute is a regular file, and anything else is refused at once.
 */
static void test_d3_fifo_attribute_is_refused(void **state)
{
	char p[256], buf[64];

	(void)state;
	snprintf(p, sizeof(p), "%s/devices/pci0000:00/0000:00:01.0/speed",
		 root);
	assert_int_equal(mkfifo(p, 0644), 0);
	alarm(10); /* a hang fails the test instead of stalling ctest */
	assert_int_equal(sysfs_read(root,
				    "devices/pci0000:00/0000:00:01.0/"
				    "speed",
				    buf, sizeof(buf)),
			 -EINVAL);
	assert_int_equal(
		sysfs_read_bin(root, "bus/dev/speed", buf, sizeof(buf)),
		-EINVAL);
	alarm(0);
	assert_int_equal(sysfs_read(root, "bus/dev/vendor", buf, sizeof(buf)),
			 0);
}

/*
 * Reading below a canonical folder gives what the whole path gives: rel's
 * links and ".." are still followed by hand, and still never above root.
 */
static void test_read_in(void **state)
{
	const char *dev = "devices/pci0000:00/0000:00:01.0";
	char buf[64];

	(void)state;
	put("devices/pci0000:00/0000:00:01.0/../class", "0x060400\n");
	lnk("vendor", "devices/pci0000:00/0000:00:01.0/alias");
	lnk("../../../../../etc", "devices/pci0000:00/0000:00:01.0/up");
	assert_int_equal(sysfs_read_in(root, dev, "vendor", buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "0x15b3");
	assert_int_equal(sysfs_read_in(root, dev, "alias", buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "0x15b3");
	assert_int_equal(sysfs_read_in(root, dev, "../class", buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "0x060400");
	assert_int_equal(
		sysfs_read_in(root, dev, "up/secret", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "inside the root");
	assert_int_equal(
		sysfs_read_in(root, "", "bus/dev/vendor", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0x15b3");
	assert_int_equal(sysfs_read_in(root, dev, "nothing", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(sysfs_read_bin_in(root, dev, "vendor", buf, 4), 4);
	assert_int_equal(sysfs_read_in(root, dev, "..", buf, sizeof(buf)),
			 -EISDIR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_resolve, setup_root,
						teardown_root),
		cmocka_unit_test_setup_teardown(test_confined, setup_root,
						teardown_root),
		cmocka_unit_test_setup_teardown(test_list, setup_root,
						teardown_root),
		cmocka_unit_test_setup_teardown(test_read_in, setup_root,
						teardown_root),
		cmocka_unit_test_setup_teardown(
			test_d3_fifo_attribute_is_refused, setup_root,
			teardown_root),
		cmocka_unit_test(test_port_attr),
		cmocka_unit_test(test_ib_ports),
		cmocka_unit_test(test_parse_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
