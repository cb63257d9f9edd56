/* The reference run of relocs.c under qemu-user (static, glibc): ../reference/relocs-qemu.sh */
#include <stdio.h>
long tls_bump(long n);
long tls_threads(long n);
long ifunc_check(void);
int main(void) {
    printf("tls_bump 3 %ld\n", tls_bump(3));
    printf("tls_threads 2 %ld\n", tls_threads(2));
    printf("ifunc_check %ld\n", ifunc_check());
    return 0;
}
