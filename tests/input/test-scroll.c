/* tests/input/test-scroll.c: input_scroll_steps, the one place scroll deltas from a device become steps:
 * ordinary wheels and touchpads still step as before, and absurd values (what uinput lets any program send:
 * INT_MAX, DBL_MAX, infinities, NaN, random bit patterns) make at most INPUT_SCROLL_STEPS_MAX steps, leave a
 * finite remainder and do not spoil the events after them. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "input/input-internal.h"
#include "tests/kf-check.h"

static int failures;

static void test_ordinary(void)
{
	double acc = 0;
	int s = 0;

	for (int i = 0; i < 4; i++) /* a high-resolution wheel: 30 per event, one notch per 4 events */
		s += input_scroll_steps(&acc, 30, 120);
	CHECK(s == 1 && acc == 0, "four 30/120 must make one step, made %d (remainder %g)", s, acc);
	CHECK(input_scroll_steps(&acc, -240, 120) == -2, "two notches up must be -2");
	CHECK(input_scroll_steps(&acc, 359, 120) == 2 && acc == 119, "359 must be 2 steps, 119 kept (%g)", acc);
	acc = 0;
	CHECK(input_scroll_steps(&acc, 7.5, 15) == 0 && input_scroll_steps(&acc, 7.5, 15) == 1,
	      "two 7.5 px moves must make one 15 px step");
	CHECK(input_scroll_steps(&acc, 15.0 * INPUT_SCROLL_STEPS_MAX, 15) == INPUT_SCROLL_STEPS_MAX,
	      "a move of exactly the bound must make all its steps");
}

/* One hostile value: the steps are within the bound, the remainder finite and below a step. */
static void check_bounded(double v, double unit, const char *what)
{
	double acc = 0;
	int s = input_scroll_steps(&acc, v, unit);

	CHECK(s >= -INPUT_SCROLL_STEPS_MAX && s <= INPUT_SCROLL_STEPS_MAX, "%s (%g): %d steps", what, v, s);
	CHECK(isfinite(acc) && fabs(acc) < unit, "%s (%g): remainder %g", what, v, acc);
	/* What comes next is scrolled as usual: nothing of the absurd value is carried over. */
	s = input_scroll_steps(&acc, unit, unit);
	CHECK(s >= 0 && s <= 1, "%s (%g): one step after it made %d", what, v, s);
}

static void test_hostile(void)
{
	static const double vals[] = {2147483647.0, -2147483648.0, 1e12, -1e12, 1e300, -1e300, DBL_MAX, -DBL_MAX,
				      INFINITY, -INFINITY, NAN, -NAN, DBL_MIN, -DBL_TRUE_MIN};

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		check_bounded(vals[i], 120, "wheel");
		check_bounded(vals[i], 15, "touchpad");
	}
	double acc = 0;
	CHECK(input_scroll_steps(&acc, 1e12, 120) == INPUT_SCROLL_STEPS_MAX, "1e12 must make the most steps");
	CHECK(input_scroll_steps(&acc, -1e12, 120) == -INPUT_SCROLL_STEPS_MAX, "-1e12 must make the fewest");
	CHECK(input_scroll_steps(&acc, NAN, 15) == 0 && input_scroll_steps(&acc, 30, 15) == 2,
	      "a NaN must not stop the touchpad scrolling after it (acc %g)", acc);
	acc = NAN; /* a remainder spoilt by anything is forgotten, not kept for ever */
	CHECK(input_scroll_steps(&acc, 30, 15) == 2 && acc == 0, "a NaN remainder must be reset, is %g", acc);

	/* Random bit patterns: every double a device could make libinput hand over. */
	uint64_t x = 0x9e3779b97f4a7c15u;
	int worst = 0;
	acc = 0;
	for (int i = 0; i < 1000000; i++) {
		double v;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		memcpy(&v, &x, sizeof(v));
		int s = input_scroll_steps(&acc, v, i & 1 ? 120 : 15);
		if (s > worst || -s > worst)
			worst = s < 0 ? -s : s;
		if (!isfinite(acc) || fabs(acc) >= 120)
			break;
	}
	CHECK(worst <= INPUT_SCROLL_STEPS_MAX && isfinite(acc), "random doubles made %d steps, remainder %g",
	      worst, acc);
}

int main(void)
{
	test_ordinary();
	test_hostile();
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	else
		printf("all scroll checks passed (at most %d steps per event)\n", INPUT_SCROLL_STEPS_MAX);
	return failures ? 1 : 0;
}
