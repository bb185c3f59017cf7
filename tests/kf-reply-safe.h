/* tests/kf-reply-safe.h: what a reply to the child may be (tests/grid/test-reply-safety.c, tests/fuzz/fuzz-core.c):
 * one whole sequence of printable ASCII, so that nothing the stream wrote reaches a shell or line editor as
 * something it acts on (CR, LF, a C0 or C1 control, an ESC ending the report early). */
#ifndef KF_REPLY_SAFE_H
#define KF_REPLY_SAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether d[0..n) is one sequence the child's line editor takes as a whole report: CSI params final,
 * DCS/OSC printable text ended by ST (OSC: or BEL), or CAN alone (xterm's answer to a malformed DCS $). */
static inline bool kf_reply_is_safe(const uint8_t *d, size_t n)
{
	if (n == 1 && d[0] == 0x18)
		return true;
	if (n < 3 || d[0] != 0x1b)
		return false;
	if (d[1] == '[') {
		size_t i = 2;
		while (i < n - 1 && d[i] >= 0x20 && d[i] <= 0x3f)
			i++;
		return i == n - 1 && d[i] >= 0x40 && d[i] <= 0x7e;
	}
	if (d[1] != 'P' && d[1] != ']')
		return false;
	size_t end;
	if (n >= 4 && d[n - 2] == 0x1b && d[n - 1] == '\\')
		end = n - 2;
	else if (d[1] == ']' && d[n - 1] == 0x07)
		end = n - 1;
	else
		return false;
	for (size_t i = 2; i < end; i++) {
		if (d[i] < 0x20 || d[i] > 0x7e)
			return false;
	}
	return true;
}

#endif
