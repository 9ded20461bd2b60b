#!/usr/bin/env python3
"""Runs a command with the kernel key retention service refused, as container seccomp profiles
(Docker's default among them) refuse it: keyctl, add_key and request_key fail with EPERM.

    scripts/without-keyctl.py COMMAND [ARG...]

The tests use it to check that the encrypted-file vault falls back to asking in each process and
that `rider vault status` says why. A seccomp filter is inherited by every child and cannot be
lifted, so the command really runs without keyctl.
"""
import ctypes
import os
import platform
import struct
import sys

# Syscall numbers and audit architecture per machine (linux/audit.h, asm/unistd.h).
MACHINES = {
    "x86_64": (0xC000003E, {"add_key": 248, "request_key": 249, "keyctl": 250}),
    "aarch64": (0xC00000B7, {"add_key": 217, "request_key": 218, "keyctl": 219}),
}
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
SECCOMP_RET_KILL = 0x00000000
EPERM = 1
BPF_LD_W_ABS, BPF_JEQ_K, BPF_RET_K = 0x20, 0x15, 0x06


def instruction(code, jt, jf, k):
    return struct.pack("HBBI", code, jt, jf, k)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip())
    machine = platform.machine()
    if machine not in MACHINES:
        sys.exit(f"without-keyctl: no syscall table for {machine}")
    arch, numbers = MACHINES[machine]
    program = [
        instruction(BPF_LD_W_ABS, 0, 0, 4),            # seccomp_data.arch
        instruction(BPF_JEQ_K, 1, 0, arch),
        instruction(BPF_RET_K, 0, 0, SECCOMP_RET_KILL),
        instruction(BPF_LD_W_ABS, 0, 0, 0),            # seccomp_data.nr
    ]
    for number in numbers.values():
        program.append(instruction(BPF_JEQ_K, 0, 1, number))
        program.append(instruction(BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM))
    program.append(instruction(BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW))
    code = b"".join(program)
    buffer = ctypes.create_string_buffer(code)

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = SockFprog(len(program), ctypes.cast(buffer, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, None, 0, 0) != 0:
        sys.exit(f"without-keyctl: PR_SET_NO_NEW_PRIVS failed: {os.strerror(ctypes.get_errno())}")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        sys.exit(f"without-keyctl: the seccomp filter was refused: {os.strerror(ctypes.get_errno())}")
    os.execvp(sys.argv[1], sys.argv[1:])


if __name__ == "__main__":
    main()
