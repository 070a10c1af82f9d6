/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_RDMA_TRANSPORT_H
#define IBPROOF_RDMA_TRANSPORT_H

/*
 * The seam between burnin's orchestration (schedules, rounds, MPI, records)
 * and the data path. Two backends implement it: verbs (rdma/verbs_*.c,
 * the only files with ibv_* calls) and fake (rdma/fake_transport.c, for
 * unit and mpi-tier tests, with fault injection). The fio ioengine_ops model.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes of a host or CA name with its NUL: the longest legal host name
 * (64, Linux HOST_NAME_MAX) fits whole; longer ones are refused (D16). */
#define DPATH_NAME_MAX 65
#define DPATH_MAX_QPS 16
#define DPATH_COUNTER_NAME_MAX 48 /* sysfs counter names */
#define DPATH_WINDOW_MS 100 /* gbps_min is the lowest window of this length */
#define DPATH_MAX_WINDOWS 4096
#define DPATH_MAX_ERR_STATUS 4 /* distinct completion statuses kept */

/* One local HCA port as the inventory sees it (written as a `port` record). */
struct dpath_port {
	char host[DPATH_NAME_MAX];
	char ca[DPATH_NAME_MAX]; /* mlx5_0, rxe0 */
	int port; /* 1-based */
	uint64_t guid; /* port GUID (host byte order) */
	uint16_t lid;
	uint8_t gid[16]; /* GID used for RoCE / global routing */
	int gid_index; /* -1: no GRH (InfiniBand, same subnet) */
	bool ethernet; /* link_layer Ethernet (RoCE) */
	char state[16]; /* "ACTIVE" */
	char phys_state[24]; /* "LinkUp" */
	double rate_gbps; /* active data rate; RoCE: netdev speed */
	int width; /* active lanes (1, 2, 4, 8, 12); 0 unknown */
	char speed[8]; /* active lane speed "EDR"; "" unknown */
	int active_mtu; /* bytes */
	int numa_node; /* -1 unknown */
	char pci_addr[16]; /* "0000:c1:00.0", "" unknown */
	char netdev[32]; /* RoCE: eth0; "" for InfiniBand */
	int rail; /* local index among all the host's ports
					 * (devices in natural name order, any
					 * state, selected or not) */
	/* The switch the port's cable lands on (--topology), rank 0 only: */
	uint64_t leaf_guid; /* its node GUID; 0 unknown */
	int leaf_port; /* its port number; 0 unknown */
	char leaf_name[DPATH_NAME_MAX + 1]; /* NodeDescription, untrusted */
};

enum dpath_test { DPATH_TEST_WRITE, DPATH_TEST_READ };

/* How a pair's QPs get connected (--cm). */
enum dpath_cm_mode {
	DPATH_CM_BOOTSTRAP, /* QPN, PSN, LID/GID over MPI; QPs moved by us */
	DPATH_CM_RDMACM, /* librdmacm resolves the peer's IP, connects */
};

struct dpath_params {
	enum dpath_test test;
	bool bidir; /* both ends post (write) or read from each other */
	size_t msg_size; /* bytes per work request, default 1 MiB */
	int qps; /* RC QPs per pair, default 4 */
	int tx_depth; /* outstanding work requests per QP */
	double duration_s; /* measurement window, warm-up excluded */
	double warmup_s;
	double stall_s; /* no completion for this long -> error: stalled */
	int retry_cnt; /* finite (3): a dead link must surface as an error */
	int qp_timeout; /* local ACK timeout 4.096 us x 2^N per try;
				 * 0: the default, 14 (67 ms) */
	bool verify; /* check a data pattern end to end */
	enum dpath_cm_mode cm;
	double connect_timeout_s; /* rdma_cm: resolve and connect by this */
	int step; /* the step's number, the same on every rank (the fake's
		   * fabric shares cables among the flows of one step) */
	int sl; /* --sl: every QP's service level (the address vector's) */
};

/*
 * Opaque blob exchanged between the two ends (over MPI, or in-process) to
 * connect their QPs. Fixed size so a bootstrap can move it as bytes.
 */
struct dpath_conn_info {
	uint8_t bytes[512];
};

/* Error completions of one status ("transport retry counter exceeded"). */
struct dpath_status_count {
	char status[48]; /* ibv_wc_status_str() */
	uint64_t count;
};

/* What one end measured. Filled by run(); times from CLOCK_MONOTONIC. */
struct dpath_result {
	double gbps; /* average over the measurement window */
	double gbps_min; /* lowest DPATH_WINDOW_MS window */
	uint64_t bytes; /* moved in the measurement window */
	double seconds; /* length of the measurement window */
	uint64_t completions;
	uint64_t error_completions;
	char error[160]; /* "" when ok; "stalled: 12 outstanding", ... */
	bool verify_failed;
	/* error_completions by status, first seen first; when more statuses
	 * appear than fit, the last slot becomes "other" and counts them. */
	struct dpath_status_count errors[DPATH_MAX_ERR_STATUS];
	int n_errors;
};

enum dpath_role {
	DPATH_ROLE_INITIATOR, /* posts the RDMA operations */
	DPATH_ROLE_TARGET, /* passive side of a unidirectional test */
	DPATH_ROLE_BOTH, /* bidirectional: both ends post */
};

struct dpath_endpoint; /* one end of a pair: PD, CQ, QPs, MRs on a port */

struct dpath_transport_ops {
	const char *name; /* "verbs", "fake" */
	/*
	 * What the orchestration may rely on, set by each backend, so that no
	 * file outside rdma/ asks which backend it holds:
	 * has_mad_port: each port is an HCA port that a umad client opens by
	 * the same CA name and port number (the fake's fakeN are not);
	 * judge_delay_s: optional (NULL: none), seconds rank 0's judging
	 * between rounds is made to take longer (the fake's judge-s, a
	 * cluster too big to judge quickly).
	 */
	bool has_mad_port;
	double (*judge_delay_s)(void);
	/* Local ports to test: filter "mlx5_0:1,mlx5_1:1" or NULL = all ACTIVE. */
	int (*list_ports)(const char *filter, struct dpath_port **ports,
			  int *n_ports);
	int (*endpoint_create)(const struct dpath_port *port,
			       const struct dpath_params *params,
			       struct dpath_endpoint **ep);
	void (*local_info)(struct dpath_endpoint *ep,
			   struct dpath_conn_info *info);
	/* 0, or -errno (res->error says why when the backend knows). */
	int (*connect)(struct dpath_endpoint *ep,
		       const struct dpath_conn_info *remote,
		       struct dpath_result *res);
	/*
	 * Runs the test for warmup + duration. A target returns once its
	 * peer's traffic window has passed (it cannot see completions of
	 * one-sided operations) or at the deadline. Never blocks past
	 * duration + warmup + stall_s. 0, or -errno with res->error set.
	 */
	int (*run)(struct dpath_endpoint *ep, enum dpath_role role,
		   struct dpath_result *res);
	void (*endpoint_destroy)(struct dpath_endpoint *ep);
	/* sysfs port counters (counters/ and hw_counters/): name -> value. */
	int (*read_counters)(const struct dpath_port *port,
			     char (*names)[DPATH_COUNTER_NAME_MAX],
			     uint64_t *values, int max, int *n);
};

extern const struct dpath_transport_ops dpath_verbs_ops;

/* The backend called name ("verbs", "fake"), NULL when there is none. */
const struct dpath_transport_ops *dpath_transport_find(const char *name);

#endif
