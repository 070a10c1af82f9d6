# vm tier of burnin (orchestration + verbs over MPI on Soft-RoCE): one 3x2
# cluster for every check of tests/vm/burnin-acceptance, on the flat fabric
# (one network: every rxe port reaches every other), so that the schedule is
# all-pairs over all 6 ports.
ibp_add_vm_test(vm_burnin_acceptance 900
	${IBP_VM_DIR}/vmcluster --nodes 3 --rails 2 --slots 2 --fabric flat --timeout 840
	--out ${IBP_VM_CACHE}/out/vm_burnin_acceptance
	-- ${IBP_VM_DIR}/burnin-acceptance $<TARGET_FILE:ibproof>)

# burnin --cm rdmacm: the RDMA CM connects rail 0's pair (write+read,
# --verify, ok); node2's rail 1 drops everything, so rail 1's pair ends in an
# rdma_cm error within the deadline (tests/vm/burnin-rdmacm). Then, on the
# same cluster (a boot saved), a rank killed on node2 must not leave mpirun
# waiting (tests/vm/burnin-lost-ranks).
ibp_add_vm_test(vm_burnin_rdmacm 480
	${IBP_VM_DIR}/vmcluster --nodes 2 --rails 2 --slots 2 --timeout 420
	--netem "2:1:loss 100%"
	--out ${IBP_VM_CACHE}/out/vm_burnin_rdmacm
	-- ${IBP_VM_DIR}/run-all ${IBP_VM_DIR}/burnin-rdmacm $<TARGET_FILE:ibproof>
	:: ${IBP_VM_DIR}/burnin-lost-ranks $<TARGET_FILE:ibproof>)

