// SPDX-License-Identifier: MIT
/*
 * The disable list as CSV and as an ibportstate script, the per-port
 * figures as a node_exporter textfile, and the checks as JUnit XML. Every
 * fabric-supplied string goes through report_escape.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "common/record.h"
#include "reports/report.h"

int report_write_file(const char *path, const struct report_buf *b)
{
	FILE *f;
	int ret = 0;

	if (b->oom) {
		log_error("%s: out of memory while formatting", path);
		return -ENOMEM;
	}
	f = fopen(path, "we");
	if (!f) {
		ret = -errno;
		log_error("%s: cannot write: %m", path);
		return ret;
	}
	if (b->len && fwrite(b->s, 1, b->len, f) != b->len)
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		log_error("%s: write failed: %s", path, strerror(-ret));
	return ret;
}

static void csv_sep(struct report_buf *b, const char *s)
{
	report_csv_field(b, s ? s : "");
	report_buf_puts(b, ",");
}

/* The columns of one end; e NULL: the location alone (a node entry). */
static void csv_end(struct report_buf *b, const char *loc,
		    const struct report_end *e)
{
	char g[19], port[16] = "";

	if (e && e->type)
		snprintf(port, sizeof(port), "%d", e->port);
	csv_sep(b, loc);
	csv_sep(b, e && e->guid ? record_guid_str(e->guid, g) : "");
	csv_sep(b, port);
	csv_sep(b, e ? e->alias : NULL);
	csv_sep(b, e ? e->xcvr.vendor : NULL);
	csv_sep(b, e ? e->xcvr.part_number : NULL);
	csv_sep(b, e ? e->xcvr.serial : NULL);
}

static void csv_port_end(struct report_buf *b, const struct report_end *e)
{
	struct report_buf loc = { 0 };

	report_end_text(&loc, e);
	csv_end(b, loc.s, e);
	report_buf_free(&loc);
}

/* The last two columns: the second cable of a swap-cables entry. */
static void csv_swap(struct report_buf *b, const struct report_entry *e)
{
	struct report_buf port = { 0 }, peer = { 0 };

	if (e->swap_port.type || e->swap_port.guid) {
		report_end_text(&port, &e->swap_port);
		report_end_text(&peer, &e->swap_peer);
	}
	csv_sep(b, port.s);
	report_csv_field(b, peer.s ? peer.s : "");
	report_buf_free(&port);
	report_buf_free(&peer);
}

static void reasons_text(struct report_buf *b, const struct report_entry *e,
			 const char *sep)
{
	for (size_t k = 0; k < json_array_size(e->reasons); k++) {
		const json_t *rs = json_array_get(e->reasons, k);

		report_buf_printf(
			b, "%s%s: %s", k ? sep : "",
			json_string_value(json_object_get(rs, "category")),
			json_string_value(json_object_get(rs, "message")));
	}
}

int report_write_csv(const struct report *r, const char *path)
{
	struct report_buf b = { 0 };
	int ret;

	report_buf_puts(
		&b,
		"new,action,port,port_guid,port_number,port_alias,"
		"port_xcvr_vendor,port_xcvr_part_number,port_xcvr_serial,peer,"
		"peer_guid,peer_port,peer_alias,peer_xcvr_vendor,"
		"peer_xcvr_part_number,peer_xcvr_serial,confidence,group,reasons,"
		"swap_port,swap_peer,candidates\r\n");
	for (size_t i = 0; i < r->n_entries; i++) {
		const struct report_entry *e = &r->entries[i];
		struct report_buf why = { 0 }, node = { 0 };

		csv_sep(&b, e->is_new ? "yes" : "no");
		csv_sep(&b, e->action);
		if (e->kind == ENTRY_NODE) {
			/* D5: as many columns as a port entry has */
			report_buf_printf(&node, "%s %s", e->host, e->device);
			csv_end(&b, node.s, NULL);
			csv_end(&b, NULL, NULL);
		} else {
			csv_port_end(&b, &e->port);
			csv_port_end(&b, &e->peer);
		}
		report_buf_printf(&b, "%.3f,", e->confidence);
		csv_sep(&b, e->group);
		reasons_text(&why, e, "; ");
		csv_sep(&b, why.s);
		csv_swap(&b, e);
		report_buf_puts(&b, ",");
		if (e->candidates) { /* locate: every candidate, the retest */
			struct report_buf loc = { 0 };

			report_locate_text(&loc, e);
			report_csv_field(&b, loc.s ? loc.s : "");
			report_buf_free(&loc);
		}
		report_buf_puts(&b, "\r\n");
		report_buf_free(&why);
		report_buf_free(&node);
	}
	ret = report_write_file(path, &b);
	report_buf_free(&b);
	return ret;
}

/* The switch side of the entry's cable: what ibportstate can disable. */
static const struct report_end *script_target(const struct report_entry *e)
{
	if (e->port.type == 's')
		return &e->port;
	if (e->peer.type == 's')
		return &e->peer;
	return e->port.guid ? &e->port : NULL;
}

/* "# port transceiver: Mellanox MMA1B00-E100 SN MT1" per end. */
static void script_xcvrs(struct report_buf *b, const struct report_entry *e)
{
	struct report_buf t = { 0 };

	report_xcvr_text(&t, &e->port.xcvr);
	report_buf_puts(b, "\n# port transceiver: ");
	report_comment_text(b, t.s);
	report_buf_free(&t);
	if (!e->peer.type && !e->peer.guid)
		return;
	report_xcvr_text(&t, &e->peer.xcvr);
	report_buf_puts(b, "\n# peer transceiver: ");
	report_comment_text(b, t.s);
	report_buf_free(&t);
}

static void script_disable(struct report_buf *b, const struct report_end *t)
{
	char g[19], port[16];

	snprintf(port, sizeof(port), "%d", t->port);
	/* the M_Key only from the operator's environment: never written
	 * into the script */
	report_buf_puts(b, "ibportstate -G "
			   "${IBPROOF_M_KEY:+-y \"$IBPROOF_M_KEY\"} ");
	report_shell_quote(b, record_guid_str(t->guid, g));
	report_buf_puts(b, " ");
	report_shell_quote(b, port);
	report_buf_puts(b, " ");
	report_shell_quote(b, "disable");
	report_buf_puts(b, "\n");
}

/* The other ports of the entry's module: replacing it takes them down,
 * so they go out of service with it (or the script says why not). */
static void script_also(struct report_buf *b, const struct report_entry *e)
{
	struct report_buf t = { 0 };

	for (int i = 0; i < e->n_also; i++) {
		report_end_text(&t, &e->also[i]);
		report_buf_puts(&t, " <-> ");
		report_end_text(&t, &e->also_peer[i]);
		report_buf_puts(b, "# the same module serves ");
		report_comment_text(b, t.s ? t.s : "");
		report_buf_free(&t);
		if (e->also[i].type == 's' && e->also[i].guid) {
			report_buf_puts(b, ": replacing it takes that link "
					   "down too; disabled with it\n");
			script_disable(b, &e->also[i]);
		} else {
			report_buf_puts(b, ": not a switch port this script "
					   "can disable; take it out of "
					   "service at its node\n");
		}
	}
}

static void script_entry(struct report_buf *b, const struct report_entry *e,
			 size_t n)
{
	const struct report_end *t = script_target(e);
	struct report_buf text = { 0 }, why = { 0 }, shown = { 0 };

	report_buf_printf(&text, "%zu. %s ", n, e->action);
	report_entry_ends_text(&text, e);
	reasons_text(&why, e, " | ");
	report_buf_puts(b, "\n# ");
	report_comment_text(b, text.s);
	if (e->kind == ENTRY_PORT)
		script_xcvrs(b, e);
	report_buf_puts(b, "\n# reasons: ");
	report_comment_text(b, why.s);
	report_buf_puts(b, "\nprintf '%s\\n' ");
	/* D9: what printf prints reaches a terminal */
	report_term_text(&shown, text.s);
	report_shell_quote(b, shown.s ? shown.s : "");
	report_buf_puts(b, "\n");
	if (!strcmp(e->action, "swap-cables")) {
		report_buf_puts(b,
				"# both cables work: exchange their far ends "
				"by hand; nothing to disable\n");
	} else if (!strcmp(e->action, "retest")) {
		report_buf_puts(b, "# the cable or the HCA port behind it: "
				   "retest before disabling either\n");
	} else if (!strcmp(e->action, "locate")) {
		report_buf_puts(b,
				"# one of these parts is bad and the pairs "
				"cannot tell which: run the retest named, or "
				"check each; nothing to disable yet\n");
	} else if (e->kind == ENTRY_NODE || !t) {
		report_buf_puts(
			b, "# no switch port to disable: act on the node\n");
	} else {
		if (t->type == 'c')
			report_buf_puts(
				b,
				"# the switch end is unknown: disabling the HCA port itself\n");
		script_disable(b, t);
		script_also(b, e);
	}
	b->oom |= shown.oom;
	report_buf_free(&text);
	report_buf_free(&why);
	report_buf_free(&shown);
}

int report_write_script(const struct report *r, const char *path)
{
	struct report_buf b = { 0 };
	char verdict[1024], now[32];
	int ret;

	report_verdict_line(r, verdict, sizeof(verdict));
	report_buf_printf(
		&b,
		"#!/bin/sh\n"
		"# Ports to take out of service, written by ibproof report at %s.\n"
		"# ibproof never runs this: review it, then run it on a host of the\n"
		"# fabric with infiniband-diags (ibportstate disables the switch end).\n"
		"# M_Key: on a secured subnet set IBPROOF_M_KEY=KEY in the environment\n"
		"# (or m_key= in ibdiag.conf, which ibportstate reads itself).\n"
		"# Verdict: ",
		record_time_now(now));
	report_comment_text(&b, verdict);
	report_buf_puts(&b, "\nset -eu\n");
	for (size_t i = 0; i < r->n_entries; i++)
		script_entry(&b, &r->entries[i], i + 1);
	ret = report_write_file(path, &b);
	report_buf_free(&b);
	return ret;
}
