// SPDX-License-Identifier: MIT
/*
 * The one reader of /sys (common/sysfs.h). Every path is relative to a root
 * directory that stands for /sys; symlinks are followed by hand, relative to
 * the root, so a link can never lead above it. open_in_root() is the one
 * place that opens a sysfs file or directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sysfs.h"

#define SYSFS_MAX_LINKS 40
#define SYSFS_CA_LEN 64 /* IB_DEVICE_NAME_MAX */

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
	int len;

	if (n < 0)
		return -errno;
	target[n] = '\0';
	path_pop(cur);
	if (target[0] == '/')
		cur[0] = '\0';
	len = snprintf(tmp, sizeof(tmp), "%s/%s", strip_sys_prefix(target),
		       rest);
	if (len < 0 || (size_t)len >= sizeof(tmp) || (size_t)len >= todo_len)
		return -ENAMETOOLONG;
	memcpy(todo, tmp, (size_t)len + 1);
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
	if (++*links > SYSFS_MAX_LINKS)
		return -ELOOP;
	ret = splice_link(full, cur, todo, todo_len, e);
	*pp = todo;
	return ret;
}

/* Resolves rel from dir, a canonical path inside root ("" for root). */
static int resolve_from(const char *root, const char *dir, const char *rel,
			char *out, size_t len)
{
	char todo[2 * PATH_MAX], cur[PATH_MAX];
	const char *p = todo;
	int links = 0, ret;
	size_t n;

	if (snprintf(cur, sizeof(cur), "%s", dir) >= (int)sizeof(cur) ||
	    snprintf(todo, sizeof(todo), "%s", rel) >= (int)sizeof(todo))
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
	n = strlen(cur);
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(out, cur, n + 1);
	return 0;
}

int sysfs_resolve(const char *root, const char *rel, char *out, size_t len)
{
	return resolve_from(root, "", rel, out, len);
}

/*
 * The one open() of sysfs: rel resolved inside root, no link left. Opened
 * O_NONBLOCK and then checked, so a FIFO or a device node in a captured
 * tree is refused (-EINVAL; a directory -EISDIR) instead of blocking open() or read() forever:
 * every sysfs attribute is a regular file.
 */
static int open_in_root(const char *root, const char *dir, const char *rel,
			int flags)
{
	char canon[PATH_MAX], full[PATH_MAX];
	int fd, ret = resolve_from(root, dir, rel, canon, sizeof(canon));
	struct stat st;

	if (ret)
		return ret;
	if (snprintf(full, sizeof(full), "%s/%s", root, canon) >=
	    (int)sizeof(full))
		return -ENAMETOOLONG;
	fd = open(full, flags | O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	if (!(flags & O_DIRECTORY) && !S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	return fd;
}

long sysfs_read_bin_in(const char *root, const char *dir, const char *rel,
		       void *buf, size_t len)
{
	size_t got = 0;
	int fd = open_in_root(root, dir, rel, 0);

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

long sysfs_read_bin(const char *root, const char *rel, void *buf, size_t len)
{
	return sysfs_read_bin_in(root, "", rel, buf, len);
}

int sysfs_read_in(const char *root, const char *dir, const char *rel, char *buf,
		  size_t len)
{
	long n;

	if (!len)
		return -EINVAL;
	n = sysfs_read_bin_in(root, dir, rel, buf, len - 1);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int sysfs_read(const char *root, const char *rel, char *buf, size_t len)
{
	return sysfs_read_in(root, "", rel, buf, len);
}

struct name_list {
	char **v;
	size_t n;
};

static void name_list_free(struct name_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static int name_list_add(struct name_list *l, const char *name)
{
	char **v = realloc(l->v, (l->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	l->v = v;
	v[l->n] = strdup(name);
	if (!v[l->n])
		return -ENOMEM;
	l->n++;
	return 0;
}

/* The names of a directory inside root, '.' names left out. */
static int read_names(const char *root, const char *rel, struct name_list *l)
{
	int ret = 0, fd = open_in_root(root, "", rel, O_DIRECTORY);
	struct dirent *e;
	DIR *dp;

	if (fd < 0)
		return fd;
	dp = fdopendir(fd);
	if (!dp) {
		ret = -errno;
		close(fd);
		return ret;
	}
	for (;;) {
		errno = 0; /* readdir()'s NULL is the end or an error */
		e = readdir(dp);
		if (!e) {
			ret = errno ? -errno : 0;
			break;
		}
		if (e->d_name[0] != '.' && (ret = name_list_add(l, e->d_name)))
			break;
	}
	closedir(dp);
	return ret;
}

struct name_order {
	int (*cmp)(const char *a, const char *b);
};

static int name_cmp(const void *a, const void *b, void *arg)
{
	const struct name_order *o = arg;

	return o->cmp(*(char *const *)a, *(char *const *)b);
}

int sysfs_list(const char *root, const char *rel,
	       int (*cmp)(const char *a, const char *b),
	       int (*fn)(void *ctx, const char *name), void *ctx)
{
	struct name_list l = { NULL, 0 };
	struct name_order o = { cmp };
	int ret = read_names(root, rel, &l);

	if (!ret && cmp && l.n > 1)
		qsort_r(l.v, l.n, sizeof(*l.v), name_cmp, &o);
	for (size_t i = 0; !ret && i < l.n; i++)
		ret = fn(ctx, l.v[i]);
	name_list_free(&l);
	return ret;
}

int sysfs_port_rel(char *out, size_t len, const char *ca, int port,
		   const char *attr)
{
	int n;

	if (port < 0 || !ca[0] || !attr[0])
		return -EINVAL;
	n = snprintf(out, len, "class/infiniband/%s/ports/%d/%s", ca, port,
		     attr);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int sysfs_port_read(const char *root, const char *ca, int port,
		    const char *attr, char *buf, size_t len)
{
	char rel[PATH_MAX];
	int ret = sysfs_port_rel(rel, sizeof(rel), ca, port, attr);

	return ret ? ret : sysfs_read(root, rel, buf, len);
}

int sysfs_ca_read(const char *root, const char *ca, const char *attr, char *buf,
		  size_t len)
{
	char rel[PATH_MAX];
	int n = snprintf(rel, sizeof(rel), "class/infiniband/%s/%s", ca, attr);

	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	return sysfs_read(root, rel, buf, len);
}

int sysfs_parse_long(const char *text, int base, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, base);
	if (end == text || *end)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*out = v;
	return 0;
}

struct ib_port_name {
	char ca[SYSFS_CA_LEN];
	int port;
};

struct ib_port_walk {
	const char *root;
	const char *ca_filter;
	const char *ca; /* the CA whose ports are being listed */
	struct ib_port_name *v;
	int n;
};

static int ib_port_cmp(const void *a, const void *b)
{
	const struct ib_port_name *x = a, *y = b;
	int c = strcmp(x->ca, y->ca);

	return c ? c : x->port - y->port;
}

static int add_ca_port(void *ctx, const char *name)
{
	struct ib_port_walk *w = ctx;
	struct ib_port_name *v;
	long port;

	if (sysfs_parse_long(name, 10, &port) || port <= 0 || port > INT_MAX)
		return 0;
	v = realloc(w->v, (size_t)(w->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	w->v = v;
	memcpy(v[w->n].ca, w->ca, strlen(w->ca) + 1);
	v[w->n++].port = (int)port;
	return 0;
}

/* The ports of one CA; a CA without a readable ports folder is skipped. */
static int add_ca(void *ctx, const char *ca)
{
	struct ib_port_walk *w = ctx;
	char rel[PATH_MAX];
	int ret;

	if (strlen(ca) >= SYSFS_CA_LEN ||
	    (w->ca_filter && strcmp(w->ca_filter, ca)))
		return 0;
	snprintf(rel, sizeof(rel), "class/infiniband/%s/ports", ca);
	w->ca = ca;
	ret = sysfs_list(w->root, rel, NULL, add_ca_port, w);
	return ret == -ENOMEM ? ret : 0;
}

int sysfs_ib_ports(const char *root, const char *ca_filter,
		   int (*fn)(void *ctx, const char *ca, int port), void *ctx)
{
	struct ib_port_walk w = { root, ca_filter, NULL, NULL, 0 };
	int ret = sysfs_list(root, "class/infiniband", NULL, add_ca, &w);

	if (!ret && w.n > 1)
		qsort(w.v, (size_t)w.n, sizeof(*w.v), ib_port_cmp);
	for (int i = 0; !ret && i < w.n; i++)
		ret = fn(ctx, w.v[i].ca, w.v[i].port);
	free(w.v);
	return ret;
}
