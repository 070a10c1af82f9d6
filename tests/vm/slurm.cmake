# Debian's real Slurm over the Soft-RoCE guests (issue 37,
# tests/vm/slurm-cluster): srun --mpi=pmix launching burnin over every rxe
# port of 3 guests x 2 rails (flat fabric: every pair reachable), node
# --drain/--undrain seen in scontrol show node, and the HealthCheckProgram
# wrapper under slurmd draining and resuming a guest; then the acceptance
# job script (node/slurm/ibproof-acceptance.sbatch) through sbatch, its
# fabric steps on ibsim on node1.
ibp_add_vm_test(vm_slurm 600
	${IBP_VM_DIR}/vmcluster --nodes 3 --rails 2 --fabric flat --timeout 540
	--out ${IBP_VM_CACHE}/out/vm_slurm
	-- ${IBP_VM_DIR}/slurm-cluster $<TARGET_FILE:ibproof>)
