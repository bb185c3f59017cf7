/* tests/notify/test-notify.c: the sd_notify implementation against a real datagram socket, as systemd's
 * manager would receive it: path and abstract addresses, READY/STATUS/WATCHDOG payloads, the watchdog
 * interval, the environment removed for the child, and no-ops without NOTIFY_SOCKET. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "kmscon-felis/loop.h"
#include "kmscon-felis/notify.h"

static int failures;
#define CHECK(cond, ...)                                                                                   \
	do {                                                                                               \
		if (!(cond)) {                                                                             \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);                                        \
			printf(__VA_ARGS__);                                                               \
			putchar('\n');                                                                     \
			failures++;                                                                        \
		}                                                                                          \
	} while (0)

static int listener(const char *name, bool abstract)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	size_t len = strlen(name);
	memcpy(a.sun_path + abstract, name, len);
	socklen_t alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + abstract + !abstract);
	if (bind(fd, (struct sockaddr *)&a, alen) < 0) {
		perror("bind");
		exit(1);
	}
	return fd;
}

static void expect(int fd, const char *want)
{
	char buf[1024];
	ssize_t n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	buf[n > 0 ? n : 0] = '\0';
	CHECK(n > 0 && !strcmp(buf, want), "received '%s', want '%s'", buf, want);
}

static void run(const char *env, int fd)
{
	char pid[32];
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("NOTIFY_SOCKET", env, 1);
	setenv("WATCHDOG_USEC", "3000000", 1);
	setenv("WATCHDOG_PID", pid, 1);
	CHECK(kf_notify_init() == 0, "init %s", env);
	CHECK(!getenv("NOTIFY_SOCKET") && !getenv("WATCHDOG_USEC") && !getenv("WATCHDOG_PID"),
	      "environment removed for the child");
	CHECK(kf_notify_watchdog_usec() == 3000000, "watchdog interval");
	CHECK(kf_notify_ready("1024x768@60, DejaVu Sans Mono 16px") == 0, "ready");
	expect(fd, "READY=1\nSTATUS=1024x768@60, DejaVu Sans Mono 16px\n");
	CHECK(kf_notify_status("mode %dx%d", 800, 600) == 0, "status");
	expect(fd, "STATUS=mode 800x600");
	CHECK(kf_notify_watchdog() == 0, "watchdog");
	expect(fd, "WATCHDOG=1\n");
	CHECK(kf_notify_stopping() == 0, "stopping");
	expect(fd, "STOPPING=1\n");
	kf_notify_finish();
}

/* One try: a loop with the watchdog timer just started, and the pings sent in its first 280 ms (5: at 50, 100 ..
 * 250 ms); or -1 when the test was held off the CPU for 100 ms or more meanwhile (an iteration of 20 ms at most
 * took that long), which costs pings by itself: the loop skips the periods it missed, and a 150 ms stop took 2
 * or 3 of the 5. A shorter hold costs one at most. */
static int watchdog_try(int fd)
{
	char buf[64];
	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0) /* a try before this one's */
		;
	struct kf_loop *loop = kf_loop_create();
	CHECK(kf_notify_watchdog_start(loop) != NULL, "watchdog timer");
	const uint64_t end = kf_loop_now_ns() + 280000000ull;
	bool held = false;
	for (uint64_t now = kf_loop_now_ns(), t; now < end; now = t) {
		kf_loop_dispatch(loop, 20);
		t = kf_loop_now_ns();
		held |= t - now >= 100000000ull;
	}
	int pings = 0;
	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		pings++;
	kf_loop_destroy(loop);
	return held ? -1 : pings;
}

/* The watchdog timer on a real loop: 100 ms WatchdogSec gives a ping every 50 ms. A try in which the test did
 * not get the CPU proves nothing (a busy CI machine): another is made, up to 10. */
static void test_watchdog_loop(const char *path)
{
	int fd = listener(path, false);
	char pid[32];
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("NOTIFY_SOCKET", path, 1);
	setenv("WATCHDOG_USEC", "100000", 1);
	setenv("WATCHDOG_PID", pid, 1);
	kf_notify_init();
	int pings = -1, tries = 0;
	while (pings < 0 && tries < 10) {
		pings = watchdog_try(fd);
		tries++;
	}
	CHECK(pings >= 4 && pings <= 6, "%d watchdog pings in 280 ms, want 5 (try %d of 10; -1: held off in every one)",
	      pings, tries);
	kf_notify_finish();
	/* No watchdog asked for: no timer. */
	unsetenv("WATCHDOG_USEC");
	setenv("NOTIFY_SOCKET", path, 1);
	kf_notify_init();
	struct kf_loop *loop = kf_loop_create();
	CHECK(kf_notify_watchdog_start(loop) == NULL, "no timer without WATCHDOG_USEC");
	kf_loop_destroy(loop);
	kf_notify_finish();
	close(fd);
	unlink(path);
}

/* WATCHDOG_USEC as systemd's library takes it: digits only, positive, its period in nanoseconds not wrapping.
 * Before, strtoull took "-5" as 2^64-5, "12abc" as 12, and 18446744073709552 became a 192 ns ping period. */
static void test_watchdog_bad_usec(const char *path)
{
	static const char *const bad[] = {"abc", "12abc", "0", "", "-5", " 5", "18446744073709552",
					  "18446744073709551615", "99999999999999999999999"};
	int fd = listener(path, false);
	char pid[32];
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("NOTIFY_SOCKET", path, 1);
		setenv("WATCHDOG_USEC", bad[i], 1);
		setenv("WATCHDOG_PID", pid, 1);
		kf_notify_init();
		CHECK(kf_notify_watchdog_usec() == 0, "WATCHDOG_USEC='%s' taken as %llu us, want no watchdog", bad[i],
		      (unsigned long long)kf_notify_watchdog_usec());
		kf_notify_finish();
	}
	/* The largest value whose period in nanoseconds fits is kept as it is. */
	setenv("NOTIFY_SOCKET", path, 1);
	setenv("WATCHDOG_USEC", "18446744073709551", 1);
	kf_notify_init();
	CHECK(kf_notify_watchdog_usec() == 18446744073709551ull, "largest WATCHDOG_USEC: %llu",
	      (unsigned long long)kf_notify_watchdog_usec());
	kf_notify_finish();
	/* 1 us asks for a ping every 500 ns: pinged every millisecond instead, not as fast as the loop can turn
	 * (then every datagram queue slot, 512 by default, filled in a few milliseconds). */
	setenv("NOTIFY_SOCKET", path, 1);
	setenv("WATCHDOG_USEC", "1", 1);
	kf_notify_init();
	struct kf_loop *loop = kf_loop_create();
	CHECK(kf_notify_watchdog_start(loop) != NULL, "1 us watchdog: timer");
	const uint64_t end = kf_loop_now_ns() + 50000000ull;
	unsigned int turns = 0;
	char buf[64];
	int pings = 0;
	for (uint64_t now = kf_loop_now_ns(); now < end; now = kf_loop_now_ns()) {
		turns += kf_loop_dispatch(loop, 5) >= 0;
		while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0) /* (the queue holds 10 by default) */
			pings++;
	}
	CHECK(pings >= 1 && pings <= 60 && turns <= 100,
	      "1 us watchdog: %d pings and %u loop turns in 50 ms, want about 50 of each", pings, turns);
	kf_loop_destroy(loop);
	kf_notify_finish();
	close(fd);
	unlink(path);
}

/* A manager that stops reading: its queue fills and every send fails (EAGAIN). One warning for the streak, not
 * one per ping (a flood at WATCHDOG_USEC=500), a notice when a send goes again, and a new streak warned again. */
static void test_failure_streak(const char *path)
{
	int fd = listener(path, false);
	setenv("NOTIFY_SOCKET", path, 1);
	kf_notify_init();
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	FILE *log = tmpfile();
	dup2(fileno(log), STDERR_FILENO);
	int failed = 0;
	for (int i = 0; i < 200; i++) /* the datagram queue holds 10 by default (net.unix.max_dgram_qlen) */
		failed += kf_notify_watchdog() < 0;
	char buf[64];
	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
	CHECK(kf_notify_watchdog() == 0, "a send after the queue was read");
	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
	for (int i = 0; i < 100; i++) /* a second streak once the queue is full again */
		kf_notify_watchdog();
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	char text[8192];
	rewind(log);
	size_t n = fread(text, 1, sizeof(text) - 1, log);
	text[n] = '\0';
	fclose(log);
	int warnings = 0, notices = 0;
	for (char *p = text; (p = strstr(p, "sd_notify")) != NULL; p++) {
		warnings += !strncmp(p, "sd_notify 'WATCHDOG=1': ", 24);
		notices += !strncmp(p, "sd_notify: sent again after ", 28);
	}
	CHECK(failed >= 150, "%d of 200 sends to a full queue failed, want them to", failed);
	char again[64];
	snprintf(again, sizeof(again), "sent again after %d failed\n", failed);
	CHECK(warnings == 2 && notices == 1 && strstr(text, again),
	      "%d warnings and %d notices for two streaks of failures, want 2 and 1 (after %d):\n%s", warnings,
	      notices, failed, text);
	kf_notify_finish();
	close(fd);
	unlink(path);
}

int main(void)
{
	char dir[] = "/tmp/kf-notify-XXXXXX", path[128], abs[64];
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/notify", dir);
	int fd = listener(path, false);
	run(path, fd);
	close(fd);
	unlink(path);

	snprintf(abs, sizeof(abs), "kf-notify-test-%d", (int)getpid());
	fd = listener(abs, true);
	char env[80];
	snprintf(env, sizeof(env), "@%s", abs);
	run(env, fd);

	/* The frame path: READY=1 once, then STATUS= only when the text changes. */
	setenv("NOTIFY_SOCKET", env, 1);
	kf_notify_init();
	CHECK(kf_notify_first_frame("1024x768@60Hz", "DejaVu Sans Mono 16px") == 0, "first frame");
	expect(fd, "READY=1\nSTATUS=1024x768@60Hz, font DejaVu Sans Mono 16px\n");
	kf_notify_first_frame("1024x768@60Hz", "DejaVu Sans Mono 16px");
	kf_notify_first_frame("800x600@60Hz", "DejaVu Sans Mono 16px");
	expect(fd, "STATUS=800x600@60Hz, font DejaVu Sans Mono 16px");
	char junk[64];
	CHECK(recv(fd, junk, sizeof(junk), MSG_DONTWAIT) < 0, "nothing sent for an unchanged frame");
	kf_notify_finish();

	/* Waiting for the VT (--no-activate-vt, another VT in front): READY=1 at once with STATUS= saying so, or
	 * systemd's TimeoutStartSec killed the waiting unit; the first frame then only updates STATUS=. */
	setenv("NOTIFY_SOCKET", env, 1);
	kf_notify_init();
	CHECK(kf_notify_waiting_vt(2) == 0, "waiting");
	expect(fd, "READY=1\nSTATUS=waiting for VT 2 to become active\n");
	kf_notify_waiting_vt(2);
	CHECK(recv(fd, junk, sizeof(junk), MSG_DONTWAIT) < 0, "READY=1 once while waiting");
	kf_notify_first_frame("1024x768@60Hz", "DejaVu Sans Mono 16px");
	expect(fd, "STATUS=1024x768@60Hz, font DejaVu Sans Mono 16px");
	kf_notify_finish();
	/* Switched away after the first frame: systemd knows we are up, STATUS= keeps the mode. */
	setenv("NOTIFY_SOCKET", env, 1);
	kf_notify_init();
	kf_notify_first_frame("1024x768@60Hz", "DejaVu Sans Mono 16px");
	expect(fd, "READY=1\nSTATUS=1024x768@60Hz, font DejaVu Sans Mono 16px\n");
	kf_notify_waiting_vt(2);
	CHECK(recv(fd, junk, sizeof(junk), MSG_DONTWAIT) < 0, "nothing while waiting after the first frame");
	kf_notify_waiting_vt(0);
	kf_notify_finish();
	setenv("NOTIFY_SOCKET", env, 1);
	kf_notify_init();
	kf_notify_waiting_vt(0);
	expect(fd, "READY=1\nSTATUS=waiting for its VT to become active\n");
	kf_notify_finish();

	/* A watchdog for another process (e.g. inherited through a wrapper) is not ours. */
	setenv("NOTIFY_SOCKET", env, 1);
	setenv("WATCHDOG_USEC", "1000", 1);
	setenv("WATCHDOG_PID", "1", 1);
	kf_notify_init();
	CHECK(kf_notify_watchdog_usec() == 0, "foreign watchdog ignored");
	kf_notify_finish();
	close(fd);

	/* Without NOTIFY_SOCKET everything is a successful no-op. */
	unsetenv("NOTIFY_SOCKET");
	CHECK(kf_notify_init() == 0 && kf_notify_ready(NULL) == 0 && kf_notify_watchdog() == 0, "no-op");
	CHECK(kf_notify_watchdog_usec() == 0, "no watchdog without a socket");

	/* A relative path or an overlong name is refused, not sent somewhere else. */
	setenv("NOTIFY_SOCKET", "relative/sock", 1);
	CHECK(kf_notify_init() == -EINVAL, "relative path refused");
	CHECK(kf_notify_ready(NULL) == 0, "disabled after a bad address");
	kf_notify_finish();

	/* A socket nobody listens on any more: an error returned, never a block or a crash. */
	fd = listener(path, false);
	setenv("NOTIFY_SOCKET", path, 1);
	kf_notify_init();
	close(fd);
	unlink(path);
	CHECK(kf_notify_ready(NULL) < 0, "send to a vanished socket fails cleanly");
	kf_notify_finish();
	test_watchdog_loop(path);
	test_watchdog_bad_usec(path);
	test_failure_streak(path);
	rmdir(dir);
	if (failures)
		printf("%d failures\n", failures);
	return failures != 0;
}
