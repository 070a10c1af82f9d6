// SPDX-License-Identifier: MIT
/*
 * vm_mpi_ranks: the smallest MPI program that proves every rank ran.
 *
 * Every rank sends its rank number and host name to rank 0 (MPI_Gather),
 * and all ranks agree on the sum of rank numbers (MPI_Allreduce).  Rank 0
 * prints one line per rank ("rank R of N on HOST") and then
 * "ranks N sum S hosts H", and exits 1 if the sum is wrong.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HOST_LEN 64

static int count_hosts(const char *names, int n)
{
	int i, j, hosts = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (!strncmp(names + i * HOST_LEN, names + j * HOST_LEN,
				     HOST_LEN))
				break;
		if (j == i)
			hosts++;
	}
	return hosts;
}

static int report(const char *names, int n, long sum)
{
	long want = (long)n * (n - 1) / 2;
	int i;

	for (i = 0; i < n; i++)
		printf("rank %d of %d on %.*s\n", i, n, HOST_LEN,
		       names + i * HOST_LEN);
	printf("ranks %d sum %ld hosts %d\n", n, sum, count_hosts(names, n));
	if (sum != want) {
		fprintf(stderr, "vm_mpi_ranks: rank sum %ld, expected %ld\n",
			sum, want);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char host[HOST_LEN] = "";
	char *names = NULL;
	long mine, sum = 0;
	int rank, size, rc = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	gethostname(host, sizeof(host) - 1);
	if (rank == 0) {
		names = calloc(size, HOST_LEN);
		if (!names)
			MPI_Abort(MPI_COMM_WORLD, 3);
	}
	MPI_Gather(host, HOST_LEN, MPI_CHAR, names, HOST_LEN, MPI_CHAR, 0,
		   MPI_COMM_WORLD);
	mine = rank;
	MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0) {
		rc = report(names, size, sum);
		free(names);
	}
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return rc;
}
