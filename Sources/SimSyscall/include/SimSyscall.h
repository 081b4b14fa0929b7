#ifndef SIM_SYSCALL_H
#define SIM_SYSCALL_H

/// What the kernel answers a `getrandom` system call with on a simulation's thread: the number of
/// bytes it wrote, or -1 when the caller is not on one (the real system call then runs).
typedef long (*sim_getrandom_hook)(void *buffer, unsigned long count, unsigned int flags);

/// Installs the hook `syscall(SYS_getrandom, …)` consults (the Swift standard library's
/// `SystemRandomNumberGenerator` makes that call directly, not through libc's `getrandom`).
void sim_syscall_set_getrandom_hook(sim_getrandom_hook hook);

/// What the kernel does when a simulation's thread opens /dev/urandom or /dev/random (Foundation's
/// `UUID()` does, once per UUID): fills `buffer` with `count` bytes of the run's own stream and
/// returns 0, or returns -1 when the caller is not on one (the real file is then opened).
typedef long (*sim_random_device_hook)(const char *path, void *buffer, unsigned long count);

/// Installs the hook `open`/`open64`/`openat` consult for the random devices; on a simulation's
/// thread they return a memory file of the hook's bytes instead.
void sim_syscall_set_random_device_hook(sim_random_device_hook hook);

#endif
