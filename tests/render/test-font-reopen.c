/* tests/render/test-font-reopen.c: a renderer made at a zoom with a FreeType font of bitmap strikes only opens the
 * font twice (render.c open_font: at the zoomed size, then at its own, to magnify its strike); the second opening
 * failing (out of memory, the file gone meanwhile) must leave the renderer unmade and nothing freed twice. The first
 * opening's font, destroyed, stayed in the renderer and kf_render_create's cleanup destroyed it again (a double
 * free: glibc aborted the program). FreeType's library set-up is wrapped (tests/render/meson.build) to fail at the
 * call chosen, and its tear-down to count which libraries are let go. */
#include <errno.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <stdio.h>
#include <stdlib.h>

#include "kmscon-felis/render/render.h"
#include "check.h"
#include "screen.h"

static int init_calls, fail_at; /* FT_Init_FreeType's calls; the one to fail (0: none) */
static FT_Library live[8];       /* libraries set up and not yet let go */
static int done_twice;           /* FT_Done_FreeType given one let go already (or never set up) */

FT_Error __real_FT_Init_FreeType(FT_Library *lib);
FT_Error __wrap_FT_Init_FreeType(FT_Library *lib);
FT_Error __wrap_FT_Init_FreeType(FT_Library *lib)
{
	if (++init_calls == fail_at)
		return FT_Err_Out_Of_Memory;
	FT_Error e = __real_FT_Init_FreeType(lib);
	for (int i = 0; !e && i < 8; i++)
		if (!live[i]) {
			live[i] = *lib;
			break;
		}
	return e;
}

FT_Error __real_FT_Done_FreeType(FT_Library lib);
FT_Error __wrap_FT_Done_FreeType(FT_Library lib);
FT_Error __wrap_FT_Done_FreeType(FT_Library lib)
{
	for (int i = 0; i < 8; i++)
		if (live[i] == lib) {
			live[i] = NULL;
			return __real_FT_Done_FreeType(lib);
		}
	done_twice++; /* not let go again: that is the double free */
	return 0;
}

static uint8_t stem(uint32_t cp, int y)
{
	return y >= 2 && y < 12 ? 0x20 : 0;
}

int main(void)
{
	char dir[] = "/tmp/kf-font-reopen-XXXXXX", path[64];
	uint32_t ascii[94];
	for (int i = 0; i < 94; i++)
		ascii[i] = 0x21 + (uint32_t)i;
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/strike.bdf", dir);
	bdf_write(path, "ISO10646", "1", 12, 4, ascii, 94, stem);

	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_FREETYPE, .font_file = path, .font_size = 16,
				       .scale = 2};
	struct kf_render *r = NULL;
	/* as it is: two openings, one library left (the renderer's font) */
	int ret = kf_render_create(&cfg, &r);
	CHECK(ret == 0 && init_calls == 2);
	kf_render_destroy(r);
	CHECK(done_twice == 0);

	/* the second opening fails: an error, and the first's library let go once */
	init_calls = 0;
	fail_at = 2;
	r = NULL;
	ret = kf_render_create(&cfg, &r);
	printf("second opening refused: kf_render_create %d, %d libraries let go twice\n", ret, done_twice);
	CHECK(ret == -ENOMEM && r == NULL);
	CHECK(done_twice == 0);
	int left = 0;
	for (int i = 0; i < 8; i++)
		left += live[i] != NULL;
	CHECK(left == 0);

	/* and the renderer can be made again afterwards */
	fail_at = 0;
	CHECK(kf_render_create(&cfg, &r) == 0);
	kf_render_destroy(r);
	CHECK(done_twice == 0);
	return check_finish(dir);
}
