# vm tests of `ibproof node` (tests/vm/node-check), included by
# tests/vm/CMakeLists.txt: one 3-node, 1-rail cluster; healthy, lossy (netem
# on node1's rail) and down (node1's rail NIC down) in sequence.
ibp_add_vm_test(vm_node 420
	${IBP_VM_DIR}/vmcluster --nodes 3 --rails 1 --timeout 360
	--out ${IBP_VM_CACHE}/out/vm_node
	-- ${IBP_VM_DIR}/node-check $<TARGET_FILE:ibproof>)
