// SPDX-License-Identifier: MIT
/*
 * Synthetic records for the report benchmark: PORTS HCA ports (RAILS per
 * host, 32 per twin-port leaf), all-pairs write bandwidth by the circle
 * method (n-1 rounds), with planted faults: slow HCA ports, one bad
 * leaf-spine cable (a counters finding) and one PCIe finding. Writes the
 * keys of the planted faults to EXPECTED; `check EXPECTED REPORT.json`
 * compares them with a report's disable list, exactly.
 *
 *   gen_records PORTS RAILS BAD_PORTS OUT.jsonl EXPECTED
 *   gen_records check EXPECTED REPORT.json
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/record.h"

#define PER_LEAF 32
#define SPINES 16

struct gen {
	int ports, rails, bad;
	int *is_bad;
	struct record_writer *w;
	FILE *expected;
	unsigned long long rng;
};

static double uniform(struct gen *g)
{
	g->rng = g->rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(g->rng >> 11) / 9007199254740992.0;
}

static void host_of(const struct gen *g, int p, char *buf, size_t len)
{
	snprintf(buf, len, "node%04d", p / g->rails + 1);
}

static uint64_t port_guid(int p)
{
	return 0x0002c90300000000ULL + (uint64_t)p + 1;
}
static uint64_t leaf_guid(int l)
{
	return 0x0002c90310000000ULL + (uint64_t)l + 1;
}
static uint64_t spine_guid(int s)
{
	return 0x0002c90320000000ULL + (uint64_t)s + 1;
}

static json_t *port_ref(const struct gen *g, int p)
{
	char host[32], ca[24];

	host_of(g, p, host, sizeof(host));
	snprintf(ca, sizeof(ca), "mlx5_%d", p % g->rails);
	return record_port_ref(host, ca, 1, port_guid(p));
}

static json_t *end(const char *name, uint64_t guid, int port, const char *type)
{
	char g[19];

	return json_pack("{s:s,s:s,s:i,s:s}", "name", name, "guid",
			 record_guid_str(guid, g), "port", port, "type", type);
}

static int emit(struct gen *g, json_t *rec, json_t *fields)
{
	if (!rec || !fields || json_object_update_new(rec, fields))
		return -1;
	return record_writer_emit_steal(g->w, rec);
}

static json_t *leaf_end(int l, int port)
{
	char leaf[32];
	json_t *e;

	snprintf(leaf, sizeof(leaf), "leaf%03d", l + 1);
	e = end(leaf, leaf_guid(l), port, "switch");
	if (e)
		json_object_set_new(e, "devid", json_integer(0xd2f2));
	return e;
}

/* Host p's port sits on leaf p / 32, port p % 32 + 1. */
static int inventory(struct gen *g)
{
	char host[32], desc[64];
	int ret = 0;

	for (int p = 0; !ret && p < g->ports; p++) {
		json_t *ref = port_ref(g, p);

		host_of(g, p, host, sizeof(host));
		snprintf(desc, sizeof(desc), "%s %s", host,
			 json_string_value(json_object_get(ref, "ca")));
		ret = emit(g, record_new("port"),
			   json_pack("{s:s,s:O,s:i,s:O,s:i,s:s,s:s,s:f,s:i}",
				     "host", host, "ca",
				     json_object_get(ref, "ca"), "port", 1,
				     "guid", json_object_get(ref, "guid"),
				     "lid", p + 1, "link_layer", "InfiniBand",
				     "state", "ACTIVE", "rate_gbps", 400.0,
				     "rail", p % g->rails));
		if (!ret)
			ret = emit(g, record_new("link"),
				   json_pack("{s:o,s:o,s:s,s:s,s:s,s:s}", "a",
					     leaf_end(p / PER_LEAF,
						      p % PER_LEAF + 1),
					     "b",
					     end(desc, port_guid(p), 1, "ca"),
					     "width", "4x", "speed", "NDR",
					     "state", "ACTIVE", "phys_state",
					     "LinkUp"));
		json_decref(ref);
	}
	return ret;
}

static json_t *spine_end(int s, int port)
{
	char spine[32];

	snprintf(spine, sizeof(spine), "spine%02d", s + 1);
	return end(spine, spine_guid(s), port, "switch");
}

/* Uplinks: leaf port 33+s to spine s, port leaf+1. */
static int uplinks(struct gen *g)
{
	int leaves = (g->ports + PER_LEAF - 1) / PER_LEAF, ret = 0;

	for (int l = 0; !ret && l < leaves; l++)
		for (int s = 0; !ret && s < SPINES; s++)
			ret = emit(g, record_new("link"),
				   json_pack("{s:o,s:o,s:s,s:s,s:s,s:s}", "a",
					     leaf_end(l, PER_LEAF + 1 + s), "b",
					     spine_end(s, l + 1), "width", "4x",
					     "speed", "NDR", "state", "ACTIVE",
					     "phys_state", "LinkUp"));
	return ret;
}

static int pair(struct gen *g, int round, int a, int b)
{
	double gbps = 390.0 * (1.0 + 0.01 * (uniform(g) - 0.5));

	if (g->is_bad[a] || g->is_bad[b])
		gbps = 200.0 + 10.0 * uniform(g);
	return emit(g, record_new("pair"),
		    json_pack("{s:i,s:s,s:s,s:o,s:o,s:f,s:f,s:f,s:s}", "round",
			      round, "test", "write", "dir", "uni", "a",
			      port_ref(g, a), "b", port_ref(g, b), "gbps", gbps,
			      "gbps_min", gbps * 0.97, "expected_gbps", 400.0,
			      "status", "ok"));
}

/* Circle method: port n-1 fixed, the others rotate; n-1 rounds. */
static int all_pairs(struct gen *g)
{
	int n = g->ports, m = n - 1, ret = 0;

	for (int r = 0; !ret && r < m; r++) {
		ret = pair(g, r, r, m);
		for (int k = 1; !ret && k <= (n - 2) / 2; k++)
			ret = pair(g, r, (r + k) % m, (r - k + m) % m);
	}
	return ret;
}

static int plant_bad_ports(struct gen *g)
{
	char gs[19];

	for (int i = 0; i < g->bad; i++) {
		/* spread over leaves and rails */
		int p = (int)(((long)i * 1237 + 101) % g->ports);

		g->is_bad[p] = 1;
		fprintf(g->expected, "ca %s 1\n",
			record_guid_str(port_guid(p), gs));
	}
	return 0;
}

/* What fabric counters and pcie would emit: a bad leaf-spine cable and a
 * degraded HCA link on one node. */
static int plant_findings(struct gen *g)
{
	char gs[19];
	int leaf = 2 % ((g->ports + PER_LEAF - 1) / PER_LEAF), s = 5 % SPINES;
	char msg[128];
	int ret;

	snprintf(msg, sizeof(msg),
		 "leaf%03d port %d - spine%02d port %d: 4211 symbol errors",
		 leaf + 1, PER_LEAF + 1 + s, s + 1, leaf + 1);
	ret = emit(g, record_new("finding"),
		   json_pack("{s:s,s:s,s:{s:o,s:o},s:{s:i,s:i},s:s,s:s}",
			     "severity", "fail", "category", "symbol-errors",
			     "subject", "a", leaf_end(leaf, PER_LEAF + 1 + s),
			     "b", spine_end(s, leaf + 1), "evidence",
			     "symbol_errors", 4211, "threshold", 10, "action",
			     "replace-cable", "message", msg));
	fprintf(g->expected, "sw %s %d\n", record_guid_str(leaf_guid(leaf), gs),
		PER_LEAF + 1 + s);
	if (!ret)
		ret = emit(
			g, record_new("finding"),
			json_pack(
				"{s:s,s:s,s:{s:s,s:s,s:s},s:{s:s,s:s},s:s,s:s}",
				"severity", "fail", "category",
				"pcie-degraded-width", "subject", "host",
				"node0100", "bdf", "0000:c1:00.0", "name",
				"mlx5_3, HCA", "evidence", "width", "x8",
				"expected", "x16", "action", "check-pcie",
				"message",
				"node0100 0000:c1:00.0 (mlx5_3, HCA): PCIe link at x8 of x16"));
	fprintf(g->expected, "node node0100 0000:c1:00.0\n");
	return ret;
}

/* One disable entry as the planted-fault line it should match. */
static void entry_line(const json_t *e, char *buf, size_t len)
{
	const json_t *port = json_object_get(e, "port");
	const json_t *node = json_object_get(e, "node");
	const char *dev;

	if (json_is_object(node)) {
		dev = json_string_value(json_object_get(node, "device"));
		snprintf(buf, len, "node %s %.*s",
			 json_string_value(json_object_get(node, "host")),
			 (int)strcspn(dev, " "), dev);
		return;
	}
	snprintf(buf, len, "%s %s %d",
		 json_object_get(port, "ca") ? "ca" : "sw",
		 json_string_value(json_object_get(port, "guid")),
		 (int)json_integer_value(json_object_get(port, "port")));
}

static int check(const char *expected_path, const char *report_path)
{
	json_error_t err;
	json_t *doc = json_load_file(report_path, 0, &err), *e,
	       *want = json_object();
	FILE *f = fopen(expected_path, "r");
	char line[256];
	size_t i, extra = 0, found = 0;

	if (!doc || !f || !want) {
		fprintf(stderr, "check: cannot read %s or %s\n", expected_path,
			report_path);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		json_object_set_new(want, line, json_false());
	}
	fclose(f);
	json_array_foreach(json_object_get(doc, "disable"), i, e)
	{
		entry_line(e, line, sizeof(line));
		if (json_object_get(want, line)) {
			json_object_set_new(want, line, json_true());
			found++;
		} else {
			printf("extra: %s\n", line);
			extra++;
		}
	}
	printf("planted %zu, found %zu, extra %zu\n", json_object_size(want),
	       found, extra);
	json_decref(doc);
	json_decref(want);
	return found == json_object_size(want) && !extra ? 0 : 1;
}

static int generate(struct gen *g, const char *out, const char *expected)
{
	int ret;

	g->w = record_writer_open(out, false);
	g->expected = fopen(expected, "w");
	g->is_bad = calloc((size_t)g->ports, sizeof(*g->is_bad));
	g->rng = 42;
	if (!g->w || !g->expected || !g->is_bad) {
		perror("gen_records");
		return 2;
	}
	ret = plant_bad_ports(g) || inventory(g) || uplinks(g) ||
	      plant_findings(g) || all_pairs(g);
	ret |= record_writer_close(g->w) != 0;
	ret |= fclose(g->expected) != 0;
	free(g->is_bad);
	return ret ? 2 : 0;
}

int main(int argc, char **argv)
{
	struct gen g = { 0 };
	long ports = 0, rails, bad;

	if (argc == 4 && !strcmp(argv[1], "check"))
		return check(argv[2], argv[3]);
	if (argc != 6) {
		fprintf(stderr,
			"usage: %s PORTS RAILS BAD_PORTS OUT.jsonl EXPECTED\n"
			"       %s check EXPECTED REPORT.json\n",
			argv[0], argv[0]);
		return 2;
	}
	if (cli_str_to_long(argv[1], 4, 1000000, &ports) ||
	    cli_str_to_long(argv[2], 1, 1000, &rails) ||
	    cli_str_to_long(argv[3], 0, ports / 4, &bad) || ports % 2) {
		fprintf(stderr,
			"gen_records: PORTS even >= 4, RAILS >= 1, BAD_PORTS <= PORTS/4\n");
		return 2;
	}
	g.ports = (int)ports;
	g.rails = (int)rails;
	g.bad = (int)bad;
	return generate(&g, argv[4], argv[5]);
}
