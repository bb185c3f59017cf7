/* drm/region.c: small damage regions and the per-output damage history used for buffer age.
 *
 * A terminal's damage is a few row bands, so a short list of rectangles that merges overlapping or touching
 * neighbours is enough; when the list overflows it collapses into its bounding box (overdraw is fine,
 * underdraw would be a bug).
 */
#include <string.h>

#include "drm/drm-internal.h"

static int32_t min32(int32_t a, int32_t b)
{
	return a < b ? a : b;
}

static int32_t max32(int32_t a, int32_t b)
{
	return a > b ? a : b;
}

static struct drm_box box_union(struct drm_box a, struct drm_box b)
{
	int32_t x0 = min32(a.x, b.x), y0 = min32(a.y, b.y);
	int32_t x1 = max32(a.x + a.w, b.x + b.w), y1 = max32(a.y + a.h, b.y + b.h);

	return (struct drm_box){x0, y0, x1 - x0, y1 - y0};
}

/* Overlapping, or touching along a whole edge so that the union is exactly the two boxes. */
static bool box_mergeable(struct drm_box a, struct drm_box b)
{
	bool overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
	bool stacked = a.x == b.x && a.w == b.w && (a.y + a.h == b.y || b.y + b.h == a.y);
	bool sideways = a.y == b.y && a.h == b.h && (a.x + a.w == b.x || b.x + b.w == a.x);
	bool contains = b.x >= a.x && b.y >= a.y && b.x + b.w <= a.x + a.w && b.y + b.h <= a.y + a.h;

	return overlap || stacked || sideways || contains;
}

void drm_region_clear(struct drm_region *rg)
{
	rg->n = 0;
	rg->full = false;
}

void drm_region_set_full(struct drm_region *rg)
{
	rg->n = 0;
	rg->full = true;
}

bool drm_region_empty(const struct drm_region *rg)
{
	return !rg->full && rg->n == 0;
}

void drm_region_add(struct drm_region *rg, struct drm_box box)
{
	if (rg->full || box.w <= 0 || box.h <= 0)
		return;
	/* Merging can make the box touch others: repeat until nothing merges. */
	for (unsigned i = 0; i < rg->n;) {
		if (box_mergeable(rg->r[i], box)) {
			box = box_union(rg->r[i], box);
			rg->r[i] = rg->r[--rg->n];
			i = 0;
			continue;
		}
		i++;
	}
	if (rg->n == DRM_REGION_MAX) {
		for (unsigned i = 0; i < rg->n; i++)
			box = box_union(box, rg->r[i]);
		rg->n = 0;
	}
	rg->r[rg->n++] = box;
}

void drm_region_add_region(struct drm_region *dst, const struct drm_region *src)
{
	if (src->full) {
		drm_region_set_full(dst);
		return;
	}
	for (unsigned i = 0; i < src->n; i++)
		drm_region_add(dst, src->r[i]);
}

void drm_region_clip(struct drm_region *rg, int32_t w, int32_t h)
{
	unsigned n = 0;

	if (rg->full) {
		rg->full = false;
		rg->n = 0;
		if (w > 0 && h > 0)
			rg->r[rg->n++] = (struct drm_box){0, 0, w, h};
		return;
	}
	for (unsigned i = 0; i < rg->n; i++) {
		struct drm_box b = rg->r[i];
		int32_t x0 = max32(b.x, 0), y0 = max32(b.y, 0);
		int32_t x1 = min32(b.x + b.w, w), y1 = min32(b.y + b.h, h);

		if (x1 > x0 && y1 > y0)
			rg->r[n++] = (struct drm_box){x0, y0, x1 - x0, y1 - y0};
	}
	rg->n = n;
}

int64_t drm_region_area(const struct drm_region *rg)
{
	int64_t a = 0;

	for (unsigned i = 0; i < rg->n; i++)
		a += (int64_t)rg->r[i].w * rg->r[i].h;
	return a;
}

void drm_damage_ring_reset(struct drm_damage_ring *ring)
{
	memset(ring, 0, sizeof(*ring));
}

void drm_damage_ring_push(struct drm_damage_ring *ring, const struct drm_region *frame)
{
	ring->d[ring->frames % DRM_DAMAGE_HISTORY] = *frame;
	ring->frames++;
}

void drm_damage_ring_union(const struct drm_damage_ring *ring, uint64_t age, const struct drm_region *current,
			   struct drm_region *out)
{
	*out = *current;
	if (age == 0 || age - 1 > DRM_DAMAGE_HISTORY || age - 1 > ring->frames) {
		drm_region_set_full(out);
		return;
	}
	for (uint64_t k = 1; k < age; k++)
		drm_region_add_region(out, &ring->d[(ring->frames - k) % DRM_DAMAGE_HISTORY]);
}
