/* SPDX-License-Identifier: MIT */
/*
 * fabric_ibdiag_conf.h: the M_Key that SMPs carry, from --m-key or from
 * rdma-core's ibdiag.conf (`m_key=` read as infiniband-diags'
 * ibdiag_common.c reads it). The key is a secret: nothing here prints it,
 * and errors name the file and line, never the value.
 */
#ifndef IBPROOF_FABRIC_IBDIAG_CONF_H
#define IBPROOF_FABRIC_IBDIAG_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* rdma-core's IBDIAG_CONFIG_GENERAL on Debian and most distributions. */
#define FABRIC_IBDIAG_CONF "/etc/infiniband-diags/ibdiag.conf"

struct fabric_mkey {
	bool set; /* a key was given (0 is a key too) */
	uint64_t key;
};

/*
 * A key as rdma-core's strtoull(s, 0, 0) takes it (0x.. hex, 0.. octal,
 * decimal; leading blanks), but strict: nothing but blanks may follow, no
 * sign, at most 64 bits. 0, or -EINVAL / -ERANGE.
 */
int fabric_mkey_parse(const char *s, uint64_t *key);

/*
 * Reads `m_key=` from an ibdiag.conf: lines whose first character is '#'
 * are comments, the name is what precedes the first '=', and (as in
 * rdma-core) a name that starts with "m_key" sets the key, except
 * "m_key_files" (a directory of per-node keys in newer rdma-core, which
 * ibproof does not read: it is refused). Other names (CA, Port, timeout,
 * MLX_EPI, sa_key, nd_format) are ignored. The last m_key line wins.
 * A missing file is ignored unless required. 0 (out->set when a key was
 * read); -EINVAL with "FILE:LINE: ..." in err; -errno when the file could
 * not be read.
 */
int fabric_ibdiag_conf_read(const char *path, bool required,
			    struct fabric_mkey *out, char *err, size_t errlen);

#endif
