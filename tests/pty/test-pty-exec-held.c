/* tests/pty/test-pty-exec-held.c: pty_spawn returns while the child has not reached its exec yet.
 *
 * A login program on a hung NFS server or an automount that does not answer keeps the child inside execve(2)
 * for as long as the server is gone. pty_spawn used to read the child's exec report (its errno, or end of file
 * once the exec worked) before returning, so the whole console froze with it: no drawing, no VT switch. What
 * stands for the hung exec here: a tracer that seizes this process with PTRACE_O_TRACEFORK, so that the child
 * is born stopped, and keeps it stopped for HOLD_MS. pty_spawn must return at once; the exec's failure is still
 * told (it is read once the child is gone: pty_reap), and a child that runs still runs.
 *
 * The child born stopped also lets a signal reach it before it has run any code of its own: one sent to the
 * child then waits, blocked by the mask it inherited, for the child to unblock it. The child must set every
 * handler of ours back to the default before it unblocks anything: the other way round, such a signal ran our
 * handler in the child (pty.h: the signal mask and dispositions are reset). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>

#include "tests/kf-alarm.h"
#include "tests/kf-log-capture.h"
#include "tests/pty/pty-harness.h"

#define HOLD_MS 1500

/* The tracer: seizes pid, lets it run (its own signals passed on), holds each child it forks stopped for
 * HOLD_MS, then lets it go; exits (which detaches from pid) after pid forked FORKS times or after 30 s. */
#define FORKS 3
static void tracer_main(pid_t pid, int report)
{
	int err = ptrace(PTRACE_SEIZE, pid, NULL, (void *)(long)PTRACE_O_TRACEFORK) < 0 ? errno : 0;
	if (write(report, &err, sizeof(err)) < 0 || err)
		_exit(1);
	pid_t held = 0;
	int forks = 0;
	uint64_t release = 0, end = ms_now() + 30000;
	while (ms_now() < end) {
		int st;
		pid_t w = waitpid(-1, &st, __WALL | WNOHANG);
		if (w == pid && WIFSTOPPED(st)) {
			unsigned long msg = 0;
			if (st >> 8 == (SIGTRAP | PTRACE_EVENT_FORK << 8) &&
			    ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg) == 0) {
				held = (pid_t)msg;
				release = ms_now() + HOLD_MS;
				forks++;
				ptrace(PTRACE_CONT, pid, NULL, NULL);
			} else {
				int sig = st >> 16 ? 0 : WSTOPSIG(st); /* an event stop passes no signal on */
				ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
			}
		} else if (w == pid) {
			_exit(0); /* the test is gone */
		}
		if (held && ms_now() >= release) {
			/* detaching needs the child in a ptrace stop: it is, from its birth (PTRACE_EVENT_STOP) */
			ptrace(PTRACE_DETACH, held, NULL, NULL);
			held = 0;
			if (forks == FORKS)
				_exit(0);
		}
		if (w <= 0) {
			struct timespec ts = {0, 2 * 1000000L};
			nanosleep(&ts, NULL);
		}
	}
	_exit(0);
}

/* Starts the tracer on this process; its pid, or -errno when tracing is not allowed here. */
static pid_t start_tracer(void)
{
	int p[2], err = 0;
	const pid_t self = getpid();
	if (pipe(p) < 0)
		return -errno;
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY); /* Yama's ptrace_scope 1: a child may trace its parent */
	pid_t t = fork();
	if (t < 0)
		return -errno;
	if (t == 0) {
		close(p[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		tracer_main(self, p[1]);
	}
	close(p[1]);
	if (read(p[0], &err, sizeof(err)) != sizeof(err))
		err = EIO;
	close(p[0]);
	if (err) {
		waitpid(t, NULL, 0);
		return -err;
	}
	return t;
}

/* Our handler of SIGWINCH (blocked in this process): run in a child, it ends the child with this status. */
#define OUR_HANDLER_RAN 99
static void our_handler(int sig)
{
	(void)sig;
	_exit(OUR_HANDLER_RAN);
}

/* A signal sent to the child before its first instruction (held by the tracer, the mask ours: SIGWINCH blocked,
 * our handler set): SIGWINCH, whose default is to do nothing, so that the child runs its program whatever
 * reaches it. Its handler in the child (the mask cleared before the handlers were reset) ended it with
 * OUR_HANDLER_RAN instead. */
static void test_signal_before_reset(void)
{
	struct sigaction sa = {.sa_handler = our_handler}, old;
	sigset_t winch, saved;
	sigemptyset(&winch);
	sigaddset(&winch, SIGWINCH);
	sigaction(SIGWINCH, &sa, &old);
	sigprocmask(SIG_BLOCK, &winch, &saved);
	const char *runs[] = {"sh", "-c", "exit 4", NULL};
	struct pty *pty = pty_create(&(struct pty_config){.argv = runs, .reset_env = true}, NULL, NULL);
	CHECK(pty && pty_spawn(pty) == 0);
	CHECK(kill(pty_pid(pty), SIGWINCH) == 0); /* while the tracer holds it: pending until it unblocks */
	int code = reap_wait(pty, 10000);
	printf("a signal our handler catches, sent to the child before it ran: it exited with %d (want 4; %d: "
	       "our handler ran in it)\n", code, OUR_HANDLER_RAN);
	CHECK(code == 4);
	pty_hangup(pty, 100);
	pty_destroy(pty);
	sigprocmask(SIG_SETMASK, &saved, NULL);
	sigaction(SIGWINCH, &old, NULL);
}

int main(void)
{
	kf_alarm(60);
	pty_set_log_handler(on_log);
	const int fds = count_fds();
	const pid_t tracer = start_tracer();
	if (tracer < 0) {
		printf("cannot trace this process (%s): no way here to hold a child before its exec\n",
		       strerror(-tracer));
		return 77;
	}

	/* A program that runs: pty_spawn returns while the child is held, and the child runs once let go. */
	const char *runs[] = {"sh", "-c", "exit 4", NULL};
	struct pty *pty = pty_create(&(struct pty_config){.argv = runs, .reset_env = true}, NULL, NULL);
	uint64_t t0 = ms_now();
	CHECK(pty && pty_spawn(pty) == 0);
	uint64_t took = ms_now() - t0;
	printf("pty_spawn returned after %llu ms with the child held %d ms before its exec\n",
	       (unsigned long long)took, HOLD_MS);
	CHECK(took < HOLD_MS / 3);
	int code = reap_wait(pty, 10000);
	printf("the child exited with %d (want 4) after %llu ms\n", code, (unsigned long long)(ms_now() - t0));
	CHECK(code == 4);
	CHECK(ms_now() - t0 >= HOLD_MS - 100);
	pty_hangup(pty, 100);
	pty_destroy(pty);

	/* A program that cannot be run: still said in the log, with its reason, once the child is gone. */
	const char *missing[] = {"/nonexistent/kf-login", NULL};
	pty = pty_create(&(struct pty_config){.argv = missing, .reset_env = true}, NULL, NULL);
	t0 = ms_now();
	CHECK(pty && pty_spawn(pty) == 0);
	took = ms_now() - t0;
	CHECK(took < HOLD_MS / 3);
	CHECK(strstr(logbuf, "cannot run") == NULL);
	code = reap_wait(pty, 10000);
	printf("pty_spawn of a missing program returned after %llu ms; the child exited with %d (want 127); the "
	       "log said:\n%s",
	       (unsigned long long)took, code, logbuf);
	CHECK(code == 127);
	CHECK(strstr(logbuf, "cannot run /nonexistent/kf-login: No such file or directory") != NULL);
	pty_hangup(pty, 100);
	pty_destroy(pty);

	test_signal_before_reset();

	CHECK(waitpid(tracer, NULL, 0) == tracer);
	CHECK(count_fds() == fds);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
