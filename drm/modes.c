/* drm/modes.c: "--mode WxH" parsing and the choice of a connector's mode (preferred, asked for, or the one it had
 * at start: use-original-mode). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drm/drm-internal.h"

int drm_mode_parse(const char *s, uint32_t *w, uint32_t *h)
{
	char *end;
	unsigned long a, b;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	a = strtoul(s, &end, 10);
	if (errno || *end != 'x' || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	b = strtoul(end + 1, &end, 10);
	if (errno || *end != '\0' || a < 1 || b < 1 || a > 16384 || b > 16384)
		return -EINVAL;
	*w = (uint32_t)a;
	*h = (uint32_t)b;
	return 0;
}

uint32_t drm_mode_refresh_mhz(const drmModeModeInfo *mode)
{
	uint64_t total = (uint64_t)mode->htotal * mode->vtotal;

	if (total == 0)
		return mode->vrefresh * 1000;
	/* clock is in kHz; a clock of billions over a tiny mode (nonsense timings) saturates instead of wrapping */
	uint64_t mhz = ((uint64_t)mode->clock * 1000000 + total / 2) / total;
	return mhz > UINT32_MAX ? UINT32_MAX : (uint32_t)mhz;
}

int64_t drm_mode_period_ns(const drmModeModeInfo *mode)
{
	uint32_t mhz = drm_mode_refresh_mhz(mode);
	int64_t ns = mhz ? (int64_t)(1000000000000LL / mhz) : 16666667;

	/* Timings no display runs (a broken or hostile EDID; the kernel refuses only a clock of 0) must not pace a
	 * driver without vblank at one frame a minute, nor not at all. */
	return ns < 1000000 ? 1000000 : ns > 50000000 ? 50000000 : ns;
}

/* Whether a buffer and a canvas can be made for a mode of a connector's list: 1..16384 each way (a DisplayID may
 * list one near 65535x65535). */
static bool fits(const drmModeModeInfo *m)
{
	return m->hdisplay >= 1 && m->vdisplay >= 1 && m->hdisplay <= 16384 && m->vdisplay <= 16384;
}

int drm_mode_choose(const drmModeModeInfo *modes, int n, uint32_t w, uint32_t h)
{
	int best = -1;

	if (n <= 0)
		return -1;
	/* The preferred mode, else the first: only among modes a buffer and a canvas can be made for (a DisplayID
	 * may prefer one near 65535x65535, which left the canvas 0x0). */
	if (w == 0) {
		for (int i = 0; i < n; i++)
			if ((modes[i].type & DRM_MODE_TYPE_PREFERRED) && fits(&modes[i]))
				return i;
		for (int i = 0; i < n; i++)
			if (fits(&modes[i]))
				return i;
		return -1;
	}
	for (int i = 0; i < n; i++) {
		const drmModeModeInfo *m = &modes[i], *o;

		if (m->hdisplay != w || m->vdisplay != h || !fits(m))
			continue;
		if (best < 0) {
			best = i;
			continue;
		}
		o = &modes[best];
		bool mp = m->type & DRM_MODE_TYPE_PREFERRED, op = o->type & DRM_MODE_TYPE_PREFERRED;
		bool mi = m->flags & DRM_MODE_FLAG_INTERLACE, oi = o->flags & DRM_MODE_FLAG_INTERLACE;
		if (mp != op) {
			if (mp)
				best = i;
		} else if (mi != oi) {
			if (!mi)
				best = i;
		} else if (drm_mode_refresh_mhz(m) > drm_mode_refresh_mhz(o)) {
			best = i;
		}
	}
	return best;
}

void drm_mode_list(const drmModeModeInfo *modes, int n, char *buf, size_t size)
{
	size_t len = 0;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		bool dup = false;

		for (int j = 0; j < i && !dup; j++)
			dup = modes[j].hdisplay == modes[i].hdisplay && modes[j].vdisplay == modes[i].vdisplay;
		if (dup)
			continue;
		int r = snprintf(buf + len, size - len, "%s%ux%u", len ? " " : "", modes[i].hdisplay,
				 modes[i].vdisplay);
		if (r < 0 || (size_t)r >= size - len) {
			buf[len] = '\0';
			return;
		}
		len += (size_t)r;
	}
}

bool drm_mode_same(const drmModeModeInfo *a, const drmModeModeInfo *b)
{
	/* The aspect ratio bits label a mode (an HDMI video code) without changing its timings. */
	const uint32_t flags = ~(uint32_t)DRM_MODE_FLAG_PIC_AR_MASK;

	return a->clock == b->clock && a->hdisplay == b->hdisplay && a->hsync_start == b->hsync_start &&
	       a->hsync_end == b->hsync_end && a->htotal == b->htotal && a->hskew == b->hskew &&
	       a->vdisplay == b->vdisplay && a->vsync_start == b->vsync_start && a->vsync_end == b->vsync_end &&
	       a->vtotal == b->vtotal && a->vscan == b->vscan && (a->flags & flags) == (b->flags & flags);
}

bool drm_mode_usable(const drmModeModeInfo *m)
{
	return m->hdisplay >= 1 && m->vdisplay >= 1 && m->hdisplay <= 16384 && m->vdisplay <= 16384 && m->clock > 0;
}

int drm_mode_select(const drmModeModeInfo *modes, int n, uint32_t w, uint32_t h, const drmModeModeInfo *original)
{
	if (w != 0 || !original)
		return drm_mode_choose(modes, n, w, h);
	for (int i = 0; i < n; i++)
		if (drm_mode_same(&modes[i], original))
			return i;
	return DRM_SELECT_ORIGINAL;
}

/* The fallback order: the first preferred mode, then the others in the kernel's order. */
static int fallback_at(const drmModeModeInfo *modes, int n, unsigned k)
{
	int pref = -1;

	for (int i = 0; i < n && pref < 0; i++)
		if (modes[i].type & DRM_MODE_TYPE_PREFERRED)
			pref = i;
	if (pref >= 0) {
		if (k == 0)
			return pref;
		k--;
	}
	for (int i = 0; i < n; i++) {
		if (i == pref)
			continue;
		if (k-- == 0)
			return i;
	}
	return -1;
}

int drm_mode_fallback(const drmModeModeInfo *modes, int n, unsigned *next, const drmModeModeInfo *refused,
		      unsigned n_refused, uint64_t max_area)
{
	for (int i; (i = fallback_at(modes, n, *next)) >= 0;) {
		const drmModeModeInfo *m = &modes[i];
		bool skip = !fits(m);

		++*next;
		for (unsigned r = 0; r < n_refused && !skip; r++)
			skip = drm_mode_same(m, &refused[r]);
		if (skip)
			continue;
		if (max_area && (uint64_t)m->hdisplay * m->vdisplay >= max_area)
			continue;
		return i;
	}
	return -1;
}
