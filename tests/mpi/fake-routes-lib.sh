# SPDX-License-Identifier: MIT
# Sourced by the mpi tier's scripts on the fake with routes (issue 16):
# mpirun on localhost over shared memory, the ibsim ftree fixture of 16
# HCAs in $routes, a scratch $dir (kept when KEEP is set), check().
# Needs $fixtures and $job (the fake's per-job registry name).
command -v mpirun >/dev/null || { echo "SKIP: no mpirun"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: no jq"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_oob_tcp_if_include=lo
export IBPROOF_HOST=mpitest IBP_FAKE_JOB=$job-$$
routes=$fixtures/fake-routes/ftree-16.jsonl
dir=$(mktemp -d /tmp/ibproof-mpi-routes-XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$dir"' EXIT
fails=0
check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
