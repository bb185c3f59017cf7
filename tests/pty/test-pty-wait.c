/* tests/pty/test-pty-wait.c: waiting for the child.
 *
 * - It is reaped, with its own exit status, whatever SIGCHLD disposition the program was started with. A
 *   disposition of SIG_IGN survives exec(2): a launcher that ignores SIGCHLD (a script that does not want to
 *   wait for its children) passes it on to kmscon-felis. With SIGCHLD ignored, or SA_NOCLDWAIT set, the kernel
 *   reaps children as they exit: waitpid() answers ECHILD and the status is gone. pty_reap then never returned
 *   1, and the pidfd, readable for good, woke the loop at once every time: headless the program spun at 100 %
 *   CPU and never exited; on a display the dead login was never started again (40,000 wait4 calls in 5 s under
 *   strace). The pty must make sure it can wait for its children.
 * - Its pid stays its own until pty_hangup has sent SIGHUP to its process group. pty_reap used to reap it at
 *   once, and the session parses the child's last output (up to 0.5 s) before the hang-up: a process started
 *   meanwhile could be given the same number and make it a process group of its own (every service systemd
 *   starts calls setsid()), and the hang-up's SIGHUP and SIGCONT went to that group.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/kf-alarm.h"
#include "tests/kf-log-capture.h"
#include "tests/pty/pty-harness.h"

/* Spawns "exit 5" under the disposition sa and waits for it like the program's loop does (its pidfd). */
static void check_reaped(const char *what, const struct sigaction *sa)
{
	const char *argv[] = {"sh", "-c", "exit 5", NULL};
	struct pty_config cfg = {.argv = argv, .reset_env = true};
	struct sigaction old;
	CHECK(sigaction(SIGCHLD, sa, &old) == 0);
	logbuf[0] = 0;
	struct pty *pty = pty_create(&cfg, NULL, NULL);
	CHECK(pty && pty_spawn(pty) == 0);
	const double cpu0 = cpu_ms();
	const int code = reap_wait(pty, 3000);
	const double cpu = cpu_ms() - cpu0;
	printf("%s: the child's status %d (want 5), %.0f ms of CPU waiting; the log said:\n%s", what, code, cpu,
	       logbuf);
	CHECK(code == 5);
	pty_hangup(pty, 100);
	pty_destroy(pty);
	/* (the disposition the pty set stays: the program needs it for its next children too) */
	CHECK(sigaction(SIGCHLD, &old, NULL) == 0);
}

/* Starts a process that takes the number after last (when nothing else on the machine forks in between) and
 * makes it a process group of its own, as a daemon does; returns its pid and its pipe's read end (a byte once it
 * leads its group), or -1 when the next pid cannot be chosen here (not root). */
static pid_t start_group_after(pid_t last, int *ready)
{
	char num[32];
	int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		close(fd);
		return -1;
	}
	const int n = snprintf(num, sizeof(num), "%d", (int)last);
	const bool set = write(fd, num, (size_t)n) == n;
	close(fd);
	pid_t pid = set ? fork() : -1;
	if (pid == 0) {
		signal(SIGHUP, SIG_DFL);
		setsid();
		if (write(p[1], "r", 1) != 1)
			_exit(1);
		sleep(10);
		_exit(0);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	*ready = p[0];
	return pid;
}

static void test_pid_kept(void)
{
	const char *argv[] = {"true", NULL};
	struct pty_config cfg = {.argv = argv, .reset_env = true};
	struct pty *pty = pty_create(&cfg, NULL, NULL);
	CHECK(pty && pty_spawn(pty) == 0);
	const pid_t child = pty_pid(pty);
	CHECK(reap_wait(pty, 3000) == 0);
	/* exited and its status taken, but the number is still the child's (a zombie) */
	CHECK(kill(child, 0) == 0);
	int ready = -1;
	const pid_t other = start_group_after(child - 1, &ready);
	char c;
	if (other > 0 && read(ready, &c, 1) != 1)
		CHECK(!"the process after the child did not start");
	pty_hangup(pty, 100);
	int st = 0;
	if (other > 0) {
		kill(other, SIGTERM);
		CHECK(waitpid(other, &st, 0) == other);
		close(ready);
		printf("the child was %d, the process group started after it %d: ended by signal %d (want %d, SIGTERM, "
		       "not %d, the hang-up's)\n",
		       (int)child, (int)other, WIFSIGNALED(st) ? WTERMSIG(st) : 0, SIGTERM, SIGHUP);
		CHECK(other != child);
		CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	} else {
		printf("the next pid cannot be chosen here: the hang-up's signals to another group not tried\n");
	}
	/* the hang-up reaped it */
	CHECK(kill(child, 0) < 0 && errno == ESRCH);
	CHECK(pty_reap(pty, &st) == -ECHILD);
	pty_destroy(pty);
}

int main(void)
{
	kf_alarm(60);
	pty_set_log_handler(on_log);
	struct sigaction ign = {.sa_handler = SIG_IGN};
	check_reaped("SIGCHLD ignored", &ign);
	struct sigaction nocldwait = {.sa_handler = SIG_DFL, .sa_flags = SA_NOCLDWAIT};
	check_reaped("SA_NOCLDWAIT", &nocldwait);
	/* a handler of the program's own is its business, and is left alone */
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	check_reaped("SIGCHLD by default", &dfl);
	test_pid_kept();
	CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
