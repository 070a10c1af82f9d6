// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "node/probe.h"
#include "node/slurm.h"

int slurm_parse_reason(const char *out, char *reason, size_t len)
{
	const char *p = strstr(out, "Reason=");
	size_t n;

	if (!p || !len)
		return -ENOENT;
	p += strlen("Reason=");
	n = strcspn(p, "\n");
	/* scontrol appends " [user@2026-12-02T15:00:00]" */
	for (size_t i = n; i > 0; i--)
		if (p[i - 1] == '[' && i >= 2 && p[i - 2] == ' ') {
			n = i - 2;
			break;
		}
	if (n >= len)
		n = len - 1;
	memcpy(reason, p, n);
	reason[n] = '\0';
	return 0;
}

bool slurm_parse_drained(const char *out)
{
	const char *p = strstr(out, "State=");
	size_t n;

	if (!p)
		return false;
	p += strlen("State=");
	n = strcspn(p, " \n");
	for (const char *q = p; q + 5 <= p + n; q++)
		if (!strncmp(q, "DRAIN", 5))
			return true;
	return false;
}

void slurm_make_reason(const char *text, char *reason, size_t len)
{
	size_t n;

	snprintf(reason, len, "%s %s", SLURM_REASON_MARK, text);
	n = strlen(reason);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)reason[i] < 0x20 || reason[i] == 0x7f)
			reason[i] = ' ';
}

static int scontrol(char *const argv[], double timeout_s,
		    struct probe_result *res)
{
	int ret = probe_run(argv, timeout_s, res);

	if (ret) {
		log_error("scontrol: cannot run: %s", strerror(-ret));
		return ret;
	}
	if (res->timed_out || res->exit_status) {
		log_error("scontrol %s %s: %s (exit %d)", argv[1], argv[2],
			  res->timed_out ? "timed out" : "failed",
			  res->exit_status);
		return -EIO;
	}
	return 0;
}

int slurm_drain(const char *node, const char *text, double timeout_s)
{
	char name_arg[300], reason[400], reason_arg[420];
	char *argv[] = { "scontrol",	"update",   name_arg,
			 "State=DRAIN", reason_arg, NULL };
	struct probe_result res;

	slurm_make_reason(text, reason, sizeof(reason));
	snprintf(name_arg, sizeof(name_arg), "NodeName=%s", node);
	snprintf(reason_arg, sizeof(reason_arg), "Reason=%s", reason);
	return scontrol(argv, timeout_s, &res);
}

int slurm_resume_if_ours(const char *node, double timeout_s, bool *resumed)
{
	char name_arg[300], reason[512] = "";
	char *show[] = { "scontrol", "show", "node", (char *)node, NULL };
	char *resume[] = { "scontrol", "update", name_arg, "State=RESUME",
			   NULL };
	struct probe_result res;
	int ret;

	*resumed = false;
	ret = scontrol(show, timeout_s, &res);
	if (ret)
		return ret;
	if (!slurm_parse_drained(res.output))
		return 0;
	if (slurm_parse_reason(res.output, reason, sizeof(reason)) ||
	    strncmp(reason, SLURM_REASON_MARK, strlen(SLURM_REASON_MARK))) {
		log_warn(
			"node %s was drained by someone else (Reason=%s): not resuming it",
			node, reason);
		return 0;
	}
	snprintf(name_arg, sizeof(name_arg), "NodeName=%s", node);
	ret = scontrol(resume, timeout_s, &res);
	*resumed = !ret;
	return ret;
}
