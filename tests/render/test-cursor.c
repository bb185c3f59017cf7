/* tests/render/test-cursor.c: the cursor as a user sees it over text the real grid hands over, pixel by pixel
 * (kf_render_source_from_grid, kf_render_paint_full, as the frame loop paints): it shows on any cell, in the
 * colours xterm 379 paints it in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "grid-shot.h"
#include "kmscon-felis/render/render.h"

/* The cursor stays visible on every cell, as in xterm: over text whose colour is its background
 * (xterm's ShowCursor then takes the default colour farther from the cell's), and with a cursor
 * colour (OSC 12) that is the cell's background (xterm draws it in the cell's text colour
 * instead). Each stream leaves the cursor on cell 0; shown, it must change a block's cell at least
 * half, a bar's and an underline's pixels at least a column or a row of the cell. */
static void test_cursor_visible(void)
{
	static const struct {
		const char *what, *bytes;
	} cases[] = {
	    {"block on red on red (SGR 31;41)", "\x1b[31;41mAB\x1b[0m\r"},
	    {"bar on red on red", "\x1b[6 q\x1b[31;41mAB\x1b[0m\r"},
	    {"underline on red on red", "\x1b[4 q\x1b[31;41mAB\x1b[0m\r"},
	    {"block on blank black on black (SGR 30;40)", "\x1b[30;40m  \x1b[0m\r"},
	    {"block, OSC 12 black on the default black background", "\x1b]12;#000000\x07" "AB\r"},
	    {"bar, OSC 12 black on the default black background", "\x1b]12;#000000\x07\x1b[5 qAB\r"},
	    {"block, OSC 12 blue on a blue background (SGR 44)", "\x1b]12;#0000ee\x07\x1b[44mAB\r"},
	    {"underline, OSC 12 blue on a blue background", "\x1b]12;#0000ee\x07\x1b[3 q\x1b[44mAB\r"},
	    {"block under DECSCNM, OSC 12 black on reverse text",
	     "\x1b[?5h\x1b]12;#000000\x07\x1b[7mAB\x1b[0m\r"},
	    {"block on a wide character, red on red", "\x1b[31;41m\xe6\xbc\xa2\x1b[0m\r"},
	};
	struct kf_render *r;
	if (kf_render_create(&(struct kf_render_config){.engine = KF_RENDER_ENGINE_BUILTIN}, &r))
		abort();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char on[256], off[256];
		snprintf(on, sizeof(on), "%s\x1b[?25h", cases[i].bytes);
		snprintf(off, sizeof(off), "%s\x1b[?25l", cases[i].bytes);
		struct shot a = paint(r, 4, 1, on), b = paint(r, 4, 1, off);
		int cells = strstr(cases[i].what, "wide") ? 2 : 1;
		int n = cell_changed(&a, &b, 0, 0, cells), want = a.cw * a.ch * cells / 2;
		if (strncmp(cases[i].what, "bar", 3) == 0)
			want = a.ch;
		else if (strncmp(cases[i].what, "underline", 9) == 0)
			want = a.cw;
		if (n < want) {
			printf("FAIL cursor %s: the cursor changes %d pixels of its cell, want >= %d\n",
			       cases[i].what, n, want);
			failures++;
		}
		free(a.px);
		free(b.px);
	}
	kf_render_destroy(r);
}

/* The cursor's colours, as xterm 379 paints them (`xterm -fg '#e5e5e5' -bg black`, this palette's default colours;
 * Xvfb, xdotool's focus, each cell read from a capture). A block of the default colour (no OSC 12) is the default
 * foreground with the cell's background as its ink, on any text colour (it took the text's colour: red text under
 * a red block); on reversed text (SGR 7) it is the default background; under DECSCNM it takes the text's colour. A
 * bar or an underline of the default colour is the default foreground as painted (DECSCNM: the other). A cursor
 * colour set by OSC 12 is the block with the cell's background as ink, reversed or not. For a bar or an underline,
 * line is the colour of its middle pixel (the left column's, the bottom row's). */
static void test_cursor_colors(void)
{
	static const struct {
		const char *what, *bytes;
		uint32_t bg, ink, line;
	} cases[] = {
	    {"block on SGR 31", "\x1b[31mA", 0xe5e5e5, 0x000000, 0},
	    {"block on SGR 32;44", "\x1b[32;44mA", 0xe5e5e5, 0x0000ee, 0},
	    {"block on default text", "A", 0xe5e5e5, 0x000000, 0},
	    {"block on bold SGR 1;31", "\x1b[1;31mA", 0xe5e5e5, 0x000000, 0},
	    {"block on SGR 7", "\x1b[7mA", 0x000000, 0xe5e5e5, 0},
	    {"block on SGR 7;31", "\x1b[7;31mA", 0x000000, 0xcd0000, 0},
	    {"block on SGR 7;32;44", "\x1b[7;32;44mA", 0x000000, 0x00cd00, 0},
	    {"block, OSC 12 green, on SGR 31", "\x1b]12;#00cd00\x07\x1b[31mA", 0x00cd00, 0x000000, 0},
	    {"block, OSC 12 green, on SGR 7", "\x1b]12;#00cd00\x07\x1b[7mA", 0x00cd00, 0xe5e5e5, 0},
	    {"block, OSC 12 green, on SGR 7;31", "\x1b]12;#00cd00\x07\x1b[7;31mA", 0x00cd00, 0xcd0000, 0},
	    {"block under DECSCNM on default text", "\x1b[?5hA", 0x000000, 0xe5e5e5, 0},
	    {"block under DECSCNM on SGR 31", "\x1b[?5h\x1b[31mA", 0xcd0000, 0xe5e5e5, 0},
	    {"block under DECSCNM on SGR 32;44", "\x1b[?5h\x1b[32;44mA", 0x00cd00, 0x0000ee, 0},
	    {"block under DECSCNM, OSC 12 green, on SGR 31", "\x1b[?5h\x1b]12;#00cd00\x07\x1b[31mA", 0x00cd00,
	     0xe5e5e5, 0},
	    {"underline on SGR 31", "\x1b[4 q\x1b[31mA", 0, 0, 0xe5e5e5},
	    {"underline on SGR 7;31", "\x1b[4 q\x1b[7;31mA", 0, 0, 0xe5e5e5},
	    {"underline under DECSCNM on default text", "\x1b[?5h\x1b[4 qA", 0, 0, 0x000000},
	    {"underline under DECSCNM on SGR 31", "\x1b[?5h\x1b[4 q\x1b[31mA", 0, 0, 0x000000},
	    {"bar on SGR 32;44", "\x1b[6 q\x1b[32;44mA", 0, 0, 0xe5e5e5},
	    /* kept visible where xterm paints the whole cell in one colour (docs/conformance.md) */
	    {"block on SGR 30;47", "\x1b[30;47mA", 0x000000, 0xe5e5e5, 0},
	    {"block under DECSCNM on SGR 7;31", "\x1b[?5h\x1b[7;31mA", 0xe5e5e5, 0xcd0000, 0},
	};
	struct kf_render *r;
	if (kf_render_create(&(struct kf_render_config){.engine = KF_RENDER_ENGINE_BUILTIN}, &r))
		abort();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char bytes[128];
		snprintf(bytes, sizeof(bytes), "%s\x1b[m\r\x1b[?25h", cases[i].bytes);
		struct shot a = paint(r, 2, 1, bytes);
		uint32_t bg, ink, line;
		bool bar = strncmp(cases[i].what, "bar", 3) == 0, is_line = bar || strncmp(cases[i].what, "under", 5) == 0;
		cell_colors(&a, 0, 0, &bg, &ink);
		if (bar)
			line = a.px[(size_t)(a.ch / 2) * a.w];
		else
			line = a.px[(size_t)(a.ch - 1) * a.w + (size_t)a.cw / 2];
		line &= 0xffffff;
		bool ok = is_line ? line == cases[i].line : bg == cases[i].bg && ink == cases[i].ink;
		if (!ok) {
			printf("FAIL cursor colour, %s: ink %06x on %06x, line %06x; want ", cases[i].what, ink, bg, line);
			if (is_line)
				printf("line %06x\n", cases[i].line);
			else
				printf("ink %06x on %06x\n", cases[i].ink, cases[i].bg);
			failures++;
		}
		free(a.px);
	}
	kf_render_destroy(r);
}

int main(void)
{
	test_cursor_visible();
	test_cursor_colors();
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
