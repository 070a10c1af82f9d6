/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_COMMON_KERNLOG_H
#define IBPROOF_COMMON_KERNLOG_H

/*
 * kernlog.h: the one bounded reader of a kernel log.
 *
 * Sources: /dev/kmsg (records "pri,seq,usec,flags;text", read non-blocking)
 * or a saved text file: `dmesg` ("[  12.345678] text"), `dmesg -T`
 * ("[Thu Dec  3 04:16:33 2026] text", local time), `dmesg --time-format
 * iso` or `journalctl -k -o short-iso` ("2026-12-03T04:16:33,123456+00:00"),
 * `journalctl -k` ("Dec 03 04:16:33 host kernel: text", local time, no
 * year). The format is detected per line; times become UTC seconds (a
 * monotonic stamp needs the boot time). Every read is bounded: at most
 * max_lines lines and timeout_s seconds, and a FIFO or a device that stalls
 * is polled, never waited on.
 */
#include <stdbool.h>
#include <stddef.h>

/* A longer line is not a kernel log line: FILE:LINE error. */
#define KERNLOG_LINE_MAX 65536

enum kernlog_format {
	KERNLOG_PLAIN, /* no stamp */
	KERNLOG_KMSG, /* /dev/kmsg record */
	KERNLOG_MONO, /* dmesg: [seconds since boot] */
	KERNLOG_CTIME, /* dmesg -T */
	KERNLOG_ISO, /* dmesg --time-format iso, journalctl -o short-iso */
	KERNLOG_SYSLOG, /* journalctl -k (short), /var/log/kern.log */
};

struct kernlog_line {
	const char *text; /* the message, without stamp; bytes as read */
	double time; /* UTC seconds since the epoch; < 0 unknown */
	double mono; /* seconds since boot; < 0 unknown */
	long line; /* number in the source, from 1 */
	enum kernlog_format format;
};

struct kernlog_opts {
	double timeout_s; /* <= 0: 10 s */
	long max_lines; /* <= 0: 1,000,000 */
	double boot_time; /* UTC of boot for monotonic stamps; 0 unknown
			   * (/dev/kmsg: taken from the running clocks) */
	double now; /* "now" for year-less stamps; 0: time(NULL) */
};

struct kernlog_result {
	long lines; /* lines read */
	enum kernlog_format format; /* of the first stamped line */
	bool cut; /* line or time budget reached */
};

typedef int (*kernlog_fn)(void *arg, const struct kernlog_line *l);

/*
 * Reads path and calls fn for every line (fn returning non-zero stops the
 * read with that value). 0; -ETIMEDOUT when the time budget ran out (the
 * lines read were delivered; res->cut); -EINVAL with err "FILE:LINE: ..."
 * (a NUL byte, a line over KERNLOG_LINE_MAX); -errno when it cannot be
 * read (err says why). res may be NULL.
 */
int kernlog_read(const char *path, const struct kernlog_opts *o, kernlog_fn fn,
		 void *arg, struct kernlog_result *res, char *err,
		 size_t errlen);

/*
 * Parses one line (without its end) in place: stamp removed, time set. For
 * /dev/kmsg records pass kmsg true. Pure; for tests.
 */
void kernlog_parse_line(char *line, bool kmsg, const struct kernlog_opts *o,
			struct kernlog_line *out);

const char *kernlog_format_name(enum kernlog_format f);

/*
 * Copies s into buf (len bytes) as valid UTF-8 text without control
 * characters: invalid bytes and C0/C1 controls become "\xNN". Truncated
 * to fit; returns buf.
 */
char *kernlog_escape(const char *s, char *buf, size_t len);

#endif
