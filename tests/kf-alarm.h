/* tests/kf-alarm.h: a test's guard against a hang anywhere (alarm(2)) that lasts as long as meson lets the test
 * run: a stage that runs meson test with --timeout-multiplier N (tests/run-all: the ASan+UBSan stage, N = 2) says
 * so in KF_TEST_TIMEOUT_MULTIPLIER, which meson does not pass on by itself. A fixed alarm cut such a test at its
 * unmultiplied time: test-pty took 56 s of its 120 under ASan on a loaded host (session 49), and reached the 120
 * once in session 48, where meson would have given it 240. */
#ifndef KF_TESTS_ALARM_H
#define KF_TESTS_ALARM_H

#include <stdlib.h>
#include <unistd.h>

static inline void kf_alarm(unsigned seconds)
{
	const char *m = getenv("KF_TEST_TIMEOUT_MULTIPLIER");
	const long n = m ? strtol(m, NULL, 10) : 1;
	alarm(seconds * (unsigned)(n >= 1 && n <= 10 ? n : 1));
}

#endif
