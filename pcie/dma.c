// SPDX-License-Identifier: MIT
/*
 * DMA bandwidth through each HCA port: RDMA WRITE and READ loopback on the
 * same port moves host memory -> PCIe -> HCA -> PCIe -> host memory, so it
 * measures the PCIe path with no GPU and no CUDA. Judged against a floor:
 * PCIE_DMA_FLOOR_FRACTION of the usable bandwidth of the narrowest hop on
 * the HCA's path to the root port (and of the port's own data rate).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/record.h"
#include "pcie/pcie.h"

double pcie_usable_GBps(double gts, int width)
{
	double enc;

	if (gts <= 0 || width <= 0)
		return 0;
	if (gts <= 5.0 + 1e-9)
		enc = 8.0 / 10.0; /* Gen1, Gen2: 8b/10b */
	else if (gts <= 32.0 + 1e-9)
		enc = 128.0 / 130.0; /* Gen3 to Gen5: 128b/130b */
	else
		enc = 242.0 / 256.0; /* Gen6 FLIT mode: 242 of 256 bytes */
	return gts * width * enc / 8.0;
}

double pcie_dma_floor_GBps(double gts, int width)
{
	return PCIE_DMA_FLOOR_FRACTION * pcie_usable_GBps(gts, width);
}

bool pcie_path_capability(const struct pcie_topo *t, int i, double *gts,
			  int *width)
{
	double best = 0;
	bool any = false;
	struct pcie_hop h;
	int hops = 0;

	for (int d = i; d >= 0 && hops++ <= t->n; d = t->devs[d].parent) {
		double g, bw;
		int w;

		if (!pcie_hop_of(t, d, &h))
			continue;
		g = h.cap_gts > 0 ? h.cap_gts : h.cur_gts;
		w = h.cap_width > 0 ? h.cap_width : h.cur_width;
		bw = pcie_usable_GBps(g, w);
		if (bw <= 0 || (any && bw >= best))
			continue;
		best = bw;
		*gts = g;
		*width = w;
		any = true;
	}
	return any;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void pcie_dma_stats(const double *v, int n, struct pcie_dma_sample_stats *s)
{
	double sorted[n > 0 ? n : 1];

	memset(s, 0, sizeof(*s));
	if (n <= 0)
		return;
	memcpy(sorted, v, (size_t)n * sizeof(*v));
	qsort(sorted, (size_t)n, sizeof(*sorted), cmp_double);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median =
		n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

static const char *const test_names[] = { "write", "read" };

static json_t *dma_record(const struct pcie_topo *t,
			  const struct pcie_dma_port *p,
			  enum pcie_dma_test test, const double *v, int n,
			  const struct pcie_dma_sample_stats *s)
{
	json_t *rec = record_new("pcie"), *samples = json_array();

	for (int k = 0; k < n; k++)
		json_array_append_new(samples, json_real(v[k]));
	json_object_set_new(
		rec, "bdf",
		json_string(p->dev >= 0 ? t->devs[p->dev].bdf : ""));
	json_object_set_new(rec, "check", json_string("dma-loopback"));
	json_object_set_new(rec, "ca", json_string(p->ca_text));
	json_object_set_new(rec, "port", json_integer(p->port));
	json_object_set_new(rec, "test", json_string(test_names[test]));
	json_object_set_new(rec, "samples_GBps", samples);
	json_object_set_new(rec, "median_GBps", json_real(s->median));
	json_object_set_new(rec, "min_GBps", json_real(s->min));
	json_object_set_new(rec, "max_GBps", json_real(s->max));
	json_object_set_new(rec, "floor_GBps",
			    p->floor_GBps > 0 ? json_real(p->floor_GBps)
					      : json_null());
	json_object_set_new(rec, "floor", json_string(p->floor_why));
	return rec;
}

static void judge_dma(const struct pcie_topo *t, const struct pcie_dma_port *p,
		      enum pcie_dma_test test, int n,
		      const struct pcie_dma_sample_stats *s,
		      struct pcie_audit *a)
{
	const struct pcie_dev *d;
	char what[PCIE_NOTE_LEN];

	/* a port with no PCI device (p->dev < 0) has no floor to judge by,
	 * and no t->devs[] entry to point at (D25) */
	if (p->dev < 0 || p->floor_GBps <= 0 || s->median >= p->floor_GBps)
		return;
	d = &t->devs[p->dev];
	pcie_dev_what(t, p->dev, what, sizeof(what));
	pcie_audit_add(
		a,
		record_finding(
			"fail", "pcie-low-dma-bandwidth",
			pcie_subject(t, p->dev),
			json_pack("{s:s, s:i, s:s, s:i, s:f, s:f, s:f, s:s}",
				  "ca", p->ca_text, "port", p->port, "test",
				  test_names[test], "samples", n, "median_GBps",
				  s->median, "min_GBps", s->min, "floor_GBps",
				  p->floor_GBps, "floor", p->floor_why),
			"check-pcie",
			"%s (%04x:%04x, %s) port %d: RDMA %s loopback moves %.2f GB/s "
			"(median of %d, min %.2f GB/s), under the floor of %.2f GB/s",
			d->bdf, d->vendor, d->device, what, p->port,
			test_names[test], s->median, n, s->min, p->floor_GBps));
}

void pcie_dma_run(const struct pcie_topo *t, const struct pcie_dma_ops *ops,
		  const struct pcie_dma_port *ports, int n, int samples,
		  struct pcie_audit *a, struct pcie_records *out)
{
	double v[samples > 0 ? samples : 1];
	struct pcie_dma_sample_stats s;
	char err[256];

	for (int i = 0; i < n; i++) {
		const struct pcie_dma_port *p = &ports[i];

		for (int test = PCIE_DMA_WRITE; test <= PCIE_DMA_READ; test++) {
			err[0] = '\0';
			if (ops->measure(p->ca, p->port, test, samples, v, err,
					 sizeof(err))) {
				pcie_audit_skip(a,
						"dma: %s port %d RDMA %s "
						"loopback: %s",
						p->ca_text, p->port,
						test_names[test], err);
				a->n_error++;
				continue;
			}
			pcie_dma_stats(v, samples, &s);
			pcie_records_emit(
				out, dma_record(t, p, test, v, samples, &s));
			judge_dma(t, p, test, samples, &s, a);
		}
	}
}
