# SPDX-License-Identifier: MIT
# tests/sim/lib.sh: start and stop ibsim safely, run MAD clients against it,
# inject faults. Source it from a test script (bash), then:
#
#   sim_setup                 private temp cwd, traps, own IBSIM_SOCKNAME
#   sim_start NETFILE [ARGS]  start ibsim (extra ibsim flags, e.g. -N 4096)
#   sim_cmd 'Unlink "x"[3]'   console command; waits until ibsim handled it
#   sim_client CMD ARGS...    run a MAD client under umad2sim with a timeout
#   sim_opensm                one opensm sweep (LIDs, routes), then exit
#   sim_stop                  Quit, then kill if needed (also run by the trap)
#
# Facts this relies on (ibsim 0.10, Debian 12): the console is a FIFO opened
# read-write (a FIFO whose writer closed makes ibsim spin); "ready" comes
# before the socket exists, so wait for @NAME:ctl in /proc/net/unix; clients
# make ./sys-<pid>/ in their cwd and hang forever without ibsim.

SIM_PRELOAD=${SIM_PRELOAD:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
SIM_CLIENT_TIMEOUT=${SIM_CLIENT_TIMEOUT:-120}
SIM_PID=
SIM_DIR=
SIM_KEEP=${SIM_KEEP:-}

sim_log() { printf 'sim: %s\n' "$*" >&2; }

sim_fail() {
	sim_log "FAIL: $*"
	exit 1
}

# Exit 77 (skip) when a tool the tier needs is missing.
sim_require() {
	local t
	for t in "$@"; do
		if ! command -v "$t" >/dev/null 2>&1 && [ ! -x "$t" ]; then
			sim_log "SKIP: $t not installed (scripts/install-deps)"
			exit 77
		fi
	done
	if [ ! -r "$SIM_PRELOAD" ]; then
		sim_log "SKIP: $SIM_PRELOAD missing (ibsim-utils)"
		exit 77
	fi
}

sim_setup() {
	sim_require ibsim opensm timeout
	SIM_DIR=$(mktemp -d "${TMPDIR:-/tmp}/ibproof-sim.XXXXXX") ||
		sim_fail "mktemp"
	export IBSIM_SOCKNAME="ibp$$-$RANDOM"
	trap sim_cleanup EXIT
	trap 'exit 130' INT TERM HUP
	cd "$SIM_DIR" || sim_fail "cd $SIM_DIR"
}

sim_cleanup() {
	local rc=$?
	sim_stop
	cd / || true
	if [ -n "$SIM_DIR" ] && [ -d "$SIM_DIR" ]; then
		if [ -n "$SIM_KEEP" ]; then
			sim_log "kept $SIM_DIR"
		else
			rm -rf "$SIM_DIR"
		fi
	fi
	exit "$rc"
}

sim_socket_up() {
	grep -q "@$IBSIM_SOCKNAME:ctl" /proc/net/unix
}

sim_start() {
	local net=$1 i
	shift
	rm -f console console.cables # the fake fabric's totals (a new ibsim)
	mkfifo console || sim_fail "mkfifo"
	ibsim "$@" -s "$net" <>console >ibsim.log 2>&1 &
	SIM_PID=$!
	for i in $(seq 200); do
		sim_socket_up && return 0
		kill -0 "$SIM_PID" 2>/dev/null || break
		sleep 0.05
	done
	cat ibsim.log >&2
	sim_fail "ibsim did not come up"
}

sim_prompts() {
	grep -o 'sim> ' ibsim.log | wc -l
}

# Send one console command; wait for ibsim's next prompt.
sim_cmd() {
	local before i
	before=$(sim_prompts)
	printf '%s\n' "$*" >console
	for i in $(seq 100); do
		[ "$(sim_prompts)" -gt "$before" ] && return 0
		sleep 0.05
	done
	sim_fail "ibsim did not answer: $*"
}

sim_client() {
	timeout -k 5 "$SIM_CLIENT_TIMEOUT" env LD_PRELOAD="$SIM_PRELOAD" "$@"
}

# sim_opensm [OPENSM_ARGS...]: one sweep of opensm on the running ibsim,
# its log and caches in osm/
sim_opensm() {
	mkdir -p osm
	OSM_TMP_DIR=$PWD/osm OSM_CACHE_DIR=$PWD/osm \
		sim_client opensm -o "$@" -f "$PWD/osm/osm.log" >osm/stdout 2>&1 ||
		sim_fail "opensm $* sweep failed (see osm/osm.log)"
}

# sim_opensm_engine ENGINE [OPENSM_ARGS...]: a fresh osm/, one sweep routed
# by ENGINE, and a check that opensm used it
sim_opensm_engine() {
	local engine=$1

	shift
	rm -rf osm
	sim_opensm -R "$engine" "$@"
	grep -qi "$engine" osm/osm.log || sim_fail "opensm did not use $engine"
}

# sim_routes ENGINE NAME: opensm routed by ENGINE on the running ibsim, then
# `ibproof fabric routes` into NAME.jsonl (its output in NAME.rt)
sim_routes() {
	sim_opensm_engine "$1"
	sim_client "$IBPROOF" fabric routes --records "$2.jsonl" >"$2.rt" 2>&1 ||
		sim_fail "fabric routes: exit $?: $(tail -3 "$2.rt")"
}

# sim_tree ENGINE NAME GEN_FATTREE_ARGS...: the fat tree NAME.net (its spec
# NAME.csv) in a fresh ibsim, routed: sim_routes ENGINE NAME
sim_tree() {
	local engine=$1 name=$2

	shift 2
	"$GEN_FATTREE" "$@" --net "$name.net" --spec "$name.csv" >/dev/null ||
		sim_fail "gen_fattree $*"
	sim_stop
	rm -f ibsim.log
	sim_start "$PWD/$name.net"
	sim_routes "$engine" "$name"
}

sim_stop() {
	local i
	[ -n "$SIM_PID" ] || return 0
	if kill -0 "$SIM_PID" 2>/dev/null; then
		printf 'Quit\n' >console 2>/dev/null
		for i in $(seq 40); do
			kill -0 "$SIM_PID" 2>/dev/null || break
			sleep 0.05
		done
		kill "$SIM_PID" 2>/dev/null
	fi
	wait "$SIM_PID" 2>/dev/null
	SIM_PID=
}
