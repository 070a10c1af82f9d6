// SPDX-License-Identifier: MIT
/*
 * ethtool_ops.c: every call to the kernel's module EEPROM API. Netlink
 * (generic netlink family "ethtool", ETHTOOL_MSG_MODULE_EEPROM_GET, Linux
 * 5.13) through libmnl, with the kernel's extended ack words kept; the
 * SIOCETHTOOL ioctl (ETHTOOL_GMODULEINFO, ETHTOOL_GMODULEEEPROM) beside it.
 * The attributes are those of linux/ethtool_netlink.h; the kernel allows
 * one half page a request (net/ethtool/eeprom.c).
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sockios.h>

#include "fabric/xcvr_ethtool.h"

struct xcvr_ethtool {
	struct mnl_socket *nl; /* NULL: no ethtool family (nl_rc says) */
	int nl_rc;
	uint16_t family;
	unsigned portid, seq;
	int fd; /* the ioctl's socket, -1 until needed */
	char ifname[IF_NAMESIZE];
};

/* What one exchange collects. */
struct nl_reply {
	int (*attr)(const struct nlattr *a, void *data); /* reply attrs */
	void *data;
	char *kmsg;
	size_t kmsg_len;
	int error; /* the kernel's negative errno, 0 */
};

static int extack_attr(const struct nlattr *a, void *data)
{
	struct nl_reply *r = data;

	if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
	    !mnl_attr_validate(a, MNL_TYPE_NUL_STRING) && r->kmsg)
		snprintf(r->kmsg, r->kmsg_len, "%s", mnl_attr_get_str(a));
	return MNL_CB_OK;
}

/* NLMSG_ERROR: the ack (error 0) or an errno with the kernel's words. */
static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	struct nl_reply *r = data;
	unsigned off = sizeof(*err);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		r->error = -EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!err->error)
		return MNL_CB_STOP;
	r->error = err->error;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    mnl_nlmsg_size(off) <= nlh->nlmsg_len)
		mnl_attr_parse(nlh, off, extack_attr, r);
	return MNL_CB_ERROR;
}

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl_reply *r = data;

	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), r->attr, r->data);
}

/* Sends nlh (with an ack asked for) and takes the answer. 0 or -errno. */
static int nl_talk(struct xcvr_ethtool *h, struct mnl_socket *nl,
		   struct nlmsghdr *nlh, struct nl_reply *r)
{
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = { [NLMSG_ERROR] = error_cb };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned seq = ++h->seq;
	int ret;

	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		ret = (int)mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (ret < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK
				       ? -ETIMEDOUT
				       : -errno;
		ret = mnl_cb_run2(buf, (size_t)ret, seq, h->portid, data_cb, r,
				  ctl, NLMSG_MIN_TYPE);
	} while (ret > 0);
	if (ret < 0)
		return r->error ? r->error : -errno;
	return 0;
}

static struct nlmsghdr *genl_put(char *buf, uint16_t type, uint8_t cmd,
				 uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

static int family_attr(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
	    !mnl_attr_validate(a, MNL_TYPE_U16))
		*(uint16_t *)data = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

/* The id of the "ethtool" family; -EPROTONOSUPPORT when there is none. */
static int resolve_family(struct xcvr_ethtool *h)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh =
		genl_put(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	struct nl_reply r = { .attr = family_attr, .data = &h->family };
	int rc;

	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	rc = nl_talk(h, h->nl, nlh, &r);
	if (rc == -ENOENT || (!rc && !h->family))
		return -EPROTONOSUPPORT;
	return rc;
}

static int nl_open(struct xcvr_ethtool *h, unsigned timeout_ms)
{
	struct timeval tv = { timeout_ms / 1000,
			      (suseconds_t)(timeout_ms % 1000) * 1000 };
	int one = 1;

	h->nl = mnl_socket_open(NETLINK_GENERIC);
	if (!h->nl)
		return -errno;
	if (mnl_socket_bind(h->nl, 0, MNL_SOCKET_AUTOPID) < 0)
		return -errno;
	h->portid = mnl_socket_get_portid(h->nl);
	/* the kernel's words on an error, without our request echoed */
	mnl_socket_setsockopt(h->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(h->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	if (timeout_ms && setsockopt(mnl_socket_get_fd(h->nl), SOL_SOCKET,
				     SO_RCVTIMEO, &tv, sizeof(tv)))
		return -errno;
	return resolve_family(h);
}

static void kernel_close(struct xcvr_ethtool *h)
{
	if (!h)
		return;
	if (h->nl)
		mnl_socket_close(h->nl);
	if (h->fd >= 0)
		close(h->fd);
	free(h);
}

static int kernel_open(const char *ifname, unsigned timeout_ms,
		       struct xcvr_ethtool **out)
{
	struct xcvr_ethtool *h;

	if (strlen(ifname) >= IF_NAMESIZE || !if_nametoindex(ifname))
		return -ENODEV;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->fd = -1;
	snprintf(h->ifname, sizeof(h->ifname), "%s", ifname);
	h->nl_rc = nl_open(h, timeout_ms);
	if (h->nl_rc && h->nl) {
		mnl_socket_close(h->nl);
		h->nl = NULL;
	}
	*out = h;
	return 0;
}

struct eeprom_data {
	uint8_t *buf;
	int want, got;
};

static int eeprom_attr(const struct nlattr *a, void *data)
{
	struct eeprom_data *d = data;
	uint16_t n;

	if (mnl_attr_get_type(a) != ETHTOOL_A_MODULE_EEPROM_DATA)
		return MNL_CB_OK;
	n = mnl_attr_get_payload_len(a);
	d->got = n < d->want ? n : d->want;
	memcpy(d->buf, mnl_attr_get_payload(a), (size_t)d->got);
	return MNL_CB_OK;
}

static int kernel_read_page(struct xcvr_ethtool *h, int page, int bank, int i2c,
			    int offset, int len, uint8_t *buf, char *kmsg,
			    size_t kmsg_len)
{
	char msg[MNL_SOCKET_BUFFER_SIZE];
	struct eeprom_data d = { .buf = buf, .want = len };
	struct nl_reply r = { .attr = eeprom_attr,
			      .data = &d,
			      .kmsg = kmsg,
			      .kmsg_len = kmsg_len };
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int rc;

	if (!h->nl) { /* say why, and let the caller fall back */
		snprintf(kmsg, kmsg_len, "no ethtool netlink: %s",
			 strerror(-h->nl_rc));
		return -EPROTONOSUPPORT;
	}
	nlh = genl_put(msg, h->family, ETHTOOL_MSG_MODULE_EEPROM_GET,
		       ETHTOOL_GENL_VERSION);
	nest = mnl_attr_nest_start(nlh, ETHTOOL_A_MODULE_EEPROM_HEADER);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, h->ifname);
	mnl_attr_nest_end(nlh, nest);
	mnl_attr_put_u32(nlh, ETHTOOL_A_MODULE_EEPROM_OFFSET, (uint32_t)offset);
	mnl_attr_put_u32(nlh, ETHTOOL_A_MODULE_EEPROM_LENGTH, (uint32_t)len);
	mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_PAGE, (uint8_t)page);
	mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_BANK, (uint8_t)bank);
	mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS, (uint8_t)i2c);
	rc = nl_talk(h, h->nl, nlh, &r);
	if (!rc && d.got < len)
		rc = -EIO; /* a short answer */
	return rc;
}

static int ethtool_ioctl(struct xcvr_ethtool *h, void *cmd)
{
	struct ifreq ifr;

	if (h->fd < 0)
		h->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (h->fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", h->ifname);
	ifr.ifr_data = cmd;
	return ioctl(h->fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

static int kernel_module_info(struct xcvr_ethtool *h, uint32_t *type,
			      uint32_t *len)
{
	struct ethtool_modinfo mi = { .cmd = ETHTOOL_GMODULEINFO };
	int rc = ethtool_ioctl(h, &mi);

	if (!rc) {
		*type = mi.type;
		*len = mi.eeprom_len;
	}
	return rc;
}

static int kernel_read_flat(struct xcvr_ethtool *h, uint32_t offset,
			    uint32_t len, uint8_t *buf)
{
	struct ethtool_eeprom *ee = calloc(1, sizeof(*ee) + len);
	int rc;

	if (!ee)
		return -ENOMEM;
	ee->cmd = ETHTOOL_GMODULEEEPROM;
	ee->offset = offset;
	ee->len = len;
	rc = ethtool_ioctl(h, ee);
	if (!rc)
		memcpy(buf, ee->data, len);
	free(ee);
	return rc;
}

const struct xcvr_ethtool_ops xcvr_ethtool_kernel_ops = {
	.open = kernel_open,
	.read_page = kernel_read_page,
	.module_info = kernel_module_info,
	.read_flat = kernel_read_flat,
	.close = kernel_close,
};
