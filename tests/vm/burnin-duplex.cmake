# Full-duplex rounds over real verbs (issue 16): --schedule shift on a 2x2
# flat Soft-RoCE cluster, each rank initiator and target at once, killed
# after its first round and resumed (tests/vm/burnin-duplex).
ibp_add_vm_test(vm_burnin_duplex 600
	${IBP_VM_DIR}/vmcluster --nodes 2 --rails 2 --slots 2 --fabric flat --timeout 540
	--out ${IBP_VM_CACHE}/out/vm_burnin_duplex
	-- ${IBP_VM_DIR}/burnin-duplex $<TARGET_FILE:ibproof>)
