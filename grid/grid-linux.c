/* grid/grid-linux.c: the Linux console's private sequences CSI Ps ; Pn ] (console_codes(4), "Linux Console
 * Private CSI Sequences"; drivers/tty/vt/vt.c setterm_command) that a console replacing the kernel's keeps
 * meaning: 10 the bell's pitch, 11 its duration, as setterm(1) --bfreq/--blength send them. The others (colours
 * of underline and half-bright, blanking, VESA powerdown, VT switching) are the kernel console's or have a
 * setting of ours: ignored, as xterm ignores them all. Cold: only grid__csi's default reaches here. */
#include "grid/grid-internal.h"

__attribute__((cold, noinline)) void grid__linux_private(struct grid *g, const struct vt_csi *csi)
{
	/* The kernel's "vc_npar >= 1": a second parameter was given, empty meaning 0 (its parameters start at
	 * 0); without one the default comes back. */
	const bool given = csi->n_params >= 2;
	const int v = given && csi->params[1] > 0 ? csi->params[1] : 0;

	/* (a ':' makes the kernel's parser ignore the whole sequence, EScsiignore) */
	if (csi->n_params == 0 || csi->sub_mask)
		return;
	switch (csi->params[0]) {
	case 10: /* pitch in Hz; 0 is a silent bell (the kernel's kd_mksound(0) stops the sound) */
		g->bell_hz = given ? (uint16_t)v : GRID_BELL_PITCH_HZ;
		break;
	case 11: /* duration in ms; 2000 and more is none at all (the kernel's "< 2000 ? ms : 0") */
		g->bell_ms = !given ? GRID_BELL_DURATION_MS : v < 2000 ? (uint16_t)v : 0;
		break;
	default:
		break;
	}
}

void grid_bell_tone(const struct grid *g, unsigned *hz, unsigned *ms)
{
	*hz = g->bell_hz;
	*ms = g->bell_ms;
}
