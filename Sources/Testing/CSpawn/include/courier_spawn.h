#ifndef COURIER_SPAWN_H
#define COURIER_SPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (NULL: this process's environment) in `directory` (NULL:
/// this process's), with the child's standard input, output and error on the given descriptors
/// (-1: inherited), every other descriptor closed, an empty signal mask and SIGPIPE at its
/// default. Returns 0 and the child's id in `pid`, or an errno value.
///
/// Foundation's `Process.run()` on Linux lists /proc/self/fd to close descriptors and reads past
/// the end of its directory buffer; with thousands of descriptors open that read can cross into
/// an unmapped page and crash. posix_spawn closes them with close_range in the child instead.
int courier_spawn(const char *path, char *const argv[], char *const envp[], const char *directory,
                  int stdin_fd, int stdout_fd, int stderr_fd, pid_t *pid);

/// pipe2(fds, O_CLOEXEC), which Swift's Glibc module does not show. Returns 0 or an errno value.
int courier_pipe(int fds[2]);

#endif
