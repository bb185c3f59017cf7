/* pty/pty-internal.h: shared between the files of pty/, not part of the public interface. */
#ifndef PTY_PTY_INTERNAL_H
#define PTY_PTY_INTERNAL_H

#include "pty/pty.h"

/* Logs through the handler of pty_set_log_handler() with the caller's place in pty/. */
void pty_log_at(int prio, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
#define pty_log(prio, ...) pty_log_at(prio, __FILE__, __LINE__, __VA_ARGS__)

/* A NULL-terminated environment for the child; caller owns it (pty_env_free). NULL on allocation failure. */
char **pty_env_build(const struct pty_config *cfg);
void pty_env_free(char **env);
/* Opens a non-blocking, close-on-exec master and writes the slave's path. Returns the fd or -errno. */
int pty_open_master(char *slave, size_t slave_len);
/* Sets the slave's termios through the master: UTF-8 input, and erase (0 = leave it) as the erase character.
 * Returns 0 or -errno. */
int pty_init_termios(int master, unsigned char erase);
/* What the child needs, made before the fork: between fork and exec the child calls only async-signal-safe
 * functions (a thread of ours, the keymap's worker, may hold a lock at the fork that it would wait on for ever). */
struct pty_exec {
	const char *const *argv;
	char **env;
	char **paths;	      /* where argv[0] is tried, in order: itself, or each directory of env's PATH */
	const char **sh_argv; /* "/bin/sh", (the path), argv[1]...: a file without #! run as execvp(3) runs it */
	int report;	      /* see pty_child_exec */
};
/* Fills x for argv and env (kept, not copied); report is -1. Returns 0 or -ENOMEM. */
int pty_exec_prepare(struct pty_exec *x, const char *const *argv, char **env);
void pty_exec_free(struct pty_exec *x);
/* Sets up the child's session, terminal, descriptors and signals, and execs. Never returns. x->report (-1 for
 * none) is the close-on-exec write end of a pipe, kept open until the exec: when the exec fails, the child writes
 * its errno there (an int) before it says why on the terminal and exits with status 127. */
/* Flags of pty_close_from, for tests: the paths taken on kernels that lack what is skipped. */
enum {
	PTY_CLOSE_NO_RANGE = 1, /* close_range(2), Linux 5.9 */
	PTY_CLOSE_NO_PROC = 2,  /* /proc/self/fd */
};
/* Closes every descriptor from first on but keep (-1: none), in the child between fork and exec (async-signal
 * safe): close_range(2); before Linux 5.9 each descriptor /proc/self/fd lists; without /proc too, those poll(2)
 * finds open up to the limit. Returns the number of system calls it made, for tests (test-pty-spawn.c). */
long pty_close_from(int first, int keep, unsigned flags);
void pty_child_exec(const char *slave, const struct pty_exec *x)
	__attribute__((noreturn));

#endif
