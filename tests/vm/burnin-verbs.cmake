# vm tier of burnin's verbs data path (branch burnin-verbs); included by
# tests/vm/CMakeLists.txt. The driver uses burnin_verbs_ops directly, no MPI.
add_executable(burnin_verbs_probe ${IBP_VM_DIR}/burnin_verbs_probe.c)
target_link_libraries(burnin_verbs_probe PRIVATE ibproof_core)

# Loopback through rxe0 on one guest, WRITE then READ (what ibproof pcie
# measures): 12 samples each, every one must be > 0 Gb/s.
ibp_add_vm_test(vm_burnin_verbs_loopback 300
	${IBP_VM_DIR}/vmcluster --nodes 1 --rails 1 --timeout 240
	--out ${IBP_VM_CACHE}/out/vm_burnin_verbs_loopback --
	sh -c "$0 loopback rxe0:1 --samples 12 --duration 0.5 --retry 7 --stall 10 --verify && $0 loopback rxe0:1 --samples 12 --duration 0.5 --retry 7 --stall 10 --verify --test read"
	$<TARGET_FILE:burnin_verbs_probe>)

# One 2x1 cluster, two checks (tests/vm/run-all):
# - burnin-verbs-pair: write and read with --verify, node1 rail 0 <-> node2
#   (its default options: --qps 2 --depth 4 --retry 7 --stall 10, see there);
# - burnin-verbs-linkdown, fail closed: node2's rail goes down mid-run (the
#   script downs it once both ends are connected); both ends report, none
#   hangs. It runs second: it leaves node2's rail down.
ibp_add_vm_test(vm_burnin_verbs_pair_link_down 420
	${IBP_VM_DIR}/vmcluster --nodes 2 --rails 1 --timeout 360
	--out ${IBP_VM_CACHE}/out/vm_burnin_verbs_pair_link_down --
	${IBP_VM_DIR}/run-all $<TARGET_FILE:burnin_verbs_probe>
	${IBP_VM_DIR}/burnin-verbs-pair ${IBP_VM_DIR}/burnin-verbs-linkdown)
