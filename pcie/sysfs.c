// SPDX-License-Identifier: MIT
/*
 * The one reader of /sys. Every path is relative to a root directory that
 * stands for /sys (the UCX ucs_topo_get_pci_bw(dev, sysfs_path) model), so a
 * captured tree can be audited offline. Symlinks are followed by hand,
 * relative to the root: a link can never lead above it.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pcie/pcie.h"

#define PCIE_MAX_LINKS 40

static void path_pop(char *cur)
{
	char *slash = strrchr(cur, '/');

	if (slash)
		*slash = '\0';
	else
		cur[0] = '\0';
}

static int path_push(char *cur, size_t len, const char *c, size_t clen)
{
	size_t have = strlen(cur);
	size_t need = have + (have ? 1 : 0) + clen + 1;

	if (need > len)
		return -ENAMETOOLONG;
	if (have)
		cur[have++] = '/';
	memcpy(cur + have, c, clen);
	cur[have + clen] = '\0';
	return 0;
}

/* Absolute link targets: "/sys/devices/x" is root's "devices/x". */
static const char *strip_sys_prefix(const char *target)
{
	if (strncmp(target, "/sys", 4) == 0 &&
	    (target[4] == '/' || target[4] == '\0'))
		return target + 4;
	return target;
}

/*
 * cur holds "a/b/link": replaces the link by its target and prepends the
 * target to the rest still to walk (todo, from rest on).
 */
static int splice_link(const char *full, char *cur, char *todo, size_t todo_len,
		       const char *rest)
{
	char target[PATH_MAX], tmp[2 * PATH_MAX];
	ssize_t n = readlink(full, target, sizeof(target) - 1);

	if (n < 0)
		return -errno;
	target[n] = '\0';
	path_pop(cur);
	if (target[0] == '/')
		cur[0] = '\0';
	if (snprintf(tmp, sizeof(tmp), "%s/%s", strip_sys_prefix(target),
		     rest) >= (int)sizeof(tmp) ||
	    strlen(tmp) >= todo_len)
		return -ENAMETOOLONG;
	strcpy(todo, tmp);
	return 0;
}

static int step(const char *root, char *cur, size_t len, const char **pp,
		char *todo, size_t todo_len, int *links)
{
	const char *p = *pp, *e = strchrnul(p, '/');
	size_t clen = (size_t)(e - p);
	char full[PATH_MAX];
	struct stat st;
	int ret;

	*pp = e;
	if (clen == 1 && p[0] == '.')
		return 0;
	if (clen == 2 && p[0] == '.' && p[1] == '.') {
		path_pop(cur);
		return 0;
	}
	ret = path_push(cur, len, p, clen);
	if (ret)
		return ret;
	if (snprintf(full, sizeof(full), "%s/%s", root, cur) >=
	    (int)sizeof(full))
		return -ENAMETOOLONG;
	if (lstat(full, &st))
		return -errno;
	if (!S_ISLNK(st.st_mode))
		return 0;
	if (++*links > PCIE_MAX_LINKS)
		return -ELOOP;
	ret = splice_link(full, cur, todo, todo_len, e);
	*pp = todo;
	return ret;
}

int pcie_sysfs_resolve(const char *root, const char *rel, char *out, size_t len)
{
	char todo[2 * PATH_MAX], cur[PATH_MAX] = "";
	const char *p = todo;
	int links = 0, ret;

	if (snprintf(todo, sizeof(todo), "%s", rel) >= (int)sizeof(todo))
		return -ENAMETOOLONG;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		ret = step(root, cur, sizeof(cur), &p, todo, sizeof(todo),
			   &links);
		if (ret)
			return ret;
	}
	if (strlen(cur) >= len)
		return -ENAMETOOLONG;
	strcpy(out, cur);
	return 0;
}

static int open_in_root(const char *root, const char *rel)
{
	char canon[PATH_MAX], full[PATH_MAX];
	int fd, ret = pcie_sysfs_resolve(root, rel, canon, sizeof(canon));

	if (ret)
		return ret;
	if (snprintf(full, sizeof(full), "%s/%s", root, canon) >=
	    (int)sizeof(full))
		return -ENAMETOOLONG;
	fd = open(full, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	return fd < 0 ? -errno : fd;
}

long pcie_sysfs_read_bin(const char *root, const char *rel, void *buf,
			 size_t len)
{
	size_t got = 0;
	int fd = open_in_root(root, rel);

	if (fd < 0)
		return fd;
	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return (long)got;
}

int pcie_sysfs_read(const char *root, const char *rel, char *buf, size_t len)
{
	long n = pcie_sysfs_read_bin(root, rel, buf, len - 1);

	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

struct ib_port_name {
	char ca[PCIE_NAME_LEN];
	int port;
};

struct ib_port_list {
	struct ib_port_name *v;
	int n;
};

static int ib_port_cmp(const void *a, const void *b)
{
	const struct ib_port_name *x = a, *y = b;
	int c = strcmp(x->ca, y->ca);

	return c ? c : x->port - y->port;
}

static int list_ca_ports(const char *root, const char *ca,
			 struct ib_port_list *l)
{
	char rel[PCIE_PATH_LEN], canon[PCIE_PATH_LEN], dir[PCIE_PATH_LEN * 2];
	struct dirent *e;
	int ret = 0;
	DIR *dp;

	snprintf(rel, sizeof(rel), "class/infiniband/%s/ports", ca);
	if (pcie_sysfs_resolve(root, rel, canon, sizeof(canon)))
		return 0;
	snprintf(dir, sizeof(dir), "%s/%s", root, canon);
	dp = opendir(dir);
	if (!dp)
		return 0;
	while (!ret && (e = readdir(dp))) {
		int port = atoi(e->d_name);
		struct ib_port_name *v;

		if (port <= 0)
			continue;
		v = realloc(l->v, (size_t)(l->n + 1) * sizeof(*v));
		if (!v) {
			ret = -ENOMEM;
			break;
		}
		l->v = v;
		snprintf(v[l->n].ca, sizeof(v[l->n].ca), "%s", ca);
		v[l->n++].port = port;
	}
	closedir(dp);
	return ret;
}

int pcie_sysfs_ib_ports(const char *root, const char *ca_filter,
			int (*fn)(void *ctx, const char *ca, int port),
			void *ctx)
{
	struct ib_port_list l = { NULL, 0 };
	char dir[PCIE_PATH_LEN * 2];
	struct dirent *e;
	int ret = 0;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/class/infiniband", root);
	dp = opendir(dir);
	if (!dp)
		return -errno;
	while (!ret && (e = readdir(dp)))
		if (e->d_name[0] != '.' && strlen(e->d_name) < PCIE_NAME_LEN &&
		    (!ca_filter || !strcmp(ca_filter, e->d_name)))
			ret = list_ca_ports(root, e->d_name, &l);
	closedir(dp);
	if (l.n > 1)
		qsort(l.v, (size_t)l.n, sizeof(*l.v), ib_port_cmp);
	for (int i = 0; !ret && i < l.n; i++)
		ret = fn(ctx, l.v[i].ca, l.v[i].port);
	free(l.v);
	return ret;
}
