// SPDX-License-Identifier: MIT
/*
 * Strings from outside (issue "Inputs", defects D1, D4, D5, D7, D9, D10,
 * D11, D18, D24): bytes made text once where they enter (common/text.h),
 * and every output grammar escaped for itself. Inputs are the reproducers
 * of the issue, in tests/fixtures/inputs/.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/namemap.h"
#include "common/record.h"
#include "common/text.h"
#include "fabric/fabric_diff.h"
#include "fabric/fabric_report.h"
#include "fabric/fabric_spec.h"
#include "fabric/fabric_topo.h"
#include "pcie/pcie.h"
#include "reports/report.h"

#define FX FIXTURES_DIR "/inputs/"

static char *temp_path(const char *suffix)
{
	char *path;
	int fd;

	assert_true(asprintf(&path, "/tmp/ibproof-test-inputs-XXXXXX%s",
			     suffix) > 0);
	fd = mkstemps(path, (int)strlen(suffix));
	assert_true(fd >= 0);
	close(fd);
	return path;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *s = NULL;
	size_t cap = 0, n;

	assert_non_null(f);
	n = (size_t)getdelim(&s, &cap, '\0', f);
	assert_true(n != (size_t)-1);
	fclose(f);
	return s;
}

static void analyse(struct report *r, const char *file, const char *map)
{
	char *files[] = { (char *)file };

	assert_int_equal(0, report_init(r));
	judge_defaults(&r->params.judge);
	r->params.group_min = 4;
	r->params.threads = 1;
	if (map)
		assert_int_equal(0, report_load_node_name_map(r, map));
	assert_int_equal(0, report_analyse(r, files, 1, NULL));
}

static void test_text_bytes_escaped(void **state)
{
	char small[8], *s;

	(void)state;
	s = text_dup("leaf\xff"
		     "02 caf\xc3\xa9 \xe2\x82");
	assert_string_equal("leaf\\xFF02 caf\xc3\xa9 \\xE2\\x82", s);
	free(s);
	/* overlong, surrogate, past U+10FFFF */
	s = text_dup("\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80");
	assert_string_equal("\\xC0\\xAF\\xED\\xA0\\x80\\xF4\\x90\\x80\\x80", s);
	free(s);
	/* cut between characters, never inside an escape */
	assert_string_equal("ab\\xFF", text_from_bytes(small, sizeof(small),
						       "ab\xff\xff", 4));
	assert_true(text_is_utf8("caf\xc3\xa9", 5));
	assert_false(text_is_utf8("caf\xc3", 4));
	memcpy(small, "abcdef\xc3", 8); /* as snprintf() cuts "abcdefé" */
	assert_string_equal("abcdef", text_trim(small));
}

/* D9: one terminal escaper: C0, DEL, C1, bidi overrides, bad bytes. */
static void test_d9_terminal_escaper(void **state)
{
	char *s;

	(void)state;
	s = text_term_dup("a\x1b[31mb\x7f\xc2\x9b"
			  "c\xe2\x80\xae"
			  "d\xe2\x81\xa6"
			  "e\xff\tf caf\xc3\xa9");
	assert_string_equal("a\\x1B[31mb\\x7F\\xC2\\x9Bc\\xE2\\x80\\xAEd"
			    "\\xE2\\x81\\xA6e\\xFF\\x09f caf\xc3\xa9",
			    s);
	free(s);
}

/* D9: report text and script comments let no C1 or bidi override by. */
static void test_d9_report_text_c1_bidi(void **state)
{
	struct report_buf b = { 0 };

	(void)state;
	report_comment_text(&b, "x\xc2\x9b"
				"31m y\xe2\x80\xae"
				"z\n");
	assert_string_equal("x\\xC2\\x9B31m y\\xE2\\x80\\xAEz ", b.s);
	report_buf_free(&b);
	report_term_text(&b, "n\x1b]0;t\x07");
	assert_string_equal("n\\x1B]0;t\\x07", b.s);
	report_buf_free(&b);
}

/* D9: the disable script's printf lines print escapes, not controls. */
static void test_d9_script_printf_escaped(void **state)
{
	char *files[] = { FX "d9-script-links.jsonl",
			  FX "d9-script-findings.jsonl" };
	struct report r;
	char *path = temp_path(".sh"), *s;

	(void)state;
	assert_int_equal(0, report_init(&r));
	judge_defaults(&r.params.judge);
	r.params.group_min = 4;
	r.params.threads = 1;
	assert_int_equal(0, report_analyse(&r, files, 2, NULL));
	assert_int_equal(0, report_write_script(&r, path));
	s = slurp(path);
	assert_non_null(strstr(s, "printf '%s\\n' '1. replace-cable"));
	assert_non_null(strstr(s, "sp\\x1B[31mRED"));
	assert_null(strchr(s, '\x1b'));
	assert_null(strchr(s, '\x07'));
	free(s);
	unlink(path);
	free(path);
	report_fini(&r);
}

/* D9: fabric check/discover's summary on a terminal. */
static void test_d9_fabric_summary_escaped(void **state)
{
	struct fabric_findings fs = { 0 };
	struct fabric_finding *f;
	struct fabric *m = fabric_new();
	char *out = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&out, &len);

	(void)state;
	assert_non_null(m);
	assert_non_null(mem);
	f = fabric_finding_add(&fs, "fail", "missing-link", "reseat");
	assert_non_null(f);
	fabric_finding_msg(f, "sp\x1b[2J port 1 \xe2\x80\xae is not connected");
	fabric_print_summary(mem, "fabric check", m, &fs);
	fclose(mem);
	assert_null(strchr(out, '\x1b'));
	assert_non_null(strstr(out, "sp\\x1B[2J port 1 \\xE2\\x80\\xAE is"));
	free(out);
	fabric_findings_free(&fs);
	fabric_free(m);
}

/* D1: a NodeDescription that is not UTF-8 becomes \xNN in the records. */
static void test_d1_link_record_nonutf8_nodedesc(void **state)
{
	char err[256], why[256];
	struct fabric *m;
	int links = 0, escaped = 0;

	(void)state;
	assert_int_equal(0, fabric_topo_load(FX "d1-nonutf8-nodedesc.topo", &m,
					     err, sizeof(err)));
	for (size_t i = 0; i < m->nnodes; i++)
		for (int k = 1; k <= m->nodes[i]->nports; k++) {
			struct fabric_port *p = &m->nodes[i]->ports[k];
			json_t *rec;
			const char *a;

			if (!p->remote)
				continue;
			rec = fabric_link_record(p);
			assert_non_null(rec);
			assert_int_equal(
				0, record_validate(rec, why, sizeof(why)));
			a = json_string_value(json_object_get(
				json_object_get(rec, "a"), "node"));
			escaped += !strcmp(a, "leaf\\xFF02");
			links++;
			json_decref(rec);
		}
	assert_int_equal(12, links); /* 6 cables, from both ends */
	assert_true(escaped > 0);
	fabric_free(m);
}

/* D1: a spec name that is not UTF-8: every finding is still a record. */
static void test_d1_finding_record_nonutf8_spec(void **state)
{
	struct fabric_findings fs = { 0 };
	struct fabric_spec *s;
	struct fabric *m;
	char err[256];
	int named = 0;

	(void)state;
	assert_int_equal(0, fabric_topo_load(FIXTURES_DIR "/fabric/small.topo",
					     &m, err, sizeof(err)));
	assert_int_equal(0, fabric_spec_load(FX "d1-nonutf8-spec.csv", &s, err,
					     sizeof(err)));
	assert_string_equal("\\xFF", s->cables[0].a.node);
	assert_int_equal(0, cabling_diff(m, s, &fs));
	assert_true(fs.n > 0);
	for (size_t i = 0; i < fs.n; i++) {
		json_t *rec = fabric_finding_record(&fs.v[i]);

		assert_non_null(rec);
		named += strstr(json_string_value(
					json_object_get(rec, "message")),
				"\\xFF port 3") != NULL;
		json_decref(rec);
	}
	assert_int_equal(1, named);
	fabric_findings_free(&fs);
	fabric_spec_free(s);
	fabric_free(m);
}

/* D1: a long multi-byte name cut into a finding's fixed fields. */
static void test_d1_finding_long_utf8_name(void **state)
{
	struct fabric_findings fs = { 0 };
	struct fabric *m = fabric_new();
	struct fabric_node *a, *b;
	struct fabric_finding *f;
	char name[200] = "";
	json_t *rec;

	(void)state;
	for (int i = 0; i < 63; i++)
		strcat(name, "\xc3\xa9"); /* 126 bytes of é */
	assert_non_null(m);
	a = fabric_add_node(m, 1, FABRIC_NODE_SWITCH, "sw", 8);
	b = fabric_add_node(m, 2, FABRIC_NODE_CA, "h mlx5_0", 1);
	assert_non_null(a);
	assert_non_null(b);
	a->name = name; /* as a node-name-map name */
	assert_int_equal(0, fabric_connect(&a->ports[1], &b->ports[1]));
	f = fabric_finding_add(&fs, "warn", "unexpected-link", "none");
	fabric_finding_port(f, &a->ports[1]);
	fabric_finding_port(f, &b->ports[1]);
	fabric_finding_msg(f, "%s %s %s %s port 1", name, name, name, name);
	rec = fabric_finding_record(f);
	assert_non_null(rec);
	json_decref(rec);
	fabric_findings_free(&fs);
	fabric_free(m);
}

/*
 * D11: when a link record cannot be made, nothing is leaked (the name is
 * set past the entry check on purpose; LeakSanitizer in the ASan build
 * reports the leak of the old code).
 */
static void test_d11_link_record_error_path_frees(void **state)
{
	struct fabric *m = fabric_new();
	struct fabric_node *a, *b;

	(void)state;
	assert_non_null(m);
	a = fabric_add_node(m, 1, FABRIC_NODE_SWITCH, "sw", 8);
	b = fabric_add_node(m, 2, FABRIC_NODE_CA, "h mlx5_0", 1);
	assert_int_equal(0, fabric_connect(&a->ports[1], &b->ports[1]));
	a->name = "raw\xff";
	assert_null(fabric_link_record(&a->ports[1]));
	assert_null(fabric_link_record(&b->ports[1]));
	fabric_free(m);
}

/* D1, D10: a node-name-map name that is not UTF-8 is kept, escaped. */
static void test_d10_namemap_nonutf8_name(void **state)
{
	struct namemap *map;
	char err[256];

	(void)state;
	assert_int_equal(
		0, namemap_load(FX "d10-nonutf8.map", &map, err, sizeof(err)));
	assert_string_equal("leaf\\xFF01",
			    namemap_lookup(map, 0x0002c90310000001ULL));
	namemap_free(map);
}

/* D10: with that map the JSON report keeps every disable entry's peer. */
static void test_d10_json_keeps_peer(void **state)
{
	struct report r;
	char *path = temp_path(".json");
	json_t *doc, *dis;
	size_t i;

	(void)state;
	analyse(&r, FIXTURES_DIR "/records/evil-fabric.jsonl",
		FX "d10-nonutf8.map");
	assert_int_equal(0, report_write_json(&r, path));
	doc = json_load_file(path, 0, NULL);
	assert_non_null(doc);
	dis = json_object_get(doc, "disable");
	assert_true(json_array_size(dis) > 0);
	for (i = 0; i < json_array_size(dis); i++)
		assert_non_null(
			json_object_get(json_array_get(dis, i), "peer"));
	json_decref(doc);
	unlink(path);
	free(path);
	report_fini(&r);
}

/* D10: a figure past float (1e39 gb/s) is refused with FILE:LINE. */
static void test_d10_gbps_out_of_range_refused(void **state)
{
	char *files[] = { FX "d10-gbps-1e39.jsonl" };
	struct report r;
	char why[256];
	json_t *rec;

	(void)state;
	assert_int_equal(0, report_init(&r));
	r.params.threads = 1;
	judge_defaults(&r.params.judge);
	assert_int_equal(-EINVAL, report_analyse(&r, files, 1, NULL));
	assert_non_null(strstr(r.error, "d10-gbps-1e39.jsonl:1: pair record: "
					"field 'gbps' must be a finite"));
	report_fini(&r);
	rec = json_loads("{\"schema\":\"ibproof/1\",\"kind\":\"port\","
			 "\"time\":\"t\",\"host\":\"h\",\"version\":\"v\","
			 "\"ca\":\"mlx5_0\",\"port\":1,\"guid\":\"0x1\","
			 "\"lid\":1,\"link_layer\":\"InfiniBand\","
			 "\"state\":\"ACTIVE\",\"rate_gbps\":-1e300,"
			 "\"rail\":0}",
			 0, NULL);
	assert_non_null(rec);
	assert_int_equal(-EINVAL, record_validate(rec, why, sizeof(why)));
	json_decref(rec);
}

/* D4: the category cannot forge a <testcase>; U+FFFE/U+FFFF dropped. */
static void test_d4_junit_category_escaped(void **state)
{
	struct report r;
	char *path = temp_path(".xml"), *s;

	(void)state;
	analyse(&r, FX "d4-junit-category.jsonl", NULL);
	assert_int_equal(0, report_write_junit(&r, path));
	s = slurp(path);
	assert_null(strstr(s, "<testcase classname=\"ibproof.forged\""));
	assert_non_null(strstr(s, "[x&lt;/failure&gt;&lt;/testcase&gt;"));
	free(s);
	report_fini(&r);
	analyse(&r, FX "d4-junit-ffff.jsonl", NULL);
	assert_int_equal(0, report_write_junit(&r, path));
	s = slurp(path);
	assert_null(strstr(s, "\xef\xbf\xbf"));
	assert_non_null(strstr(s, "bad ? char"));
	free(s);
	report_fini(&r);
	unlink(path);
	free(path);
}

static void test_d4_xml_escape_nonchars(void **state)
{
	struct report_buf b = { 0 };

	(void)state;
	report_xml_escape(&b,
			  "a\xef\xbf\xbe b\xef\xbf\xbf c\x01 \xff d\xc3\xa9");
	assert_string_equal("a? b? c? ? d\xc3\xa9", b.s);
	report_buf_free(&b);
}

/* RFC 4180 fields of one line (the fixtures hold no newline in cells). */
static int csv_fields(const char *line, size_t len)
{
	bool quoted = false;
	int n = 1;

	for (size_t i = 0; i < len; i++) {
		if (line[i] == '"')
			quoted = !quoted;
		else if (line[i] == ',' && !quoted)
			n++;
	}
	return n;
}

/* D5: a node entry has as many fields as the header. */
static void test_d5_csv_node_entry_columns(void **state)
{
	struct report r;
	char *path = temp_path(".csv"), *s, *row;
	size_t head;

	(void)state;
	analyse(&r, FX "d5-csv-node-entry.jsonl", NULL);
	assert_int_equal(1, (int)r.n_entries);
	assert_int_equal(0, report_write_csv(&r, path));
	s = slurp(path);
	head = strcspn(s, "\r");
	row = s + head + 2;
	assert_int_equal(csv_fields(s, head),
			 csv_fields(row, strcspn(row, "\r")));
	assert_non_null(strstr(row, "gpu017 0000:c1:00.0"));
	free(s);
	unlink(path);
	free(path);
	report_fini(&r);
}

/* D18: OWASP's set, TAB and CR included, starts no formula. */
static void test_d18_csv_tab_cr_neutralised(void **state)
{
	struct report_buf b = { 0 };

	(void)state;
	report_csv_field(&b, "\t=1+2");
	report_buf_puts(&b, "|");
	report_csv_field(&b, "\r=1+2");
	report_buf_puts(&b, "|");
	report_csv_field(&b, "@SUM(1)");
	assert_string_equal("\"'\t=1+2\"|\"'\r=1+2\"|\"'@SUM(1)\"", b.s);
	report_buf_free(&b);
}

static void test_d18_csv_report_tab_cr(void **state)
{
	struct report r;
	char *path = temp_path(".csv"), *s;

	(void)state;
	analyse(&r, FX "d18-csv-tab-cr.jsonl", NULL);
	assert_int_equal(0, report_write_csv(&r, path));
	s = slurp(path);
	assert_non_null(strstr(s, ",\"'\t=1+2: "));
	assert_non_null(strstr(s, ",\"'\r=1+2: "));
	assert_null(strstr(s, ",\"\t"));
	assert_null(strstr(s, ",\"\r"));
	free(s);
	unlink(path);
	free(path);
	report_fini(&r);
}

/* D7: a time with a multi-byte character across byte 16. */
static void test_d7_report_time_multibyte(void **state)
{
	struct report r;

	(void)state;
	analyse(&r, FX "d7-time-utf8.jsonl", NULL);
	assert_int_equal(1, (int)r.n_findings);
	report_fini(&r);
}

/* D24: an RDMA device name that is not UTF-8 keeps its record whole. */
static void test_d24_pcie_nonutf8_ibdev(void **state)
{
	char dir[] = "/tmp/ibproof-test-ibdev-XXXXXX", cmd[512], root[600];
	struct pcie_topo t = { 0 };
	char why[256];
	int hca;
	json_t *rec;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "tar -xzf '%s' -C '%s'",
		 FX "d24-ibdev-nonutf8-tree.tgz", dir);
	assert_int_equal(0, system(cmd));
	snprintf(root, sizeof(root), "%s/ibname", dir);
	assert_int_equal(0, pcie_topo_scan(root, &t));
	hca = pcie_topo_find(&t, "0000:02:00.0");
	assert_true(hca >= 0);
	assert_string_equal("mlx5_\\xC5", t.devs[hca].ibdev);
	rec = pcie_device_record(&t, hca);
	assert_non_null(rec);
	assert_string_equal("0000:02:00.0",
			    json_string_value(json_object_get(rec, "bdf")));
	assert_string_equal("mlx5_\\xC5",
			    json_string_value(json_object_get(rec, "ibdev")));
	assert_int_equal(0, record_validate(rec, why, sizeof(why)));
	json_decref(rec);
	pcie_topo_free(&t);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(0, system(cmd));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_bytes_escaped),
		cmocka_unit_test(test_d9_terminal_escaper),
		cmocka_unit_test(test_d9_report_text_c1_bidi),
		cmocka_unit_test(test_d9_script_printf_escaped),
		cmocka_unit_test(test_d9_fabric_summary_escaped),
		cmocka_unit_test(test_d1_link_record_nonutf8_nodedesc),
		cmocka_unit_test(test_d1_finding_record_nonutf8_spec),
		cmocka_unit_test(test_d1_finding_long_utf8_name),
		cmocka_unit_test(test_d11_link_record_error_path_frees),
		cmocka_unit_test(test_d10_namemap_nonutf8_name),
		cmocka_unit_test(test_d10_json_keeps_peer),
		cmocka_unit_test(test_d10_gbps_out_of_range_refused),
		cmocka_unit_test(test_d4_junit_category_escaped),
		cmocka_unit_test(test_d4_xml_escape_nonchars),
		cmocka_unit_test(test_d5_csv_node_entry_columns),
		cmocka_unit_test(test_d18_csv_tab_cr_neutralised),
		cmocka_unit_test(test_d18_csv_report_tab_cr),
		cmocka_unit_test(test_d7_report_time_multibyte),
		cmocka_unit_test(test_d24_pcie_nonutf8_ibdev),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
