// SPDX-License-Identifier: MIT
/*
 * The fake fabric's per-job registry (fake_registry.h): three small files
 * in /dev/shm, BASE.flows (the flows of the last steps), BASE.cables (each
 * cable's totals) and BASE.users (how many processes of the job use it),
 * each read and written whole under flock(2), which also excludes the
 * threads of one process (every access opens the file anew).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "burnin/fake_registry.h"

#define REGISTRY_DIR "/dev/shm"

/* A job id from the environment, made safe for a file name. */
static bool job_key(char *buf, size_t len)
{
	bool own = false;

	static const char *const vars[] = { "IBP_FAKE_JOB", "PMIX_NAMESPACE",
					    "OMPI_MCA_ess_base_jobid" };
	const char *v = NULL;
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(*vars) && !v; i++)
		v = getenv(vars[i]);
	if (v && *v)
		snprintf(buf, len, "%s", v);
	else if (getenv("SLURM_JOB_ID"))
		snprintf(buf, len, "slurm%s.%s", getenv("SLURM_JOB_ID"),
			 getenv("SLURM_STEP_ID") ? getenv("SLURM_STEP_ID")
						 : "0");
	else
		own = snprintf(buf, len, "pid%ld", (long)getpid()) > 0;
	for (char *p = buf; *p; p++)
		if (!(*p >= '0' && *p <= '9') && !(*p >= 'a' && *p <= 'z') &&
		    !(*p >= 'A' && *p <= 'Z') && *p != '.' && *p != '-')
			*p = '_';
	return own;
}

bool fake_registry_path(char *buf, size_t len)
{
	char key[96];
	bool own = job_key(key, sizeof(key));

	snprintf(buf, len, "%s/ibproof-fake-%ld-%s", REGISTRY_DIR,
		 (long)getuid(), key);
	return own;
}

/* BASE + suffix, opened and locked (op: LOCK_SH or LOCK_EX); fd or -errno. */
static int open_locked(const char *base, const char *suffix, int op)
{
	char path[PATH_MAX];
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s%s", base, suffix) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	while (flock(fd, op))
		if (errno != EINTR) {
			int ret = -errno;

			close(fd);
			return ret;
		}
	return fd;
}

/* The whole file (size bytes, a multiple of rec) into *out. 0, -errno. */
static int read_all(int fd, size_t rec, void **out, size_t *n)
{
	struct stat st;
	char *buf;
	size_t got = 0;

	if (fstat(fd, &st))
		return -errno;
	buf = malloc((size_t)st.st_size + rec);
	if (!buf)
		return -ENOMEM;
	while (got < (size_t)st.st_size) {
		ssize_t r = pread(fd, buf + got, (size_t)st.st_size - got,
				  (off_t)got);

		if (r <= 0) {
			free(buf);
			return r < 0 ? -errno : -EIO;
		}
		got += (size_t)r;
	}
	*out = buf;
	*n = got / rec;
	return 0;
}

static int write_all(int fd, const void *buf, size_t len, off_t at)
{
	size_t done = 0;

	while (done < len) {
		ssize_t w = pwrite(fd, (const char *)buf + done, len - done,
				   at + (off_t)done);

		if (w < 0)
			return -errno;
		done += (size_t)w;
	}
	return 0;
}

int fake_registry_add(const char *base, const struct fake_registry_flow *f)
{
	struct fake_registry_flow *all;
	size_t n, keep = 0;
	int fd = open_locked(base, ".flows", LOCK_EX), ret;

	if (fd < 0)
		return fd;
	ret = read_all(fd, sizeof(*all), (void **)&all, &n);
	if (ret)
		goto out;
	for (size_t i = 0; i < n; i++) /* steps before the last one go */
		if (all[i].step >= f->step - 1)
			all[keep++] = all[i];
	all[keep++] = *f;
	ret = write_all(fd, all, keep * sizeof(*all), 0);
	if (!ret && ftruncate(fd, (off_t)(keep * sizeof(*all))))
		ret = -errno;
	free(all);
out:
	close(fd);
	return ret;
}

int fake_registry_step(const char *base, int step, double t_wall, double span,
		       struct fake_registry_flow **flows, int *n)
{
	struct fake_registry_flow *all;
	size_t total, k = 0;
	int fd = open_locked(base, ".flows", LOCK_SH), ret;

	if (fd < 0)
		return fd;
	ret = read_all(fd, sizeof(*all), (void **)&all, &total);
	close(fd);
	if (ret)
		return ret;
	for (size_t i = 0; i < total; i++)
		if (all[i].step == step && fabs(all[i].t_wall - t_wall) <= span)
			all[k++] = all[i];
	*flows = all;
	*n = (int)k;
	return 0;
}

int fake_registry_carry(
	const char *base, const int *cables, int n, uint64_t words,
	const double *share, const uint32_t *errors,
	void (*seen)(int cable, const struct fake_cable_total *t, void *arg),
	void *arg)
{
	int fd = open_locked(base, ".cables", LOCK_EX), ret = 0;

	if (fd < 0)
		return fd;
	for (int i = 0; i < n && !ret; i++) {
		struct fake_cable_total t = { 0 };
		off_t at = (off_t)cables[i] * (off_t)sizeof(t);
		uint64_t w = share ? (uint64_t)((double)words * share[i] + 0.5)
				   : words;

		if (pread(fd, &t, sizeof(t), at) < 0) {
			ret = -errno;
			break;
		}
		t.xmit_words += w;
		t.rcv_words += w;
		t.errors += errors ? errors[i] : 0;
		ret = write_all(fd, &t, sizeof(t), at);
		if (!ret && seen)
			seen(cables[i], &t, arg);
	}
	close(fd);
	return ret;
}

int fake_registry_clear(const char *base)
{
	static const char *const files[] = { ".flows", ".cables" };

	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		int fd = open_locked(base, files[i], LOCK_EX), ret = 0;

		if (fd < 0)
			return fd;
		if (ftruncate(fd, 0))
			ret = -errno;
		close(fd);
		if (ret)
			return ret;
	}
	return 0;
}

static char joined[PATH_MAX];

/* Adds delta to the job's users; the last to leave removes the files. */
static void users_add(const char *base, int delta)
{
	static const char *const files[] = { ".flows", ".cables", ".users" };
	char path[PATH_MAX];
	int32_t users = 0;
	int fd = open_locked(base, ".users", LOCK_EX);

	if (fd < 0)
		return;
	if (pread(fd, &users, sizeof(users), 0) != sizeof(users))
		users = 0;
	users += delta;
	if (users <= 0)
		for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
			snprintf(path, sizeof(path), "%s%s", base, files[i]);
			unlink(path);
		}
	else
		write_all(fd, &users, sizeof(users), 0);
	close(fd);
}

static void leave_registry(void)
{
	if (joined[0])
		users_add(joined, -1);
}

void fake_registry_join(const char *base)
{
	static bool at_exit;

	if (!strcmp(joined, base))
		return;
	if (joined[0])
		users_add(joined, -1);
	snprintf(joined, sizeof(joined), "%s", base);
	users_add(joined, 1);
	if (!at_exit)
		at_exit = !atexit(leave_registry);
}
