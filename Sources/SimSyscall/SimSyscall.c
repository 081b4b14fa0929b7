// `syscall(2)` for the whole process (exported with --export-dynamic, like the kernel's clock and
// sleep interposers): a getrandom call is offered to the kernel's hook first, which answers it
// from the run's seed on a simulation's thread; every other call, and getrandom elsewhere, goes to
// libc's `syscall` unchanged. Written in C because `syscall` is variadic: the six argument
// registers are read and passed on, as libc's own `syscall` does. `open`, `open64` and `openat`
// are here for the same reason (variadic): opening /dev/urandom or /dev/random on a simulation's
// thread (Foundation's `UUID()`) is offered to the random-device hook, which answers with the
// run's own bytes, served from a memory file.
#ifdef __linux__
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "SimSyscall.h"

typedef long (*real_syscall_fn)(long, ...);

static _Atomic(sim_getrandom_hook) getrandom_hook = NULL;
typedef int (*real_open_fn)(const char *, int, ...);
typedef int (*real_openat_fn)(int, const char *, int, ...);

static _Atomic(sim_random_device_hook) random_device_hook = NULL;
static real_syscall_fn real_syscall = NULL;
static real_open_fn real_open = NULL;
static real_open_fn real_open64 = NULL;
static real_openat_fn real_openat = NULL;

__attribute__((constructor)) static void sim_syscall_resolve(void) {
    real_syscall = (real_syscall_fn)dlsym(RTLD_NEXT, "syscall");
    real_open = (real_open_fn)dlsym(RTLD_NEXT, "open");
    real_open64 = (real_open_fn)dlsym(RTLD_NEXT, "open64");
    real_openat = (real_openat_fn)dlsym(RTLD_NEXT, "openat");
}

void sim_syscall_set_random_device_hook(sim_random_device_hook hook) {
    atomic_store_explicit(&random_device_hook, hook, memory_order_release);
}

/// The bytes a simulated random device serves (a UUID reads 16).
enum { random_device_bytes = 4096 };

/// A memory file of the hook's bytes when `path` is a random device and the hook answers; else -1.
static int simulated_random_device(const char *path) {
    if (!path || strncmp(path, "/dev/", 5) != 0) return -1;
    if (strcmp(path + 5, "urandom") != 0 && strcmp(path + 5, "random") != 0) return -1;
    sim_random_device_hook hook = atomic_load_explicit(&random_device_hook, memory_order_acquire);
    if (!hook) return -1;
    static __thread unsigned char bytes[random_device_bytes];
    if (hook(path, bytes, random_device_bytes) < 0) return -1;
    int fd = (int)real_syscall(SYS_memfd_create, "rehearsal-random-device", 1 /* MFD_CLOEXEC */);
    if (fd < 0) return -1;
    if (write(fd, bytes, random_device_bytes) != random_device_bytes || lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int open_mode(int flags, va_list arguments) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(arguments, int) : 0;
}

int open(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    int mode = open_mode(flags, arguments);
    va_end(arguments);
    int simulated = simulated_random_device(path);
    if (simulated >= 0) return simulated;
    if (!real_open) sim_syscall_resolve();
    return real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    int mode = open_mode(flags, arguments);
    va_end(arguments);
    int simulated = simulated_random_device(path);
    if (simulated >= 0) return simulated;
    if (!real_open64) sim_syscall_resolve();
    return real_open64(path, flags, mode);
}

int openat(int directory, const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    int mode = open_mode(flags, arguments);
    va_end(arguments);
    int simulated = simulated_random_device(path);
    if (simulated >= 0) return simulated;
    if (!real_openat) sim_syscall_resolve();
    return real_openat(directory, path, flags, mode);
}

void sim_syscall_set_getrandom_hook(sim_getrandom_hook hook) {
    atomic_store_explicit(&getrandom_hook, hook, memory_order_release);
}

long syscall(long number, ...) {
    va_list arguments;
    va_start(arguments, number);
    long a = va_arg(arguments, long), b = va_arg(arguments, long), c = va_arg(arguments, long);
    long d = va_arg(arguments, long), e = va_arg(arguments, long), f = va_arg(arguments, long);
    va_end(arguments);
#ifdef SYS_getrandom
    if (number == SYS_getrandom) {
        sim_getrandom_hook hook = atomic_load_explicit(&getrandom_hook, memory_order_acquire);
        if (hook) {
            long answered = hook((void *)a, (unsigned long)b, (unsigned int)c);
            if (answered >= 0) return answered;
        }
    }
#endif
    if (!real_syscall) sim_syscall_resolve();
    return real_syscall(number, a, b, c, d, e, f);
}
#endif
