// SPDX-License-Identifier: MIT
/*
 * The light check's state: one JSON object in DIR/light-state.json that each
 * run reads and rewrites (the time of the run, error counters, the GPUs'
 * speed history, the bandwidth samples), written to a temporary file and
 * renamed so that a run killed half-way leaves the previous state whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"
#include "node/light.h"

int light_state_path(const char *dir, const char *name, char *buf, size_t len)
{
	if (snprintf(buf, len, "%s/%s", dir, name) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int light_state_mkdir(const char *dir)
{
	char path[4096];
	size_t len = strlen(dir);

	if (len == 0 || len >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, len + 1);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/* A state that does not parse is kept aside for a person to look at. */
static json_t *set_aside(const char *path, const json_error_t *err,
			 json_t *notes)
{
	char bad[4096 + 8];

	snprintf(bad, sizeof(bad), "%s.bad", path);
	if (rename(path, bad))
		bad[0] = '\0';
	log_warn("%s:%d: not a light-check state (%s); starting afresh%s%s",
		 path, err->line, err->text, bad[0] ? ", kept as " : "", bad);
	json_array_append_new(
		notes, json_sprintf("state %s:%d: unreadable (%s); started "
				    "afresh: no deltas this run",
				    path, err->line, err->text));
	return json_object();
}

json_t *light_state_load(const char *dir, json_t *notes)
{
	char path[4096];
	json_error_t err;
	json_t *st;

	if (light_state_path(dir, LIGHT_STATE_FILE, path, sizeof(path)))
		return json_object();
	if (access(path, F_OK))
		return json_object();
	st = json_load_file(path, 0, &err);
	if (st && json_is_object(st))
		return st;
	if (st) {
		json_decref(st);
		snprintf(err.text, sizeof(err.text), "not a JSON object");
		err.line = 1;
	} else if (json_error_code(&err) == json_error_cannot_open_file) {
		json_array_append_new(notes,
				      json_sprintf("state %s: %s; no deltas "
						   "this run",
						   path, err.text));
		return json_object();
	}
	return set_aside(path, &err, notes);
}

int light_state_save(const char *dir, const json_t *state)
{
	char path[4096], tmp[4096 + 16];
	int fd, ret;

	ret = light_state_mkdir(dir);
	if (ret || (ret = light_state_path(dir, LIGHT_STATE_FILE, path,
					   sizeof(path)))) {
		log_error("state dir %s: %s", dir, strerror(-ret));
		return ret;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || json_dumpfd(state, fd, JSON_COMPACT | JSON_SORT_KEYS) ||
	    fsync(fd)) {
		ret = -errno;
		log_error("%s: cannot write: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		unlink(tmp);
		return ret ? ret : -EIO;
	}
	close(fd);
	if (rename(tmp, path)) {
		ret = -errno;
		log_error("%s: cannot rename to %s: %m", tmp, path);
		unlink(tmp);
		return ret;
	}
	return 0;
}
