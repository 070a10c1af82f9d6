/* SPDX-License-Identifier: MIT */
/*
 * fabric_ops.h: the seams to the MAD libraries. Every ibnd_* call lives in
 * ibnd_ops.c, every mad_* (libibmad) call in mad_ops.c; the rest of fabric/
 * sees only these tables and plain model/counter structs. Unit tests put
 * fakes behind them; the sim tier runs the real ones against ibsim.
 */
#ifndef IBPROOF_FABRIC_OPS_H
#define IBPROOF_FABRIC_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/fabric_counters.h"
#include "fabric/fabric_model.h"

struct fabric_disc_params {
	const char *ca; /* NULL = first */
	int port; /* 0 = first active */
	unsigned timeout_ms; /* per MAD, 0 = library default */
	const char *cache_out; /* also write an ibnetdiscover cache */
	uint64_t mkey; /* M_Key of every SMP of the walk (0: none) */
};

struct fabric_disc_ops {
	/* Walks the fabric by directed route from the local port. */
	int (*discover)(const struct fabric_disc_params *p,
			struct fabric **out);
	/* Reads an ibnetdiscover --cache file. */
	int (*load_cache)(const char *path, struct fabric **out);
};

struct fabric_pma;

enum fabric_pma_kind {
	FABRIC_PMA_COUNTERS, /* PortCounters */
	FABRIC_PMA_COUNTERS_EXT, /* PortCountersExtended (data; errors too
				  * with ext_err) */
	FABRIC_PMA_CLASS_INFO, /* ClassPortInfo -> ext */
};

/*
 * One query of a batch; status 0 when answered, -ETIMEDOUT when not,
 * -EREMOTEIO when answered with a non-zero MAD status (in mad_status).
 */
struct fabric_pma_req {
	uint16_t lid;
	uint8_t port;
	uint8_t kind; /* enum fabric_pma_kind */
	struct fabric_pc *out; /* counters kinds */
	bool ext; /* class info: PortCountersExtended supported */
	bool ext_err; /* class info: and its 64-bit error counters; an
		       * extended read: decode them */
	int tag; /* the caller's (port id, node index) */
	int status;
	uint16_t mad_status; /* with -EREMOTEIO: the answer's MAD status */
};

struct fabric_pma_ops {
	int (*open)(const char *ca, int port, unsigned timeout_ms,
		    struct fabric_pma **out);
	/* Many queries, several in flight; fills each req's status. */
	int (*batch)(struct fabric_pma *h, struct fabric_pma_req *reqs,
		     size_t n);
	int (*reset)(struct fabric_pma *h, uint16_t lid, int port, bool ext);
	void (*close)(struct fabric_pma *h);
};

struct fabric_smp;

/*
 * SMPs by directed route (path[1..hops], path[0] = 0): switch tables, and
 * the Mellanox CableInfo SMP (attribute 0xFF60, 48 bytes of a port's module
 * per MAD; ibsim does not answer it: tests put a fake with module images
 * behind it).
 */
struct fabric_smp_ops {
	/* timeout_ms: each SMP's; retries: per SMP after a timeout. */
	int (*open)(const char *ca, int port, unsigned timeout_ms, int retries,
		    struct fabric_smp **out);
	/*
	 * SwitchInfo's LinearFDBTop into *top, then the LinearForwardingTable
	 * blocks (64 entries each) into ports[0..top]. 0; -ETIMEDOUT when
	 * the switch did not answer; -EREMOTEIO when it answered with a
	 * non-zero MAD status (*mad_status, the 15 bits of a directed-route
	 * SMP's status); -EPROTO for a LinearFDBTop past the unicast LIDs.
	 */
	int (*read_lft)(struct fabric_smp *h, const uint8_t *path, int hops,
			uint16_t *top, uint8_t *ports, int *mad_status);
	/*
	 * Reads len (<= 48) bytes at offset (offset + len <= 256) of page
	 * (0-15) at I2C address i2c (0x50/0x51) of the module in `port` of the
	 * node at the directed route. Waits at most timeout_ms. 0;
	 * -ETIMEDOUT; -EIO with *status the CableInfo status (1-9, the MAD
	 * status >> 8), or minus the MAD status for one without a
	 * CableInfo status (-0x0c: unsupported attribute).
	 */
	int (*read_cableinfo)(struct fabric_smp *h, const uint8_t *path,
			      int hops, int port, int i2c, int page, int offset,
			      int len, unsigned timeout_ms, uint8_t *buf,
			      int *status);
	/*
	 * AdaptiveRoutingInfo (vendor attribute 0xFF20, fabric/ar_info.h):
	 * its first FABRIC_AR_INFO_BYTES into buf. 0; -ETIMEDOUT; -EREMOTEIO
	 * with *status the MAD status (a switch without AR refuses it).
	 * Optional: NULL when the backend cannot send it.
	 */
	int (*read_ar_info)(struct fabric_smp *h, const uint8_t *path, int hops,
			    uint8_t *buf, int *status);
	void (*close)(struct fabric_smp *h);
	/* Every later SMP of h carries this M_Key (never logged). */
	void (*set_mkey)(struct fabric_smp *h, uint64_t mkey);
};

extern const struct fabric_disc_ops fabric_ibnd_ops;
extern const struct fabric_smp_ops fabric_mad_smp_ops;
extern const struct fabric_pma_ops fabric_mad_pma_ops;

#endif
