// SPDX-License-Identifier: MIT
/*
 * The light check's node_exporter textfile (the Prometheus text exposition
 * format, version 0.0.4): every metric declared once in the table below
 * with its HELP and TYPE, samples grouped under it. Label values come from
 * sysfs (untrusted bytes): made valid UTF-8 (common/text.h) and escaped
 * (backslash, double quote, newline) as the format wants. The file is
 * written beside its final name and renamed, so node_exporter never reads
 * half of it.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/text.h"
#include "node/light.h"

static const struct light_metric_def {
	const char *name, *help;
} defs[] = {
	{ "ibproof_light_run_timestamp_seconds",
	  "UTC time of the last light check" },
	{ "ibproof_light_duration_seconds", "How long the light check took" },
	{ "ibproof_light_exit_code",
	  "Exit code of the last light check: 0 pass, 1 fail, 3 could not "
	  "test" },
	{ "ibproof_light_findings",
	  "Findings of the last light check by severity" },
	{ "ibproof_port_up", "1 when the HCA port is ACTIVE and LinkUp" },
	{ "ibproof_port_data_rate_gbps",
	  "Data rate of the HCA port in Gb/s (lanes x lane rate)" },
	{ "ibproof_port_error_increase",
	  "Increase of an error counter of the port since the last run" },
	{ "ibproof_pcie_link_speed_gts", "Current PCIe link speed in GT/s" },
	{ "ibproof_pcie_link_capable_speed_gts",
	  "Speed both ends of the PCIe link support, in GT/s" },
	{ "ibproof_pcie_link_width", "Current PCIe link width in lanes" },
	{ "ibproof_pcie_link_capable_width",
	  "Width both ends of the PCIe link support, in lanes" },
	{ "ibproof_pcie_gpu_speed_alarm",
	  "1 when no run within the window saw the GPU link at its capable "
	  "speed" },
	{ "ibproof_pcie_aer_increase",
	  "Increase of the AER error count of the device since the last run" },
	{ "ibproof_kernel_events_new",
	  "Kernel log events since the last run, by kind" },
	{ "ibproof_dma_sample_bytes_per_second",
	  "Last DMA loopback sample through the HCA port (lower of WRITE and "
	  "READ)" },
	{ "ibproof_dma_mean_bytes_per_second",
	  "Mean of the last K DMA loopback samples" },
	{ "ibproof_dma_floor_bytes_per_second",
	  "Floor of the port's PCIe path (generation and width)" },
	{ "ibproof_dma_samples", "Samples in the mean (K when judged)" },
	{ "ibproof_dma_low",
	  "1 when the mean of the last K samples is under the floor" },
};

#define N_DEFS (sizeof(defs) / sizeof(defs[0]))

struct light_metric {
	size_t def;
	char *labels; /* a="x",b="y" escaped, or "" */
	double value;
};

struct light_metric_set {
	struct light_metric *m;
	size_t n, cap;
};

struct light_metric_set *light_metrics_new(void)
{
	return calloc(1, sizeof(struct light_metric_set));
}

void light_metrics_free(struct light_metric_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->m[i].labels);
	free(s->m);
	free(s);
}

/* Appends name="value" (value as text, escaped) to buf at *off. */
static void put_label(char *buf, size_t len, size_t *off, const char *name,
		      const char *value)
{
	char text[512];

	text_from_bytes(text, sizeof(text), value, strlen(value));
	*off += (size_t)snprintf(buf + *off, len - *off, "%s%s=\"",
				 *off ? "," : "", name);
	for (const char *p = text; *p && *off + 3 < len; p++) {
		if (*p == '\\' || *p == '"')
			buf[(*off)++] = '\\';
		if (*p == '\n') {
			buf[(*off)++] = '\\';
			buf[(*off)++] = 'n';
			continue;
		}
		buf[(*off)++] = *p;
	}
	*off += (size_t)snprintf(buf + *off, len - *off, "\"");
}

static size_t def_of(const char *name)
{
	for (size_t i = 0; i < N_DEFS; i++)
		if (!strcmp(defs[i].name, name))
			return i;
	return N_DEFS;
}

void light_metric(struct light_metric_set *s, const char *name, double value,
		  ...)
{
	char labels[2048];
	size_t off = 0, d = def_of(name);
	const char *ln;
	va_list ap;

	if (!s || d == N_DEFS) {
		log_error("light: metric %s is not declared", name);
		return;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct light_metric *g = realloc(s->m, cap * sizeof(*g));

		if (!g)
			return;
		s->m = g;
		s->cap = cap;
	}
	labels[0] = '\0';
	va_start(ap, value);
	while ((ln = va_arg(ap, const char *)) && off + 8 < sizeof(labels))
		put_label(labels, sizeof(labels), &off, ln,
			  va_arg(ap, const char *));
	va_end(ap);
	s->m[s->n] = (struct light_metric){ d, strdup(labels), value };
	if (s->m[s->n].labels)
		s->n++;
}

static void put_value(FILE *f, double v)
{
	if (isnan(v))
		fputs("NaN", f);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", f);
	else
		fprintf(f, "%.17g", v);
}

void light_metrics_write(FILE *f, const struct light_metric_set *s)
{
	for (size_t d = 0; d < N_DEFS; d++) {
		bool head = false;

		for (size_t i = 0; i < s->n; i++) {
			if (s->m[i].def != d)
				continue;
			if (!head)
				fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n",
					defs[d].name, defs[d].help,
					defs[d].name);
			head = true;
			fputs(defs[d].name, f);
			if (s->m[i].labels[0])
				fprintf(f, "{%s}", s->m[i].labels);
			fputc(' ', f);
			put_value(f, s->m[i].value);
			fputc('\n', f);
		}
	}
}

int light_metrics_save(const char *path, const struct light_metric_set *s)
{
	char tmp[4096];
	FILE *f;
	int ret = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid()) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "we");
	if (!f) {
		ret = -errno;
		log_error("--textfile %s: cannot write: %m", tmp);
		return ret;
	}
	light_metrics_write(f, s);
	if (fflush(f) || fsync(fileno(f)))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		log_error("--textfile %s: cannot write: %s", path,
			  strerror(-ret));
		unlink(tmp);
	}
	return ret;
}
