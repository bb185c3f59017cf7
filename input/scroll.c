/* input/scroll.c: scroll deltas to whole steps, safe against whatever a device reports.
 *
 * A device can report any value: uinput lets a program send REL_WHEEL_HI_RES of INT_MAX, and a broken
 * touchpad driver can make libinput's pixel deltas huge, infinite or NaN. Converting such a double to int is
 * undefined behaviour, and a NaN once added to the remainder stayed there: every later event of that axis
 * came out as INT_MIN steps. Here a non-finite delta is nothing, and one event makes at most
 * INPUT_SCROLL_STEPS_MAX steps; what is beyond that is dropped rather than carried over, so that one absurd
 * event cannot keep the following ones scrolling at the bound.
 */
#include <math.h>

#include "input/input-internal.h"

int input_scroll_steps(double *acc, double v, double unit)
{
	if (!isfinite(*acc))
		*acc = 0;
	if (!isfinite(v) || !(unit > 0))
		return 0;
	double q = trunc((*acc + v) / unit); /* |*acc| < unit, so the sum is finite unless v is near DBL_MAX */

	if (!isfinite(q) || fabs(q) > INPUT_SCROLL_STEPS_MAX) {
		*acc = 0;
		return !isfinite(q) ? 0 : q > 0 ? INPUT_SCROLL_STEPS_MAX : -INPUT_SCROLL_STEPS_MAX;
	}
	*acc = *acc + v - q * unit;
	return (int)q;
}
