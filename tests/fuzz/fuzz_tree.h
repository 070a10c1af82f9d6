/* SPDX-License-Identifier: MIT */
/*
 * fuzz_tree.h: a small file tree built from a fuzz input, for readers of
 * captured trees (pcie --sysfs-root). One entry a line:
 *
 *	d PATH			a folder
 *	f PATH=CONTENT		a file; CONTENT takes \n, \\ and \xNN
 *	l PATH>TARGET		a symbolic link
 *	p PATH			a FIFO
 *
 * PATH is relative, of names (no ".", ".." or empty name); its folders are
 * made as needed and must be real folders (not links). TARGET is relative:
 * some "../" first, no more than PATH's folder is deep, then names only,
 * so that every link resolves inside the tree. Bounded: at most
 * FUZZ_TREE_MAX entries, paths of FUZZ_TREE_PATH bytes, FUZZ_TREE_DEPTH
 * names; other lines are ignored. The tree lives under /dev/shm, one a
 * process, and fuzz_tree_clean() empties it after each input: it removes
 * what fuzz_tree_build() made, newest first (no directory walk: nftw()
 * was a third of the target's time), then proves the root empty.
 */
#ifndef IBPROOF_FUZZ_TREE_H
#define IBPROOF_FUZZ_TREE_H

#include <stdbool.h>
#include <sys/stat.h>

#define FUZZ_TREE_MAX 64
#define FUZZ_TREE_PATH 256
#define FUZZ_TREE_DEPTH 12
#define FUZZ_TREE_MADE (FUZZ_TREE_MAX * (FUZZ_TREE_DEPTH + 1))

/* What the tree holds, in the order it was made (folders before content). */
static struct fuzz_tree_made {
	char path[FUZZ_TREE_PATH * 2];
	bool folder;
} fuzz_tree_made[FUZZ_TREE_MADE];
static int fuzz_tree_n;

static inline void fuzz_tree_note(const char *path, bool folder)
{
	if (fuzz_tree_n == FUZZ_TREE_MADE)
		abort(); /* the bounds above make this unreachable */
	snprintf(fuzz_tree_made[fuzz_tree_n].path,
		 sizeof(fuzz_tree_made[0].path), "%s", path);
	fuzz_tree_made[fuzz_tree_n++].folder = folder;
}

/* Names only: "a/b/c", at most FUZZ_TREE_DEPTH of them; the count or -1. */
static inline int fuzz_tree_names(const char *p)
{
	int n = 0;

	if (!*p || *p == '/')
		return -1;
	while (*p) {
		const char *e = strchrnul(p, '/');
		size_t len = (size_t)(e - p);

		if (!len || (len == 1 && *p == '.') ||
		    (len == 2 && !strncmp(p, "..", 2)) || ++n > FUZZ_TREE_DEPTH)
			return -1;
		p = *e ? e + 1 : e;
	}
	return n;
}

/* "../../a/b" from a link whose folder is depth names deep. */
static inline bool fuzz_tree_target_ok(const char *t, int depth)
{
	while (!strncmp(t, "../", 3)) {
		t += 3;
		if (--depth < 0)
			return false;
	}
	return fuzz_tree_names(t) > 0;
}

/* Makes the folders of rel under root; false if one is not a folder. */
static inline bool fuzz_tree_folders(const char *root, const char *rel)
{
	char path[FUZZ_TREE_PATH * 2];
	struct stat st;
	size_t base = (size_t)snprintf(path, sizeof(path), "%s/", root);

	for (const char *s = strchr(rel, '/'); s; s = strchr(s + 1, '/')) {
		snprintf(path + base, sizeof(path) - base, "%.*s",
			 (int)(s - rel), rel);
		if (!mkdir(path, 0755)) {
			fuzz_tree_note(path, true);
			continue;
		}
		if (errno != EEXIST || lstat(path, &st) || !S_ISDIR(st.st_mode))
			return false;
	}
	return true;
}

/* Decodes CONTENT into buf; its length. */
static inline size_t fuzz_tree_unescape(const char *s, char *buf)
{
	size_t n = 0;
	unsigned int x;

	for (; *s; s++) {
		if (*s != '\\' || !s[1]) {
			buf[n++] = *s;
		} else if (s[1] == 'n') {
			buf[n++] = '\n', s++;
		} else if (s[1] == 'x' && sscanf(s + 2, "%2x", &x) == 1 &&
			   isxdigit((unsigned char)s[2]) &&
			   isxdigit((unsigned char)s[3])) {
			buf[n++] = (char)x, s += 3;
		} else {
			buf[n++] = s[1], s++;
		}
	}
	return n;
}

static inline void fuzz_tree_entry(const char *root, char *line)
{
	char path[FUZZ_TREE_PATH * 2], *arg = NULL, *buf;
	char kind = line[0];
	int depth;
	size_t n;

	if (!kind || line[1] != ' ')
		return;
	line += 2;
	if (kind == 'f' || kind == 'l') {
		arg = strchr(line, kind == 'f' ? '=' : '>');
		if (!arg)
			return;
		*arg++ = '\0';
	}
	depth = fuzz_tree_names(line);
	if (depth < 0 || strlen(line) >= FUZZ_TREE_PATH ||
	    !fuzz_tree_folders(root, line))
		return;
	snprintf(path, sizeof(path), "%s/%s", root, line);
	if (kind == 'd') {
		if (!mkdir(path, 0755))
			fuzz_tree_note(path, true);
	} else if (kind == 'p') {
		if (!mkfifo(path, 0644))
			fuzz_tree_note(path, false);
	} else if (kind == 'l') {
		if (fuzz_tree_target_ok(arg, depth - 1) && !symlink(arg, path))
			fuzz_tree_note(path, false);
	} else if (kind == 'f' && (buf = malloc(strlen(arg) + 1))) {
		FILE *f = fopen(path, "wx");

		n = fuzz_tree_unescape(arg, buf);
		if (f) {
			fuzz_tree_note(path, false);
			fwrite(buf, 1, n, f);
			fclose(f);
		}
		free(buf);
	}
}

static char fuzz_tree_root[64];

/* Removes what was made, newest first; false if something would not go. */
static inline bool fuzz_tree_unmake(void)
{
	bool ok = true;

	while (fuzz_tree_n > 0) {
		struct fuzz_tree_made *m = &fuzz_tree_made[--fuzz_tree_n];

		if (m->folder ? rmdir(m->path) : unlink(m->path))
			ok = false;
	}
	return ok;
}

/* At exit: the root goes too. */
static inline void fuzz_tree_remove(void)
{
	fuzz_tree_unmake();
	rmdir(fuzz_tree_root);
}

/* Builds the tree of the input; its root. */
static inline const char *fuzz_tree_build(const uint8_t *data, size_t size)
{
	char *root = fuzz_tree_root;
	char *text = fuzz_text(data, size), *line, *save = NULL;
	int n = 0;

	if (!root[0]) {
		/* the array's size: sizeof(root), a pointer's, made every
		 * process share "/dev/sh" and empty each other's trees */
		if (snprintf(fuzz_tree_root, sizeof(fuzz_tree_root),
			     "/dev/shm/ibproof-fuzz-%d",
			     (int)getpid()) >= (int)sizeof(fuzz_tree_root) ||
		    (mkdir(root, 0755) && errno != EEXIST))
			abort();
		atexit(fuzz_tree_remove);
	}
	for (line = strtok_r(text, "\n", &save); line && n < FUZZ_TREE_MAX;
	     line = strtok_r(NULL, "\n", &save), n++)
		fuzz_tree_entry(root, line);
	free(text);
	return root;
}

/* root/name when it is a regular file (not a link, not a FIFO), else NULL. */
static inline const char *fuzz_tree_file(const char *root, const char *name)
{
	static char path[FUZZ_TREE_PATH];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	return !lstat(path, &st) && S_ISREG(st.st_mode) ? path : NULL;
}

/*
 * Empties the tree (keeps its root). A tree left behind would feed the next
 * input: the root must then come out of rmdir() empty, or the run stops.
 */
static inline void fuzz_tree_clean(const char *root)
{
	if (!fuzz_tree_unmake() || rmdir(root) || mkdir(root, 0755))
		abort();
}

#endif
