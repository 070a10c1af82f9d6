# vm tier of burnin (orchestration + verbs over MPI on Soft-RoCE): one 3x2
# cluster for every check of tests/vm/burnin-acceptance. Three nodes, so
# that each rail has three ports and a port can be low with two partners
# that are fine elsewhere (rails are separate networks: cross-rail pairs
# cannot route, hence --schedule rail).
ibp_add_vm_test(vm_burnin_acceptance 900
	${IBP_VM_DIR}/vmcluster --nodes 3 --rails 2 --slots 2 --timeout 840
	--out ${IBP_VM_CACHE}/out/vm_burnin_acceptance
	-- ${IBP_VM_DIR}/burnin-acceptance $<TARGET_FILE:ibproof>)
