/* Runs one kernel for benchmarks: `bench KERNEL N` (int_kernel N | kernel_sor N 10). Static
   builds of this run under qemu-user to compare with bb-tracer on the same code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int int_kernel(int); double kernel_sor(int, int);
int main(int argc, char **argv) {
    if (argc < 3) return 2;
    int n = atoi(argv[2]);
    if (strcmp(argv[1], "int_kernel") == 0) printf("%d\n", int_kernel(n));
    else printf("%.17g\n", kernel_sor(n, 10));
    return 0;
}
