// SPDX-License-Identifier: MIT
/*
 * The only file with libpci calls: the ACS registers of a device on the
 * running system. Extended config space (offset 0x100 on) is readable by
 * root only; a user gets the first 64 bytes, so the read of 0x100 fails and
 * the check is reported as skipped, never as "no ACS".
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <pci/pci.h>

#include "common/log.h"
#include "pcie/pcie.h"

static jmp_buf libpci_init_env;

/* libpci's error callback must not return: we leave pci_init() with it. */
static void __attribute__((noreturn, format(printf, 1, 2)))
libpci_error(char *msg, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, msg);
	vsnprintf(buf, sizeof(buf), msg, ap);
	va_end(ap);
	log_error("libpci: %s", buf);
	longjmp(libpci_init_env, 1);
}

static void __attribute__((format(printf, 1, 2))) libpci_quiet(char *msg, ...)
{
	(void)msg;
}

static int libpci_read_acs(void *ctx, const struct pcie_dev *dev, uint16_t *cap,
			   uint16_t *ctrl)
{
	unsigned int dom, bus, slot, fn;
	struct pci_dev *d;
	struct pci_cap *c;
	u8 probe[4];
	int ret = 0;

	if (sscanf(dev->bdf, "%x:%x:%x.%x", &dom, &bus, &slot, &fn) != 4)
		return -EINVAL;
	d = pci_get_dev(ctx, (int)dom, (int)bus, (int)slot, (int)fn);
	if (!d)
		return -ENOMEM;
	if (!pci_read_block(d, 0x100, probe, sizeof(probe))) {
		ret = -EACCES;
		goto free_dev;
	}
	pci_fill_info(d, PCI_FILL_EXT_CAPS);
	c = pci_find_cap(d, PCI_EXT_CAP_ID_ACS, PCI_CAP_EXTENDED);
	if (!c) {
		ret = -ENOENT;
		goto free_dev;
	}
	*cap = pci_read_word(d, c->addr + 4);
	*ctrl = pci_read_word(d, c->addr + PCI_ACS_CTRL);
free_dev:
	pci_free_dev(d);
	return ret;
}

int pcie_config_libpci_init(struct pcie_config_ops *ops)
{
	struct pci_access *volatile acc = pci_alloc();

	if (!acc) {
		log_error("libpci: pci_alloc failed");
		return -ENOMEM;
	}
	acc->error = libpci_error;
	acc->warning = libpci_quiet;
	acc->debug = libpci_quiet;
	if (setjmp(libpci_init_env)) {
		/* pci_init failed half way: leak it rather than free junk */
		return -ENODEV;
	}
	pci_init(acc);
	ops->name = "libpci";
	ops->read_acs = libpci_read_acs;
	ops->ctx = acc;
	return 0;
}

void pcie_config_libpci_fini(struct pcie_config_ops *ops)
{
	if (ops->ctx)
		pci_cleanup(ops->ctx);
	ops->ctx = NULL;
}
