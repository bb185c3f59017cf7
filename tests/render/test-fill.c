/* tests/render/test-fill.c: the painter's fills of one colour (paint-fill.h, through
 * kf_paint_fill_rect): every width from 0 to 80 pixels (the scalar tail, the one to four 16-byte
 * stores of rows of 4 to 16 pixels, the 32-byte stores above 16 where the CPU has AVX, the last
 * store overlapping the one before), at several offsets and heights, in a strip whose rows are
 * further apart than they are filled: exactly the rectangle takes the colour, every pixel around
 * it (the row before and after, the columns either side) keeps what it had. */
#include <stdint.h>
#include <stdlib.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"

static void test_fill_rect(void)
{
	enum { PITCH = 101, ROWS = 8, MAXW = 80 };
	static const int xs[] = {0, 1, 3, 4, 7, 13};
	static const int hs[] = {0, 1, 2, 5};
	uint32_t *px = malloc(sizeof(*px) * PITCH * ROWS);
	CHECK(px != NULL);
	if (!px)
		return;
	struct kf_strip o = {px, PITCH};
	int bad = 0;
	for (int w = 0; w <= MAXW; w++)
		for (size_t i = 0; i < sizeof(xs) / sizeof(xs[0]); i++)
			for (size_t k = 0; k < sizeof(hs) / sizeof(hs[0]); k++) {
				int x = xs[i], y = 1, h = hs[k];
				for (int j = 0; j < PITCH * ROWS; j++)
					px[j] = 0x01010101u * (uint32_t)(j % 251);
				uint32_t c = 0xff000000u | (uint32_t)(w * 2654435761u >> 8);
				kf_paint_fill_rect(&o, x, y, w, h, c);
				for (int r = 0; r < ROWS; r++)
					for (int col = 0; col < PITCH; col++) {
						int j = r * PITCH + col;
						bool in = r >= y && r < y + h && col >= x && col < x + w;
						bad += px[j] != (in ? c : 0x01010101u * (uint32_t)(j % 251));
					}
			}
	CHECK(bad == 0);
	free(px);
}

int main(void)
{
	test_fill_rect();
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
