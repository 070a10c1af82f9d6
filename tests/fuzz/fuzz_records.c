// SPDX-License-Identifier: MIT
/* Fuzz target: the JSON Lines records reader and the record contract
 * (common/record_read.c, common/record_schema.c), read from a file as
 * every tool reads them (an in-memory file, /proc/self/fd/N). */
#include <jansson.h>

#include "common/record.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct record_reader *r;
	json_t *rec;
	int rc;

	r = record_reader_open(path);
	if (!r)
		abort();
	while ((rc = record_reader_next(r, &rec)) > 0)
		json_decref(rec);
	if (rc == -EINVAL)
		fuzz_check_path_err(path, record_reader_error(r));
	record_reader_close(r);
	return 0;
}
