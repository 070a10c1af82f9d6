#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# slurm_host: ibproof under Debian's real Slurm (slurmctld, slurmd, munged:
# no stand-in), on one host: a private munged socket and key, slurmctld and
# slurmd on ports of their own, this host the one node. Checks:
#   1. srun --mpi=pmix (the PMI flavour Debian 12's Slurm 22.05 and Open MPI
#      4.1 share; docs/node.md) launches `ibproof burnin` over 4 ranks (the
#      fake transport: the host has no RDMA port) and every pair is
#      recorded;
#   2. `ibproof node --drain` on a failing tree drains the node with its
#      verdict as reason (scontrol show node), `--undrain` on a passing tree
#      returns it, and a node a person drained stays drained;
#   3. slurmd runs node/slurm/ibproof-healthcheck as HealthCheckProgram: it
#      drains the node when the tree fails and resumes it when it passes.
# The Soft-RoCE guests as slurmd nodes, with real verbs: vm_slurm
# (tests/vm/slurm-cluster).
# Usage: slurm-check.sh IBPROOF TREES (BUILD/tests/fixtures: sysfs/half-width
# fails, sysfs-node/healthy passes). Needs root; exit 77 without the
# packages of scripts/deps/slurm.txt.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
ibproof=$(readlink -f "${1:?usage: slurm-check.sh IBPROOF TREES}")
trees=$(readlink -f "${2:?usage: slurm-check.sh IBPROOF TREES}")
bad=$trees/sysfs/half-width good=$trees/sysfs-node/healthy
for t in slurmctld slurmd srun scontrol sinfo munged; do
	command -v "$t" >/dev/null || { echo "SKIP: no $t (scripts/deps/slurm.txt)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: slurmd needs root"; exit 77; }
[ -d "$bad" ] && [ -d "$good" ] || { echo "slurm-check: no trees in $trees" >&2; exit 1; }

w=$(mktemp -d /tmp/ibproof-slurm.XXXXXX)
chmod 755 "$w"
stop() {
	for p in slurmd slurmctld munged; do
		[ -s "$w/$p.pid" ] && kill "$(cat "$w/$p.pid")" 2>/dev/null
	done
	sleep 1
	rm -rf "$w"
}
trap stop EXIT
fail() {
	echo "slurm-check: $*" >&2
	tail -n 5 "$w"/slurmctld.log "$w"/slurmd.log >&2 2>/dev/null
	exit 1
}
node=$(hostname -s)
port=$((20000 + $$ % 20000))
export SLURM_CONF=$w/slurm.conf IBPROOF_HOST=$node

mkdir -m 700 "$w/munge" && mkdir "$w/state" "$w/spool"
head -c 1024 /dev/urandom >"$w/munge/key" && chmod 400 "$w/munge/key"
munged -f -S "$w/munge/sock" --key-file="$w/munge/key" --log-file="$w/munge/log" \
	--pid-file="$w/munged.pid" --seed-file="$w/munge/seed" || fail "munged did not start"

# HealthCheckProgram: slurmd runs it with SLURMD_NODENAME and nothing else, so
# this shim gives the shipped wrapper what /etc/default/ibproof-healthcheck
# would: the binary, the tree to judge ($w/tree) and where slurm.conf is;
# while $w/hc-off exists it does nothing (steps 1 and 2 drain by hand).
cat >"$w/healthcheck" <<EOS
#!/bin/sh
[ ! -e $w/hc-off ] || exit 0
export IBPROOF=$ibproof IBPROOF_HOST=$node SLURM_CONF=$w/slurm.conf RECORDS_DIR=$w
export IBPROOF_NODE_ARGS="--no-dma --sysfs-root \$(cat $w/tree)"
exec $repo/node/slurm/ibproof-healthcheck
EOS
chmod 755 "$w/healthcheck"
echo "$good" >"$w/tree"
touch "$w/hc-off"

cat >"$w/slurm.conf" <<EOS
ClusterName=ibproof
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$w/munge/sock
CredType=cred/munge
StateSaveLocation=$w/state
SlurmdSpoolDir=$w/spool
SlurmctldPidFile=$w/slurmctld.pid
SlurmdPidFile=$w/slurmd.pid
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmctldLogFile=$w/slurmctld.log
SlurmdLogFile=$w/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
HealthCheckProgram=$w/healthcheck
HealthCheckInterval=2
NodeName=$node CPUs=$(nproc) State=UNKNOWN
PartitionName=ibproof Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOS
slurmctld -f "$w/slurm.conf" || fail "slurmctld did not start"
slurmd -f "$w/slurm.conf" || fail "slurmd did not start"

state() { scontrol show node "$node" | sed -n 's/^ *State=\([^ ]*\).*/\1/p'; }
reason() { scontrol show node "$node" | sed -n 's/^ *Reason=\(.*\) \[.*/\1/p'; }
# wait_for WHAT SECONDS CMD...: until CMD succeeds
wait_for() {
	local what=$1 limit=$2
	shift 2
	for _ in $(seq "$limit"); do "$@" && return 0; sleep 1; done
	fail "$what: not within $limit s (State=$(state), Reason=$(reason))"
}
is_idle() { [ "$(state)" = IDLE ]; }
is_drained() { [[ $(state) == *DRAIN* ]]; }
wait_for "node $node idle" 30 is_idle
srun --mpi=list 2>&1 | grep -qw pmix || fail "srun --mpi=list has no pmix"

# ---- 1. srun --mpi=pmix launches burnin ----
OMPI_MCA_btl=self,tcp timeout 120 srun --overcommit --mpi=pmix -n 4 \
	"$ibproof" burnin --transport fake --warmup 0 --duration 0.3 --no-progress \
	--records "$w/burnin.jsonl" >"$w/burnin.out" 2>&1 ||
	{ cat "$w/burnin.out" >&2; fail "srun --mpi=pmix -n 4 ibproof burnin: exit $?"; }
pairs=$(jq -s '[.[] | select(.kind == "pair")] | length' "$w/burnin.jsonl")
[ "$pairs" = 6 ] || fail "burnin under srun recorded $pairs pairs, expected 6 (4 ports)"
echo "slurm-check: srun --mpi=pmix: $(tail -n 1 "$w/burnin.out")"

# ---- 2. drain and undrain through scontrol ----
"$ibproof" node --no-dma --sysfs-root "$bad" --drain >"$w/out" 2>&1
rc=$?
[ "$rc" = 1 ] || { cat "$w/out" >&2; fail "node --drain on $bad: exit $rc, expected 1"; }
wait_for "drained by node --drain" 10 is_drained
[ "$(reason)" = "ibproof: $(head -n 1 "$w/out" | sed "s/^node $node: //")" ] ||
	fail "drain reason '$(reason)', expected the verdict '$(head -n 1 "$w/out")'"
echo "slurm-check: node --drain: State=$(state) Reason=$(reason)"
"$ibproof" node --no-dma --sysfs-root "$good" --undrain >"$w/out" 2>&1 ||
	{ cat "$w/out" >&2; fail "node --undrain on $good: exit $?"; }
wait_for "resumed by node --undrain" 10 is_idle
scontrol update NodeName="$node" State=DRAIN Reason="tech: reseat mlx5_1"
wait_for "drained by a person" 10 is_drained
"$ibproof" node --no-dma --sysfs-root "$good" --undrain >"$w/out" 2>&1
grep -q 'drained by someone else' "$w/out" || fail "node --undrain did not say why it left the node"
sleep 1
is_drained && [ "$(reason)" = "tech: reseat mlx5_1" ] ||
	fail "node --undrain resumed a node a person drained (State=$(state))"
scontrol update NodeName="$node" State=RESUME
wait_for "resumed by scontrol" 10 is_idle
echo "slurm-check: node --undrain: resumed what ibproof drained, left what a person drained"

# ---- 3. HealthCheckProgram ----
echo "$bad" >"$w/tree"
rm "$w/hc-off"
wait_for "drained by the HealthCheckProgram" 30 is_drained
[[ $(reason) == "ibproof: FAIL"* ]] || fail "health check drain reason '$(reason)'"
echo "$good" >"$w/tree"
wait_for "resumed by the HealthCheckProgram" 30 is_idle
echo "slurm-check: HealthCheckProgram ibproof-healthcheck drained and resumed $node"
