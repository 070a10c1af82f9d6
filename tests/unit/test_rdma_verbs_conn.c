// SPDX-License-Identifier: MIT
/* rdma/verbs_conn.c: connection data encoding, verify pattern, checks. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cmocka.h>

#include <infiniband/verbs.h>

#include "rdma/verbs_conn.h"
#include "rdma/verbs_internal.h"

static struct dpath_vconn sample(void)
{
	struct dpath_vconn c;

	memset(&c, 0, sizeof(c)); /* padding too: compared as bytes */
	c.lid = 0x1a;
	c.gid_index = 3;
	c.mtu_code = 5;
	c.nqps = 16;
	c.rkey = 0xdeadbeef;
	c.src_addr = 0x7f0012345000ull;
	c.dst_addr = 0x7f0012355000ull;
	c.msg_size = 1 << 20;
	c.seed = 0x0123456789abcdefull;
	c.cm_family = 2; /* AF_INET */
	c.cm_port = 0xc351;
	c.cm_addr[0] = 10;
	c.cm_addr[15] = 0x77;
	for (int i = 0; i < 16; i++) {
		c.gid[i] = (uint8_t)(0xf0 + i);
		c.qpn[i] = 0x100 + (uint32_t)i;
		c.psn[i] = 0xabcd00 + (uint32_t)i;
	}
	return c;
}

static void test_round_trip(void **state)
{
	struct dpath_vconn in = sample(), out;
	struct dpath_conn_info info;

	(void)state;
	dpath_vconn_encode(&in, &info);
	assert_int_equal(0, dpath_vconn_decode(&info, &out));
	assert_memory_equal(&in, &out, sizeof(in));
	in.gid_index = -1; /* InfiniBand: no GRH */
	in.nqps = 1;
	dpath_vconn_encode(&in, &info);
	assert_int_equal(0, dpath_vconn_decode(&info, &out));
	assert_int_equal(-1, out.gid_index);
	assert_int_equal(0x100, out.qpn[0]);
	assert_int_equal(0, out.qpn[1]);
}

static void test_refuses_foreign_data(void **state)
{
	struct dpath_vconn in = sample(), out;
	struct dpath_conn_info info;

	(void)state;
	memset(&info, 0, sizeof(info));
	assert_int_equal(-EPROTO, dpath_vconn_decode(&info, &out));
	dpath_vconn_encode(&in, &info);
	info.bytes[4] = 1; /* another version */
	assert_int_equal(-EPROTO, dpath_vconn_decode(&info, &out));
	in.nqps = 17;
	dpath_vconn_encode(&in, &info);
	assert_int_equal(-EINVAL, dpath_vconn_decode(&info, &out));
	in.nqps = 0;
	dpath_vconn_encode(&in, &info);
	assert_int_equal(-EINVAL, dpath_vconn_decode(&info, &out));
}

/* --cm rdmacm: the listening address travels; exactly one end connects. */
static void test_cm_addr_and_side(void **state)
{
	struct dpath_vconn a = sample(), b = sample();
	struct sockaddr_storage in = { 0 }, out;
	struct sockaddr_in *v4 = (struct sockaddr_in *)&in;

	(void)state;
	v4->sin_family = AF_INET;
	v4->sin_addr.s_addr = htonl(0x0a650001); /* 10.101.0.1 */
	v4->sin_port = htons(40001);
	dpath_vconn_set_cm_addr(&a, &in);
	assert_int_equal(0, dpath_vconn_get_cm_addr(&a, &out));
	assert_memory_equal(&in, &out, sizeof(struct sockaddr_in));
	v4->sin_addr.s_addr = htonl(0x0a650002); /* 10.101.0.2, lower port */
	v4->sin_port = htons(30000);
	dpath_vconn_set_cm_addr(&b, &in);
	assert_true(dpath_vconn_cm_first(&a, &b));
	assert_false(dpath_vconn_cm_first(&b, &a));
	/* same address (two ports behind one IP): the port decides */
	v4->sin_addr.s_addr = htonl(0x0a650001);
	dpath_vconn_set_cm_addr(&b, &in);
	assert_true(dpath_vconn_cm_first(&b, &a) !=
		    dpath_vconn_cm_first(&a, &b));
	memset(&b, 0, sizeof(b)); /* --cm mpi peer: no address */
	assert_int_equal(-ENOENT, dpath_vconn_get_cm_addr(&b, &out));
}

static void test_pattern(void **state)
{
	size_t len = 1 << 16;
	uint8_t *buf = malloc(len);

	(void)state;
	dpath_pattern_fill(buf, len, 42);
	assert_int_equal(-1, dpath_pattern_check(buf, len, 42));
	assert_int_equal(0, dpath_pattern_check(buf, len, 43));
	buf[12345] ^= 0x10;
	assert_int_equal(12345, dpath_pattern_check(buf, len, 42));
	buf[12345] ^= 0x10;
	memset(buf + len - 8, 0, 8); /* a message cut short */
	assert_true(dpath_pattern_check(buf, len, 42) >= (long)(len - 8));
	free(buf);
}

static void test_param_checks(void **state)
{
	struct dpath_port port = { .ca = "rxe0", .port = 1 };
	struct dpath_params p = { .msg_size = 65536,
				  .qps = 4,
				  .tx_depth = 16,
				  .duration_s = 1,
				  .stall_s = 3,
				  .retry_cnt = 3 };
	struct dpath_params bad;
	struct dpath_vconn peer = sample();

	(void)state;
	assert_int_equal(0, dpath_verbs_check_params(&port, &p));
	bad = p, bad.qps = 17;
	assert_int_equal(-EINVAL, dpath_verbs_check_params(&port, &bad));
	bad = p, bad.tx_depth = 0;
	assert_int_equal(-EINVAL, dpath_verbs_check_params(&port, &bad));
	bad = p, bad.stall_s = 0;
	assert_int_equal(-EINVAL, dpath_verbs_check_params(&port, &bad));
	bad = p, bad.retry_cnt = 8;
	assert_int_equal(-EINVAL, dpath_verbs_check_params(&port, &bad));
	bad = p, bad.qp_timeout = 18;
	assert_int_equal(0, dpath_verbs_check_params(&port, &bad));
	bad = p, bad.qp_timeout = 32;
	assert_int_equal(-EINVAL, dpath_verbs_check_params(&port, &bad));
	bad = p, bad.msg_size = 0;
	assert_int_equal(-EINVAL, dpath_verbs_check_params(&port, &bad));
	peer.nqps = 4;
	peer.msg_size = 65536;
	assert_int_equal(0, dpath_verbs_check_peer("rxe0 port 1", &p, &peer));
	peer.msg_size = 1 << 20;
	assert_int_equal(-EINVAL,
			 dpath_verbs_check_peer("rxe0 port 1", &p, &peer));
}

/* --sl reaches the address vector every QP is moved to RTR with. */
static void test_av_carries_sl(void **state)
{
	struct dpath_vconn r = sample();
	struct ibv_ah_attr av;

	(void)state;
	for (int sl = 0; sl < 16; sl++) {
		dpath_vconn_av(&r, 1, -1, sl, &av);
		assert_int_equal(sl, av.sl);
		assert_int_equal(0x1a, av.dlid);
		assert_int_equal(0, av.is_global);
		dpath_vconn_av(&r, 2, 3, sl, &av);
		assert_int_equal(sl, av.sl);
		assert_int_equal(1, av.is_global);
		assert_int_equal(3, av.grh.sgid_index);
		assert_int_equal(2, av.port_num);
		assert_memory_equal(r.gid, av.grh.dgid.raw, 16);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refuses_foreign_data),
		cmocka_unit_test(test_cm_addr_and_side),
		cmocka_unit_test(test_pattern),
		cmocka_unit_test(test_param_checks),
		cmocka_unit_test(test_av_carries_sl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
