/* kmscon-felis/bell.h: what BEL (0x07) does, bell=audible|visual|none (config.h).
 *
 * The parser meets BEL on its hot path: kf_bell_ring() (the session's bell callback) only sets a flag, so that
 * `yes $'\a'` costs a store per byte. kf_bell_flush(), once per batch of output the session parsed (its output
 * callback), acts on it:
 *  - audible: the kernel console's own tone (KDMKTONE on the console: 750 Hz for 125 ms, drivers/tty/vt's
 *    DEFAULT_BELL_PITCH and DEFAULT_BELL_DURATION), only while our VT is in front: a tone asked of the console
 *    sounds whatever VT is shown. Without a VT (headless, a seat without VTs), or when the kernel refuses the
 *    tone (EPERM without CAP_SYS_TTY_CONFIG, ENOTTY where /dev/tty0 is no console), it says so once at notice
 *    level and never tries again;
 *  - visual: the frame loop shows the screen inverted (the DECSCNM path of the renderer) for KF_BELL_FLASH_NS,
 *    xterm's visualBellDelay, then normal again (counted by the frame loop from the first frame that shows it,
 *    flash.h: a DECSET 2026 hold may keep frames back longer than the flash).
 * Bells closer than the interval to the last one that acted are dropped, as xterm's bellSuppressTime drops
 * them: KF_BELL_SUPPRESS_NS for tones (and never less than the tone lasts, so a flood costs at most one ioctl
 * per tone), KF_BELL_FLASH_INTERVAL_NS for flashes. The decision is kf_bell_take(), clock given by the caller so
 * that tests need not wait.
 */
#ifndef KF_BELL_H
#define KF_BELL_H

#include <stdbool.h>
#include <stdint.h>

#include "grid/grid.h"
#include "kmscon-felis/config.h"

struct kf_loop;
struct kf_bell;

/* The kernel console's defaults (drivers/tty/vt/vt.c): 750 Hz for HZ/8 jiffies, 125 ms. */
#define KF_BELL_PITCH_HZ 750u
#define KF_BELL_DURATION_MS 125u
_Static_assert(KF_BELL_PITCH_HZ == GRID_BELL_PITCH_HZ && KF_BELL_DURATION_MS == GRID_BELL_DURATION_MS,
	       "the grid's default tone is the bell's");
/* xterm's bellSuppressTime (200 ms): bells closer than this to the last one that sounded are dropped. */
#define KF_BELL_SUPPRESS_NS (200ull * 1000000)
/* xterm's visualBellDelay (100 ms): how long the screen stays inverted. */
#define KF_BELL_FLASH_NS (100ull * 1000000)
/* Flashes at least 400 ms apart: a flood flashes the whole screen at most 2.5 times a second, under the three
 * flashes a second that WCAG 2.3.1 (seizures) allows; xterm's 200 ms would strobe at 5 Hz. */
#define KF_BELL_FLASH_INTERVAL_NS (400ull * 1000000)
/* KDMKTONE's argument: the tone's PIT divisor (PIT_TICK_RATE / Hz) in the low 16 bits, milliseconds above. */
#define KF_BELL_PIT_TICK_RATE 1193182u

/* The rate limit: next_ns is the time before which no bell acts (0: any time). */
struct kf_bell_limit {
	uint64_t next_ns;
};
/* A bell at now: true when it acts (the limit then holds the next for interval_ns), false when it is dropped. */
bool kf_bell_take(struct kf_bell_limit *l, uint64_t now, uint64_t interval_ns);
/* The interval between two tones of ms milliseconds: KF_BELL_SUPPRESS_NS, or the tone's length if longer. */
uint64_t kf_bell_tone_interval(unsigned ms);
/* KDMKTONE's argument for a tone of hz (clamped to what a 16-bit divisor gives: 19 Hz and up) for ms
 * (0..65535). */
unsigned long kf_bell_kdmktone_arg(unsigned hz, unsigned ms);

struct kf_bell_ops {
	/* Our VT is the one shown (the seat is ours). NULL: always. */
	bool (*in_front)(void *ud);
	/* visual: show the screen inverted (on) or normal again, and ask for a frame. NULL: nothing to flash
	 * (headless), said once. */
	void (*flash)(void *ud, bool on);
	/* The tone a BEL asks for now (grid_bell_tone: the Linux console's CSI 10/11 ]), asked at the first BEL of
	 * a batch, so that a tone set for one BEL and set back after it in the same write is the one it sounds;
	 * a pitch or duration of 0 is a silent bell. NULL: KF_BELL_PITCH_HZ for KF_BELL_DURATION_MS. */
	void (*tone)(void *ud, unsigned *hz, unsigned *ms);
};

struct kf_bell_config {
	enum kf_bell_mode mode;
	/* The console the tone is asked of; NULL: /dev/tty0 (the kernel sounds the tone for every VT alike). */
	const char *tty;
	/* Why there is no VT to sound the tone on ("the headless backend has no VT"), or NULL: said once at the
	 * first bell. */
	const char *no_vt;
};

/* Counters for tests: bells that acted (tones asked of the kernel, flashes started), batches with a bell that
 * were dropped by the rate limit. */
struct kf_bell_stats {
	uint64_t tones, flashes, suppressed;
};

/* cfg and ops are copied (not the strings: they must outlive the bell). loop is not owned. Returns 0 and *out,
 * or -ENOMEM. Opens nothing yet: the console is opened at the first tone. */
int kf_bell_create(struct kf_loop *loop, const struct kf_bell_config *cfg, const struct kf_bell_ops *ops,
		   void *ud, struct kf_bell **out);
/* A new bell for *bell (a reload changed bell=): made first, and only once it exists the old one (*bell, may
 * be NULL) is destroyed and *bell set to it. Returns 0, or -ENOMEM with *bell unchanged: a reload that cannot
 * make the new bell keeps the old one ringing rather than none. Arguments as kf_bell_create's; a flash the old
 * bell was showing is not ended (the caller turns it off: its timer went with the old bell). */
int kf_bell_replace(struct kf_bell **bell, struct kf_loop *loop, const struct kf_bell_config *cfg,
		    const struct kf_bell_ops *ops, void *ud);
/* Accepts NULL. A flash still showing is not ended (the output goes first at exit). */
void kf_bell_destroy(struct kf_bell *b);

/* A BEL was parsed (the first of a batch asks ops.tone). Accepts NULL (no bell object: nothing). */
void kf_bell_ring(struct kf_bell *b);
/* After a batch of output: acts on the BELs it held (one tone or flash at most). Accepts NULL. */
void kf_bell_flush(struct kf_bell *b);
void kf_bell_stats(const struct kf_bell *b, struct kf_bell_stats *out);

#endif
