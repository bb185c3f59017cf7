/* drm/rotate.c: display rotation (drm_backend_config.rotation): sizes and boxes from the canvas' (logical)
 * coordinates to a dumb buffer's, and the copy of canvas damage into a buffer, turned.
 *
 * Definition (fbcon's rotate=N, the same numbers): right turns the picture 90 degrees clockwise on the panel
 * (the canvas' top-left pixel lands at the buffer's top-right), inverted 180 degrees, left 90 degrees
 * counter-clockwise (top-left to bottom-left). The canvas sits at the top-left corner of the output as the user
 * sees it, so every transform depends only on the buffer's size.
 *
 * The turned copy reads a canvas column for every buffer row: done pixel by pixel down whole columns, each canvas
 * row's cache line would be fetched once for every pixel of it. It goes in square tiles instead: a tile's canvas
 * lines (TILE rows of TILE pixels) stay in L1 while the tile's buffer rows are written, each of them in one run
 * of TILE pixels (two cache lines: write-combined buffer memory takes them whole). The buffer is only ever
 * written, as by the plain copy. Cost measured in tests/drm/test-drm-rotate --bench (docs/architecture.md).
 */
#include "drm/drm-internal.h"

#define TILE 32

void drm_rotate_size(enum drm_rotation r, uint32_t w, uint32_t h, uint32_t *rw, uint32_t *rh)
{
	bool swap = r == DRM_ROTATE_RIGHT || r == DRM_ROTATE_LEFT;

	*rw = swap ? h : w;
	*rh = swap ? w : h;
}

struct drm_box drm_rotate_box(enum drm_rotation r, struct drm_box b, uint32_t bw, uint32_t bh)
{
	int32_t w = (int32_t)bw, h = (int32_t)bh;

	switch (r) {
	case DRM_ROTATE_RIGHT: /* (x, y) -> (bw - 1 - y, x) */
		return (struct drm_box){w - b.y - b.h, b.x, b.h, b.w};
	case DRM_ROTATE_INVERTED: /* (x, y) -> (bw - 1 - x, bh - 1 - y) */
		return (struct drm_box){w - b.x - b.w, h - b.y - b.h, b.w, b.h};
	case DRM_ROTATE_LEFT: /* (x, y) -> (y, bh - 1 - x) */
		return (struct drm_box){b.y, h - b.x - b.w, b.h, b.w};
	case DRM_ROTATE_NORMAL:
		break;
	}
	return b;
}

void drm_rotate_region(enum drm_rotation r, struct drm_region *rg, uint32_t bw, uint32_t bh)
{
	/* Transforming keeps boxes apart and as many: no merging needed. A full region stays full. */
	for (unsigned i = 0; i < rg->n; i++)
		rg->r[i] = drm_rotate_box(r, rg->r[i], bw, bh);
}

/* One tile: n rows of m buffer pixels from dst; the canvas pixel for buffer pixel (i, j) of the tile is
 * src[j * row_step + i * step]. */
static void copy_tile(uint32_t *dst, size_t dst_px_stride, const uint32_t *src, ptrdiff_t step, ptrdiff_t row_step,
		      int32_t m, int32_t n)
{
	for (int32_t j = 0; j < n; j++) {
		const uint32_t *s = src + j * row_step;
		uint32_t *d = dst + (size_t)j * dst_px_stride;

		for (int32_t i = 0; i < m; i++)
			d[i] = s[i * step];
	}
}

/* Inverted: a buffer row is a canvas row read backwards; no tiles needed. */
static void copy_reversed(uint32_t *dst, size_t dst_px_stride, const uint32_t *src, size_t src_px_stride, int32_t w,
			  int32_t h)
{
	for (int32_t j = 0; j < h; j++) {
		const uint32_t *s = src - (size_t)j * src_px_stride;
		uint32_t *d = dst + (size_t)j * dst_px_stride;

		for (int32_t i = 0; i < w; i++)
			d[i] = s[-i];
	}
}

uint64_t drm_rotate_copy(enum drm_rotation r, uint8_t *dst, uint32_t dst_stride, uint32_t bw, uint32_t bh,
			 const uint32_t *src, uint32_t src_stride, struct drm_box box)
{
	struct drm_box d = drm_rotate_box(r, box, bw, bh);
	size_t dps = dst_stride / 4, sps = src_stride / 4;
	uint32_t *out = (uint32_t *)dst + (size_t)d.y * dps + (size_t)d.x;
	const uint32_t *origin;
	ptrdiff_t step, row_step;

	if (box.w <= 0 || box.h <= 0)
		return 0;
	/* origin: the canvas pixel shown at the buffer box's top-left; step: the canvas pixel of the next buffer
	 * pixel to the right; row_step: of the next one down. */
	switch (r) {
	case DRM_ROTATE_RIGHT: /* the buffer's top-left shows the canvas box's bottom-left */
		origin = src + (size_t)(box.y + box.h - 1) * sps + (size_t)box.x;
		step = -(ptrdiff_t)sps;
		row_step = 1;
		break;
	case DRM_ROTATE_LEFT: /* ... its top-right */
		origin = src + (size_t)box.y * sps + (size_t)(box.x + box.w - 1);
		step = (ptrdiff_t)sps;
		row_step = -1;
		break;
	case DRM_ROTATE_INVERTED: /* ... its bottom-right */
		origin = src + (size_t)(box.y + box.h - 1) * sps + (size_t)(box.x + box.w - 1);
		copy_reversed(out, dps, origin, sps, d.w, d.h);
		return (uint64_t)box.w * (uint64_t)box.h;
	case DRM_ROTATE_NORMAL:
	default:
		origin = src + (size_t)box.y * sps + (size_t)box.x;
		step = 1;
		row_step = (ptrdiff_t)sps;
		break;
	}
	for (int32_t ty = 0; ty < d.h; ty += TILE) {
		int32_t n = d.h - ty < TILE ? d.h - ty : TILE;

		for (int32_t tx = 0; tx < d.w; tx += TILE) {
			int32_t m = d.w - tx < TILE ? d.w - tx : TILE;

			copy_tile(out + (size_t)ty * dps + (size_t)tx, dps, origin + ty * row_step + tx * step, step,
				  row_step, m, n);
		}
	}
	return (uint64_t)box.w * (uint64_t)box.h;
}
