// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/text.h"

static enum log_level current_level = LOG_LEVEL_WARN;
static int level_from_env_done;

static const char *const level_names[] = {
	[LOG_LEVEL_ERROR] = "error",
	[LOG_LEVEL_WARN] = "warning",
	[LOG_LEVEL_INFO] = "info",
	[LOG_LEVEL_DEBUG] = "debug",
};

/* IBPROOF_LOG=error|warn|info|debug sets the level unless -v did. */
static void level_from_env(void)
{
	const char *env = getenv("IBPROOF_LOG");

	level_from_env_done = 1;
	if (!env)
		return;
	for (int i = LOG_LEVEL_ERROR; i <= LOG_LEVEL_DEBUG; i++)
		if (!strncmp(env, level_names[i], 4))
			current_level = i;
}

void log_set_level(enum log_level level)
{
	level_from_env_done = 1;
	current_level = level;
}

enum log_level log_get_level(void)
{
	if (!level_from_env_done)
		level_from_env();
	return current_level;
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	int saved_errno = errno; /* so callers can use %m */
	va_list ap;

	if (level > log_get_level())
		return;
	flockfile(
		stderr); /* one line, whole, among threads (watchdog, ranks) */
	fprintf(stderr, "ibproof: %s: ", level_names[level]);
	va_start(ap, fmt);
	errno = saved_errno;
	text_term_vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	funlockfile(stderr);
	errno = saved_errno;
}
