// SPDX-License-Identifier: MIT
/*
 * The reference inventory: `port` records of a known-good node of the same
 * model, e.g. a previous `ibproof node --records` of that node.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/port_sysfs.h"
#include "common/ibport.h"
#include "common/record.h"
#include "common/text.h"
#include "node/node.h"

static void copy_str(json_t *rec, const char *key, char *buf, size_t len)
{
	const char *s = json_string_value(json_object_get(rec, key));

	snprintf(buf, len, "%s", s ? s : "");
}

static void port_from_record(json_t *rec, struct node_port *p)
{
	const char *s;

	memset(p, 0, sizeof(*p));
	copy_str(rec, "ca", p->ca, sizeof(p->ca));
	p->port = (int)json_integer_value(json_object_get(rec, "port"));
	p->state = ib_port_state_from_name(
		json_string_value(json_object_get(rec, "state")));
	p->phys_state = ib_phys_state_from_name(
		json_string_value(json_object_get(rec, "phys_state")));
	s = json_string_value(json_object_get(rec, "width"));
	p->lanes = s ? ib_width_from_name(s) : 0;
	s = json_string_value(json_object_get(rec, "speed"));
	p->speed = s ? ib_speed_from_name(s) : IB_SPEED_UNKNOWN;
	p->rate_gbps = json_number_value(json_object_get(rec, "rate_gbps"));
	copy_str(rec, "link_layer", p->link_layer, sizeof(p->link_layer));
	p->lid = (int)json_integer_value(json_object_get(rec, "lid"));
	s = json_string_value(json_object_get(rec, "guid"));
	if (s)
		record_guid_parse(s, &p->guid);
	copy_str(rec, "fw_ver", p->fw_ver, sizeof(p->fw_ver));
	copy_str(rec, "board_id", p->board_id, sizeof(p->board_id));
	copy_str(rec, "hca_type", p->hca_type, sizeof(p->hca_type));
	copy_str(rec, "driver", p->driver, sizeof(p->driver));
	p->rail = (int)json_integer_value(json_object_get(rec, "rail"));
}

static int add_record(json_t *rec, struct node_port **v, int *n)
{
	struct node_port *p;

	for (int i = 0; i < *n; i++) /* a port once: the first record */
		if (!strcmp((*v)[i].ca,
			    json_string_value(json_object_get(rec, "ca"))) &&
		    (*v)[i].port ==
			    json_integer_value(json_object_get(rec, "port")))
			return 0;
	p = realloc(*v, (size_t)(*n + 1) * sizeof(**v));
	if (!p)
		return -ENOMEM;
	*v = p;
	port_from_record(rec, &p[(*n)++]);
	return 0;
}

int node_ports_load(const char *path, struct node_port **ports, int *n)
{
	struct record_reader *r = record_reader_open(path);
	json_t *rec;
	int ret;

	*ports = NULL;
	*n = 0;
	if (!r) {
		ret = -errno;
		fprintf(stderr, "ibproof node: %s: %s\n", path,
			strerror(errno));
		return ret;
	}
	while ((ret = record_reader_next(r, &rec)) == 1) {
		const char *kind =
			json_string_value(json_object_get(rec, "kind"));

		ret = kind && !strcmp(kind, "port") ? add_record(rec, ports, n)
						    : 0;
		json_decref(rec);
		if (ret)
			break;
	}
	if (ret < 0) {
		text_term_fprintf(stderr, "ibproof node: %s",
				  ret == -EINVAL ? record_reader_error(r)
						 : strerror(-ret));
		fputc('\n', stderr);
	} else if (*n == 0) {
		fprintf(stderr,
			"ibproof node: %s: expected port records "
			"(e.g. of `ibproof node --records`), found "
			"none\n",
			path);
		ret = -EINVAL;
	}
	record_reader_close(r);
	if (ret < 0) {
		free(*ports);
		*ports = NULL;
		*n = 0;
	}
	return ret < 0 ? ret : 0;
}
