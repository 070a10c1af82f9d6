/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h: what the libFuzzer targets share. Beyond the sanitizers, each
 * target checks an oracle: a refused input is named "PATH:LINE: ..." (or
 * "PATH: out of memory"), never an empty or foreign message.
 */
#ifndef IBPROOF_FUZZ_H
#define IBPROOF_FUZZ_H

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FUZZ_PATH "fuzz.in"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (the parsers read text). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* rc 0, or an error that names FUZZ_PATH and a line. */
static inline void fuzz_check_err(int rc, const char *err)
{
	const char *p = err + strlen(FUZZ_PATH);

	if (!rc)
		return;
	if (rc == -ENOMEM && strstr(err, "out of memory"))
		return;
	if (rc != -EINVAL || strncmp(err, FUZZ_PATH ":", strlen(FUZZ_PATH) + 1))
		goto bad;
	p++;
	if (!isdigit((unsigned char)*p) || *p == '0')
		goto bad;
	while (isdigit((unsigned char)*p))
		p++;
	if (!strncmp(p, ": ", 2) && p[2])
		return;
bad:
	fprintf(stderr, "oracle: rc %d, error without FILE:LINE: \"%.200s\"\n",
		rc, err);
	abort();
}

/*
 * The input as a file, for parsers that open a path: one in-memory file
 * per process (/proc/self/fd/N), rewritten for each input.
 */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create("fuzz.in", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	return path;
}

/* An error about the file at path names it and a line: "PATH:LINE: ...". */
static inline void fuzz_check_path_err(const char *path, const char *err)
{
	size_t n = strlen(path);
	const char *p = err + n + 1;

	if (!strncmp(err, path, n) && err[n] == ':' &&
	    isdigit((unsigned char)*p) && *p != '0') {
		while (isdigit((unsigned char)*p))
			p++;
		if (!strncmp(p, ": ", 2))
			return;
	}
	fprintf(stderr, "oracle: error without FILE:LINE: \"%.200s\"\n", err);
	abort();
}

/* An empty file's error names the file: "PATH: empty file...". */
static inline void fuzz_check_empty_err(const char *path, const char *err)
{
	size_t n = strlen(path);

	if (strncmp(err, path, n) || strncmp(err + n, ": empty file", 12)) {
		fprintf(stderr, "oracle: empty file error: \"%.200s\"\n", err);
		abort();
	}
}

#endif
