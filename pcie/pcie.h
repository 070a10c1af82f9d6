/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_PCIE_PCIE_H
#define IBPROOF_PCIE_PCIE_H

/*
 * ibproof pcie: the PCIe audit of one node. The flow is
 *   sysfs (root given) -> pcie_topo (plain model) -> pcie_audit() -> findings
 * and the audit never touches a device: config space comes in through
 * struct pcie_config_ops (libpci, or a captured tree's `config` files).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#define PCIE_BDF_LEN 16 /* "0000:c1:00.0" */
#define PCIE_NAME_LEN 64 /* "mlx5_3" */
#define PCIE_PATH_LEN 512 /* sysfs paths, relative to the root */
#define PCIE_AER_MAX 24 /* counters per aer_dev_* file */
#define PCIE_NOTE_LEN 160

/* ---- topo.c: the devices that matter and their bridges ---- */

enum pcie_role {
	PCIE_ROLE_OTHER,
	PCIE_ROLE_BRIDGE,
	PCIE_ROLE_HCA, /* vendor 0x15b3, class 0x0207 or 0x0200 */
	PCIE_ROLE_GPU, /* class 0x0300, 0x0302 */
	PCIE_ROLE_NVME, /* class 0x0108 */
};

/* One end's view of its link; 0 = unknown ("Unknown" speed, width 0). */
struct pcie_link {
	double cur_gts, max_gts; /* GT/s */
	int cur_width, max_width;
	bool present; /* the link attributes exist at all */
	bool missing; /* some of the four are missing */
};

enum pcie_aer_kind {
	PCIE_AER_COR,
	PCIE_AER_NONFATAL,
	PCIE_AER_FATAL,
	PCIE_AER_KINDS
};

struct pcie_aer_file {
	bool present;
	int n;
	char names[PCIE_AER_MAX][24];
	uint64_t values[PCIE_AER_MAX];
	uint64_t total;
};

enum pcie_acs_state {
	PCIE_ACS_NOT_READ, /* not needed, or not attempted */
	PCIE_ACS_OK, /* ctrl holds the ACS Control register */
	PCIE_ACS_NO_CAP, /* the port has no ACS capability */
	PCIE_ACS_UNREADABLE, /* extended config space not readable */
};

struct pcie_dev {
	char bdf[PCIE_BDF_LEN];
	char path[PCIE_PATH_LEN]; /* devices/pci0000:00/0000:00:01.0/... */
	uint16_t vendor, device;
	uint32_t class; /* 24 bits: 0x020700 */
	int parent; /* index in topo->devs, -1 at a host bridge */
	int depth; /* 0: on the root bus (root port, RCiEP) */
	enum pcie_role role;
	bool relevant; /* an HCA/GPU/NVMe or a bridge above one */
	struct pcie_link link;
	int numa_node; /* -1 unknown */
	char ibdev[PCIE_NAME_LEN * 4]; /* "mlx5_3" for an HCA, else "";
					 * as text (common/text.h) */
	struct pcie_aer_file aer[PCIE_AER_KINDS];
	enum pcie_acs_state acs;
	uint16_t acs_cap, acs_ctrl;
	char acs_why[PCIE_NOTE_LEN]; /* why ACS was not read */
	char problem[PCIE_NOTE_LEN]; /* attributes that could not be read */
	json_t *kernel_lines; /* "limited by" lines naming it, or NULL */
};

struct pcie_topo {
	char root[PCIE_PATH_LEN];
	struct pcie_dev *devs;
	int n;
};

/* Scans root/bus/pci/devices; 0 or -errno (logged, naming the path). */
int pcie_topo_scan(const char *root, struct pcie_topo *topo);
void pcie_topo_free(struct pcie_topo *topo);
int pcie_topo_find(const struct pcie_topo *topo, const char *bdf);
/* "HCA", "GPU", "NVMe", "PCIe bridge", "device". */
const char *pcie_role_name(enum pcie_role role);
enum pcie_role pcie_role_of(uint16_t vendor, uint32_t class);
/* What a person calls it: "mlx5_3, HCA", "GPU", "bridge above mlx5_3". */
void pcie_dev_what(const struct pcie_topo *topo, int i, char *buf, size_t len);
/* Parses "16.0 GT/s PCIe", "8 GT/s", "Unknown"; 0 when unknown. */
double pcie_parse_gts(const char *s);
/* Index of the lowest common ancestor bridge of a and b, -1 if none. */
int pcie_topo_common_ancestor(const struct pcie_topo *topo, int a, int b);
/* The common ancestor is a PCIe switch port (not the root port). */
bool pcie_topo_same_switch(const struct pcie_topo *topo, int a, int b);

/* ---- config.c / config_libpci.c: extended config space ---- */

#define PCIE_EXT_CAP_ACS 0x000d
#define PCIE_ACS_SV 0x0001 /* source validation */
#define PCIE_ACS_TB 0x0002 /* translation blocking */
#define PCIE_ACS_RR 0x0004 /* P2P request redirect */
#define PCIE_ACS_CR 0x0008 /* P2P completion redirect */
#define PCIE_ACS_UF 0x0010 /* upstream forwarding */
#define PCIE_ACS_EC 0x0020 /* P2P egress control */
#define PCIE_ACS_DT 0x0040 /* direct translated P2P */
/* The controls that send peer traffic up to the root complex or block it. */
#define PCIE_ACS_P2P_BREAKING (PCIE_ACS_RR | PCIE_ACS_CR | PCIE_ACS_EC)

struct pcie_config_ops {
	const char *name;
	/*
	 * ACS Capability and Control registers of one device: 0, -ENOENT (no
	 * ACS capability), -EACCES (extended config space not readable).
	 */
	int (*read_acs)(void *ctx, const struct pcie_dev *dev, uint16_t *cap,
			uint16_t *ctrl);
	void *ctx;
};

/* Walks an extended capability list in a config space image. */
int pcie_config_find_ext_cap(const uint8_t *cfg, size_t len, uint16_t id);
/* The `config` files of a captured tree (root = --sysfs-root). */
void pcie_config_files_init(struct pcie_config_ops *ops, const char *root);
/* libpci on the running system; NULL ctx + log when libpci fails. */
int pcie_config_libpci_init(struct pcie_config_ops *ops);
void pcie_config_libpci_fini(struct pcie_config_ops *ops);
/* "RR CR EC" style names of set ACS control bits; buf of 40 bytes. */
const char *pcie_acs_names(uint16_t ctrl, char *buf, size_t len);

/* ---- kmsg.c: the kernel's "limited by ... PCIe" lines ---- */

/*
 * Reads a kernel log (/dev/kmsg records, or a saved dmesg text file), at
 * most max_lines lines and timeout_s seconds, and attaches each "limited by"
 * line to the device it names. 0, or -errno (not readable: a skipped check).
 */
int pcie_kmsg_collect(const char *path, struct pcie_topo *topo,
		      double timeout_s, long max_lines, int *n_found);
/* The BDF a kernel line names, and whether it is a "limited by" line. */
bool pcie_kmsg_parse(const char *line, char bdf[PCIE_BDF_LEN]);

/* ---- audit.c: pure judgement, topo in, findings out ---- */

struct pcie_hop {
	int up, down; /* indices: downstream port, upstream end */
	double cur_gts, cap_gts; /* cap = min(both ends' max) */
	int cur_width, cap_width;
	bool judged;
	char why[PCIE_NOTE_LEN]; /* why it was not judged */
};

/* The link above device i (i at odd depth): false if it has none. */
bool pcie_hop_of(const struct pcie_topo *topo, int i, struct pcie_hop *hop);

struct pcie_baseline; /* AER counters of a previous run, by BDF */

struct pcie_audit {
	json_t *findings; /* array of finding records */
	json_t *skipped; /* array of strings: check: why */
	json_t *notes; /* array of strings */
	int n_fail, n_warn;
	int n_error; /* measurements that could not run: exit 3 */
	/* scope (issue 32): the links above the relevant devices, and those
	 * judged; one not judged is a not-tested finding, the run INCOMPLETE */
	int links_in_scope, links_judged;
};

/* Some link in scope was not judged (and so the run is INCOMPLETE). */
bool pcie_audit_incomplete(const struct pcie_audit *a);

int pcie_audit_init(struct pcie_audit *a);
void pcie_audit_free(struct pcie_audit *a);
void pcie_audit_skip(struct pcie_audit *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Appends a finding (stolen) and counts it. */
void pcie_audit_add(struct pcie_audit *a, json_t *finding);
/* Subject of a finding about device i: host, bdf, vendor_device, what. */
json_t *pcie_subject(const struct pcie_topo *topo, int i);

void pcie_audit_links(const struct pcie_topo *topo, struct pcie_audit *a);
void pcie_audit_aer(const struct pcie_topo *topo,
		    const struct pcie_baseline *base, struct pcie_audit *a);
/* Reads ACS where needed (ports between a GPU and an HCA) and judges it. */
void pcie_audit_acs(struct pcie_topo *topo, const struct pcie_config_ops *ops,
		    struct pcie_audit *a);

/* ---- baseline.c: AER counters of a previous records file ---- */

/* Loads pcie records of path; NULL + errno (message printed: file:line). */
struct pcie_baseline *pcie_baseline_load(const char *path);
void pcie_baseline_free(struct pcie_baseline *b);
/* The baseline total of one AER kind, false if the device was not there. */
bool pcie_baseline_aer(const struct pcie_baseline *b, const char *bdf,
		       enum pcie_aer_kind kind, uint64_t *total);

/* ---- dma.c: DMA bandwidth through each HCA port ---- */

enum pcie_dma_test { PCIE_DMA_WRITE, PCIE_DMA_READ };

struct pcie_dma_ops {
	const char *name;
	/*
	 * K samples of RDMA test loopback on ca:port, in GB/s (10^9 bytes/s).
	 * 0, or -errno with err set.
	 */
	int (*measure)(const char *ca, int port, enum pcie_dma_test test,
		       int samples, double *GBps, char *err, size_t errlen);
};

extern const struct pcie_dma_ops pcie_dma_loopback_ops;

/* Usable PCIe bandwidth of a link after encoding, GB/s (one direction). */
double pcie_usable_GBps(double gts, int width);
/* The documented floor: PCIE_DMA_FLOOR_FRACTION of the usable bandwidth. */
#define PCIE_DMA_FLOOR_FRACTION 0.80
double pcie_dma_floor_GBps(double gts, int width);
/* Narrowest hop (by usable bandwidth at capability) from device i up. */
bool pcie_path_capability(const struct pcie_topo *topo, int i, double *gts,
			  int *width);

struct pcie_dma_sample_stats {
	double median, min, max;
};
void pcie_dma_stats(const double *v, int n, struct pcie_dma_sample_stats *s);

struct pcie_dma_port {
	char ca[PCIE_NAME_LEN]; /* the name in sysfs, bytes */
	char ca_text[PCIE_NAME_LEN * 4]; /* the same as text: records */
	int port;
	int dev; /* index of the HCA in the topo, -1 none */
	double floor_GBps; /* 0 = not judged */
	char floor_why[PCIE_NOTE_LEN];
};

/* ACTIVE ports of root/class/infiniband, with their PCIe device. */
int pcie_dma_ports(const struct pcie_topo *topo, const char *ca_filter,
		   int port_filter, struct pcie_dma_port **ports, int *n);

struct pcie_records; /* output sink, see report.c */

/* Measures every port and judges it; findings into a, records out. */
void pcie_dma_run(const struct pcie_topo *topo, const struct pcie_dma_ops *ops,
		  const struct pcie_dma_port *ports, int n, int samples,
		  struct pcie_audit *a, struct pcie_records *out);

/* ---- report.c: records, JSON summary, the human summary ---- */

struct pcie_records *pcie_records_open(const char *records, const char *json);
/* Writes rec to the records file and keeps it for the JSON summary. */
void pcie_records_emit(struct pcie_records *r, json_t *rec);
/* Writes the findings added since the last call (flushed as produced). */
void pcie_records_findings(struct pcie_records *r, const struct pcie_audit *a);
/* One `pcie` record per relevant device (with hop, AER, ACS, locality). */
void pcie_records_devices(struct pcie_records *r, const struct pcie_topo *t);
json_t *pcie_device_record(const struct pcie_topo *topo, int i);
void pcie_report_summary(FILE *f, const struct pcie_topo *topo,
			 const struct pcie_audit *a,
			 const struct pcie_records *r);
/* Writes findings, the run end record and the JSON file. 0 or -errno. */
int pcie_records_close(struct pcie_records *r, const struct pcie_audit *a,
		       int exit_code);

/* ---- the whole audit, for the CLI and the tests ---- */

struct pcie_options {
	const char *sysfs_root; /* "/sys" by default */
	const char *baseline;
	const char *kernel_log; /* NULL: /dev/kmsg when sysfs_root is /sys */
	bool no_dma;
	int samples;
	const char *ca;
	int port;
	double timeout_s;
	const struct pcie_config_ops *config; /* NULL: chosen by the root */
	const struct pcie_dma_ops *dma; /* NULL: loopback */
};

/*
 * Runs the audit; fills a (initialised by the caller) and writes records to
 * out (may be NULL). Returns an exit code (IBP_EXIT_*).
 */
int pcie_run(const struct pcie_options *o, struct pcie_topo *topo,
	     struct pcie_audit *a, struct pcie_records *out);

#endif
