/* SPDX-License-Identifier: MIT */
/*
 * xcvr_text.h: the values of the text files that carry module facts
 * (ibdiagnet2.db_csv, ibdiagnet2.cables, mlxlink output), read the same way
 * whichever file they come from. Values are untrusted text: kept printable,
 * "N/A" is unknown.
 */
#ifndef IBPROOF_FABRIC_XCVR_TEXT_H
#define IBPROOF_FABRIC_XCVR_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric/xcvr.h"

/* "", "N/A" or "NA": not known. */
bool xcvr_is_na(const char *s);
/* Printable ASCII of at most size - 1 bytes, trailing blanks cut; N/A "". */
void xcvr_text_field(char *dst, size_t size, const char *s);
/* A number with an optional unit after it ("42C", "-3.1 dBm"). */
bool xcvr_num_unit(const char *s, double *v, const char **unit);
/* Power in mW: "dBm", "mW", "uW", or bare (the module's 0.1 uW units). */
bool xcvr_power_mw(const char *s, double *mw);
/* Value of a quantity from its text: degC, V, mA or mW. */
bool xcvr_qty_value(enum xcvr_qty q, const char *s, double *out);
/* The SFF-8024 identifier of a name ("OSFP"), 0 unknown. */
uint8_t xcvr_identifier_of(const char *name);
/* A DAC or an AOC, from a type text ("Passive copper cable"). */
bool xcvr_one_part_text(const char *s);

/* mlxlink colours its output on a terminal: drops ESC [ ... letter. */
void xcvr_strip_sgr(char *s);

#endif
