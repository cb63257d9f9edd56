package org.hyprof.bb.emu;

/**
 * A Linux error a system call answers with ({@code -errno} in x0 / r0): thrown inside the
 * system-call layer and turned into the result by {@link Syscalls}. No stack trace (it is an
 * answer, not a failure).
 */
final class Errno extends RuntimeException {
    static final int EPERM = 1, ENOENT = 2, EBADF = 9, EAGAIN = 11, ENOMEM = 12, EACCES = 13, EFAULT = 14, EBUSY = 16, EEXIST = 17, ENODEV = 19,
            ENOTDIR = 20, EISDIR = 21, EINVAL = 22, EMFILE = 24, ENOTTY = 25, EFBIG = 27, ENOSPC = 28, ESPIPE = 29,
            ENAMETOOLONG = 36, ENOSYS = 38, ENOTEMPTY = 39, ELOOP = 40, EOPNOTSUPP = 95, ETIMEDOUT = 110;

    final int errno;

    Errno(int errno) {
        super(null, null, false, false);
        this.errno = errno;
    }
}
