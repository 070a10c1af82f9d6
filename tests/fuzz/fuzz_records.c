// SPDX-License-Identifier: MIT
/* Fuzz target: the JSON Lines records reader and the record contract
 * (common/record_read.c, common/record_schema.c), read from a file as
 * every tool reads them (an in-memory file, /proc/self/fd/N). */
#include <sys/mman.h>
#include <unistd.h>

#include <jansson.h>

#include "common/record.h"
#include "fuzz.h"

static void check_reader_err(const char *path, const char *err)
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
	fprintf(stderr, "oracle: record error without FILE:LINE: \"%.200s\"\n",
		err);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct record_reader *r;
	json_t *rec;
	int rc;

	if (fd < 0) {
		fd = memfd_create("fuzz.jsonl", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	r = record_reader_open(path);
	if (!r)
		abort();
	while ((rc = record_reader_next(r, &rec)) > 0)
		json_decref(rec);
	if (rc == -EINVAL)
		check_reader_err(path, record_reader_error(r));
	record_reader_close(r);
	return 0;
}
