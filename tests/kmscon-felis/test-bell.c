/* tests/kmscon-felis/test-bell.c: the bell (kmscon-felis/bell.c): the rate limit by a made-up clock, the tone
 * asked of the console (ioctl wrapped: -Wl,--wrap=ioctl, so no host console beeps) and the flash on a real loop
 * (100 ms: the only waits here are a few hundred ms).
 *
 * What must hold: a flood of BELs costs one KDMKTONE per batch at most and none within 200 ms (xterm's
 * bellSuppressTime) of the last; the tone is the kernel console's (750 Hz, 125 ms); nothing while our VT is not
 * in front; a console that cannot beep is said once at notice level and never tried again; a flash shows for
 * 100 ms and a flood flashes at most once per 400 ms, normal in between. */
#include <errno.h>
#include <linux/kd.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kmscon-felis/bell.h"
#include "kmscon-felis/log.h"
#include "kmscon-felis/loop.h"
#include "../kf-capture.h"
#include "../kf-check.h"

static int failures;

#define MS 1000000ull

/* ------------------------------------------------------------------------------------------ the ioctl */

static struct {
	bool real;           /* pass KDMKTONE to the kernel (ENOTTY on /dev/null) */
	int fail_errno;      /* else: fail with this, or succeed when 0 */
	unsigned calls;
	unsigned long last_arg;
} fake;

int __real_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	if (req != KDMKTONE || fake.real)
		return __real_ioctl(fd, req, arg);
	fake.calls++;
	fake.last_arg = (unsigned long)arg;
	if (fake.fail_errno) {
		errno = fake.fail_errno;
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------- calloc */

/* The nth calloc from now fails with ENOMEM (1: the next one); 0: none fails (-Wl,--wrap=calloc). */
static unsigned calloc_fail_at;

void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size)
{
	if (calloc_fail_at && --calloc_fail_at == 0) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_calloc(n, size);
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;
	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* ------------------------------------------------------------------------------ the limit, by the clock */

static void test_limit(void)
{
	struct kf_bell_limit l = {0};
	uint64_t t = 1000 * MS;
	unsigned acted = 0;

	CHECK(kf_bell_take(&l, t, KF_BELL_SUPPRESS_NS), "the first bell acts");
	CHECK(!kf_bell_take(&l, t + 199 * MS, KF_BELL_SUPPRESS_NS), "dropped 199 ms later");
	CHECK(kf_bell_take(&l, t + 200 * MS, KF_BELL_SUPPRESS_NS), "acts 200 ms later");
	/* A flood: a batch every 100 us for a second acts 5 times (at 0, 200, ..., 800 ms after its start). */
	l = (struct kf_bell_limit){0};
	for (uint64_t ns = 0; ns < 1000 * MS; ns += 100000)
		acted += kf_bell_take(&l, t + ns, KF_BELL_SUPPRESS_NS);
	CHECK(acted == 5, "a second of flood acted %u times (want 5)", acted);
	/* Dropped bells do not push the next one back (xterm measures from the last bell that sounded). */
	l = (struct kf_bell_limit){0};
	kf_bell_take(&l, t, KF_BELL_SUPPRESS_NS);
	kf_bell_take(&l, t + 150 * MS, KF_BELL_SUPPRESS_NS);
	CHECK(kf_bell_take(&l, t + 210 * MS, KF_BELL_SUPPRESS_NS), "dropped bells do not extend the pause");
	/* flashes: at most one per 400 ms */
	l = (struct kf_bell_limit){0};
	acted = 0;
	for (uint64_t ns = 0; ns < 1000 * MS; ns += MS)
		acted += kf_bell_take(&l, t + ns, KF_BELL_FLASH_INTERVAL_NS);
	CHECK(acted == 3, "a second of flood flashed %u times (want 3: 0, 400, 800 ms)", acted);

	CHECK(kf_bell_tone_interval(125) == 200 * MS, "a 125 ms tone: 200 ms apart");
	CHECK(kf_bell_tone_interval(1000) == 1000 * MS, "a 1 s tone: never one ioctl per tone's length more");
}

static void test_arg(void)
{
	unsigned long a = kf_bell_kdmktone_arg(KF_BELL_PITCH_HZ, KF_BELL_DURATION_MS);
	CHECK(a == ((125ul << 16) | 1590), "KDMKTONE arg %#lx (want 125 ms, divisor 1590)", a);
	/* what the kernel sounds: PIT_TICK_RATE / divisor (vt_ioctl.c) */
	CHECK(KF_BELL_PIT_TICK_RATE / (a & 0xffff) == 750, "the kernel turns it back into %lu Hz",
	      KF_BELL_PIT_TICK_RATE / (a & 0xffff));
	CHECK((kf_bell_kdmktone_arg(10, 50) & 0xffff) == 0xffff, "10 Hz: the lowest pitch a divisor gives");
	CHECK((kf_bell_kdmktone_arg(2000000, 50) & 0xffff) == 1, "2 MHz: divisor 1, not 0 (0 would be silence)");
	CHECK(kf_bell_kdmktone_arg(750, 70000) >> 16 == 0xffff, "ms clamped to 16 bits");
}

/* ------------------------------------------------------------------------------------ audible */

static bool front = true;
static bool in_front(void *ud)
{
	(void)ud;
	return front;
}

static void test_audible(void)
{
	struct kf_loop *loop = kf_loop_create();
	struct kf_bell_config bc = {.mode = KF_BELL_AUDIBLE, .tty = "/dev/null"};
	struct kf_bell_ops ops = {.in_front = in_front};
	struct kf_bell *b;
	struct kf_bell_stats st;

	memset(&fake, 0, sizeof(fake));
	CHECK(kf_bell_create(loop, &bc, &ops, NULL, &b) == 0, "create");
	kf_bell_flush(b);
	CHECK(fake.calls == 0, "no BEL, no tone");
	/* a batch of 10000 BELs: one tone, the kernel console's */
	for (int i = 0; i < 10000; i++)
		kf_bell_ring(b);
	kf_bell_flush(b);
	CHECK(fake.calls == 1 && fake.last_arg == ((125ul << 16) | 1590), "10000 BELs: %u ioctls, arg %#lx",
	      fake.calls, fake.last_arg);
	/* the next batches within 200 ms: nothing */
	for (int i = 0; i < 100; i++) {
		kf_bell_ring(b);
		kf_bell_flush(b);
	}
	kf_bell_stats(b, &st);
	CHECK(fake.calls == 1 && st.tones == 1 && st.suppressed == 100, "a flood of batches: %u ioctls, %llu dropped",
	      fake.calls, (unsigned long long)st.suppressed);
	usleep(210 * 1000);
	kf_bell_ring(b);
	kf_bell_flush(b);
	CHECK(fake.calls == 2, "200 ms later: a tone again (%u ioctls)", fake.calls);
	/* another VT in front: no tone, and none owed when ours comes back */
	usleep(210 * 1000);
	front = false;
	kf_bell_ring(b);
	kf_bell_flush(b);
	CHECK(fake.calls == 2, "VT in the background: %u ioctls", fake.calls);
	front = true;
	kf_bell_flush(b);
	CHECK(fake.calls == 2, "back in front: the old BEL is not sounded late (%u ioctls)", fake.calls);
	kf_bell_ring(b);
	kf_bell_flush(b);
	CHECK(fake.calls == 3, "back in front: a new BEL sounds (%u ioctls)", fake.calls);
	kf_bell_destroy(b);

	/* bell=none: nothing, ever */
	bc.mode = KF_BELL_NONE;
	memset(&fake, 0, sizeof(fake));
	kf_bell_create(loop, &bc, &ops, NULL, &b);
	kf_bell_ring(b);
	kf_bell_flush(b);
	CHECK(fake.calls == 0, "bell=none: %u ioctls", fake.calls);
	kf_bell_destroy(b);
	kf_loop_destroy(loop);
}

/* The tone of CSI 10/11 ] (ops.tone, asked at a batch's first BEL): sounded as asked; a pitch or duration of 0
 * is a silent bell (no ioctl, and the next BEL is not held back by it); a long tone keeps the next one a tone's
 * length away. */
static unsigned tone_hz = 750, tone_ms = 125, tone_asked;
static void tone_op(void *ud, unsigned *hz, unsigned *ms)
{
	(void)ud;
	tone_asked++;
	*hz = tone_hz;
	*ms = tone_ms;
}

static void test_tone(void)
{
	struct kf_loop *loop = kf_loop_create();
	struct kf_bell_config bc = {.mode = KF_BELL_AUDIBLE, .tty = "/dev/null"};
	struct kf_bell_ops ops = {.tone = tone_op};
	struct kf_bell *b;

	memset(&fake, 0, sizeof(fake));
	kf_bell_create(loop, &bc, &ops, NULL, &b);
	tone_hz = 1000;
	tone_ms = 50;
	for (int i = 0; i < 1000; i++)
		kf_bell_ring(b);
	kf_bell_flush(b);
	CHECK(tone_asked == 1, "the tone is asked once a batch, not per BEL (%u)", tone_asked);
	CHECK(fake.calls == 1 && fake.last_arg == ((50ul << 16) | 1193), "CSI 10;1000] 11;50]: arg %#lx",
	      fake.last_arg);
	usleep(210 * 1000);
	tone_hz = 0;
	kf_bell_ring(b);
	kf_bell_flush(b);
	tone_hz = 750;
	tone_ms = 0;
	kf_bell_ring(b);
	kf_bell_flush(b);
	CHECK(fake.calls == 1, "pitch 0, duration 0: silent bells (%u ioctls)", fake.calls);
	tone_ms = 1500;
	kf_bell_ring(b);
	kf_bell_flush(b);
	CHECK(fake.calls == 2 && fake.last_arg >> 16 == 1500, "a 1.5 s tone right after silent ones (%u, %#lx)",
	      fake.calls, fake.last_arg);
	usleep(300 * 1000);
	kf_bell_ring(b);
	kf_bell_flush(b);
	CHECK(fake.calls == 2, "300 ms into a 1.5 s tone: none more (%u)", fake.calls);
	kf_bell_destroy(b);
	kf_loop_destroy(loop);
}

/* Every way a tone cannot be had: said once at notice level, never tried again. */
static void cannot(const char *what, struct kf_bell_config bc, int fail_errno, bool real, const char *says,
		   unsigned want_calls)
{
	struct kf_loop *loop = kf_loop_create();
	struct kf_bell *b;

	memset(&fake, 0, sizeof(fake));
	fake.fail_errno = fail_errno;
	fake.real = real;
	kf_bell_create(loop, &bc, NULL, NULL, &b);
	capture_begin();
	for (int i = 0; i < 5; i++) {
		kf_bell_ring(b);
		kf_bell_flush(b);
		if (i == 0)
			usleep(210 * 1000); /* past the rate limit: only giving up keeps the later ones quiet */
	}
	const char *log = capture_end();
	CHECK(count(log, says) == 1 && count(log, "no audible bell") == 1 && strstr(log, "notice"),
	      "%s: want one notice '%s', log '%s'", what, says, log);
	CHECK(fake.calls == want_calls, "%s: %u ioctls after giving up (want %u)", what, fake.calls, want_calls);
	kf_bell_destroy(b);
	kf_loop_destroy(loop);
}

static void test_cannot(void)
{
	struct kf_bell_config bc = {.mode = KF_BELL_AUDIBLE, .tty = "/dev/null"};
	cannot("EPERM", bc, EPERM, false, "refuses the tone (KDMKTONE): Operation not permitted", 1);
	cannot("ENOTTY from the kernel (not a console)", bc, 0, true,
	       "the console /dev/null refuses the tone (KDMKTONE): Inappropriate ioctl for device", 0);
	bc.tty = "/nonexistent/tty0";
	cannot("no console", bc, 0, false, "cannot open /nonexistent/tty0: No such file or directory", 0);
	bc = (struct kf_bell_config){.mode = KF_BELL_AUDIBLE, .no_vt = "the headless backend has no VT"};
	cannot("headless", bc, 0, false, "no audible bell: the headless backend has no VT", 0);
}

/* --------------------------------------------------------------------------------------- visual */

static struct {
	unsigned ons, offs;
	bool on;
	uint64_t on_ns, off_ns;
} shown;

static void on_flash(void *ud, bool on)
{
	(void)ud;
	CHECK(on != shown.on, "flash(%d) twice", on);
	shown.on = on;
	if (on) {
		shown.ons++;
		shown.on_ns = kf_loop_now_ns();
	} else {
		shown.offs++;
		shown.off_ns = kf_loop_now_ns();
	}
}

static void test_visual(void)
{
	struct kf_loop *loop = kf_loop_create();
	struct kf_bell_config bc = {.mode = KF_BELL_VISUAL, .tty = "/dev/null"};
	struct kf_bell_ops ops = {.in_front = in_front, .flash = on_flash};
	struct kf_bell *b;

	memset(&fake, 0, sizeof(fake));
	kf_bell_create(loop, &bc, &ops, NULL, &b);
	uint64_t t0 = kf_loop_now_ns();
	kf_bell_ring(b);
	kf_bell_flush(b);
	CHECK(shown.on && shown.ons == 1, "BEL: inverted at once");
	/* a flood of batches while the loop runs: the flash ends after 100 ms, and the next comes 400 ms after the
	 * first, not before; in between the screen is normal */
	uint64_t end = t0 + 650 * MS;
	bool normal_seen = false;
	while (kf_loop_now_ns() < end) {
		kf_bell_ring(b);
		kf_bell_flush(b);
		kf_loop_dispatch(loop, 5);
		normal_seen |= !shown.on;
		/* never shorter than asked; the upper bound only says the timer fired (a loaded host's timers come
		 * late: 200 ms until session 57) */
		if (shown.ons == 1 && shown.offs == 1)
			CHECK(shown.off_ns - shown.on_ns >= 100 * MS && shown.off_ns - shown.on_ns < 3100 * MS,
			      "the flash showed %llu ms (want 100)",
			      (unsigned long long)((shown.off_ns - shown.on_ns) / MS));
	}
	CHECK(normal_seen && shown.ons == 2, "650 ms of flood: %u flashes (want 2: at 0 and 400 ms)", shown.ons);
	CHECK(fake.calls == 0, "visual: no tone");
	/* the flood stops: normal again after the last flash, for good */
	for (uint64_t stop = kf_loop_now_ns() + 300 * MS; kf_loop_now_ns() < stop;)
		kf_loop_dispatch(loop, 50);
	CHECK(!shown.on && shown.offs == shown.ons, "after the flood: normal (%u on, %u off)", shown.ons, shown.offs);
	/* another VT in front: no flash */
	front = false;
	kf_bell_ring(b);
	kf_bell_flush(b);
	CHECK(!shown.on && shown.ons == 2, "VT in the background: no flash");
	front = true;
	kf_bell_destroy(b);

	/* headless: nothing to flash, said once */
	kf_bell_create(loop, &bc, NULL, NULL, &b);
	capture_begin();
	for (int i = 0; i < 3; i++) {
		kf_bell_ring(b);
		kf_bell_flush(b);
	}
	const char *log = capture_end();
	CHECK(count(log, "no visual bell") == 1, "headless visual: one notice, log '%s'", log);
	kf_bell_destroy(b);
	kf_loop_destroy(loop);
}

/* A reload's new bell (bell= changed): made before the old one goes, so that one that cannot be made (out of
 * memory for the bell or for the visual bell's timer) leaves the old one ringing, not no bell at all. */
static void test_replace(void)
{
	struct kf_loop *loop = kf_loop_create();
	struct kf_bell_config visual = {.mode = KF_BELL_VISUAL, .tty = "/dev/null"};
	struct kf_bell_config audible = {.mode = KF_BELL_AUDIBLE, .tty = "/dev/null"};
	struct kf_bell_ops ops = {.in_front = in_front, .flash = on_flash};
	struct kf_bell *b = NULL, *old;

	memset(&fake, 0, sizeof(fake));
	memset(&shown, 0, sizeof(shown));
	CHECK(kf_bell_replace(&b, loop, &visual, &ops, NULL) == 0 && b, "the first bell: made");
	old = b;
	for (unsigned at = 1; at <= 2; at++) {
		calloc_fail_at = at; /* 1: the bell itself; 2: its flash timer */
		int r = kf_bell_replace(&b, loop, &visual, &ops, NULL);
		CHECK(r == -ENOMEM && b == old, "allocation %u fails: %d (want -ENOMEM), the old bell kept: %d", at,
		      r, b == old);
		calloc_fail_at = 0;
	}
	kf_bell_ring(b);
	kf_bell_flush(b);
	CHECK(shown.ons == 1, "the kept bell still flashes: %u flashes", shown.ons);
	CHECK(kf_bell_replace(&b, loop, &audible, &ops, NULL) == 0 && b, "bell=audible: made");
	kf_bell_ring(b);
	kf_bell_flush(b);
	CHECK(fake.calls == 1 && shown.ons == 1, "the new bell sounds: %u tones, %u flashes", fake.calls, shown.ons);
	kf_bell_destroy(b);
	kf_loop_destroy(loop);
}

int main(void)
{
	kf_log_init();
	kf_bell_ring(NULL);
	kf_bell_flush(NULL);
	kf_bell_destroy(NULL);
	test_limit();
	test_arg();
	test_audible();
	test_cannot();
	test_tone();
	test_visual();
	test_replace();
	return failures ? 1 : 0;
}
