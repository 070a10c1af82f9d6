# vm tests of `ibproof pcie` (tests/vm/pcie-check), included by
# tests/vm/CMakeLists.txt.
# `pcie-check IBPROOF rxe` runs in vm_rxe_loopback_pcie (burnin-verbs.cmake),
# on the 1x1 cluster of burnin's loopback check: one boot for both.

# q35 with root ports at x-speed=16,x-width=16 in front of a virtio device
# and an NVMe, and an xio3130 switch in front of another NVMe.
set(pcie_q35_args "-M q35"
	"-device pcie-root-port,id=ibprp1,chassis=11,x-speed=16,x-width=16"
	"-device virtio-rng-pci,bus=ibprp1"
	"-device pcie-root-port,id=ibprp2,chassis=12,x-speed=16,x-width=16"
	"-drive driver=null-co,if=none,id=ibpnv1"
	"-device nvme,drive=ibpnv1,serial=ibp1,bus=ibprp2"
	"-device pcie-root-port,id=ibprp3,chassis=13"
	"-device x3130-upstream,id=ibpup,bus=ibprp3"
	"-device xio3130-downstream,id=ibpdn,bus=ibpup,chassis=14,slot=1"
	"-drive driver=null-co,if=none,id=ibpnv2"
	"-device nvme,drive=ibpnv2,serial=ibp2,bus=ibpdn")
string(JOIN " " pcie_q35_args ${pcie_q35_args})
ibp_add_vm_test(vm_pcie_q35 300
	${IBP_VM_DIR}/vmcluster --nodes 1 --rails 1 --timeout 240
	--out ${IBP_VM_CACHE}/out/vm_pcie_q35 --qemu-args "${pcie_q35_args}"
	-- ${IBP_VM_DIR}/pcie-check $<TARGET_FILE:ibproof> q35)
