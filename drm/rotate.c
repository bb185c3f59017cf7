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
 * of TILE pixels (two cache lines: write-combined buffer memory takes them whole). With SSE2 a tile goes in 4x4
 * blocks transposed in registers. The buffer is only ever written, as by the plain copy. Cost (tests/drm/
 * test-drm-rotate --bench, docs/architecture.md): a full 1024x768 frame turned right or left about 3 times the
 * plain row copy's CPU time, inverted about the same as the plain copy.
 */
#include "drm/drm-internal.h"

/* DRM_ROTATE_SCALAR (tests/drm: drm-rotate-scalar) leaves out the SSE2 blocks, as on other architectures. */
#if defined(__SSE2__) && !defined(DRM_ROTATE_SCALAR)
#define ROTATE_SSE2 1
#include <emmintrin.h>
#endif

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

/* One tile, pixel by pixel: n rows of m buffer pixels from dst; the canvas pixel for buffer pixel (i, j) of the
 * tile is src[j * row_step + i * step]. */
static void copy_tile_scalar(uint32_t *dst, size_t dps, const uint32_t *src, ptrdiff_t step, ptrdiff_t row_step,
			     int32_t m, int32_t n)
{
	for (int32_t j = 0; j < n; j++) {
		const uint32_t *s = src + j * row_step;
		uint32_t *d = dst + (size_t)j * dps;

		for (int32_t i = 0; i < m; i++)
			d[i] = s[i * step];
	}
}

#ifdef ROTATE_SSE2
/* The same for a quarter turn (row_step 1 or -1: a canvas row is a buffer column), in 4x4 blocks: four canvas
 * rows of four pixels loaded, transposed in registers, stored as four buffer rows of four pixels. The edges of
 * the tile that do not fill a block go pixel by pixel. A tenth of the instructions of the pixel loop. */
static void copy_tile(uint32_t *dst, size_t dps, const uint32_t *src, ptrdiff_t step, ptrdiff_t row_step, int32_t m,
		      int32_t n)
{
	int32_t m4 = m & ~3, n4 = n & ~3;
	/* the four pixels of a canvas row that fill a block start at j0 (row_step 1) or j0 + 3 (row_step -1) */
	ptrdiff_t first = row_step > 0 ? 0 : -3;

	for (int32_t j = 0; j < n4; j += 4) {
		for (int32_t i = 0; i < m4; i += 4) {
			const uint32_t *s = src + j * row_step + first + i * step;
			__m128i r0 = _mm_loadu_si128((const __m128i *)s);
			__m128i r1 = _mm_loadu_si128((const __m128i *)(s + step));
			__m128i r2 = _mm_loadu_si128((const __m128i *)(s + 2 * step));
			__m128i r3 = _mm_loadu_si128((const __m128i *)(s + 3 * step));
			__m128i t0 = _mm_unpacklo_epi32(r0, r1), t1 = _mm_unpacklo_epi32(r2, r3);
			__m128i t2 = _mm_unpackhi_epi32(r0, r1), t3 = _mm_unpackhi_epi32(r2, r3);
			/* c[k]: the k-th pixel of each of the four canvas rows, a buffer row */
			__m128i c[4] = {_mm_unpacklo_epi64(t0, t1), _mm_unpackhi_epi64(t0, t1),
					_mm_unpacklo_epi64(t2, t3), _mm_unpackhi_epi64(t2, t3)};
			uint32_t *d = dst + (size_t)j * dps + (size_t)i;

			for (int k = 0; k < 4; k++)
				_mm_storeu_si128((__m128i *)(d + (size_t)(row_step > 0 ? k : 3 - k) * dps), c[k]);
		}
		if (m4 < m)
			copy_tile_scalar(dst + (size_t)j * dps + (size_t)m4, dps, src + j * row_step + m4 * step, step,
					 row_step, m - m4, 4);
	}
	if (n4 < n)
		copy_tile_scalar(dst + (size_t)n4 * dps, dps, src + n4 * row_step, step, row_step, m, n - n4);
}
#else
#define copy_tile copy_tile_scalar
#endif

/* Inverted: a buffer row is a canvas row read backwards; no tiles needed. */
static void copy_reversed(uint32_t *dst, size_t dps, const uint32_t *src, size_t sps, int32_t w, int32_t h)
{
	for (int32_t j = 0; j < h; j++) {
		const uint32_t *s = src - (size_t)j * sps;
		uint32_t *d = dst + (size_t)j * dps;
		int32_t i = 0;

#ifdef ROTATE_SSE2
		for (; i + 4 <= w; i += 4) {
			__m128i v = _mm_loadu_si128((const __m128i *)(s - i - 3));
			_mm_storeu_si128((__m128i *)(d + i), _mm_shuffle_epi32(v, _MM_SHUFFLE(0, 1, 2, 3)));
		}
#endif
		for (; i < w; i++)
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
		/* (output.c copies plainly: only for completeness) */
		copy_tile_scalar(out, dps, src + (size_t)box.y * sps + (size_t)box.x, 1, (ptrdiff_t)sps, d.w, d.h);
		return (uint64_t)box.w * (uint64_t)box.h;
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
