# vm tier of the verbs data path (branch burnin-verbs), included from
# burnin/CMakeLists.txt so that tests/vm/CMakeLists.txt stays the vm
# harness's own file.
# enable_testing() here too: burnin/ is configured before the top level
# enables it, and add_test() needs it in this directory.
enable_testing()
add_executable(burnin_verbs_probe
	${PROJECT_SOURCE_DIR}/tests/vm/burnin_verbs_probe.c)
target_link_libraries(burnin_verbs_probe PRIVATE ibproof_core)

# Loopback through rxe0 on one guest: 12 samples, each must be > 0 Gb/s.
add_test(NAME vm_burnin_verbs_loopback
	COMMAND ${PROJECT_SOURCE_DIR}/tests/vm/vmcluster --nodes 1 --rails 1
		--timeout 240 --
		$<TARGET_FILE:burnin_verbs_probe> loopback rxe0:1 --samples 12
		--duration 0.5 --warmup 0.5 --verify)
# Write and read between two guests, node1 rail 0 <-> node2 rail 0.
add_test(NAME vm_burnin_verbs_pair
	COMMAND ${PROJECT_SOURCE_DIR}/tests/vm/vmcluster --nodes 2 --rails 1
		--timeout 300 --
		${PROJECT_SOURCE_DIR}/tests/vm/burnin-verbs-pair
		$<TARGET_FILE:burnin_verbs_probe>)
# Fail closed: node2's rail goes down mid-run; both ends report, none hangs.
add_test(NAME vm_burnin_verbs_link_down
	COMMAND ${PROJECT_SOURCE_DIR}/tests/vm/vmcluster --nodes 2 --rails 1
		--timeout 300 --link-down 2:0:5 --
		${PROJECT_SOURCE_DIR}/tests/vm/burnin-verbs-linkdown
		$<TARGET_FILE:burnin_verbs_probe>)
set_tests_properties(vm_burnin_verbs_loopback vm_burnin_verbs_pair
	vm_burnin_verbs_link_down
	PROPERTIES LABELS vm SKIP_RETURN_CODE 77 TIMEOUT 360 RUN_SERIAL TRUE)
