/* kmscon-felis/notify.c: see notify.h. The protocol: sd_notify(3), "Notes" (datagram to an AF_UNIX socket,
 * path or abstract name with a leading '@'). Vsock addresses (vsock:CID:PORT, for VMs) are not supported: a
 * console runs inside the machine it draws on. */
#define LOG_TAG "notify"
#include "kmscon-felis/notify.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "kmscon-felis/log.h"
#include "kmscon-felis/loop.h"

static int sock = -1;
static struct sockaddr_un addr;
static socklen_t addr_len;
static uint64_t watchdog_usec;
#define WATCHDOG_MIN_PING_NS 1000000ull
/* READY=1 went out (at the first frame, or earlier while waiting for the VT); the first frame was on screen, and
 * the STATUS= text it sent last. */
static bool ready_sent, frame_seen;
static char last_status[256];
static unsigned long failed_sends; /* in a row, since the last send that went */

/* WATCHDOG_USEC as sd_watchdog_enabled(3) takes it: decimal digits only, 1 or more, small enough that the ping
 * period in nanoseconds does not wrap (strtoull alone took "-5" as 2^64-5 and 18446744073709552 as a period of
 * 192 ns: pings as fast as the loop could send them). Anything else: a warning and no watchdog, as systemd's
 * own library does. */
static uint64_t parse_usec(const char *s)
{
	uint64_t v = 0;
	const char *p = s;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX / 1000 - (uint64_t)(*p - '0')) / 10) {
			p = s; /* too large: the check below refuses it */
			break;
		}
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (p == s || *p || !v) {
		log_warn("WATCHDOG_USEC='%.32s' is not a positive number of microseconds: no watchdog pings", s);
		return 0;
	}
	return v;
}

int kf_notify_init(void)
{
	const char *path = getenv("NOTIFY_SOCKET");
	const char *wd = getenv("WATCHDOG_USEC"), *wd_pid = getenv("WATCHDOG_PID");
	int ret = 0;

	kf_notify_finish();
	watchdog_usec = 0;
	ready_sent = frame_seen = false;
	last_status[0] = '\0';
	if (wd && (!wd_pid || strtoull(wd_pid, NULL, 10) == (unsigned long long)getpid()))
		watchdog_usec = parse_usec(wd);
	if (path && *path) {
		size_t len = strlen(path);
		memset(&addr, 0, sizeof(addr));
		addr.sun_family = AF_UNIX;
		if ((path[0] != '/' && path[0] != '@') || len >= sizeof(addr.sun_path)) {
			log_err("NOTIFY_SOCKET '%s' is not a socket path or abstract name, not notifying", path);
			ret = -EINVAL;
			goto out;
		}
		memcpy(addr.sun_path, path, len);
		if (path[0] == '@')
			addr.sun_path[0] = '\0'; /* abstract namespace: no NUL terminator counts */
		addr_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + (path[0] == '/'));
		sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (sock < 0) {
			ret = -errno;
			log_err("cannot create the notify socket: %s", strerror(-ret));
			goto out;
		}
		log_debug("notifying systemd at %s, watchdog %" PRIu64 " us", path, watchdog_usec);
	}
out:
	/* The child and everything it starts must not inherit our line to systemd. */
	unsetenv("NOTIFY_SOCKET");
	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
	if (sock < 0)
		watchdog_usec = 0;
	return ret;
}

void kf_notify_finish(void)
{
	if (sock >= 0)
		close(sock);
	sock = -1;
	failed_sends = 0;
}

int kf_notify_send(const char *text)
{
	if (sock < 0)
		return 0;
	ssize_t r = sendto(sock, text, strlen(text), MSG_NOSIGNAL | MSG_DONTWAIT, (struct sockaddr *)&addr,
			   addr_len);
	if (r < 0) {
		int err = -errno;
		/* One line per streak of failures: a manager that stopped reading the socket (its queue full,
		 * EAGAIN) got one per watchdog ping, every 250 us with WATCHDOG_USEC=500. */
		if (failed_sends++ == 0)
			log_warn("sd_notify '%.*s': %s (later failures in a row are not logged)",
				 (int)strcspn(text, "\n"), text, strerror(-err));
		return err;
	}
	if (failed_sends)
		log_notice("sd_notify: sent again after %lu failed", failed_sends);
	failed_sends = 0;
	return 0;
}

int kf_notify_ready(const char *status)
{
	char buf[512];
	if (status)
		snprintf(buf, sizeof(buf), "READY=1\nSTATUS=%s\n", status);
	else
		snprintf(buf, sizeof(buf), "READY=1\n");
	return kf_notify_send(buf);
}

int kf_notify_reloading(void)
{
	char buf[128];
	struct timespec ts;
	/* MONOTONIC_USEC: systemd (Type=notify-reload) matches it against the time it asked for the reload. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(buf, sizeof(buf), "RELOADING=1\nMONOTONIC_USEC=%" PRIu64 "\n",
		 (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u);
	return kf_notify_send(buf);
}

int kf_notify_first_frame(const char *mode, const char *font)
{
	char status[sizeof(last_status)];
	snprintf(status, sizeof(status), "%s, font %s", mode ? mode : "no mode", font ? font : "unknown");
	if (frame_seen && !strcmp(status, last_status))
		return 0;
	snprintf(last_status, sizeof(last_status), "%s", status);
	if (!frame_seen)
		log_info("first frame on screen (%s)", status);
	frame_seen = true;
	if (ready_sent)
		return kf_notify_status("%s", status);
	ready_sent = true;
	return kf_notify_ready(status);
}

int kf_notify_waiting_vt(int vt)
{
	char status[64];
	if (ready_sent)
		return 0;
	ready_sent = true;
	if (vt > 0)
		snprintf(status, sizeof(status), "waiting for VT %d to become active", vt);
	else
		snprintf(status, sizeof(status), "waiting for its VT to become active");
	return kf_notify_ready(status);
}

int kf_notify_status(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n = snprintf(buf, sizeof(buf), "STATUS=");
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	return kf_notify_send(buf);
}

int kf_notify_watchdog(void)
{
	return kf_notify_send("WATCHDOG=1\n");
}

int kf_notify_stopping(void)
{
	return kf_notify_send("STOPPING=1\n");
}

uint64_t kf_notify_watchdog_usec(void)
{
	return watchdog_usec;
}

static void watchdog_tick(void *ud, struct kf_timer *timer)
{
	kf_notify_watchdog();
}

struct kf_timer *kf_notify_watchdog_start(struct kf_loop *loop)
{
	uint64_t usec = kf_notify_watchdog_usec();
	if (!usec)
		return NULL;
	struct kf_timer *t = kf_loop_add_timer(loop, watchdog_tick, NULL);
	if (!t)
		return NULL;
	/* Half the period, as sd_watchdog_enabled(3) advises: one late iteration must not look like a hang. A ping
	 * is a system call and a loop iteration: under 1 ms apart they would be the program's whole work, so a
	 * watchdog that short is pinged every millisecond (and said to be too short to keep reliably). */
	uint64_t period_ns = usec * 1000 / 2;
	if (period_ns < WATCHDOG_MIN_PING_NS) {
		log_warn("WATCHDOG_USEC=%" PRIu64 " is too short to keep reliably: pinging every %u ms", usec,
			 (unsigned int)(WATCHDOG_MIN_PING_NS / 1000000));
		period_ns = WATCHDOG_MIN_PING_NS;
	}
	kf_timer_arm(t, period_ns, period_ns);
	log_debug("watchdog ping every %" PRIu64 " ms", period_ns / 1000000);
	return t;
}
