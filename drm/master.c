/* drm/master.c: a card that refuses us DRM master while the display is ours.
 *
 * The seat makes our card's fd DRM master when it enables us; a commit refused with EACCES is then a switch away
 * under way (the seat dropped master before our disable handler ran: kms.c not_master), and the resume after the
 * next enable shows the display again. But the seat's own drmSetMaster fails with EBUSY while another fd is master:
 * the last instance's seat helper (libseat's builtin backend runs its server in a child process, which holds the
 * card's file open a moment after the instance exited), a compositor, a second console on the seat started on
 * another VT. The seat enables us all the same, and no enable follows: the display stayed dark for good (seen in
 * the QEMU guest, "Could not make device fd drm master: Device or resource busy" in the log). While the program
 * says the display is ours (iface.display_ours: the seat enabled, our VT in front) we ask the kernel ourselves,
 * backing off from 50 ms to 1 s; never otherwise, as master is the seat's to give while a switch is under way and
 * taking it then would take it from the VT being switched to. */
#include <errno.h>
#include <string.h>

#include <xf86drm.h>

#include "drm/drm-internal.h"

#define MASTER_RETRY_FIRST_NS (50LL * 1000000)
#define MASTER_RETRY_MAX_NS (1000LL * 1000000)

bool drm_display_ours(const struct drm_backend *b)
{
	return b->iface.display_ours && b->iface.display_ours(b->ud);
}

bool drm_master_wait(struct drm_card *card, int64_t now)
{
	if (!drm_display_ours(card->b)) {
		card->master_backoff_ns = 0;
		return false;
	}
	if (!card->master_backoff_ns)
		card->master_backoff_ns = MASTER_RETRY_FIRST_NS;
	else if ((card->master_backoff_ns *= 2) > MASTER_RETRY_MAX_NS)
		card->master_backoff_ns = MASTER_RETRY_MAX_NS;
	card->retry_ns = now + card->master_backoff_ns;
	return true;
}

bool drm_master_take(struct drm_card *card, int64_t now)
{
	int err;

	/* Not refused, or refused while the display was not ours: the modeset as it comes (the seat's resume). */
	if (!card->not_master || !card->master_backoff_ns)
		return true;
	if (!drm_display_ours(card->b)) {
		card->master_backoff_ns = 0;
		return true;
	}
	if (drmSetMaster(card->fd) == 0) {
		drm_log(card->master_held ? 5 : 6, "%s: DRM master obtained%s: showing the display", card->path,
			card->master_held ? " (the other master let go)" : "");
		card->master_held = false;
		card->master_backoff_ns = 0;
		return true;
	}
	err = errno;
	if (!card->master_held && err == EBUSY)
		drm_warn("%s: the display is held by another DRM master (%s) while our VT is in front: the last "
			 "console's seat helper not yet gone, a compositor or another console on this seat; asked "
			 "again until it lets go, the session runs meanwhile", card->path, strerror(err));
	else if (!card->master_held) /* EACCES: not root, the fd never master; the seat's next enable may give it */
		drm_warn("%s: cannot become DRM master while our VT is in front (%s); asked again, the session runs "
			 "meanwhile", card->path, strerror(err));
	card->master_held = true;
	drm_master_wait(card, now);
	return false;
}
