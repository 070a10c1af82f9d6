// SPDX-License-Identifier: MIT
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/record.h"
#include "common/text.h"

struct record_writer {
	FILE *f;
	int error; /* first write error, as -errno */
};

const char *record_hostname(void)
{
	static char name[256 * 4];
	char raw[256] = "";
	const char *env;

	if (name[0])
		return name;
	env = getenv("IBPROOF_HOST");
	if (env && *env)
		snprintf(raw, sizeof(raw), "%s", env);
	else if (gethostname(raw, sizeof(raw) - 1))
		snprintf(raw, sizeof(raw), "unknown");
	text_from_bytes(name, sizeof(name), raw, strlen(raw));
	return name;
}

char *record_time_now(char buf[32])
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + 19, 13, ".%03dZ", (int)(ts.tv_nsec / 1000000) % 1000);
	return buf;
}

char *record_guid_str(uint64_t guid, char buf[19])
{
	snprintf(buf, 19, "0x%016" PRIx64, guid);
	return buf;
}

int record_guid_parse(const char *s, uint64_t *guid)
{
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!*s || strlen(s) > 16 || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 16);
	if (errno || *end)
		return -EINVAL;
	*guid = v;
	return 0;
}

json_t *record_new(const char *kind)
{
	char now[32];

	return json_pack("{s:s, s:s, s:s, s:s, s:s}", "schema", RECORD_SCHEMA,
			 "kind", kind, "time", record_time_now(now), "host",
			 record_hostname(), "version", IBPROOF_VERSION);
}

json_t *record_port_ref(const char *host, const char *ca, int port,
			uint64_t guid)
{
	char g[19];

	return json_pack("{s:s, s:s, s:i, s:s}", "host", host, "ca", ca, "port",
			 port, "guid", record_guid_str(guid, g));
}

json_t *record_switch_port_ref(const char *node, uint64_t guid, int port)
{
	char g[19];

	return json_pack("{s:s, s:s, s:i}", "node", node, "guid",
			 record_guid_str(guid, g), "port", port);
}

static bool in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

static const char *const severities[] = { "fail", "warn", "info", NULL };
const char *const record_actions[] = { "disable-port",
				       "replace-cable",
				       "replace-optic",
				       "swap-cables",
				       "reseat",
				       "drain-node",
				       "check-pcie",
				       "none",
				       "retest",
				       "locate",
				       "check-access",
				       "check-sm",
				       NULL };

json_t *record_finding(const char *severity, const char *category,
		       json_t *subject, json_t *evidence, const char *action,
		       const char *fmt, ...)
{
	json_t *rec = NULL;
	char *message = NULL;
	va_list ap;

	if (!evidence)
		evidence = json_object();
	if (!in_list(severity, severities) ||
	    !in_list(action, record_actions) || !subject || !evidence) {
		errno = EINVAL;
		goto out;
	}
	va_start(ap, fmt);
	if (vasprintf(&message, fmt, ap) < 0)
		message = NULL;
	va_end(ap);
	if (message && !text_is_utf8(message, strlen(message))) {
		char *text = text_dup(message); /* a name cut by snprintf */

		free(message);
		message = text;
	}
	rec = record_new("finding");
	if (!rec || !message ||
	    json_object_set_new(rec, "severity", json_string(severity)) ||
	    json_object_set_new(rec, "category", json_string(category)) ||
	    json_object_set(rec, "subject", subject) ||
	    json_object_set(rec, "evidence", evidence) ||
	    json_object_set_new(rec, "action", json_string(action)) ||
	    json_object_set_new(rec, "message", json_string(message))) {
		json_decref(rec);
		rec = NULL;
		errno = ENOMEM;
	}
out:
	free(message);
	json_decref(subject);
	json_decref(evidence);
	return rec;
}

struct record_writer *record_writer_open(const char *path, bool append)
{
	struct record_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	if (!strcmp(path, "-")) {
		w->f = stdout;
		return w;
	}
	w->f = fopen(path, append ? "ae" : "we");
	if (!w->f) {
		int saved = errno;

		free(w);
		errno = saved;
		return NULL;
	}
	return w;
}

int record_writer_emit(struct record_writer *w, const json_t *rec)
{
	if (w->error)
		return w->error;
	if (json_dumpf(rec, w->f, JSON_COMPACT) || fputc('\n', w->f) == EOF ||
	    fflush(w->f))
		w->error = errno ? -errno : -EIO;
	return w->error;
}

int record_writer_emit_steal(struct record_writer *w, json_t *rec)
{
	int ret = rec ? record_writer_emit(w, rec) : -ENOMEM;

	json_decref(rec);
	return ret;
}

int record_writer_close(struct record_writer *w)
{
	int ret;

	if (!w)
		return 0;
	ret = w->error;
	if (w->f != stdout) {
		if (fclose(w->f) && !ret)
			ret = -errno;
	} else if (fflush(w->f) && !ret) {
		ret = -errno;
	}
	free(w);
	return ret;
}
