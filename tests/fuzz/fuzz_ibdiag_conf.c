// SPDX-License-Identifier: MIT
/*
 * Fuzz target: rdma-core's ibdiag.conf as ibproof reads its m_key=
 * (fabric/fabric_ibdiag_conf.c). Oracles: every error is FILE:LINE, and
 * its text is one of the parser's own sentences: it never repeats what
 * the file holds (the key is a secret).
 */
#include "fabric/fabric_ibdiag_conf.h"
#include "fuzz.h"

static const char *const sentences[] = {
	"m_key: expected a number",
	"m_key: more than 64 bits",
	"m_key_files (per-node keys) is not supported",
	"expected m_key=KEY",
	"NUL byte",
	"line longer than",
	"read error",
	NULL,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size), *msg;
	struct fabric_mkey key = { 0 };
	char err[512] = "";
	int rc = fabric_ibdiag_conf_read(path, true, &key, err, sizeof(err));

	if (rc != -EINVAL)
		return 0;
	fuzz_check_path_err(path, err);
	msg = strchr(err + strlen(path) + 1, ':') + 2;
	for (int i = 0; sentences[i]; i++)
		if (!strncmp(msg, sentences[i], strlen(sentences[i])))
			return 0;
	fprintf(stderr,
		"oracle: an error not of the parser's own: \"%.200s\"\n", err);
	abort();
}
