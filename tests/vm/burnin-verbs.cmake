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

# Write and read with --verify between two guests, node1 rail 0 <-> node2.
# --retry 7 (rxe: retry forever) --stall 10: rxe resets a QP's retry counter
# only on coalesced ACKs, so on a loaded host the drops of a whole run add up;
# this test is about the data, our stall detector stays the bound, and
# vm_burnin_verbs_link_down is about failing (with the default retry 3).
# 2 QPs x 4 x 64 KiB in flight = 128 frames: less than the guest's virtio RX
# ring (256), which a starved TCG guest otherwise overflows into drops.
ibp_add_vm_test(vm_burnin_verbs_pair 360
	${IBP_VM_DIR}/vmcluster --nodes 2 --rails 1 --timeout 300
	--out ${IBP_VM_CACHE}/out/vm_burnin_verbs_pair --
	${IBP_VM_DIR}/burnin-verbs-pair $<TARGET_FILE:burnin_verbs_probe>
	--qps 2 --depth 4 --retry 7 --stall 10)

# Fail closed: node2's rail goes down mid-run (the script downs it once both
# ends are connected); both ends report, none hangs.
ibp_add_vm_test(vm_burnin_verbs_link_down 360
	${IBP_VM_DIR}/vmcluster --nodes 2 --rails 1 --timeout 300
	--out ${IBP_VM_CACHE}/out/vm_burnin_verbs_link_down --
	${IBP_VM_DIR}/burnin-verbs-linkdown $<TARGET_FILE:burnin_verbs_probe>)
