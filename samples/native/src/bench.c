/* Runs one kernel for benchmarks: `bench KERNEL ARG...` (int_kernel N | kernel_sor N CYCLES |
   kernel_sparse M NZ CYCLES | kernel_fft N CYCLES). Static builds of this run under qemu-user to
   compare with bb-tracer on the same code (bench/README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int int_kernel(int); double kernel_sor(int, int); double kernel_sparse(int, int, int); double kernel_fft(int, int);
int main(int argc, char **argv) {
    if (argc < 3) return 2;
    int a = atoi(argv[2]), b = argc > 3 ? atoi(argv[3]) : 10, c = argc > 4 ? atoi(argv[4]) : 1;
    if (strcmp(argv[1], "int_kernel") == 0) printf("%d\n", int_kernel(a));
    else if (strcmp(argv[1], "kernel_sparse") == 0) printf("%.17g\n", kernel_sparse(a, b, c));
    else if (strcmp(argv[1], "kernel_fft") == 0) printf("%.17g\n", kernel_fft(a, b));
    else printf("%.17g\n", kernel_sor(a, b));
    return 0;
}
