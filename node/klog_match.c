// SPDX-License-Identifier: MIT
/*
 * The pattern table: which kernel and Lustre messages mean what. Each row
 * names the printk format it matches (docs/kernel-log.md lists them with
 * their source files); the match functions take the device, port, peer NID
 * and target out of the line. Pure: text in, event out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "node/klog.h"

typedef bool (*match_fn)(const char *text, struct klog_event *ev);

struct klog_pattern {
	const char *name;
	enum klog_kind kind;
	match_fn match;
};

/* ---- pieces of a line ---- */

static void copy_span(char *dst, size_t len, const char *s, size_t n)
{
	char raw[KLOG_NAME_LEN * 2];

	if (n >= sizeof(raw))
		n = sizeof(raw) - 1;
	memcpy(raw, s, n);
	raw[n] = '\0';
	kernlog_escape(raw, dst, len);
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* "0000:c1:00.0" anywhere in text */
static void bdf_in(const char *text, char bdf[16])
{
	for (const char *p = text; p[0] && strlen(p) >= 12; p++) {
		bool ok = p[4] == ':' && p[7] == ':' && p[10] == '.';

		for (int i = 0; ok && i < 12; i++)
			if (i != 4 && i != 7 && i != 10)
				ok = is_hex(p[i]);
		if (ok && (p == text || p[-1] == ' ')) {
			memcpy(bdf, p, 12);
			bdf[12] = '\0';
			return;
		}
	}
}

static bool nid_addr_char(char c)
{
	return (c >= '0' && c <= '9') || c == '.' || c == ':' ||
	       (c >= 'a' && c <= 'f');
}

static bool nid_net_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/*
 * The first LNet NID at or after from: "100.100.100.105@o2ib",
 * "10.0.0.1@o2ib3", "0@lo". Returns a pointer past it, or NULL.
 */
static const char *nid_in(const char *from, char *nid, size_t len)
{
	for (const char *at = strchr(from, '@'); at; at = strchr(at + 1, '@')) {
		const char *a = at, *e = at + 1;

		while (a > from && nid_addr_char(a[-1]))
			a--;
		while (nid_net_char(*e))
			e++;
		if (a == at || e == at + 1 || !(at[1] >= 'a' && at[1] <= 'z'))
			continue;
		copy_span(nid, len, a, (size_t)(e - a));
		return e;
	}
	return NULL;
}

/* The first Lustre target "fsname-OST0003" / "fsname-MDT0000" in text. */
static void target_in(const char *text, char *target, size_t len)
{
	static const char *const kinds[] = { "-OST", "-MDT", "-MGS", NULL };
	const char *p = NULL, *a;

	for (int k = 0; kinds[k]; k++) {
		const char *q = strstr(text, kinds[k]);

		if (q && (!p || q < p))
			p = q;
	}
	if (!p)
		return;
	a = p;
	while (a > text && a[-1] != ' ' && a[-1] != '(' && a[-1] != '>' &&
	       a[-1] != ':')
		a--;
	p += 4;
	while (is_hex(*p))
		p++;
	copy_span(target, len, a, (size_t)(p - a));
}

/* The word that ends just before end (stops at a blank). */
static void word_before(const char *text, const char *end, char *out,
			size_t len)
{
	const char *a = end;

	while (a > text && a[-1] != ' ')
		a--;
	copy_span(out, len, a, (size_t)(end - a));
}

static bool ends_with_ci(const char *s, const char *suffix, const char **at)
{
	size_t n = strlen(s), k = strlen(suffix);

	if (n < k || strcasecmp(s + n - k, suffix))
		return false;
	*at = s + n - k;
	return true;
}

/* ---- link ---- */

/*
 * "<prefix>... <device>: <down>" or "...: <up>" (case aside): the device is
 * the word before the colon.
 */
static bool state_line(const char *text, const char *prefix, const char *down,
		       const char *up, struct klog_event *ev)
{
	const char *at;

	if (strncmp(text, prefix, strlen(prefix)))
		return false;
	if (ends_with_ci(text, down, &at))
		ev->what = "down";
	else if (ends_with_ci(text, up, &at))
		ev->what = "up";
	else
		return false;
	word_before(text, at, ev->device, sizeof(ev->device));
	return true;
}

/*
 * mlx5e_update_carrier(): netdev_info(netdev, "Link up" / "Link down")
 *   "mlx5_core 0000:c1:00.0 ens1f0np0: Link down"
 * mlx4_en: en_err/en_info(priv, "Link Up" / "Link Down")
 *   "mlx4_en: eth2: Link Down"
 */
static bool match_netdev_link(const char *text, struct klog_event *ev)
{
	return state_line(text, "mlx", ": Link down", ": Link up", ev);
}

/*
 * rdma_rxe rxe_port_up()/rxe_port_down(): dev_info(&rxe->ib_dev.dev,
 * "set active" / "set down"): "infiniband rxe0: set down"
 */
static bool match_ib_dev_state(const char *text, struct klog_event *ev)
{
	return state_line(text, "infiniband ", ": set down", ": set active",
			  ev);
}

/*
 * addrconf_notify(): pr_info("ADDRCONF(NETDEV_CHANGE): %s: link becomes
 * ready") once a netdev (IPoIB ib0 too) gets its carrier: an "up" only.
 */
static bool match_addrconf(const char *text, struct klog_event *ev)
{
	static const char key[] = "ADDRCONF(NETDEV_CHANGE): ";
	const char *p = strstr(text, key), *at;

	if (!p || !ends_with_ci(text, ": link becomes ready", &at))
		return false;
	p += sizeof(key) - 1;
	if (at <= p)
		return false;
	copy_span(ev->device, sizeof(ev->device), p, (size_t)(at - p));
	ev->what = "up";
	return true;
}

/*
 * ib_core cache.c ib_cache_update() (Linux 6.15, "IB/cache: Add log
 * messages for IB device state changes"): ibdev_info(device, "Port: %d
 * Link %s\n", port, ib_port_state_to_str(state)), on every change after
 * the first: "mlx5_core 0000:08:00.0 mlx5_0: Port: 1 Link DOWN" (a device
 * without a parent: "rxe0: Port: 1 Link ACTIVE"). States: DOWN, INIT,
 * ARMED, ACTIVE, ACTIVE_DEFER.
 */
static bool match_ib_core_port(const char *text, struct klog_event *ev)
{
	static const struct {
		const char *word, *what;
	} states[] = {
		{ "DOWN", "down" },	  { "INIT", "init" },
		{ "ARMED", "armed" },	  { "ACTIVE", "up" },
		{ "ACTIVE_DEFER", "up" },
	};
	const char *p = strstr(text, ": Port: "), *q;
	char *end;
	long port;

	if (!p || p == text)
		return false;
	port = strtol(p + 8, &end, 10);
	if (end == p + 8 || port < 1 || port > 255 || strncmp(end, " Link ", 6))
		return false;
	q = end + 6;
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		if (strcmp(q, states[i].word))
			continue;
		word_before(text, p, ev->device, sizeof(ev->device));
		bdf_in(text, ev->bdf);
		ev->port = (int)port;
		ev->what = states[i].what;
		snprintf(ev->detail, sizeof(ev->detail), "%s", states[i].word);
		return true;
	}
	return false;
}

/*
 * bonding bond_miimon_commit(): slave_info(bond_dev, slave_dev, "link
 * status definitely down, disabling slave") / "link status definitely up,
 * %u Mbps %s duplex" (5.x+: "bond0: (slave ens1f0np0): link status ...");
 * before: pr_info("%s: link status definitely down for interface %s,
 * disabling it") / "... up for interface %s, %u Mbps %s duplex".
 * The device is the slave.
 */
static bool match_bond_slave(const char *text, struct klog_event *ev)
{
	const char *p = strstr(text, "link status definitely "), *s, *e;
	bool down;

	if (!p)
		return false;
	p += 23;
	if (!strncmp(p, "down", 4))
		down = true;
	else if (!strncmp(p, "up", 2))
		down = false;
	else
		return false;
	s = strstr(text, "(slave ");
	if (s && s < p) {
		s += 7;
		e = strchr(s, ')');
	} else if ((s = strstr(p, " for interface "))) {
		s += 15;
		e = s + strcspn(s, ", ");
	} else {
		return false;
	}
	if (!e || e == s)
		return false;
	copy_span(ev->device, sizeof(ev->device), s, (size_t)(e - s));
	ev->what = down ? "down" : "up";
	return true;
}

/* ---- cable module ---- */

/*
 * mlx5 events.c port_module():
 *   "Port module event: module %u, %s" (Cable plugged / Cable unplugged)
 *   "Port module event[error]: module %u, %s, %s" (Cable error, <type>)
 */
static bool match_module(const char *text, struct klog_event *ev)
{
	const char *p = strstr(text, "Port module event"), *m, *comma;

	if (!p)
		return false;
	m = strstr(p + 17, "module ");
	if (!m)
		return false;
	ev->module = (int)strtol(m + 7, NULL, 10);
	bdf_in(text, ev->bdf);
	snprintf(ev->device, sizeof(ev->device), "%s module %d",
		 ev->bdf[0] ? ev->bdf : "?", ev->module);
	comma = strchr(m, ',');
	if (strstr(p, "[error]")) {
		const char *type = comma ? strchr(comma + 1, ',') : NULL;

		if (type)
			copy_span(ev->detail, sizeof(ev->detail), type + 2,
				  strlen(type + 2));
		ev->what = strcasestr(text, "High Temperature")
				   ? "high-temperature"
				   : "error";
	} else if (strstr(p, "unplugged")) {
		ev->what = "unplugged";
	} else if (strstr(p, "plugged")) {
		ev->what = "plugged";
	} else {
		ev->what = "other";
	}
	return true;
}

/* ---- HCA health (mlx5 health.c, cmd.c) ---- */

static bool health(const char *text, struct klog_event *ev, const char *key,
		   const char *what)
{
	if (!strstr(text, key))
		return false;
	bdf_in(text, ev->bdf);
	snprintf(ev->device, sizeof(ev->device), "%s", ev->bdf);
	ev->what = what;
	return true;
}

/* poll_health(): "device's health compromised - reached miss count" */
static bool match_health_miss(const char *text, struct klog_event *ev)
{
	return health(text, ev, "health compromised", "health-compromised");
}

/* poll_health(): "Fatal error %u detected" */
static bool match_fatal(const char *text, struct klog_event *ev)
{
	const char *p = strstr(text, "Fatal error ");

	if (!p || !strstr(p, " detected") || strncmp(text, "mlx5", 4))
		return false;
	snprintf(ev->detail, sizeof(ev->detail), "fatal error %ld",
		 strtol(p + 12, NULL, 10));
	return health(text, ev, "Fatal error ", "fatal");
}

/* mlx5_enter_error_state(): mlx5_core_err(dev, "start") */
static bool match_error_state(const char *text, struct klog_event *ev)
{
	return strstr(text, ": start") &&
	       health(text, ev, "mlx5_enter_error_state", "error-state");
}

/*
 * wait_func() / cb_timeout_handler(): "%s(0x%x) timeout. Will cause a
 * leak of a command resource" (newer: "cmd[%d]: %s(0x%x) Async, timeout.")
 */
static bool match_cmd_timeout(const char *text, struct klog_event *ev)
{
	const char *p = strstr(text, "timeout. Will cause a leak"), *op;

	if (!p)
		return false;
	op = strstr(text, "(0x");
	if (op && op < p)
		word_before(text, strchr(op, ')') ? strchr(op, ')') + 1 : op,
			    ev->detail, sizeof(ev->detail));
	return health(text, ev, "timeout. Will cause a leak", "cmd-timeout");
}

/* mlx5_health_try_recover(): "starting health recovery flow", "health
 * recovery flow aborted, PCI reads still not working" */
static bool match_recovery(const char *text, struct klog_event *ev)
{
	return health(text, ev, "health recovery flow", "reset");
}

/* temp_warn(): "High temperature on sensors with bit set %llx %llx" */
static bool match_temp(const char *text, struct klog_event *ev)
{
	return health(text, ev, "High temperature on sensors",
		      "high-temperature");
}

/* ---- storage: LNet and Lustre ---- */

/*
 * The kind of Lustre target a line is about: from the target name
 * ("lustre-OST0003"), else "MGS" for the management client (its import
 * "MGC10.0.0.1@o2ib", "Connection to MGS").
 */
static const char *target_type_of(const char *target, const char *text)
{
	static const char *const kinds[] = { "OST", "MDT", "MGS" };
	const char *dash = strrchr(target, '-');

	for (int k = 0; dash && k < 3; k++)
		if (!strncmp(dash + 1, kinds[k], 3))
			return kinds[k];
	return strstr(text, "MGC") || strstr(text, " MGS ") ? "MGS" : NULL;
}

static bool storage(const char *text, struct klog_event *ev, const char *what)
{
	ev->what = what;
	if (!ev->peer[0])
		nid_in(text, ev->peer, sizeof(ev->peer));
	if (!ev->target[0])
		target_in(text, ev->target, sizeof(ev->target));
	ev->target_type = target_type_of(ev->target, text);
	return true;
}

/*
 * libcfs console rate limiting: "... Skipped 24 previous similar
 * messages" repeats no event of its own.
 */
static bool skipped_line(const char *text)
{
	return strstr(text, " previous similar message") != NULL;
}

/*
 * The request of a ptlrpc "@@@" line: "... o250->IMPORT@NID:26/25 ...",
 * the import then the peer's NID (the import of the MGC holds a NID of
 * its own: "o250->MGC10.1.1.47@tcp@10.1.1.47@tcp:26/25"). Sets the peer
 * and the target; false when the line names no request.
 */
static bool request_peer(const char *from, struct klog_event *ev)
{
	const char *imp = strstr(from, "->"), *end, *at = NULL, *prev = NULL;
	char name[KLOG_NAME_LEN * 2];

	if (!imp)
		return false;
	imp += 2;
	end = imp + strcspn(imp, ": ");
	for (const char *q = imp; q < end; q++)
		if (*q == '@')
			prev = at, at = q;
	if (!prev || prev == imp)
		return false;
	copy_span(ev->peer, sizeof(ev->peer), prev + 1,
		  (size_t)(end - prev - 1));
	snprintf(name, sizeof(name), "%.*s", (int)(prev - imp), imp);
	target_in(name, ev->target, sizeof(ev->target));
	return true;
}

/*
 * ptlrpc_connection_lost (import.c), LCONSOLE_WARN / LCONSOLE_ERROR_MSG:
 *   "%s: Connection to %.*s (at %s) was lost; in progress operations ..."
 *   1.8: "%s: Connection to service %.*s via nid %s was lost; ..."
 */
static bool match_lost(const char *text, struct klog_event *ev)
{
	const char *p = strstr(text, "Connection to ");

	if (!p || !strstr(p, " was lost"))
		return false;
	return storage(text, ev, "lost");
}

/*
 * ptlrpc_import_recovery_state_machine(), LCONSOLE_INFO:
 *   "%s: Connection restored to %.*s (at %s)" (the target may be empty)
 *   1.8: "%s: Connection restored to service %.*s using nid %s."
 */
static bool match_restored(const char *text, struct klog_event *ev)
{
	if (!strstr(text, "Connection restored to "))
		return false;
	return storage(text, ev, "restored");
}

/*
 * ptlrpc_expire_one_request() (client.c): "@@@ Request sent has timed out
 * for slow reply: [sent ...] req@... o400->lustre-OST0003-osc-...@NID:28/4
 * ..." ("for sent delay" when it never left)
 */
static bool match_rpc_timeout(const char *text, struct klog_event *ev)
{
	const char *p = strstr(text, "Request sent has timed out");

	if (!p)
		return false;
	request_peer(p, ev);
	snprintf(ev->detail, sizeof(ev->detail), "%s",
		 strstr(p, "sent delay") ? "sent delay" : "slow reply");
	return storage(text, ev, "request-timeout");
}

/*
 * Every other ptlrpc request line ("@@@ " then the request, DEBUG_REQ)
 * that names a peer: ptlrpc_expire_one_request() "@@@ Request sent has
 * failed due to network error: [sent ...] req@... o250->MGC10.1.1.47@tcp@
 * 10.1.1.47@tcp:26/25 ..." is a network-error; the others a request-error
 * with the message as the detail.
 */
static bool match_rpc_request(const char *text, struct klog_event *ev)
{
	const char *p = strstr(text, "@@@ "), *m;

	if (!p || !request_peer(p, ev))
		return false;
	p += 4;
	if (strstr(p, "failed due to network error"))
		return storage(text, ev, "network-error");
	m = p + strcspn(p, ":[");
	copy_span(ev->detail, sizeof(ev->detail), p, (size_t)(m - p));
	return storage(text, ev, "request-error");
}

/*
 * o2iblnd_cb.c kiblnd_check_conns(): CNETERR("Timed out tx for %s: %d
 * seconds"), printed as "LNet: 2431:0:(o2iblnd_cb.c:3174:
 * kiblnd_check_conns()) Timed out tx for 172.31.126.87@o2ib: 403055
 * seconds": the LND gave up on a transmit to that peer.
 */
static bool match_lnet_tx_timeout(const char *text, struct klog_event *ev)
{
	const char *p = strstr(text, "Timed out tx for "), *c;

	if (!p || strncmp(text, "LNet", 4))
		return false;
	p += 17;
	c = strchr(p, ':');
	if (!c || !nid_in(p, ev->peer, sizeof(ev->peer)))
		return false;
	snprintf(ev->detail, sizeof(ev->detail), "%ld s",
		 strtol(c + 1, NULL, 10));
	return storage(text, ev, "tx-timeout");
}

/* "This client was evicted by %.*s; in progress operations ..." */
static bool match_evicted(const char *text, struct klog_event *ev)
{
	if (!strstr(text, "was evicted by "))
		return false;
	return storage(text, ev, "evicted");
}

/*
 * LNet health (lib-move.c): recovery of peer NIs, e.g. the operators'
 * "LNet: ... peer NIs in recovery" and "peer NI (%s) recovery failed"
 */
static bool match_lnet_recovery(const char *text, struct klog_event *ev)
{
	if (strncmp(text, "LNet", 4) || !strstr(text, "recovery") ||
	    skipped_line(text))
		return false;
	return storage(text, ev, "peer-recovery");
}

/*
 * Any LNetError (CERROR of the LNet subsystem), e.g. kiblnd_check_conns():
 *   "Timed out RDMA with %s (%lu): c: %u, oc: %u, rc: %u"
 */
static bool match_lnet_error(const char *text, struct klog_event *ev)
{
	if (strncmp(text, "LNetError:", 10) || skipped_line(text))
		return false;
	return storage(text, ev,
		       strstr(text, "Timed out RDMA with") ? "rdma-timeout"
							   : "lnet-error");
}

/*
 * LustreError lines with a return code: "... rc = -5" (EIO) is an I/O
 * error; e.g. "LustreError: 11-0: %s: operation %s to node %s failed:
 * rc = %d" (ptlrpc_check_status / client.c)
 */
static bool match_lustre_rc(const char *text, struct klog_event *ev)
{
	const char *rc = strstr(text, "rc = -");
	long v;

	if (strncmp(text, "LustreError:", 12) || !rc || skipped_line(text))
		return false;
	v = strtol(rc + 5, NULL, 10);
	snprintf(ev->detail, sizeof(ev->detail), "rc = %ld", v);
	return storage(text, ev, v == -5 ? "io-error" : "request-failed");
}

/* ---- hung tasks (kernel/hung_task.c) ---- */

/* "INFO: task %s:%d blocked for more than %ld seconds." */
static bool match_hung(const char *text, struct klog_event *ev)
{
	const char *p = strstr(text, "INFO: task "), *b, *colon;

	if (!p || !(b = strstr(p, " blocked for more than ")))
		return false;
	p += 11;
	colon = b;
	while (colon > p && colon[-1] != ':')
		colon--;
	if (colon > p) {
		copy_span(ev->process, sizeof(ev->process), p,
			  (size_t)(colon - 1 - p));
		ev->pid = strtol(colon, NULL, 10);
	}
	ev->seconds = strtol(b + 23, NULL, 10);
	ev->what = "blocked";
	return true;
}

static const struct klog_pattern patterns[] = {
	{ "ib-core-port", KLOG_LINK, match_ib_core_port },
	{ "netdev-link", KLOG_LINK, match_netdev_link },
	{ "ib-port-state", KLOG_LINK, match_ib_dev_state },
	{ "addrconf-ready", KLOG_LINK, match_addrconf },
	{ "bond-slave-link", KLOG_LINK, match_bond_slave },
	{ "mlx5-module", KLOG_TRANSCEIVER, match_module },
	{ "mlx5-health-miss", KLOG_HCA_HEALTH, match_health_miss },
	{ "mlx5-fatal", KLOG_HCA_HEALTH, match_fatal },
	{ "mlx5-error-state", KLOG_HCA_HEALTH, match_error_state },
	{ "mlx5-cmd-timeout", KLOG_HCA_HEALTH, match_cmd_timeout },
	{ "mlx5-recovery", KLOG_HCA_HEALTH, match_recovery },
	{ "mlx5-temperature", KLOG_HCA_HEALTH, match_temp },
	{ "lustre-lost", KLOG_STORAGE, match_lost },
	{ "lustre-restored", KLOG_STORAGE, match_restored },
	{ "ptlrpc-timeout", KLOG_STORAGE, match_rpc_timeout },
	{ "ptlrpc-request", KLOG_STORAGE, match_rpc_request },
	{ "lustre-evicted", KLOG_STORAGE, match_evicted },
	{ "lnet-tx-timeout", KLOG_STORAGE, match_lnet_tx_timeout },
	{ "lnet-recovery", KLOG_STORAGE, match_lnet_recovery },
	{ "lnet-error", KLOG_STORAGE, match_lnet_error },
	{ "lustre-rc", KLOG_STORAGE, match_lustre_rc },
	{ "hung-task", KLOG_HUNG_TASK, match_hung },
	{ NULL },
};

const char *klog_kind_name(enum klog_kind k)
{
	static const char *const names[] = {
		[KLOG_LINK] = "link",
		[KLOG_HCA_HEALTH] = "hca-health",
		[KLOG_TRANSCEIVER] = "transceiver",
		[KLOG_STORAGE] = "storage",
		[KLOG_HUNG_TASK] = "hung-task",
	};

	return k <= KLOG_HUNG_TASK ? names[k] : "unknown";
}

int klog_match(const struct kernlog_line *l, struct klog_event *ev)
{
	const char *text = l->text;

	/* journald and syslog keep "kernel: " only; a subsystem prefix stays */
	for (const struct klog_pattern *p = patterns; p->name; p++) {
		memset(ev, 0, sizeof(*ev));
		ev->module = -1;
		if (!p->match(text, ev))
			continue;
		ev->kind = p->kind;
		ev->pattern = p->name;
		ev->time = l->time;
		ev->mono = l->mono;
		ev->line = l->line;
		kernlog_escape(text, ev->text, sizeof(ev->text));
		return 1;
	}
	return 0;
}
