/* Runs every kernel with fixed arguments and prints the results: the reference for emulated runs
   (host build, and static ARM/AArch64 builds under qemu-user). */
#include <stdio.h>
double kernel_fft(int, int); double kernel_sor(int, int); double kernel_sparse(int, int, int);
int count_loop(int); int int_kernel(int); double mix_args(int, float, double, long long);
int add_ints(int, int, int, int, int, int);
int main(void) {
    printf("count_loop(100)=%d\n", count_loop(100));
    printf("int_kernel(1000)=%d\n", int_kernel(1000));
    printf("add_ints(1,2,3,4,5,6)=%d\n", add_ints(1, 2, 3, 4, 5, 6));
    printf("mix_args(3,1.5,2.25,7)=%.17g\n", mix_args(3, 1.5f, 2.25, 7));
    printf("kernel_fft(64,2)=%.17g\n", kernel_fft(64, 2));
    printf("kernel_sor(20,3)=%.17g\n", kernel_sor(20, 3));
    printf("kernel_sparse(100,500,2)=%.17g\n", kernel_sparse(100, 500, 2));
    return 0;
}
