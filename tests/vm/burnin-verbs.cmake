# vm tier of burnin's verbs data path (branch burnin-verbs); included by
# tests/vm/CMakeLists.txt. The driver uses dpath_verbs_ops directly, no MPI.
add_executable(burnin_verbs_probe ${IBP_VM_DIR}/burnin_verbs_probe.c)
target_link_libraries(burnin_verbs_probe PRIVATE ibproof_core)

# One 1x1 cluster, two checks of the loopback through rxe0 (tests/vm/run-all):
# - burnin-verbs-loopback: WRITE then READ with --verify, 12 samples each,
#   every one must be > 0 Gb/s;
# - pcie-check rxe: `ibproof pcie` on the guest's real /sys, whose DMA
#   figure is the same loopback (the pcie part's own vm test, see pcie.cmake).
ibp_add_vm_test(vm_rxe_loopback_pcie 360
	${IBP_VM_DIR}/vmcluster --nodes 1 --rails 1 --timeout 300
	--out ${IBP_VM_CACHE}/out/vm_rxe_loopback_pcie --
	${IBP_VM_DIR}/run-all
	${IBP_VM_DIR}/burnin-verbs-loopback $<TARGET_FILE:burnin_verbs_probe> ::
	${IBP_VM_DIR}/pcie-check $<TARGET_FILE:ibproof> rxe)

# One 2x1 cluster, two checks (tests/vm/run-all):
# - burnin-verbs-pair: write and read with --verify, node1 rail 0 <-> node2
#   (its default options: --qps 2 --depth 4 --retry 7 --stall 10, see there);
# - burnin-verbs-linkdown, fail closed: node2's rail goes down mid-run (the
#   script downs it once both ends are connected); both ends report, none
#   hangs. It runs second: it leaves node2's rail down.
ibp_add_vm_test(vm_burnin_verbs_pair_link_down 420
	${IBP_VM_DIR}/vmcluster --nodes 2 --rails 1 --timeout 360
	--out ${IBP_VM_CACHE}/out/vm_burnin_verbs_pair_link_down --
	${IBP_VM_DIR}/run-all
	${IBP_VM_DIR}/burnin-verbs-pair $<TARGET_FILE:burnin_verbs_probe> ::
	${IBP_VM_DIR}/burnin-verbs-linkdown $<TARGET_FILE:burnin_verbs_probe>)
