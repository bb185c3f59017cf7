/* tests/pty/test-pty-reap.c: pty_hangup of a child that cannot be reaped in time returns anyway.
 *
 * What stands for a child stuck in uninterruptible sleep (a dead NFS mount): a child traced by another
 * process. A traced child stops at the SIGHUP (ptrace signal-delivery-stop: SIGCONT does not end it), and
 * after the SIGKILL its zombie belongs to the tracer first: the kernel lets its real parent (the pty) reap it
 * only once the tracer has waited for it or gone (wait_consider_task). The tracer here does neither until
 * the test kills it, so the child is really unreapable for as long as the test wants; pty_hangup used to
 * block in waitpid(pid, 0) for ever. Then: the log names the child, nothing leaks, and once the tracer is gone
 * the pty reaps the old child by itself while a new child's exit status is still its own. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "tests/kf-alarm.h"
#include "tests/kf-log-capture.h"
#include "tests/pty/pty-harness.h"

static void on_alarm(int sig)
{
	static const char msg[] = "FAIL: pty_hangup still blocked after 10 s on a child it cannot reap\n";
	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

/* Forks a process that seizes pid and never waits for it; returns its pid, or -errno (no tracing allowed
 * here). It dies with the test (PDEATHSIG) and after 60 s whatever happens. */
static pid_t start_tracer(pid_t pid)
{
	int p[2];
	int err = 0;
	if (pipe(p) < 0)
		return -errno;
	pid_t t = fork();
	if (t < 0)
		return -errno;
	if (t == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		alarm(60);
		err = ptrace(PTRACE_SEIZE, pid, NULL, NULL) < 0 ? errno : 0;
		if (write(p[1], &err, sizeof(err)) < 0)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (read(p[0], &err, sizeof(err)) != sizeof(err))
		err = EIO;
	close(p[0]);
	if (err) {
		kill(t, SIGKILL);
		waitpid(t, NULL, 0);
		return -err;
	}
	return t;
}

static bool gone(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	return access(path, F_OK) < 0;
}

int main(void)
{
	const char *args[] = {"sleep", "60", NULL, NULL}; /* the pty keeps the pointer: the next child is set here */
	struct pty_config cfg = {.argv = args, .reset_env = true};

	kf_alarm(60);
	pty_set_log_handler(on_log);
	const int fds = count_fds();
	struct pty *pty = pty_create(&cfg, NULL, NULL);
	CHECK(pty && pty_spawn(pty) == 0);
	const pid_t old = pty_pid(pty);
	const pid_t tracer = start_tracer(old);
	if (tracer < 0) {
		printf("cannot trace the child (%s): no way here to make it unreapable\n", strerror(-tracer));
		pty_destroy(pty);
		return 77;
	}

	signal(SIGALRM, on_alarm);
	alarm(10);
	const uint64_t t0 = ms_now();
	const double cpu0 = cpu_ms();
	pty_hangup(pty, 200);
	const uint64_t took = ms_now() - t0;
	const double cpu = cpu_ms() - cpu0;
	kf_alarm(60);
	printf("hang-up of an unreapable child returned after %llu ms (%.0f ms of CPU); the log said:\n%s",
	       (unsigned long long)took, cpu, logbuf);
	CHECK(took >= 190 && took < 200 + PTY_KILL_WAIT_MS + 1000);
	CHECK(cpu < 200); /* waited, not spun on a pidfd that says "exited" before the zombie is ours */
	CHECK(strstr(logbuf, "could not be reaped") != NULL);
	CHECK(pty_pid(pty) == 0 && pty_pidfd(pty) == -1 && pty_fd(pty) == -1);
	CHECK(count_fds() == fds);
	CHECK(!gone(old)); /* a zombie only the tracer may collect */

	/* The tracer goes: the old child is ours to reap now, and its exit must not pass for the new child's. */
	kill(tracer, SIGKILL);
	CHECK(waitpid(tracer, NULL, 0) == tracer);
	args[0] = "sh", args[1] = "-c", args[2] = "sleep 0.3; exit 3";
	CHECK(pty_spawn(pty) == 0 && pty_pid(pty) != old);
	int st = 0;
	CHECK(pty_reap(pty, &st) == 0); /* the new child runs for 300 ms: nothing to reap yet */
	const int code = reap_wait(pty, 5000);
	printf("the new child exited with %d (want 3); the old child %d is %s\n", code, (int)old,
	       gone(old) ? "reaped" : "still there");
	CHECK(code == 3);
	CHECK(gone(old));
	pty_hangup(pty, 100);
	pty_destroy(pty);
	CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
	CHECK(count_fds() == fds);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
