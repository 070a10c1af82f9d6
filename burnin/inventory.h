/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_INVENTORY_H
#define IBPROOF_BURNIN_INVENTORY_H

/*
 * The inventory (inventory.c): the ports of a run in the order every rank
 * agrees on, their names, and --inventory's port records. Pure: every
 * rank, rank 0 and --dry-run use it (burnin.h includes it).
 */
#include <stddef.h>

#include "rdma/transport.h"

/* Sorts by (host, ca, port): the order every rank agrees on. */
void burnin_inventory_sort(struct dpath_port *ports, int n);
/* "host:ca:port" */
void burnin_port_name(const struct dpath_port *p, char *buf, size_t len);
/* Index of "host:ca:port" or -1. */
int burnin_inventory_find(const struct dpath_port *ports, int n,
			  const char *name);

/* Reads the port records of FILE (sorted); -EINVAL logged as FILE:LINE. */
int burnin_inventory_load(const char *path, struct dpath_port **ports, int *n);

#endif
