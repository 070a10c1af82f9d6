# The guest's real kernel log (issue 19): a rail link set down and up five
# times on a 1-node, 1-rail cluster; `ibproof node` reads /dev/kmsg.
ibp_add_vm_test(vm_node_klog 300
	${IBP_VM_DIR}/vmcluster --nodes 1 --rails 1 --timeout 240
	--out ${IBP_VM_CACHE}/out/vm_node_klog
	-- ${IBP_VM_DIR}/klog-check $<TARGET_FILE:ibproof>)
