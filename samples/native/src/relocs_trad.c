/* relocs.c's traditional-dialect TLS variable (AArch64 -mtls-dialect=trad: __tls_get_addr with
 * R_AARCH64_TLS_DTPMOD64 + DTPREL64; on ARM the same code is the default dialect). Build: ../build.sh */
__thread long trad_counter = 11;

long trad_bump(long n) {
    trad_counter += n;
    return trad_counter;
}
