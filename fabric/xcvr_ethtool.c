// SPDX-License-Identifier: MIT
/*
 * xcvr_ethtool.c: an Ethernet/RoCE port's module through the seam of
 * ethtool_ops.c. Netlink first, by page and bank; when the kernel has no
 * netlink module API (or refuses it), the ioctl's flat view: the lower page
 * and upper page 00h at offsets 0-255, upper page N at (N + 1) * 128, as
 * far as the driver's length goes. The whole read runs in a worker thread
 * that the caller waits for until its deadline, so a driver stuck in an
 * I2C read cannot hold the run.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fabric/xcvr_ethtool.h"

#define PAGE_LEN 128
#define FIRST_BANKED_PAGE 0x10 /* CMIS pages 10h-FFh are banked */

static const char *errno_sentence(int err)
{
	switch (err) {
	case EOPNOTSUPP:
		return "the driver has no module EEPROM ops (so for IPoIB "
		       "netdevs by design, virtual interfaces, NICs without "
		       "a cage)";
	case ENODEV:
		return "no module answered (an empty cage, or the interface "
		       "went away)";
	case ENXIO:
	case ENOMEDIUM:
		return "no module in the cage";
	case EIO:
		return "the module did not answer (an empty cage, or an I2C "
		       "error)";
	case EPERM:
	case EACCES:
		return "not permitted (the ioctl needs CAP_NET_ADMIN)";
	case ETIMEDOUT:
		return "the kernel did not return the module EEPROM in time";
	case EINVAL:
		return "the kernel refused the page or range asked for";
	case EBUSY:
	case EAGAIN:
		return "the module or its I2C bus is busy";
	case EPROTONOSUPPORT:
		return "the kernel has no ethtool netlink API (older than "
		       "5.6)";
	default:
		return NULL;
	}
}

void xcvr_ethtool_strerror(int rc, const char *ifname, const char *kmsg,
			   char *why, size_t why_len)
{
	const char *s = errno_sentence(-rc);

	snprintf(why, why_len, "%s: %s%s%s%s%s", ifname, s ? s : "",
		 s ? " (" : "", strerror(-rc), s ? ")" : "",
		 kmsg && kmsg[0] ? "; kernel: " : "");
	if (kmsg && kmsg[0]) {
		size_t n = strlen(why);

		snprintf(why + n, why_len - n, "%s", kmsg);
	}
}

/* The flat view's offset of a page read; -1 when it is not in the view. */
static long flat_offset(const struct xcvr_ethtool_port *e, int page, int offset,
			int len)
{
	long flat = offset < PAGE_LEN ? offset : (long)page * PAGE_LEN + offset;
	bool paged = e->flat_type == XCVR_ETH_SFF_8636 ||
		     e->flat_type == XCVR_ETH_SFF_8436;

	if ((page && !paged) || flat + len > (long)e->flat_len)
		return -1;
	return flat;
}

static int read_legacy(struct xcvr_ethtool_port *e, int page, int offset,
		       int len, uint8_t *buf, char *why, size_t why_len)
{
	long flat = flat_offset(e, page, offset, len);
	int rc;

	if (flat < 0) {
		snprintf(why, why_len,
			 "%s: page %02xh is not in the ioctl's view of the "
			 "module (%u bytes; the kernel has no netlink "
			 "module API for it)",
			 e->ifname, page, e->flat_len);
		return -EOPNOTSUPP;
	}
	rc = e->ops->read_flat(e->h, (uint32_t)flat, (uint32_t)len, buf);
	if (rc)
		xcvr_ethtool_strerror(rc, e->ifname, NULL, why, why_len);
	return rc;
}

/*
 * Netlink said no on the first read: try the ioctl. When netlink said
 * EOPNOTSUPP and the ioctl says the same (or may not be used: it needs
 * CAP_NET_ADMIN), netlink's answer is the one said, with the kernel's
 * words.
 */
static int fall_back(struct xcvr_ethtool_port *e, int nl_rc, const char *kmsg,
		     char *why, size_t why_len)
{
	int rc = e->ops->module_info(e->h, &e->flat_type, &e->flat_len);

	if (nl_rc == -EOPNOTSUPP &&
	    (rc == -EOPNOTSUPP || rc == -EPERM || rc == -EACCES)) {
		xcvr_ethtool_strerror(nl_rc, e->ifname, kmsg, why, why_len);
		return nl_rc;
	}
	if (rc) {
		xcvr_ethtool_strerror(rc, e->ifname, NULL, why, why_len);
		return rc;
	}
	e->legacy = true;
	e->source = "ethtool-ioctl";
	return 0;
}

int xcvr_ethtool_read(void *ctx, int page, int offset, int len, uint8_t *buf,
		      char *why, size_t why_len)
{
	struct xcvr_ethtool_port *e = ctx;
	char kmsg[XCVR_ETHTOOL_KMSG] = "";
	bool first = !e->source;
	int rc;

	if (page < 0 || page > 255 || offset < 0 || len < 1 || len > PAGE_LEN ||
	    offset + len > 2 * PAGE_LEN ||
	    (offset < PAGE_LEN && (page || offset + len > PAGE_LEN))) {
		snprintf(why, why_len,
			 "%s: page %d offset %d size %d: not a "
			 "page read",
			 e->ifname, page, offset, len);
		return -EINVAL;
	}
	if (e->legacy)
		return read_legacy(e, page, offset, len, buf, why, why_len);
	rc = e->ops->read_page(
		e->h, page, page >= FIRST_BANKED_PAGE ? e->bank : 0,
		XCVR_ETHTOOL_I2C, offset, len, buf, kmsg, sizeof(kmsg));
	if (!rc) {
		e->source = "ethtool-netlink";
		return 0;
	}
	if (first && (rc == -EOPNOTSUPP || rc == -EPROTONOSUPPORT)) {
		rc = fall_back(e, rc, kmsg, why, why_len);
		return rc ? rc
			  : read_legacy(e, page, offset, len, buf, why,
					why_len);
	}
	xcvr_ethtool_strerror(rc, e->ifname, kmsg, why, why_len);
	return rc;
}

/* Open, read the pages, decode, close: what the worker thread does. */
static int read_module(const struct xcvr_ethtool_ops *ops, const char *ifname,
		       unsigned timeout_ms, struct xcvr_info *info)
{
	struct xcvr_ethtool_port e = { .ops = ops, .ifname = ifname };
	struct xcvr_image img;
	int rc = ops->open(ifname, timeout_ms, &e.h);

	memset(info, 0, sizeof(*info));
	info->source = "ethtool-netlink";
	if (rc == -ENODEV) {
		snprintf(info->why, sizeof(info->why),
			 "%s: no such network interface", ifname);
		return rc;
	}
	if (rc) {
		xcvr_ethtool_strerror(rc, ifname, NULL, info->why,
				      sizeof(info->why));
		return rc;
	}
	rc = xcvr_read_image(xcvr_ethtool_read, &e, &img);
	ops->close(e.h);
	if (!rc || img.have_lower)
		rc = xcvr_decode(&img, info);
	else
		snprintf(info->why, sizeof(info->why), "%s", img.why);
	info->source = e.source ? e.source : "ethtool-netlink";
	return rc;
}

/* One module read, shared by the caller and the worker: the last frees. */
struct module_job {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int refs;
	bool done;
	const struct xcvr_ethtool_ops *ops;
	char ifname[64];
	unsigned timeout_ms;
	struct xcvr_info info;
	int rc;
};

static void job_put(struct module_job *j)
{
	int left;

	pthread_mutex_lock(&j->lock);
	left = --j->refs;
	pthread_mutex_unlock(&j->lock);
	if (left)
		return;
	pthread_mutex_destroy(&j->lock);
	pthread_cond_destroy(&j->cond);
	free(j);
}

static void *job_main(void *arg)
{
	struct module_job *j = arg;
	struct xcvr_info info;
	int rc = read_module(j->ops, j->ifname, j->timeout_ms, &info);

	pthread_mutex_lock(&j->lock);
	j->info = info;
	j->rc = rc;
	j->done = true;
	pthread_cond_signal(&j->cond);
	pthread_mutex_unlock(&j->lock);
	job_put(j);
	return NULL;
}

static struct module_job *job_new(const struct xcvr_ethtool_ops *ops,
				  const char *ifname, double timeout_s)
{
	struct module_job *j = calloc(1, sizeof(*j));
	pthread_condattr_t attr;

	if (!j)
		return NULL;
	pthread_mutex_init(&j->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&j->cond, &attr);
	pthread_condattr_destroy(&attr);
	j->refs = 2;
	j->ops = ops;
	snprintf(j->ifname, sizeof(j->ifname), "%s", ifname);
	j->timeout_ms = (unsigned)(timeout_s * 1000.0) + 1;
	return j;
}

/* Waits for the worker until the deadline; false when it is still out. */
static bool job_wait(struct module_job *j, double timeout_s)
{
	struct timespec ts;
	bool done;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += (time_t)timeout_s;
	ts.tv_nsec += (long)((timeout_s - (double)(time_t)timeout_s) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&j->lock);
	while (!j->done &&
	       pthread_cond_timedwait(&j->cond, &j->lock, &ts) != ETIMEDOUT)
		;
	done = j->done;
	pthread_mutex_unlock(&j->lock);
	return done;
}

static int start_worker(struct module_job *j)
{
	pthread_attr_t attr;
	pthread_t t;
	int err;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&t, &attr, job_main, j);
	pthread_attr_destroy(&attr);
	return -err;
}

int xcvr_ethtool_module(const struct xcvr_ethtool_ops *ops, const char *ifname,
			double timeout_s, struct xcvr_info *info)
{
	struct module_job *j = job_new(ops, ifname, timeout_s);
	int rc;

	memset(info, 0, sizeof(*info));
	info->source = "ethtool-netlink";
	if (!j || (rc = start_worker(j))) {
		rc = j ? rc : -ENOMEM;
		if (j) {
			j->refs = 1;
			job_put(j);
		}
		xcvr_ethtool_strerror(rc, ifname, NULL, info->why,
				      sizeof(info->why));
		return rc;
	}
	if (job_wait(j, timeout_s)) {
		*info = j->info;
		rc = j->rc;
	} else {
		snprintf(info->why, sizeof(info->why),
			 "%s: the kernel did not return the module EEPROM "
			 "within %.1f s (the read is left behind)",
			 ifname, timeout_s);
		rc = -ETIMEDOUT;
	}
	job_put(j);
	return rc;
}
