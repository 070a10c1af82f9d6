// SPDX-License-Identifier: MIT
/*
 * The kernel's own verdict on PCIe links: at probe time it logs
 *   "mlx5_core 0000:c1:00.0: 31.504 Gb/s available PCIe bandwidth, limited
 *    by 8.0 GT/s PCIe x4 link at 0000:c0:01.1 (capable of ...)"
 * Read from /dev/kmsg (non-blocking, bounded in lines and time) or from a
 * saved `dmesg` text file; each such line is attached to the device it names.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "pcie/pcie.h"

static bool hex_run(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* "0000:c1:00.0" at s (lower-case hex, as the kernel prints it). */
static bool bdf_at(const char *s)
{
	return hex_run(s, 4) && s[4] == ':' && hex_run(s + 5, 2) &&
	       s[7] == ':' && hex_run(s + 8, 2) && s[10] == '.' &&
	       s[11] >= '0' && s[11] <= '7';
}

bool pcie_kmsg_parse(const char *line, char bdf[PCIE_BDF_LEN])
{
	const char *lim = strstr(line, "limited by");

	if (!lim || !strstr(lim, "PCIe"))
		return false;
	for (const char *p = line; p + 12 <= lim; p++)
		if (bdf_at(p) && p[12] == ':') {
			memcpy(bdf, p, 12);
			bdf[12] = '\0';
			return true;
		}
	return false;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void take_line(char *line, struct pcie_topo *t, int *found)
{
	char bdf[PCIE_BDF_LEN], *text = line, *semi, *nl;
	int i;

	/* /dev/kmsg: "6,1234,5678,-;text"; continuation lines start ' ' */
	semi = strchr(line, ';');
	if (semi && strspn(line, "0123456789,-c") == (size_t)(semi - line))
		text = semi + 1;
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	if (!pcie_kmsg_parse(text, bdf))
		return;
	i = pcie_topo_find(t, bdf);
	if (i < 0)
		return;
	if (!t->devs[i].kernel_lines)
		t->devs[i].kernel_lines = json_array();
	json_array_append_new(t->devs[i].kernel_lines, json_string(text));
	(*found)++;
}

static int read_records(int fd, struct pcie_topo *t, double deadline,
			long max_lines, int *found)
{
	char rec[8192];

	for (long n = 0; n < max_lines; n++) {
		ssize_t len = read(fd, rec, sizeof(rec) - 1);

		if (len < 0 && (errno == EPIPE || errno == EINTR))
			continue; /* overwritten while we read: go on */
		if (len < 0 && errno == EAGAIN)
			return 0;
		if (len < 0)
			return -errno;
		if (len == 0)
			return 0;
		rec[len] = '\0';
		take_line(rec, t, found);
		if ((n & 255) == 255 && now_s() > deadline)
			return -ETIMEDOUT;
	}
	return 0;
}

static int read_text(int fd, struct pcie_topo *t, double deadline,
		     long max_lines, int *found)
{
	FILE *f = fdopen(fd, "r");
	char *line = NULL;
	size_t cap = 0;
	long n = 0;

	if (!f)
		return -errno;
	while (n++ < max_lines && getline(&line, &cap, f) > 0) {
		take_line(line, t, found);
		if ((n & 255) == 255 && now_s() > deadline)
			break;
	}
	free(line);
	fclose(f);
	return 0;
}

int pcie_kmsg_collect(const char *path, struct pcie_topo *t, double timeout_s,
		      long max_lines, int *n_found)
{
	double deadline = now_s() + timeout_s;
	struct stat st;
	int fd, ret;

	*n_found = 0;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	if (!S_ISCHR(st.st_mode))
		return read_text(fd, t, deadline, max_lines, n_found);
	ret = read_records(fd, t, deadline, max_lines, n_found);
	close(fd);
	return ret;
}
