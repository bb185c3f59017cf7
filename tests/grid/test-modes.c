/* tests/grid/test-modes.c: modes, SGR, OSC and DCS (the replies: test-replies.c).
 * References: xterm ctlseqs (DA1/DA2, DSR, DECRQM, DECRQSS, XTVERSION, window ops, OSC 4/10/11/12/8/52,
 * SGR incl. ITU T.416 colon forms), kitty keyboard protocol, VT510 (DECSTR, DECSCA, DECSED/DECSEL). */
#include <errno.h>

#include "harness.h"

static const struct grid_style *cell_style(struct t_term *t, int x, int y)
{
	return grid_style(t->g, grid_row(t->g, y)[x].style);
}

static void test_sgr(void)
{
	struct t_term *t = t_new(40, 5, 0);
	t_feed(t, "\033[1;3;4;7;9;53m"
		  "a\033[0m"
		  "\033[38;5;100;48;2;1;2;3mb"
		  "\033[38:2::10:20:30m"
		  "c"
		  "\033[38:2:40:50:60;4:3;58:5:9m"
		  "d"
		  "\033[91;102;21me"
		  "\033[22;23;24;27;29;55;39;49;59mf");
	const struct grid_style *s = cell_style(t, 0, 0);
	CHECK(s->attrs == (GRID_ATTR_BOLD | GRID_ATTR_ITALIC | GRID_ATTR_REVERSE | GRID_ATTR_STRIKE |
			   GRID_ATTR_OVERLINE) && s->underline == GRID_UNDERLINE_SINGLE, "a attrs %x", s->attrs);
	s = cell_style(t, 1, 0);
	CHECK(s->fg == GRID_COLOR_PALETTE(100) && s->bg == GRID_COLOR_RGB(1, 2, 3) && !s->attrs, "b");
	/* the ITU form with an empty colour-space id */
	s = cell_style(t, 2, 0);
	CHECK(s->fg == GRID_COLOR_RGB(10, 20, 30), "c fg %x", s->fg);
	s = cell_style(t, 3, 0);
	CHECK(s->fg == GRID_COLOR_RGB(40, 50, 60) && s->underline == GRID_UNDERLINE_CURLY &&
		      s->ul_color == GRID_COLOR_PALETTE(9), "d");
	s = cell_style(t, 4, 0);
	CHECK(s->fg == GRID_COLOR_PALETTE(9) && s->bg == GRID_COLOR_PALETTE(10) &&
		      s->underline == GRID_UNDERLINE_DOUBLE, "e");
	s = cell_style(t, 5, 0);
	CHECK(!s->attrs && !s->underline && !s->fg && !s->bg && !s->ul_color, "f reset");
	/* BCE: erase takes the background only */
	t_feed(t, "\033[1;41m\033[2;1H\033[K");
	s = cell_style(t, 10, 1);
	CHECK(s->bg == GRID_COLOR_PALETTE(1) && !s->attrs, "bce");
	t_free(t);
}

/* The mouse tracking modes (9, 1000, 1001, 1002, 1003) are one setting in xterm: a DECRST of any of them turns
 * tracking off (its set_mousemode gives MOUSE_OFF whichever mode was on). Only the reset of the mode that was
 * on did here: an application that switched 1000 to 1002 and left with "CSI ? 1000 l", as many do, left its
 * drags reported, and a click in the shell after it typed "\e[<0;5;3M" at the prompt. The encodings (1005,
 * 1006, 1015) are the other way round: a reset only ends the one in use (xterm: "a reset is only effective
 * against the matching mode"). */
static void test_mouse_mode_reset(void)
{
	/* 1001 (highlight tracking) is not implemented, but its reset ends tracking as in xterm */
	static const int modes[] = {9, 1000, 1002, 1003}, resets[] = {9, 1000, 1001, 1002, 1003};
	struct t_term *t = t_new(20, 4, 0);
	struct grid_modes m;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		for (size_t j = 0; j < sizeof(resets) / sizeof(resets[0]); j++) {
			char seq[32];
			snprintf(seq, sizeof(seq), "\033[?%dh\033[?%dl", modes[i], resets[j]);
			t_feed(t, seq);
			grid_get_modes(t->g, &m);
			CHECK(m.mouse == GRID_MOUSE_NONE, "?%d on, ?%d reset: tracking still %d", modes[i], resets[j],
			      (int)m.mouse);
		}
	}
	t_feed(t, "\033[?1002h\033[?1000l\033[?1002$p\033[?1000$p");
	CHECK_REPLY(t, "\033[?1002;2$y\033[?1000;2$y");
	t_feed(t, "\033[?1006h\033[?1005l");
	grid_get_modes(t->g, &m);
	CHECK(m.mouse_encoding == GRID_MOUSE_ENC_SGR, "resetting 1005 keeps 1006");
	t_feed(t, "\033[?1006l");
	grid_get_modes(t->g, &m);
	CHECK(m.mouse_encoding == GRID_MOUSE_ENC_DEFAULT, "resetting 1006 ends it");
	t_free(t);
}

/* SGR-Pixels (DECSET 1016) is one of the encodings, as in xterm: set, reported by DECRQM, replaced by another and
 * ended by its own reset only. It was unknown: DECRQM answered 0 and reports stayed in cells. */
static void test_sgr_pixels_mode(void)
{
	struct t_term *t = t_new(20, 4, 0);
	struct grid_modes m;
	t_feed(t, "\033[?1016$p\033[?1006h\033[?1016h\033[?1016$p\033[?1006$p");
	CHECK_REPLY(t, "\033[?1016;2$y\033[?1016;1$y\033[?1006;2$y");
	grid_get_modes(t->g, &m);
	CHECK(m.mouse_encoding == GRID_MOUSE_ENC_SGR_PIXELS, "1016 set: encoding %d", (int)m.mouse_encoding);
	t_feed(t, "\033[?1006l");
	grid_get_modes(t->g, &m);
	CHECK(m.mouse_encoding == GRID_MOUSE_ENC_SGR_PIXELS, "1006's reset leaves 1016");
	t_feed(t, "\033[?1016l\033[?1016$p");
	CHECK_REPLY(t, "\033[?1016;2$y");
	t_feed(t, "\033[?1016h\033c\033[?1016$p");
	CHECK_REPLY(t, "\033[?1016;2$y");
	t_free(t);
}

/* XTSAVE / XTRESTORE (xterm ctlseqs "CSI ? Pm s" Save DEC Private Mode Values, "CSI ? Pm r" Restore DEC Private
 * Mode Values; "Ps values are the same as for DECSET"). Both were ignored: an application that saved the mouse
 * mode, changed it and restored it left tracking off, so clicks selected text instead of reaching it. As in
 * xterm (charproc.c savemodes/restoremodes, checked against xterm 379): one saved value per mode; the tracking
 * modes 1000-1003 share one (the whole tracking mode, 9 has its own), the encodings one, 47/1047/1049 one (the
 * screen shown; a restore only switches, no clear and no cursor restore); 1048 saves and restores the cursor; a
 * mode never saved is restored reset (xterm's saved values start zeroed: autowrap goes off), and RIS keeps them. */
static void test_xtsave_restore(void)
{
	struct t_term *t = t_new(10, 4, 0);
	struct grid_modes m;
	struct grid_cursor c;
	t_feed(t, "\033[?1002h\033[?1002s\033[?1002l\033[?1002r");
	grid_get_modes(t->g, &m);
	CHECK(m.mouse == GRID_MOUSE_BUTTON, "1002 saved, reset, restored: tracking %d", (int)m.mouse);
	/* one slot for the tracking modes: any of them restores the mode that was on */
	t_feed(t, "\033[?1003h\033[?1000s\033[?1003l\033[?1000h\033[?1002r");
	grid_get_modes(t->g, &m);
	CHECK(m.mouse == GRID_MOUSE_ANY, "1003 saved through 1000, restored through 1002: %d", (int)m.mouse);
	t_feed(t, "\033[?1000l\033[?1000s\033[?1002h\033[?1003r");
	grid_get_modes(t->g, &m);
	CHECK(m.mouse == GRID_MOUSE_NONE, "tracking off saved: restore ends it (%d)", (int)m.mouse);
	/* the encodings: one slot */
	t_feed(t, "\033[?1006h\033[?1015s\033[?1005h\033[?1016r");
	grid_get_modes(t->g, &m);
	CHECK(m.mouse_encoding == GRID_MOUSE_ENC_SGR, "encoding restored: %d", (int)m.mouse_encoding);
	/* several modes in one sequence, booleans each in its own slot */
	t_feed(t, "\033[?2004h\033[?25l\033[?2004;25;1;66;1004;1007;2026;12;45;5s");
	t_feed(t, "\033[?2004l\033[?25h\033[?1h\033[?66h\033[?1004h\033[?1007h\033[?2026h\033[?12h\033[?45h\033[?5h");
	t_feed(t, "\033[?2004;25;1;66;1004;1007;2026;12;45;5r");
	grid_get_modes(t->g, &m);
	grid_get_cursor(t->g, &c);
	CHECK(m.bracketed_paste && !c.visible && !m.keys.cursor_keys_app && !m.keys.keypad_app && !m.focus_events &&
		      !m.alternate_scroll && !m.synchronized && !c.blink && !m.reverse_video,
	      "booleans restored: paste %d cursor %d ckm %d kpam %d focus %d altscroll %d sync %d blink %d rv %d",
	      m.bracketed_paste, c.visible, m.keys.cursor_keys_app, m.keys.keypad_app, m.focus_events,
	      m.alternate_scroll, m.synchronized, c.blink, m.reverse_video);
	t_feed(t, "\033[?45$p\033[?25h");
	CHECK_REPLY(t, "\033[?45;2$y");
	/* autowrap: saved off, restored off; RIS keeps the saved value (xterm's save_modes survive it) */
	t_feed(t, "\033[?7l\033[?7s\033c\033[?7r\033[Habcdefghijkl");
	CHECK_ROW(t, 0, "abcdefghil");
	CHECK_ROW(t, 1, "");
	/* never saved: restored reset, as xterm 379 does (its saved values start zeroed) */
	struct t_term *u = t_new(10, 4, 0);
	t_feed(u, "\033[?2004r\033[?7r\033[?25r\033[?1000r\033[?1006r\033[Habcdefghijkl");
	CHECK_ROW(u, 0, "abcdefghil");
	t_feed(u, "\033[?7$p\033[?25$p\033[?1000$p");
	CHECK_REPLY(u, "\033[?7;2$y\033[?25;2$y\033[?1000;2$y");
	t_free(u);
	/* origin: restored and the cursor homed to the region's origin, as DECSET 6 does */
	t_feed(t, "\033c\033[?6h\033[?6s\033[?6l\033[2;3r\033[3;4H\033[?6rX");
	CHECK_ROW(t, 1, "X");
	CHECK_CURSOR(t, 1, 1);
	/* the alternate screen: a restore switches only (xterm's ToAlternate(False)/FromAlternate) */
	t_feed(t, "\033c\033[?1049l\033[Hab\033[?1049s\033[?1049hxy\033[?1049rZ");
	grid_get_modes(t->g, &m);
	CHECK(!m.alt_screen, "1049 restored to the normal screen");
	CHECK_ROW(t, 0, "ab  Z");
	t_feed(t, "\033[?1049h\033[H\033[?47sALT\033[?47l\033[?1047rZ");
	grid_get_modes(t->g, &m);
	CHECK(m.alt_screen, "47 restored to the alternate screen");
	CHECK_ROW(t, 0, "ALTZ");
	t_feed(t, "\033[?1049l");
	/* 1048 is DECSC / DECRC */
	t_feed(t, "\033c\033[2;3H\033[?1048s\033[H\033[?1048rX");
	CHECK_ROW(t, 1, "  X");
	/* unknown modes, none, and the ANSI forms (DECSLRM/SCOSC) are untouched */
	t_feed(t, "\033[?9999s\033[?s\033[?9999r\033[?r\033[?69h\033[2;5s\033[?69l\033[Habcdefghij");
	CHECK_ROW(t, 0, "abcdefghij");
	t_free(t);
}

static void test_modes(void)
{
	struct t_term *t = t_new(20, 5, 0);
	struct grid_modes m;
	t_feed(t, "\033[?1h\033=\033[?1002h\033[?1006h\033[?2004h\033[?1004h\033[?1007h\033[?2026h\033[20h");
	grid_get_modes(t->g, &m);
	CHECK(m.keys.cursor_keys_app && m.keys.keypad_app && m.mouse == GRID_MOUSE_BUTTON &&
		      m.mouse_encoding == GRID_MOUSE_ENC_SGR && m.bracketed_paste && m.focus_events &&
		      m.alternate_scroll && m.synchronized && m.keys.newline_mode, "modes set");
	t_feed(t, "\033[?1l\033>\033[?1002l\033[?1006l\033[?2004l\033[?2026l\033[20l");
	grid_get_modes(t->g, &m);
	CHECK(!m.keys.cursor_keys_app && !m.keys.keypad_app && m.mouse == GRID_MOUSE_NONE &&
		      !m.bracketed_paste && !m.synchronized && !m.keys.newline_mode, "modes reset");
	/* kitty keyboard protocol: push, query, set, pop; modifyOtherKeys */
	t_feed(t, "\033[>1u\033[>5u\033[?u");
	CHECK_REPLY(t, "\033[?5u");
	t_feed(t, "\033[=2;2u\033[?u\033[<u\033[?u\033[<5u\033[?u");
	CHECK_REPLY(t, "\033[?7u\033[?1u\033[?0u");
	t_feed(t, "\033[>3u\033[?1049h\033[?u\033[>1u\033[?1049l\033[?u\033[<u");
	CHECK_REPLY(t, "\033[?0u\033[?3u");
	/* CSI = flags ; mode u knows modes 1 (set), 2 (or) and 3 (and-not); another mode leaves the flags as they
	 * are (kitty and foot ignore it) */
	t_feed(t, "\033[=5u\033[=2;4u\033[?u\033[=16;7u\033[?u\033[=1;3u\033[?u\033[<u");
	CHECK_REPLY(t, "\033[?5u\033[?5u\033[?4u");
	/* a full stack (16) drops its oldest entry on a push; a pop past the bottom resets the flags */
	t_feed(t, "\033[=4u");
	for (int i = 1; i <= 20; i++) {
		char push[16];
		snprintf(push, sizeof(push), "\033[>%du", i);
		t_feed(t, push);
	}
	t_feed(t, "\033[?u\033[<15u\033[?u\033[<u\033[?u\033[>3u\033[<99u\033[?u");
	CHECK_REPLY(t, "\033[?20u\033[?5u\033[?0u\033[?0u");
	t_feed(t, "\033[>4;2m");
	grid_get_modes(t->g, &m);
	CHECK(m.keys.modify_other_keys == 2, "modifyOtherKeys");
	/* XTQMODKEYS (xterm ctlseqs "CSI ? Pp m"): CSI > Pp ; Pv m for each asked, with the values our key encoder
	 * follows (xterm's defaults: modifyKeyboard 0, modifyCursorKeys 2, modifyFunctionKeys 2, modifyKeypadKeys
	 * 0) and modifyOtherKeys as set; an unknown Pp gets nothing */
	t_feed(t, "\033[?4m\033[?0;1;2;3m\033[?5m\033[>4m\033[?4m");
	CHECK_REPLY(t, "\033[>4;2m\033[>0;0m\033[>1;2m\033[>2;2m\033[>3;0m\033[>4;0m");
	t_feed(t, "\033[>4;2m");
	/* cursor: DECTCEM, DECSCUSR */
	struct grid_cursor c;
	t_feed(t, "\033[?25l\033[4 q");
	grid_get_cursor(t->g, &c);
	CHECK(!c.visible && c.shape == GRID_CURSOR_UNDERLINE && !c.blink, "cursor style");
	/* alternate screen: 1049 saves the cursor and clears; leaving restores */
	t_feed(t, "\033[?25h\033[Hmain\033[2;3H\033[?1049h");
	grid_get_modes(t->g, &m);
	CHECK(m.alt_screen, "alt on");
	CHECK_ROW(t, 0, "");
	t_feed(t, "alt\033[?1049l");
	CHECK_ROW(t, 0, "main");
	CHECK_CURSOR(t, 2, 1);
	/* IRM */
	t_feed(t, "\033[H\033[4hXY\033[4l");
	CHECK_ROW(t, 0, "XYmain");
	/* DECSCA + DECSEL: protected cells survive a selective erase, not a normal one */
	t_feed(t, "\033[3;1H\033[1\"qPRO\033[0\"qtect\033[3;1H\033[?2K");
	CHECK_ROW(t, 2, "PRO");
	t_feed(t, "\033[2K");
	CHECK_ROW(t, 2, "");
	/* DECSTR resets modes but keeps the screen */
	t_feed(t, "\033[?7l\033[4h\033[!p");
	t_feed(t, "\033[5;1H01234567890123456789Z");
	CHECK_ROW(t, 4, "Z");
	/* RIS */
	t_feed(t, "\033]2;title\007\033c");
	CHECK_ROW(t, 0, "");
	CHECK(strcmp(t->title, "title") == 0, "title callback");
	CHECK(grid_title(t->g)[0] == 0, "RIS clears the title");
	/* title stack */
	t_feed(t, "\033]0;one\007\033[22t\033]2;two\007\033[23t");
	CHECK(strcmp(grid_title(t->g), "one") == 0, "title pop %s", grid_title(t->g));
	/* BEL */
	t_feed(t, "\007");
	CHECK(t->bells == 1, "bell");
	t_free(t);
}

/* Under reverse video (DECSCNM) the display paints the default text in the background colour and the default
 * background in the foreground one, and OSC 10 and 11 name the colours painted, as in xterm 379
 * (tests/tools/xterm-replies.py): their queries answer the swapped colours, their sets and OSC 110/111 change
 * them, and a cursor of the default colour is painted, and reported, in the text's. A program asking the
 * background to choose its light or dark theme was told black on a screen painted light grey. */
static void test_colors_reverse_video(void)
{
	struct t_term *t = t_new(20, 4, 0);
	t_feed(t, "\033[?5h\033]10;?\007\033]11;?\007\033]12;?\007");
	CHECK_REPLY(t, "\033]10;rgb:0000/0000/0000\007\033]11;rgb:e5e5/e5e5/e5e5\007\033]12;rgb:0000/0000/0000\007");
	/* the text colour set while reversed is the background once the mode is reset */
	t_feed(t, "\033]10;#ff0000\007\033]10;?\007\033[?5l\033]10;?\007\033]11;?\007");
	CHECK_REPLY(t, "\033]10;rgb:ffff/0000/0000\007\033]10;rgb:e5e5/e5e5/e5e5\007\033]11;rgb:ffff/0000/0000\007");
	/* OSC 110 resets the painted background, to the background's default; 111 the foreground */
	t_feed(t, "\033[?5h\033]111\007\033[?5l\033]11;?\007\033[?5h\033]110\007\033[?5l\033]10;?\007\033]11;?\007");
	CHECK_REPLY(t, "\033]11;rgb:ffff/0000/0000\007\033]10;rgb:e5e5/e5e5/e5e5\007\033]11;rgb:0000/0000/0000\007");
	/* a cursor colour set stays what it is */
	t_feed(t, "\033]12;#00ff00\007\033[?5h\033]12;?\007");
	CHECK_REPLY(t, "\033]12;rgb:0000/ffff/0000\007");
	t_free(t);
}

/* Under reverse video the display paints the palette's black and white (0 and 7) and its bright black and white
 * (8 and 15) each in the other's colour (render/palette.c kf_palette_reverse, xterm's ReverseVideo), and OSC 4
 * and 104 name the colours painted there as OSC 10/11 do, as in xterm 379 (tests/tools/xterm-replies.py): a set
 * of colour 0 while reversed changed the colour SGR 37 text was painted in, and its query answered black for
 * the colour SGR 30 text was painted in, light grey. */
static void test_palette_reverse_video(void)
{
	struct t_term *t = t_new(20, 4, 0);
	t_feed(t, "\033[?5h\033]4;0;?;7;?;8;?;15;?;1;?\007");
	CHECK_REPLY(t, "\033]4;0;rgb:e5e5/e5e5/e5e5\007\033]4;7;rgb:0000/0000/0000\007"
		       "\033]4;8;rgb:ffff/ffff/ffff\007\033]4;15;rgb:7f7f/7f7f/7f7f\007\033]4;1;rgb:cdcd/0000/0000\007");
	/* colour 0 set while reversed is colour 7 once the mode is reset */
	t_feed(t, "\033]4;0;#123456;8;#010203\007\033[?5l\033]4;0;?;7;?;8;?;15;?\007");
	CHECK_REPLY(t, "\033]4;0;rgb:0000/0000/0000\007\033]4;7;rgb:1212/3434/5656\007"
		       "\033]4;8;rgb:7f7f/7f7f/7f7f\007\033]4;15;rgb:0101/0202/0303\007");
	/* OSC 104;0 while reversed resets the colour painted as 0, i.e. colour 7 */
	t_feed(t, "\033[?5h\033]104;0;15\007\033[?5l\033]4;7;?;15;?\007");
	CHECK_REPLY(t, "\033]4;7;rgb:e5e5/e5e5/e5e5\007\033]4;15;rgb:0101/0202/0303\007");
	t_feed(t, "\033[?5h\033]104;8\007\033[?5l\033]4;15;?\007");
	CHECK_REPLY(t, "\033]4;15;rgb:ffff/ffff/ffff\007");
	t_free(t);
}

/* grid_config.colors: the display's configured colours are what OSC 4/10/11/12 report and what OSC 104/110/111
 * and RIS bring back (xterm ctlseqs OSC 4, 10-12, 104, 110-112) */
static void test_configured_colors(void)
{
	uint32_t colors[258];
	for (int i = 0; i < 258; i++)
		colors[i] = 0x010203u * (uint32_t)(i % 80);
	colors[1] = 0xaa5500;
	colors[256] = 0x123456; /* foreground */
	colors[257] = 0xfedcba; /* background */
	struct t_term *t = calloc(1, sizeof(*t));
	struct grid_config cfg = {.cols = 20, .rows = 4, .colors = colors};
	struct grid_callbacks cb = {.reply = t_on_reply};
	t->g = grid_create(&cfg, &cb, t);
	colors[1] = 0; /* copied at creation */
	t_feed(t, "\033]4;1;?\033\\\033]4;79;?\033\\\033]10;?\033\\\033]11;?\033\\\033]12;?\033\\");
	CHECK_REPLY(t, "\033]4;1;rgb:aaaa/5555/0000\033\\\033]4;79;rgb:4f4f/9e9e/eded\033\\"
		       "\033]10;rgb:1212/3434/5656\033\\\033]11;rgb:fefe/dcdc/baba\033\\"
		       "\033]12;rgb:1212/3434/5656\033\\");
	const uint32_t *d = grid_palette_defaults(t->g);
	CHECK(d[1] == 0xaa5500 && d[256] == 0x123456 && d[257] == 0xfedcba && d[258] == 0x123456, "defaults");
	/* the child's changes are undone to the configured colours, not xterm's */
	t_feed(t, "\033]4;1;#000001\033\\\033]10;#000002\033\\\033]11;#000003\033\\\033]104;1\033\\\033]110\033\\");
	CHECK(grid_palette(t->g)[1] == 0xaa5500 && grid_palette(t->g)[256] == 0x123456 &&
		      grid_palette(t->g)[257] == 0x000003, "OSC 104/110");
	t_feed(t, "\033]4;1;#000001\033\\\033c");
	CHECK(memcmp(grid_palette(t->g), d, sizeof(uint32_t) * 259) == 0, "RIS");
	/* new defaults (a configuration reload): the entries the child did not set follow them, its own stay */
	t_feed(t, "\033]4;2;#000009\033\\");
	colors[1] = 0x112233;
	colors[2] = 0x445566;
	colors[256] = 0x778899;
	grid_set_palette_defaults(t->g, colors);
	CHECK(grid_palette(t->g)[1] == 0x112233 && grid_palette(t->g)[2] == 0x000009 &&
		      grid_palette(t->g)[256] == 0x778899 && grid_palette(t->g)[258] == 0x778899 &&
		      grid_palette_defaults(t->g)[2] == 0x445566,
	      "reload: %06x %06x %06x", grid_palette(t->g)[1], grid_palette(t->g)[2], grid_palette(t->g)[256]);
	t_feed(t, "\033]104;2\033\\");
	CHECK(grid_palette(t->g)[2] == 0x445566, "OSC 104 after the reload: %06x", grid_palette(t->g)[2]);
	/* a colour the child set to what the default was stays its own too (a theme's black for colour 0): it
	 * followed the new default, as if never set */
	t_feed(t, "\033]4;3;#030609\033\\\033]10;#778899\033\\");
	colors[3] = 0xabcdef;
	colors[256] = 0x102030;
	grid_set_palette_defaults(t->g, colors);
	CHECK(grid_palette(t->g)[3] == 0x030609 && grid_palette(t->g)[256] == 0x778899 &&
		      grid_palette(t->g)[258] == 0x102030,
	      "reload over colours set to the defaults: %06x %06x %06x", grid_palette(t->g)[3],
	      grid_palette(t->g)[256], grid_palette(t->g)[258]);
	/* reset, they follow the defaults again */
	t_feed(t, "\033]104;3\033\\\033]110\033\\");
	colors[3] = 0x222222;
	grid_set_palette_defaults(t->g, colors);
	CHECK(grid_palette(t->g)[3] == 0x222222 && grid_palette(t->g)[256] == 0x102030,
	      "reload after OSC 104/110: %06x %06x", grid_palette(t->g)[3], grid_palette(t->g)[256]);
	t_free(t);
	/* no colours configured: xterm's */
	t = t_new(20, 4, 0);
	CHECK(grid_palette_defaults(t->g)[1] == 0xcd0000 && grid_palette_defaults(t->g)[257] == 0, "xterm's");
	t_free(t);
}

/* grid_config.backspace_sends_bs is DECBKM's power-on state: DECSET/DECRST 67 change it, DECRQM reports it
 * and RIS brings the configured state back (xterm's VTReset sets DECBKM from its backarrowKey resource). */
static void test_configured_decbkm(void)
{
	struct t_term *t = calloc(1, sizeof(*t));
	struct grid_config cfg = {.cols = 20, .rows = 4, .backspace_sends_bs = true};
	struct grid_callbacks cb = {.reply = t_on_reply};
	struct grid_modes m;

	t->g = grid_create(&cfg, &cb, t);
	grid_get_modes(t->g, &m);
	CHECK(m.keys.backspace_sends_bs, "DECBKM set from the config");
	t_feed(t, "\033[?67$p");
	CHECK_REPLY(t, "\033[?67;1$y");
	t_feed(t, "\033[?67l");
	grid_get_modes(t->g, &m);
	CHECK(!m.keys.backspace_sends_bs, "DECRST 67");
	t_feed(t, "\033c");
	grid_get_modes(t->g, &m);
	CHECK(m.keys.backspace_sends_bs, "RIS restores the configured DECBKM");
	t_free(t);
	t = t_new(20, 4, 0);
	t_feed(t, "\033[?67h\033c");
	grid_get_modes(t->g, &m);
	CHECK(!m.keys.backspace_sends_bs, "RIS undoes DECSET 67 without a configured default");
	t_free(t);
}

/* OSC 0/2 titles reach the title callback and grid_title() as valid UTF-8 whatever the child sent: xterm
 * (ChangeGroup) shows each byte that is not part of a printable character as '?' */
static void test_titles(void)
{
	struct t_term *t = t_new(20, 4, 0);
	t_feed(t, "\033]2;a\xff\xfe" "b\x7f" "c\xc3\xa9\xe2\x82" "d\xed\xa0\x80\xf0\x9f\x98\x80\007");
	CHECK(strcmp(grid_title(t->g), "a??b?c\xc3\xa9??d???\xf0\x9f\x98\x80") == 0, "invalid UTF-8 title: '%s'",
	      grid_title(t->g));
	CHECK(strcmp(t->title, grid_title(t->g)) == 0, "callback: '%s'", t->title);
	/* xterm ignores a title of 1024 bytes or more (not plausible as a request): the old one stays, never a
	 * truncated new one; 1023 bytes are taken */
	{
		static char buf[1100];
		t_feed(t, "\033]2;short\007");
		int n = snprintf(buf, sizeof(buf), "\033]2;");
		memset(buf + n, 'x', 1024);
		snprintf(buf + n + 1024, sizeof(buf) - (size_t)n - 1024, "\007");
		t_feed(t, buf);
		CHECK(strcmp(grid_title(t->g), "short") == 0, "1024-byte title: %zu bytes", strlen(grid_title(t->g)));
		snprintf(buf + n + 1023, sizeof(buf) - (size_t)n - 1023, "\007");
		t_feed(t, buf);
		CHECK(strlen(grid_title(t->g)) == 1023, "1023-byte title: %zu bytes", strlen(grid_title(t->g)));
	}
	/* the title stack (CSI 22/23 ; Ps t): Ps 1 saves or restores the icon name alone, which leaves the title
	 * as it is (xterm's ewPushTitle/ewPopTitle); 0 and 2 restore the title */
	t_feed(t, "\033]2;A\007\033[22;1t\033]2;B\007\033[23;1t");
	CHECK(strcmp(grid_title(t->g), "B") == 0, "CSI 22;1 t, CSI 23;1 t: '%s'", grid_title(t->g));
	t_feed(t, "\033]2;C\007\033[22;1t\033]2;D\007\033[23;2t");
	CHECK(strcmp(grid_title(t->g), "D") == 0, "icon pushed, title popped: '%s'", grid_title(t->g));
	t_feed(t, "\033]2;E\007\033[22;2t\033[22;1t\033]2;F\007\033[23;1t\033[23;2t");
	CHECK(strcmp(grid_title(t->g), "E") == 0, "vim's push and pop of both: '%s'", grid_title(t->g));
	t_feed(t, "\033]2;G\007\033[22;0t\033]2;H\007\033[23;0t");
	CHECK(strcmp(grid_title(t->g), "G") == 0, "CSI 22;0 t, CSI 23;0 t: '%s'", grid_title(t->g));
	/* an empty Ps is 0, as in xterm (do_osc's mode starts at 0 and the ';' ends it): OSC ; Pt sets the title
	 * and the icon name */
	t_feed(t, "\033];no code\007");
	CHECK(strcmp(grid_title(t->g), "no code") == 0 && strcmp(t->title, "no code") == 0, "OSC ; title: '%s'",
	      grid_title(t->g));
	t_free(t);
}

/* OSC 52 sets the selection with what xterm decodes (AppendToSelectionBuffer): bytes outside the base64
 * alphabet, spaces and '=' among them, are skipped, not a reason to drop the whole request */
static struct {
	char targets[16];
	char data[64];
	size_t len;
	int calls;
} clip;

static void on_clip(void *ud, const char *targets, const uint8_t *data, size_t len)
{
	(void)ud;
	snprintf(clip.targets, sizeof(clip.targets), "%s", targets);
	snprintf(clip.data, sizeof(clip.data), "%.*s", (int)len, (const char *)data);
	clip.len = len;
	clip.calls++;
}

static void test_clipboard(void)
{
	struct t_term *t = calloc(1, sizeof(*t));
	struct grid_config cfg = {.cols = 20, .rows = 4};
	struct grid_callbacks cb = {.clipboard = on_clip};
	t->g = grid_create(&cfg, &cb, t);
	t_feed(t, "\033]52;c;aGVs bG8=\007");
	CHECK(clip.calls == 1 && !strcmp(clip.targets, "c") && !strcmp(clip.data, "hello"), "a space: %d '%s'",
	      clip.calls, clip.data);
	t_feed(t, "\033]52;;aGVs\r\nbG8gd29y\nbGQ=\033\\");
	CHECK(clip.calls == 2 && !strcmp(clip.targets, "s0") && !strcmp(clip.data, "hello world"),
	      "wrapped lines: %d '%s' '%s'", clip.calls, clip.targets, clip.data);
	/* targets: only s, p, q, c and 0-7 count, each once (xterm's ManipulateSelectionData); with none of
	 * them, nothing is set */
	t_feed(t, "\033]52;x;aGk=\007");
	CHECK(clip.calls == 2, "no valid target: %d calls, '%s'", clip.calls, clip.targets);
	t_feed(t, "\033]52;cxcp;aGk=\007");
	CHECK(clip.calls == 3 && !strcmp(clip.targets, "cp") && !strcmp(clip.data, "hi"), "targets '%s'",
	      clip.targets);
	/* the alphabet's last two digits, '+' (62) and '/' (63), RFC 4648 table 1: "???~~~" */
	t_feed(t, "\033]52;c;Pz8/fn5+\007");
	CHECK(clip.calls == 4 && !strcmp(clip.data, "???~~~"), "'+' and '/': %d calls, '%s'", clip.calls, clip.data);
	/* The bound on what a program can copy is the parser's on one string (1 MiB, "52;c;" included): a copy
	 * at it is set whole (786,429 bytes), one byte more is dropped whole, and the clipboard keeps the last */
	static char big[(1 << 20) + 16];
	const size_t b64 = (1u << 20) - 5;
	int n = snprintf(big, sizeof(big), "\033]52;c;");
	memset(big + n, 'Q', b64);
	strcpy(big + n + b64, "\007");
	t_feed(t, big);
	CHECK(clip.calls == 5 && clip.len == b64 / 4 * 3 + (b64 % 4 * 6) / 8, "copy at the cap: %d calls, %zu bytes",
	      clip.calls, clip.len);
	n = snprintf(big, sizeof(big), "\033]52;c;");
	memset(big + n, 'Q', b64 + 1);
	strcpy(big + n + b64 + 1, "\007");
	t_feed(t, big);
	CHECK(clip.calls == 5, "copy over the cap: %d calls", clip.calls);
	t_feed(t, "\033]52;c;aGk=\007");
	CHECK(clip.calls == 6 && !strcmp(clip.data, "hi"), "after a dropped copy: '%s'", clip.data);
	t_free(t);
}

/* OSC 52 queries, when the configuration allows them (--clipboard-read): the contents of the selections asked
 * for, base64 with padding, ending as the query ended; an empty clipboard gives empty data, as xterm sends; a
 * failing source gives no reply. Not allowed, the source is never asked. */
static struct {
	const char *data;
	size_t len;
	int ret, calls;
	char targets[16];
} src;

static int on_clip_get(void *ud, const char *targets, uint8_t **data, size_t *len)
{
	(void)ud;
	src.calls++;
	snprintf(src.targets, sizeof(src.targets), "%s", targets);
	if (src.ret < 0)
		return src.ret;
	*data = NULL;
	*len = src.len;
	if (src.len) {
		*data = malloc(src.len);
		memcpy(*data, src.data, src.len);
	}
	return 0;
}

static void test_clipboard_read(void)
{
	for (int allow = 0; allow < 2; allow++) {
		struct t_term *t = calloc(1, sizeof(*t));
		struct grid_config cfg = {.cols = 20, .rows = 4, .allow_clipboard_read = allow};
		struct grid_callbacks cb = {.reply = t_on_reply, .clipboard_get = on_clip_get};
		t->g = grid_create(&cfg, &cb, t);
		src = (__typeof__(src)){.data = "hello", .len = 5};
		const uint64_t w0 = grid_work(t->g);
		t_feed(t, "\033]52;c;?\007");
		/* grid_work: a query's answer is the clipboard's size, out of proportion to its 9 bytes (twice the
		 * bytes read); nothing when none is sent */
		CHECK(grid_work(t->g) - w0 == (allow ? 10u : 0u), "grid_work of a query: %llu",
		      (unsigned long long)(grid_work(t->g) - w0));
		if (!allow) {
			CHECK(src.calls == 0 && t->reply_len == 0, "not allowed: %d calls, reply '%s'", src.calls,
			      t->reply);
			t_free(t);
			continue;
		}
		CHECK_REPLY(t, "\033]52;c;aGVsbG8=\007");
		CHECK(!strcmp(src.targets, "c"), "asked for '%s'", src.targets);
		/* the controls an OSC 52 holds are skipped (its base64 may come in lines): "?" and a line feed
		 * still ask (the OSC keeps its controls since session 54; other OSCs are then ignored) */
		t_feed(t, "\033]52;c;\r?\n\007");
		CHECK_REPLY(t, "\033]52;c;aGVsbG8=\007");
		/* ST in, ST out; no target named is s0, as for a set; 1, 2 and 3 bytes pad to 4 characters */
		src.data = "\xc3\xa9t\xc3\xa9!";
		for (size_t n = 1; n <= 6; n++) {
			static const char *const want[] = {"ww==", "w6k=", "w6l0", "w6l0ww==", "w6l0w6k=", "w6l0w6kh"};
			src.len = n;
			t_feed(t, "\033]52;;?\033\\");
			char w[64];
			snprintf(w, sizeof(w), "\033]52;s0;%s\033\\", want[n - 1]);
			CHECK_REPLY(t, w);
		}
		CHECK(!strcmp(src.targets, "s0"), "no target: asked for '%s'", src.targets);
		src.len = 0;
		t_feed(t, "\033]52;pc;?\007");
		CHECK_REPLY(t, "\033]52;pc;\007");
		src.ret = -EIO;
		t_feed(t, "\033]52;c;?\007");
		CHECK_REPLY(t, "");
		/* a bigger clipboard than the 512-byte format buffer of short replies comes whole */
		static char big[3000];
		memset(big, 0xff, sizeof(big));
		src = (__typeof__(src)){.data = big, .len = sizeof(big)};
		t_feed(t, "\033]52;c;?\007");
		size_t want_len = 7 + 4000 + 1, slashes = 0;
		for (size_t i = 7; i < t->reply_len && t->reply[i] == '/'; i++)
			slashes++;
		CHECK(t->reply_len == want_len && slashes == 4000, "3000 bytes of 0xff: %zu-byte reply, %zu '/'",
		      t->reply_len, slashes);
		t_free(t);
	}
}

/* The Linux console's bell sequences (console_codes(4); drivers/tty/vt/vt.c setterm_command, reset_terminal):
 * CSI 10 ; Pn ] the pitch, CSI 11 ; Pn ] the duration in ms (2000 and more: none), either without its number the
 * default back (750 Hz, 125 ms), an empty number 0; RIS gives the defaults back. Nothing is printed, the BEL
 * still rings, and the kernel's other private sequences (CSI 1 ; Pn ], 9, 12...) do nothing here. */
static void test_linux_bell_tone(void)
{
	static const struct {
		const char *seq;
		unsigned hz, ms;
	} cases[] = {
	    {"", 750, 125},
	    {"\033[10;1000]", 1000, 125},
	    {"\033[11;50]", 1000, 50},
	    {"\033[10]", 750, 50},
	    {"\033[11]", 750, 125},
	    {"\033[11;1999]", 750, 1999},
	    {"\033[11;2000]", 750, 0},
	    {"\033[11;65535]", 750, 0},
	    {"\033[11;300]\033[10;]", 0, 300},
	    {"\033[10;0]", 0, 300},
	    {"\033[10;440;7]", 440, 300},
	    {"\033[1;3]\033[9;5]\033[12;1]\033[14;1]", 440, 300},
	    {"\033[?10;1000]\033[10 ]\033[;1000]", 440, 300},
	    /* ':' in the parameters: the kernel's ESgetpars ignores the whole sequence (EScsiignore) */
	    {"\033[10:1000]\033[10;1000:5]\033[11:5]", 440, 300},
	    {"\033c", 750, 125},
	};
	struct t_term *t = t_new(20, 3, 0);
	unsigned hz, ms;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t_feed(t, cases[i].seq);
		grid_bell_tone(t->g, &hz, &ms);
		CHECK(hz == cases[i].hz && ms == cases[i].ms, "after '%s': %u Hz %u ms (want %u Hz %u ms)",
		      cases[i].seq + (cases[i].seq[0] == 033), hz, ms, cases[i].hz, cases[i].ms);
	}
	t_feed(t, "\033[10;1000]a\007b");
	CHECK_ROW(t, 0, "ab");
	CHECK(t->bells == 1, "the BEL after CSI 10 ] rings (%d)", t->bells);
	t_free(t);
}

int main(void)
{
	test_titles();
	test_clipboard();
	test_clipboard_read();
	test_configured_colors();
	test_colors_reverse_video();
	test_palette_reverse_video();
	test_configured_decbkm();
	test_sgr();
	test_modes();
	test_mouse_mode_reset();
	test_sgr_pixels_mode();
	test_xtsave_restore();
	test_linux_bell_tone();
	return t_done("grid-modes");
}
