/* tests/pty/test-pty-sigchld.c: the child is reaped, with its own exit status, whatever SIGCHLD disposition the
 * program was started with.
 *
 * A disposition of SIG_IGN survives exec(2): a launcher that ignores SIGCHLD (a script that does not want to
 * wait for its children) passes it on to kmscon-felis. With SIGCHLD ignored, or SA_NOCLDWAIT set, the kernel
 * reaps children as they exit: waitpid() answers ECHILD and the status is gone. pty_reap then never returned 1,
 * and the pidfd, readable for good, woke the loop at once every time: headless the program spun at 100 % CPU
 * and never exited; on a display the dead login was never started again (40,000 wait4 calls in 5 s under
 * strace). The pty must make sure it can wait for its children. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
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
	CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
