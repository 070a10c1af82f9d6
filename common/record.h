/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_COMMON_RECORD_H
#define IBPROOF_COMMON_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

/*
 * Records: the one data format between the parts. JSON Lines, one object a
 * line, written with jansson and flushed as produced. docs/records.md holds
 * the contract; record_schema.c checks it.
 */
#define RECORD_SCHEMA "ibproof/1"

/* A new record with schema, kind, time (RFC 3339 UTC), host and version. */
json_t *record_new(const char *kind);

/* The host name written into records (gethostname(), or IBPROOF_HOST). */
const char *record_hostname(void);

/* "2026-12-02T15:04:05.123Z" for the current time; buf holds 32 bytes. */
char *record_time_now(char buf[32]);

/* "0x0002c90300a1b2c3": every GUID is written this way. */
char *record_guid_str(uint64_t guid, char buf[19]);
/* Parses "0x..." or bare hex, with or without leading zeros. */
int record_guid_parse(const char *s, uint64_t *guid);

/* Port references, as the contract names them. */
json_t *record_port_ref(const char *host, const char *ca, int port,
			uint64_t guid);
json_t *record_switch_port_ref(const char *node, uint64_t guid, int port);

/* The actions a finding may carry (docs/records.md), NULL-terminated. */
extern const char *const record_actions[];

/*
 * A finding. subject and evidence are stolen (evidence may be NULL: {}).
 * severity: fail|warn|info; action: one of record_actions. Returns NULL
 * with errno EINVAL on others.
 */
json_t *record_finding(const char *severity, const char *category,
		       json_t *subject, json_t *evidence, const char *action,
		       const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

struct record_writer;

/* path "-" is stdout. append keeps what is there (--resume). NULL + errno. */
struct record_writer *record_writer_open(const char *path, bool append);
/* Writes one line and flushes it; rec is not stolen. 0 or -errno. */
int record_writer_emit(struct record_writer *w, const json_t *rec);
/* Emits and drops the reference: for rec = record_new(...) one-liners. */
int record_writer_emit_steal(struct record_writer *w, json_t *rec);
/* Closes (not stdout); 0 or -errno if anything failed to reach the file. */
int record_writer_close(struct record_writer *w);

/*
 * Checks one record against the contract. 0, or -EINVAL with a message
 * (without file:line) in why.
 */
int record_validate(const json_t *rec, char *why, size_t why_len);

struct record_reader;

/*
 * The longest record line, in bytes (its line end not counted): a longer
 * line is "FILE:LINE: line longer than ..." (docs/records.md).
 */
#define RECORD_LINE_MAX (1 << 20)

/*
 * path "-" is stdin (a file or a pipe); any other path must be a regular
 * file (EINVAL for a FIFO, a device or a socket: never opened blocking).
 * NULL + errno.
 */
struct record_reader *record_reader_open(const char *path);
/*
 * Gives up at deadline (clock_mono_now() seconds; 0: never), checked before
 * each line and while waiting on a pipe: record_reader_next() then returns
 * -ETIMEDOUT with "FILE:LINE: --timeout of timeout_s s reached ...".
 */
void record_reader_set_deadline(struct record_reader *r, double deadline,
				double timeout_s);
/*
 * Reads only the lines of a regular file that start in [start, end) (end
 * -1: to the end), so that readers can share one big file. Line numbers in
 * messages stay those of the whole file. NULL + errno.
 */
struct record_reader *record_reader_open_range(const char *path, off_t start,
					       off_t end);
/*
 * Reads the next record, streaming line by line. Returns 1 with *rec (a
 * new reference), 0 at the end, -EINVAL for a malformed line (message in
 * record_reader_error(): "FILE:LINE: what was expected"), -errno on I/O.
 */
int record_reader_next(struct record_reader *r, json_t **rec);
const char *record_reader_error(const struct record_reader *r);
/*
 * record_reader_next() with a fast path: each line is first offered to
 * fast(); when it returns 1 it has taken the line (a strict subset of what
 * the reader accepts, recognised without building JSON) and this returns 1
 * with *rec NULL. Otherwise the line is parsed and validated as usual.
 */
typedef int (*record_fast_fn)(void *ctx, const char *line, size_t len);
int record_reader_next_fast(struct record_reader *r, json_t **rec,
			    record_fast_fn fast, void *ctx);
/* Line number of the record last returned. */
unsigned long record_reader_line(const struct record_reader *r);
/* The byte offset of the next line (progress over a file). */
off_t record_reader_offset(const struct record_reader *r);
void record_reader_close(struct record_reader *r);

#endif
