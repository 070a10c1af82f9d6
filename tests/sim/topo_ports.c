// SPDX-License-Identifier: MIT
/*
 * topo_ports: ibnetdiscover topology text -> burnin `port` records, one per
 * CA port, as `ibproof burnin` writes them for the hosts (docs/records.md):
 * host and CA from the NodeDescription ("node001 mlx5_0"), the port GUID,
 * LID, width and speed from the port line, rail = the port's index among
 * its host's ports in natural device order, rank = the host's index (one
 * rank a host). No `leaf`: burnin finds the leaves itself with --topology.
 * The topology is read by the project's own parser (fabric/fabric_topo.c)
 * and each record built by burnin's own burnin_port_record(), so a test
 * needs no second parser and no second record writer.
 *
 *   topo_ports TOPOLOGY [OUT]    # OUT defaults to stdout
 *
 * Exit 0, or 2 with "FILE: what was expected" on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "burnin/coord.h"
#include "common/ibport.h"
#include "common/ibrate.h"
#include "common/record.h"
#include "fabric/fabric_model.h"
#include "fabric/fabric_topo.h"

/* By host, then device in natural order (mlx5_2 before mlx5_10), port. */
static int port_cmp_natural(const void *a, const void *b)
{
	const struct dpath_port *x = a, *y = b;
	int c = strcmp(x->host, y->host);

	if (!c)
		c = strverscmp(x->ca, y->ca);
	return c ? c : x->port - y->port;
}

/* What the topology says of one linked CA port (it lists no others). */
static void port_from_topo(const struct fabric_port *fp, const char *host,
			   const char *ca, struct dpath_port *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->host, sizeof(p->host), "%s", host);
	snprintf(p->ca, sizeof(p->ca), "%s", ca);
	p->port = fp->num;
	p->guid = fp->guid;
	p->lid = fp->lid;
	p->gid_index = -1; /* InfiniBand, one subnet: no GRH */
	snprintf(p->state, sizeof(p->state), "%s",
		 ib_port_state_name(IB_PORT_STATE_ACTIVE));
	snprintf(p->phys_state, sizeof(p->phys_state), "%s",
		 ib_phys_state_name(IB_PHYS_STATE_LINKUP));
	p->rate_gbps = ib_data_rate_gbps(fp->speed, fp->width);
	p->width = fp->width;
	if (fp->speed)
		snprintf(p->speed, sizeof(p->speed), "%s",
			 ib_speed_name(fp->speed));
	p->numa_node = -1;
}

/* The linked ports of CA nodes, sorted; -EINVAL: a CA not "HOST CA". */
static int collect(const char *path, const struct fabric *f,
		   struct dpath_port **out, size_t *n)
{
	struct dpath_port *v = calloc(f->nports_total + 1, sizeof(*v));
	size_t k = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < f->nnodes; i++) {
		const struct fabric_node *node = f->nodes[i];
		char host[DPATH_NAME_MAX], ca[DPATH_NAME_MAX];

		if (node->type != FABRIC_NODE_CA)
			continue;
		if (sscanf(node->desc, "%63s %63s", host, ca) != 2) {
			fprintf(stderr,
				"%s: CA 0x%016llx: NodeDescription "
				"\"%s\", expected \"HOST CA\"\n",
				path, (unsigned long long)node->guid,
				node->desc);
			free(v);
			return -EINVAL;
		}
		for (int num = 1; num <= node->nports; num++) {
			const struct fabric_port *fp = fabric_port(node, num);

			if (fabric_port_up(fp) && k < f->nports_total)
				port_from_topo(fp, host, ca, &v[k++]);
		}
	}
	qsort(v, k, sizeof(*v), port_cmp_natural);
	*out = v;
	*n = k;
	return 0;
}

static int write_ports(struct record_writer *w, struct dpath_port *v, size_t n)
{
	int rank = 0, rc = 0;

	for (size_t i = 0; !rc && i < n; i++) {
		bool same_host = i && !strcmp(v[i].host, v[i - 1].host);
		json_t *rec;

		v[i].rail = same_host ? v[i - 1].rail + 1 : 0;
		rank += i && !same_host;
		rec = burnin_port_record(&v[i], "verbs", rank);
		rc = rec ? record_writer_emit_steal(w, rec) : -ENOMEM;
	}
	return rc;
}

int main(int argc, char **argv)
{
	const char *out = argc > 2 ? argv[2] : "-";
	struct record_writer *w = NULL;
	struct fabric *f = NULL;
	struct dpath_port *v = NULL;
	char err[512];
	size_t n = 0;
	int rc;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: topo_ports TOPOLOGY [OUT]\n");
		return 2;
	}
	rc = fabric_topo_load(argv[1], &f, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	rc = collect(argv[1], f, &v, &n);
	if (rc == -ENOMEM)
		fprintf(stderr, "topo_ports: %s\n", strerror(ENOMEM));
	if (!rc) {
		w = record_writer_open(out, false);
		rc = w ? write_ports(w, v, n) : -errno;
		if (w && record_writer_close(w) && !rc)
			rc = -EIO;
		if (rc)
			fprintf(stderr, "%s: %s\n", out, strerror(-rc));
	}
	free(v);
	fabric_free(f);
	return rc ? 2 : 0;
}
