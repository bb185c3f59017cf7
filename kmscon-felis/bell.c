/* kmscon-felis/bell.c: see bell.h. */
#define LOG_TAG "bell"
#include "kmscon-felis/bell.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kmscon-felis/log.h"
#include "kmscon-felis/loop.h"

struct kf_bell {
	struct kf_loop *loop;
	struct kf_bell_config cfg;
	struct kf_bell_ops ops;
	void *ud;
	struct kf_timer *flash_timer; /* ends the flash; NULL unless visual */
	struct kf_bell_limit limit;
	bool pending;   /* a BEL was parsed since the last flush */
	bool flashing;  /* ops.flash(true) was called, flash(false) not yet */
	bool given_up;  /* no tone or no flash is possible here: said once, never tried again */
	int fd;         /* the console for KDMKTONE, -1 until the first tone */
	unsigned hz, ms; /* the tone */
	struct kf_bell_stats stats;
};

bool kf_bell_take(struct kf_bell_limit *l, uint64_t now, uint64_t interval_ns)
{
	if (now < l->next_ns)
		return false;
	l->next_ns = now + interval_ns;
	return true;
}

uint64_t kf_bell_tone_interval(unsigned ms)
{
	uint64_t len = (uint64_t)ms * 1000000;
	return len > KF_BELL_SUPPRESS_NS ? len : KF_BELL_SUPPRESS_NS;
}

unsigned long kf_bell_kdmktone_arg(unsigned hz, unsigned ms)
{
	/* The kernel divides PIT_TICK_RATE by the low 16 bits again (vt_ioctl.c, KDMKTONE), so the pitch it sounds
	 * is PIT_TICK_RATE / divisor: 750 Hz is 1590, which the kernel turns back into 750. */
	unsigned long div = hz ? KF_BELL_PIT_TICK_RATE / hz : 0xffff;
	if (div < 1)
		div = 1;
	if (div > 0xffff)
		div = 0xffff;
	if (ms > 0xffff)
		ms = 0xffff;
	return ((unsigned long)ms << 16) | div;
}

static void on_flash_end(void *ud, struct kf_timer *t)
{
	struct kf_bell *b = ud;
	(void)t;
	b->flashing = false;
	b->ops.flash(b->ud, false);
}

int kf_bell_create(struct kf_loop *loop, const struct kf_bell_config *cfg, const struct kf_bell_ops *ops,
		   void *ud, struct kf_bell **out)
{
	struct kf_bell *b = calloc(1, sizeof(*b));

	*out = NULL;
	if (!b)
		return -ENOMEM;
	b->loop = loop;
	b->cfg = *cfg;
	if (ops)
		b->ops = *ops;
	b->ud = ud;
	b->fd = -1;
	b->hz = KF_BELL_PITCH_HZ;
	b->ms = KF_BELL_DURATION_MS;
	if (cfg->mode == KF_BELL_VISUAL && b->ops.flash) {
		b->flash_timer = kf_loop_add_timer(loop, on_flash_end, b);
		if (!b->flash_timer) {
			free(b);
			return -ENOMEM;
		}
	}
	*out = b;
	return 0;
}

int kf_bell_replace(struct kf_bell **bell, struct kf_loop *loop, const struct kf_bell_config *cfg,
		    const struct kf_bell_ops *ops, void *ud)
{
	struct kf_bell *b;
	int r = kf_bell_create(loop, cfg, ops, ud, &b);

	if (r < 0)
		return r;
	kf_bell_destroy(*bell);
	*bell = b;
	return 0;
}

void kf_bell_destroy(struct kf_bell *b)
{
	if (!b)
		return;
	kf_timer_remove(b->flash_timer);
	if (b->fd >= 0)
		close(b->fd);
	free(b);
}

void kf_bell_ring(struct kf_bell *b)
{
	if (!b || b->pending)
		return;
	b->pending = true;
	if (b->ops.tone)
		b->ops.tone(b->ud, &b->hz, &b->ms);
}

/* Every failure below is said once, at notice level (the user asked for a bell this console cannot give, and a
 * flood of BELs must not flood the journal), and given_up stops every later try. */
static void tone(struct kf_bell *b)
{
	const char *tty = b->cfg.tty ? b->cfg.tty : "/dev/tty0";

	if (b->cfg.no_vt) {
		log_notice("no audible bell: %s", b->cfg.no_vt);
		b->given_up = true;
		return;
	}
	if (b->fd < 0) {
		/* O_NOCTTY: the console must not become our controlling terminal. Write-only is enough for ioctl. */
		b->fd = open(tty, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
		if (b->fd < 0) {
			log_notice("no audible bell: cannot open %s: %s", tty, strerror(errno));
			b->given_up = true;
			return;
		}
	}
	/* One ioctl, no wait: the kernel starts the tone and stops it by its own timer (kd_mksound). */
	if (ioctl(b->fd, KDMKTONE, kf_bell_kdmktone_arg(b->hz, b->ms)) < 0) {
		log_notice("no audible bell: the console %s refuses the tone (KDMKTONE): %s", tty, strerror(errno));
		b->given_up = true;
		close(b->fd);
		b->fd = -1;
		return;
	}
	b->stats.tones++;
}

static void flash(struct kf_bell *b)
{
	if (!b->ops.flash) {
		log_notice("no visual bell: there is no display to flash (the headless backend)");
		b->given_up = true;
		return;
	}
	b->flashing = true;
	b->stats.flashes++;
	b->ops.flash(b->ud, true);
	kf_timer_arm(b->flash_timer, KF_BELL_FLASH_NS, 0);
}

void kf_bell_flush(struct kf_bell *b)
{
	if (!b || !b->pending)
		return;
	b->pending = false;
	if (b->cfg.mode == KF_BELL_NONE || b->given_up)
		return;
	bool visual = b->cfg.mode == KF_BELL_VISUAL;
	/* CSI 10 ; 0 ] or CSI 11 ; 0 ]: the console's bell is silent (the kernel sounds nothing either) */
	if (!visual && (!b->hz || !b->ms))
		return;
	/* From a VT in the background a tone would sound on the user's VT in front, and a flash is not seen. */
	if (b->ops.in_front && !b->ops.in_front(b->ud))
		return;
	uint64_t interval = visual ? KF_BELL_FLASH_INTERVAL_NS : kf_bell_tone_interval(b->ms);
	if (!kf_bell_take(&b->limit, kf_loop_now_ns(), interval)) {
		b->stats.suppressed++;
		return;
	}
	if (visual)
		flash(b);
	else
		tone(b);
}

void kf_bell_stats(const struct kf_bell *b, struct kf_bell_stats *out)
{
	*out = b->stats;
}
