/* tests/grid/test-replies.c: what the grid answers the application: DA1/DA2/DA3, DSR and CPR, DECRQM,
 * DECRQSS (SGR, margins, cursor style, conformance level, DECSCA, the page size), XTVERSION, the window
 * reports, DECSTR's effect on what is reported.
 * References: xterm ctlseqs, VT510 (DECRQM, DECRQSS, DECSTR, DECSCA); tests/tools/xterm-replies.py compares
 * these with a real xterm. */
#include <errno.h>

#include "harness.h"

static void test_replies(void)
{
	struct t_term *t = t_new(80, 24, 0);
	t_feed(t, "\033[c");
	CHECK_REPLY(t, "\033[?62;22c");
	t_feed(t, "\033[>c");
	CHECK_REPLY(t, "\033[>1;10;0c");
	t_feed(t, "\033[5n");
	CHECK_REPLY(t, "\033[0n");
	t_feed(t, "\033[10;20H\033[6n");
	CHECK_REPLY(t, "\033[10;20R");
	/* CPR is relative to the region in origin mode */
	t_feed(t, "\033[5;20r\033[?6h\033[2;3H\033[6n\033[?6n");
	CHECK_REPLY(t, "\033[2;3R\033[?2;3R");
	t_feed(t, "\033[?6l\033[r");
	t_feed(t, "\033[>q");
	CHECK_REPLY(t, "\033P>|kf-test\033\\");
	t_feed(t, "\033[18t\033[14t\033[16t");
	CHECK_REPLY(t, "\033[8;24;80t\033[4;384;640t\033[6;16;8t");
	/* DECRQM, in order with other replies */
	t_feed(t, "\033[?2004h\033[?2004$p\033[?25$p\033[?1049$p\033[4$p\033[?9999$p");
	CHECK_REPLY(t, "\033[?2004;1$y\033[?25;1$y\033[?1049;2$y\033[4;2$y\033[?9999;0$y");
	/* DECRQSS */
	t_feed(t, "\033[1;31;48:5:200m\033P$qm\033\\");
	CHECK_REPLY(t, "\033P1$r1;31;48:5:200m\033\\");
	t_feed(t, "\033[3;20r\033P$qr\033\\\033[r");
	CHECK_REPLY(t, "\033P1$r3;20r\033\\");
	t_feed(t, "\033[5 q\033P$q q\033\\");
	CHECK_REPLY(t, "\033P1$r5 q\033\\");
	t_feed(t, "\033P$qx\033\\");
	CHECK_REPLY(t, "\033P0$r\033\\");
	/* a DECRQSS with parameter bytes (any, "0" and ";" too) is not one: xterm 379 answers nothing, and the
	 * reply after them is the next query's alone */
	t_feed(t, "\033P1$qm\033\\\033P0$qr\033\\\033P;$q q\033\\\033P$qm\033\\");
	CHECK_REPLY(t, "\033P1$r1;31;48:5:200m\033\\");
	/* colour queries */
	/* a query ended by BEL is answered with BEL, one ended by ST with ST (xterm; shell scripts read the
	 * reply up to the BEL they sent) */
	t_feed(t, "\033]4;1;?\033\\\033]4;1;#ff8000\033\\\033]4;1;?\007\033]10;?\007\033]11;rgb:12/34/56\007\033]11;?\007");
	CHECK_REPLY(t, "\033]4;1;rgb:cdcd/0000/0000\033\\\033]4;1;rgb:ffff/8080/0000\007"
		       "\033]10;rgb:e5e5/e5e5/e5e5\007\033]11;rgb:1212/3434/5656\007");
	t_feed(t, "\033]10;?;?\033\\\033]12;?\007");
	CHECK_REPLY(t, "\033]10;rgb:e5e5/e5e5/e5e5\033\\\033]11;rgb:1212/3434/5656\033\\"
		       "\033]12;rgb:e5e5/e5e5/e5e5\007");
	CHECK(grid_palette(t->g)[1] == 0xff8000 && grid_palette(t->g)[257] == 0x123456, "palette set");
	t_feed(t, "\033]104;1\007\033]111\007");
	CHECK(grid_palette(t->g)[1] == 0xcd0000 && grid_palette(t->g)[257] == 0, "palette reset");
	/* OSC 110-112 take no data: with some they are malformed and ignored, as xterm's do_osc ignores them
	 * ("unwanted data"); an empty one after the ';' is none */
	t_feed(t, "\033]10;#102030;#405060;#708090\007\033]110;x\007\033]111;1\007\033]112;#000000\007");
	CHECK(grid_palette(t->g)[256] == 0x102030 && grid_palette(t->g)[257] == 0x405060 &&
		      grid_palette(t->g)[258] == 0x708090,
	      "OSC 110-112 with data: %06x %06x %06x", grid_palette(t->g)[256], grid_palette(t->g)[257],
	      grid_palette(t->g)[258]);
	/* a code followed by anything but ';' is malformed and ignored (xterm's do_osc: "did not find
	 * semicolon"), a reset among them */
	t_feed(t, "\033]4;1;#010203\007\033]104x\007\033]110x\007\033]104 \007");
	CHECK(grid_palette(t->g)[1] == 0x010203 && grid_palette(t->g)[256] == 0x102030,
	      "OSC 104x, 110x: %06x %06x", grid_palette(t->g)[1], grid_palette(t->g)[256]);
	t_feed(t, "\033]104;1\007\033]110;\007\033]111;\007\033]112;\007");
	CHECK(grid_palette(t->g)[256] == 0xe5e5e5 && grid_palette(t->g)[257] == 0 && grid_palette(t->g)[258] == 0xe5e5e5,
	      "OSC 110-112 with an empty ';': %06x %06x %06x", grid_palette(t->g)[256], grid_palette(t->g)[257],
	      grid_palette(t->g)[258]);
	/* OSC 4 stops at the first pair in error, a bad spec or an index past the palette, as xterm's
	 * ChangeAnsiColorRequest does ("quit on any error"): the pairs before it apply, those after it do not */
	t_feed(t, "\033]4;2;#010101;1;bad;3;#030303\007\033]4;4;#040404;300;#000000;5;#050505\007");
	CHECK(grid_palette(t->g)[2] == 0x010101 && grid_palette(t->g)[3] == 0xcdcd00 &&
		      grid_palette(t->g)[4] == 0x040404 && grid_palette(t->g)[5] == 0xcd00cd,
	      "OSC 4 after an error: %06x %06x %06x %06x", grid_palette(t->g)[2], grid_palette(t->g)[3],
	      grid_palette(t->g)[4], grid_palette(t->g)[5]);
	/* the index is read as xterm's atoi reads it: an empty one is 0, digits after spaces and a '+' count and
	 * what follows them is skipped; a negative one is an error that ends the list */
	t_feed(t, "\033]4;;#111111\007\033]4;1;#222222;;?\007\033]4; +2x;#444444\007\033]4;-1;#555555;3;#666666\007");
	CHECK_REPLY(t, "\033]4;0;rgb:1111/1111/1111\007");
	CHECK(grid_palette(t->g)[0] == 0x111111 && grid_palette(t->g)[1] == 0x222222 &&
		      grid_palette(t->g)[2] == 0x444444 && grid_palette(t->g)[3] == 0xcdcd00,
	      "OSC 4 indexes: %06x %06x %06x %06x", grid_palette(t->g)[0], grid_palette(t->g)[1],
	      grid_palette(t->g)[2], grid_palette(t->g)[3]);
	t_feed(t, "\033]104\007");
	/* OSC 104 resets the colours listed up to the first item that is not a number followed by ';' or the
	 * end, as xterm's ResetAnsiColorRequest (strtol) does; an index past the palette is skipped */
	t_feed(t, "\033]4;1;#010101;2;#020202;3;#030303;4;#040404;5;#050505\007\033]104;1;;2\007\033]104;3x;4\007");
	t_feed(t, "\033]104; +5;300;-0\007");
	CHECK(grid_palette(t->g)[1] == 0xcd0000 && grid_palette(t->g)[2] == 0x020202 &&
		      grid_palette(t->g)[3] == 0x030303 && grid_palette(t->g)[4] == 0x040404 &&
		      grid_palette(t->g)[5] == 0xcd00cd,
	      "OSC 104 lists: %06x %06x %06x %06x %06x", grid_palette(t->g)[1], grid_palette(t->g)[2],
	      grid_palette(t->g)[3], grid_palette(t->g)[4], grid_palette(t->g)[5]);
	t_feed(t, "\033]104\007");
	/* XParseColor lowers the whole spec before it looks for the "rgb:" prefix */
	t_feed(t, "\033]4;6;RGB:F/8/0\007\033]4;7;Rgb:1/2/3\007");
	CHECK(grid_palette(t->g)[6] == 0xff8800 && grid_palette(t->g)[7] == 0x112233, "RGB: %06x %06x",
	      grid_palette(t->g)[6], grid_palette(t->g)[7]);
	/* rgbi: intensities, floats from 0 to 1 as Xlib's sscanf reads them (spaces, a sign, an exponent; ',' for
	 * the decimal point when '.' fails; anything after the third ignored), scaled to 0-255; one out of range is
	 * an error that ends the list */
	t_feed(t, "\033]4;6;rgbi:1/0.4/0;7;RGBI: +2e-1/.6/1x\007\033]4;8;rgbi:0,4/1/0\007");
	t_feed(t, "\033]4;9;rgbi:1.5/0/0;10;#0a0b0c\007\033]4;11;rgbi:0.4/0.4\007\033]4;12;rgbi:0.4/0,4/0\007");
	CHECK(grid_palette(t->g)[6] == 0xff6600 && grid_palette(t->g)[7] == 0x3399ff &&
		      grid_palette(t->g)[8] == 0x66ff00 && grid_palette(t->g)[9] == 0xff0000 &&
		      grid_palette(t->g)[10] == 0x00ff00 && grid_palette(t->g)[11] == 0xffff00 &&
		      grid_palette(t->g)[12] == 0x5c5cff,
	      "rgbi: %06x %06x %06x %06x %06x %06x %06x", grid_palette(t->g)[6], grid_palette(t->g)[7],
	      grid_palette(t->g)[8], grid_palette(t->g)[9], grid_palette(t->g)[10], grid_palette(t->g)[11],
	      grid_palette(t->g)[12]);
	/* X11 colour names, in any case and with or without their spaces, as XParseColor takes them */
	t_feed(t, "\033]4;6;red\007\033]4;7;Dark Slate Gray\007\033]4;8;GhostWhite;9;gray50\007\033]4;10;nocolour\007");
	CHECK(grid_palette(t->g)[6] == 0xff0000 && grid_palette(t->g)[7] == 0x2f4f4f &&
		      grid_palette(t->g)[8] == 0xf8f8ff && grid_palette(t->g)[9] == 0x7f7f7f &&
		      grid_palette(t->g)[10] == 0x00ff00,
	      "names: %06x %06x %06x %06x %06x", grid_palette(t->g)[6], grid_palette(t->g)[7],
	      grid_palette(t->g)[8], grid_palette(t->g)[9], grid_palette(t->g)[10]);
	/* the X server's own table (xorg-server 21.1 os/oscolor.c, which xterm 379's XParseColor asks): the CSS
	 * names it added (teal, crimson, rebecca purple) and the web and x11 forms of the four names CSS gives
	 * other colours, and not rgb.txt's DebianRed, which it does not have */
	t_feed(t, "\033]4;6;teal;7;Crimson;8;rebecca purple;9;WebGray;10;x11 maroon\007\033]4;11;DebianRed\007");
	CHECK(grid_palette(t->g)[6] == 0x008080 && grid_palette(t->g)[7] == 0xdc143c &&
		      grid_palette(t->g)[8] == 0x663399 && grid_palette(t->g)[9] == 0x808080 &&
		      grid_palette(t->g)[10] == 0xb03060 && grid_palette(t->g)[11] == 0xffff00,
	      "server's names: %06x %06x %06x %06x %06x %06x", grid_palette(t->g)[6], grid_palette(t->g)[7],
	      grid_palette(t->g)[8], grid_palette(t->g)[9], grid_palette(t->g)[10], grid_palette(t->g)[11]);
	t_feed(t, "\033]104\007");
	/* hostile names change nothing: 64 KiB of letters, a name one past the table's longest key, only spaces,
	 * a known name with a byte above 0x7f, an empty name; spaces around a known one are skipped (X's server
	 * refuses them: docs/conformance.md) */
	{
		static char big[70000];
		memset(big, 'a', sizeof(big) - 32);
		memcpy(big, "\033]4;11;", 8);
		strcpy(big + sizeof(big) - 32, "\007");
		t_feed(t, big);
		t_feed(t, "\033]4;12;lightgoldenrodyellowx\007\033]4;13;   \007\033]4;14;r\xc3\xa9" "d\007\033]4;15;\007");
		t_feed(t, "\033]4;5;  b l u e  \007");
		CHECK(grid_palette(t->g)[11] == 0xffff00 && grid_palette(t->g)[12] == 0x5c5cff &&
			      grid_palette(t->g)[13] == 0xff00ff && grid_palette(t->g)[14] == 0x00ffff &&
			      grid_palette(t->g)[15] == 0xffffff && grid_palette(t->g)[5] == 0x0000ff,
		      "hostile names: %06x %06x %06x %06x %06x %06x", grid_palette(t->g)[11], grid_palette(t->g)[12],
		      grid_palette(t->g)[13], grid_palette(t->g)[14], grid_palette(t->g)[15], grid_palette(t->g)[5]);
	}
	t_feed(t, "\033]12;orange\007\033]12;?\007\033]112\007");
	CHECK_REPLY(t, "\033]12;rgb:ffff/a5a5/0000\007");
	t_feed(t, "\033]4;1;?;256;?;2;?\007\033]104\007");
	CHECK_REPLY(t, "\033]4;1;rgb:cdcd/0000/0000\007");
	/* XTGETTCAP: the names are hex; TN and Co are answered as xterm answers them for xterm-256color, an
	 * unknown name is refused with its name echoed, and xterm stops at the first refusal */
	t_feed(t, "\033P+q544e\033\\\033P+q436f;636f6c6f7273\033\\");
	CHECK_REPLY(t, "\033P1+r544e=787465726D2D323536636F6C6F72\033\\\033P1+r436f=323536;636f6c6f7273=323536\033\\");
	t_feed(t, "\033P+q6b637575\033\\\033P+q544E;6b637575;436f\033\\\033P+qzz\033\\");
	CHECK_REPLY(t, "\033P0+r6b637575\033\\\033P1+r544E=787465726D2D323536636F6C6F72;6b637575\033\\"
		       "\033P0+r\033\\");
	/* hostile names: odd-length hex ends the reply bare, a name too long to decode is refused with its hex
	 * echoed, and a list of 800 known names stops where the reply would pass its bound (a few hundred bytes) */
	t_feed(t, "\033P+q544\033\\\033P+q;\033\\");
	CHECK_REPLY(t, "\033P0+r\033\\\033P0+r\033\\");
	{
		char q[4200], want[200];
		size_t n = (size_t)snprintf(q, sizeof(q), "\033P+q");
		for (int i = 0; i < 40; i++)
			n += (size_t)snprintf(q + n, sizeof(q) - n, "41");
		snprintf(q + n, sizeof(q) - n, "\033\\");
		t_feed(t, q);
		n = (size_t)snprintf(want, sizeof(want), "\033P0+r");
		for (int i = 0; i < 40; i++)
			n += (size_t)snprintf(want + n, sizeof(want) - n, "41");
		snprintf(want + n, sizeof(want) - n, "\033\\");
		CHECK_REPLY(t, want);
		/* the longest unknown name still echoed whole: its reply ends with ST, not cut before it */
		char big[600];
		memset(big, '4', 506);
		big[506] = '\0';
		snprintf(q, sizeof(q), "\033P+q%s\033\\", big);
		t_feed(t, q);
		CHECK(t->reply_len == 4 + 3 + 506 && !strncmp(t->reply, "\033P0+r4444", 9) &&
			      !strcmp(t->reply + t->reply_len - 2, "\033\\"),
		      "506-digit name: a reply of %zu bytes ending %02x %02x", t->reply_len,
		      (unsigned)(uint8_t)t->reply[t->reply_len - 2], (unsigned)(uint8_t)t->reply[t->reply_len - 1]);
		t->reply_len = 0;
		t->reply[0] = '\0';
		n = (size_t)snprintf(q, sizeof(q), "\033P+q");
		for (int i = 0; i < 800; i++)
			n += (size_t)snprintf(q + n, sizeof(q) - n, "436f;");
		snprintf(q + n, sizeof(q) - n, "\033\\");
		t_feed(t, q);
		CHECK(t->reply_len > 400 && t->reply_len < 520 && !strncmp(t->reply, "\033P1+r436f=323536;", 17) &&
			      !strcmp(t->reply + t->reply_len - 2, "\033\\"),
		      "800 names: a bounded reply of %zu bytes", t->reply_len);
		t->reply_len = 0;
		t->reply[0] = '\0';
	}
	/* DECID (ESC Z) is answered as DA1 */
	t_feed(t, "\033Z");
	CHECK_REPLY(t, "\033[?62;22c");
	/* OSC 52 queries are refused by default (test_clipboard_read: when allowed) */
	t_feed(t, "\033]52;c;?\007");
	CHECK_REPLY(t, "");
	t_free(t);
}

/* The conformance level DECRQSS reports for DECSCL (`" p`) is the one DA1 claims: an application reading
 * either must find the same terminal (xterm ctlseqs DECRQSS: "Pt ... 6 1 ; 1 \" p ... the level", DA1
 * "Ps = 6 2 -> VT220"; xterm answers 6<level>;1 with 7-bit controls, the level of its decTerminalID). */
static void test_conformance_level(void)
{
	struct t_term *t = t_new(80, 24, 0);
	t_feed(t, "\033[c");
	int da_level = 0;
	CHECK(sscanf(t->reply, "\033[?%d;", &da_level) == 1, "DA1 \"%s\"", t->reply + 1);
	t->reply_len = 0;
	t->reply[0] = '\0';
	t_feed(t, "\033P$q\"p\033\\");
	char want[32];
	snprintf(want, sizeof(want), "\033P1$r%d;1\"p\033\\", da_level);
	CHECK_REPLY(t, want);
	/* DECSCL to that level is a soft reset, as DECSTR (xterm; the VT220 manual and DEC STD 070 say soft), the
	 * screen kept; a level above it is refused and changes nothing, and so is 61 (a VT100: not emulated) */
	t_feed(t, "\033[HA\033[4h\033[1m\033[3;20r\033[65;1\"p\033[61\"p\033[4$p\033P$qm\033\\");
	CHECK_REPLY(t, "\033[4;1$y\033P1$r1m\033\\");
	snprintf(want, sizeof(want), "\033[%d;1\"p\033[4$p\033P$qm\033\\\033P$qr\033\\", da_level);
	t_feed(t, want);
	CHECK_REPLY(t, "\033[4;2$y\033P1$r0m\033\\\033P1$r1;24r\033\\");
	CHECK_ROW(t, 0, "A");
	t_free(t);
}

/* DECRQSS for DECSCA (`" q`) tells whether characters written now are protected: 1 or 0, as xterm answers.
 * DECSCA 2 means "not protected" as 0 does (VT510 DECSCA), and the protection DECRC brings back is what the
 * report gives. */
static void test_decsca_report(void)
{
	struct t_term *t = t_new(20, 4, 0);
	t_feed(t, "\033P$q\"q\033\\\033[1\"q\033P$q\"q\033\\\033[2\"q\033P$q\"q\033\\");
	CHECK_REPLY(t, "\033P1$r0\"q\033\\\033P1$r1\"q\033\\\033P1$r0\"q\033\\");
	/* saved protected, changed, restored */
	t_feed(t, "\033[1\"q\0337\033[0\"q\0338\033P$q\"q\033\\");
	CHECK_REPLY(t, "\033P1$r1\"q\033\\");
	t_free(t);
}

/* DECRQSS for the page's size (xterm ctlseqs DECRQSS: DECSLPP "t", DECSCPP "$|", DECSNLS "*|"): the screen's lines
 * and columns; a page is the screen. xterm 379 answers all three, also at a VT220's level, where we refused them
 * and an application sizing its pages from them found none. xterm's DECSNLS is the screen's lines, as here; its
 * DECSLPP is one less than them and 24 at least, its DECSCPP 80 whatever the width (80 or 132 by DECCOLM, which a
 * console does not have): tests/tools/xterm-replies.py at 100x30 gives "29t", "80$|", "30*|" (docs/conformance.md). */
static void test_decrqss_page_size(void)
{
	struct t_term *t = t_new(30, 7, 0);
	t_feed(t, "\033P$qt\033\\\033P$q$|\033\\\033P$q*|\033\\");
	CHECK_REPLY(t, "\033P1$r7t\033\\\033P1$r30$|\033\\\033P1$r7*|\033\\");
	t_free(t);
}

/* DECSTR puts the cursor back to its power-on style, a steady block, as xterm 379 does (checked with
 * tests/tools/xterm-replies.py: after "CSI 4 q" or DECSET 12 and DECSTR, DECRQSS answers "2 q" and DECRQM 12 "2"),
 * as RIS does: an editor that set a bar cursor and a "reset" that sends DECSTR left the shell with a blinking bar. */
static void test_decstr_cursor_style(void)
{
	struct t_term *t = t_new(20, 4, 0);
	t_feed(t, "\033[5 q\033[!p\033P$q q\033\\\033[?12$p");
	CHECK_REPLY(t, "\033P1$r2 q\033\\\033[?12;2$y");
	struct grid_cursor c;
	grid_get_cursor(t->g, &c);
	CHECK(c.shape == GRID_CURSOR_BLOCK && !c.blink, "after DECSTR: shape %d blink %d", c.shape, c.blink);
	t_feed(t, "\033[?12h\033[!p\033[?12$p");
	CHECK_REPLY(t, "\033[?12;2$y");
	t_free(t);
}

/* DECSTR turns modifyOtherKeys off, as xterm 379's soft reset does (tests/tools/xterm-replies.py: after
 * "CSI > 4 ; 2 m" and DECSTR, XTQMODKEYS answers "CSI > 4 ; 0 m"), as RIS does: after a program that had set it
 * and a soft reset, Ctrl+letters in the shell came as "CSI 27 ; 5 ; ... ~" sequences it does not read. */
static void test_decstr_modify_other_keys(void)
{
	struct t_term *t = t_new(20, 4, 0);
	t_feed(t, "\033[>4;2m\033[!p\033[?4m");
	CHECK_REPLY(t, "\033[>4;0m");
	struct grid_modes m;
	grid_get_modes(t->g, &m);
	CHECK(m.keys.modify_other_keys == 0, "modifyOtherKeys after DECSTR: %d", m.keys.modify_other_keys);
	t_free(t);
}

/* DEC's device status reports (xterm ctlseqs "CSI ? Ps n"), answered as xterm answers them at the VT220 level DA1
 * claims, for a console with no printer, no DEC locator and no user-defined keys to lock: printer (15) "no
 * printer" 13, UDK (25) "unlocked" 20, keyboard (26) 27;1 (North American); the VT330's locator status (55)
 * "no locator" 53 and type (56) 57;0 "cannot identify". The ANSI forms and other numbers get nothing. */
static void test_dec_status_reports(void)
{
	struct t_term *t = t_new(20, 4, 0);
	t_feed(t, "\033[?15n\033[?25n\033[?26n\033[?55n\033[?56n");
	CHECK_REPLY(t, "\033[?13n\033[?20n\033[?27;1n\033[?53n\033[?57;0n");
	t_feed(t, "\033[15n\033[25n\033[26n\033[55n\033[?99n");
	CHECK_REPLY(t, "");
	t_free(t);
}

/* XTWINOPS reports on a console (xterm ctlseqs "CSI Ps ; Ps ; Ps t"): the window is never iconified (11: CSI 1 t),
 * sits at 0;0 (13, and 13;2 for the text area: CSI 3 ; x ; y t), and is the screen: the screen's size (15 in
 * pixels, 19 in characters) is the text area's (14, 18). The title and icon label reports (20, 21) stay
 * refused, as xterm's default disallowedWindowOps refuses them. */
static void test_window_reports(void)
{
	struct t_term *t = t_new(80, 24, 0);
	t_feed(t, "\033[11t\033[13t\033[13;2t");
	CHECK_REPLY(t, "\033[1t\033[3;0;0t\033[3;0;0t");
	t_feed(t, "\033[14t\033[14;2t\033[15t\033[18t\033[19t");
	CHECK_REPLY(t, "\033[4;384;640t\033[4;384;640t\033[5;384;640t\033[8;24;80t\033[9;24;80t");
	t_feed(t, "\033]2;secret\007\033[20t\033[21t");
	CHECK_REPLY(t, "");
	t_free(t);
}

/* DECRQM for modes a console has fixed (xterm ctlseqs DECRQM: 3 permanently set, 4 permanently reset), as xterm
 * answers them: SRM (12) is set, no local echo (VT510 SRM: "set: local echo off"); KAM (2) reset, the keyboard
 * is never locked; the ECMA-48 modes xterm reports permanently reset (GATM 1, CRM 3, SRTM 5, VEM 7, HEM 10,
 * PUM 11, FEAM..TSM 13..18, EBM 19) are; DECANM (?2) is set, there is no VT52 mode to leave to; DECSCLM
 * (?4) reset, scrolling is never smooth. */
static void test_decrqm_fixed_modes(void)
{
	struct t_term *t = t_new(20, 4, 0);
	t_feed(t, "\033[12$p\033[2$p\033[?2$p\033[?4$p");
	CHECK_REPLY(t, "\033[12;3$y\033[2;4$y\033[?2;3$y\033[?4;4$y");
	static const int ecma[] = {1, 3, 5, 7, 10, 11, 13, 14, 15, 16, 17, 18, 19};
	for (size_t i = 0; i < sizeof(ecma) / sizeof(ecma[0]); i++) {
		char q[16], want[16];
		snprintf(q, sizeof(q), "\033[%d$p", ecma[i]);
		snprintf(want, sizeof(want), "\033[%d;4$y", ecma[i]);
		t_feed(t, q);
		CHECK_REPLY(t, want);
	}
	/* setting them changes nothing */
	t_feed(t, "\033[12l\033[?2l\033[?4h\033[12$p\033[?2$p\033[?4$p");
	CHECK_REPLY(t, "\033[12;3$y\033[?2;3$y\033[?4;4$y");
	/* an omitted mode is mode 0 (DEC STD 070: an omitted parameter is 0), which no terminal has: answered 0
	 * (not recognised), the number echoed as 0 (xterm 379 echoes 65535, docs/conformance.md; found
	 * unreached by tools/coverage, session 54) */
	t_feed(t, "\033[?$p\033[$p");
	CHECK_REPLY(t, "\033[?0;0$y\033[0;0$y");
	t_free(t);
}

/* DECRQM for every DEC private mode DECSET sets: 1 once set, 2 once reset, each mode's own state (session 55's
 * mutation audit, docs/coverage.md: 1007 reported from 1004's state passed every test). An application that
 * asks before it sets (a shell's DECRQM of 2004, an editor's of 2026) would read another mode's state. */
static void test_decrqm_round_trip(void)
{
	static const int modes[] = {1,    5,    6,    7,    9,    12,   25,   45,   1045, 66,   67,   69,   1000,
				    1002, 1003, 1004, 1005, 1006, 1015, 1016, 1007, 1036, 1039, 2004, 2026, 47,   1047,
				    1049};
	struct t_term *t = t_new(20, 4, 0);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		char q[48], want[32];
		snprintf(q, sizeof(q), "\033[?%dh\033[?%d$p", modes[i], modes[i]);
		snprintf(want, sizeof(want), "\033[?%d;1$y", modes[i]);
		t_feed(t, q);
		CHECK_REPLY(t, want);
		snprintf(q, sizeof(q), "\033[?%dl\033[?%d$p", modes[i], modes[i]);
		snprintf(want, sizeof(want), "\033[?%d;2$y", modes[i]);
		t_feed(t, q);
		CHECK_REPLY(t, want);
	}
	t_free(t);
	/* 1048: set once the screen's cursor is saved */
	t = t_new(20, 4, 0);
	t_feed(t, "\033[?1048$p\0337\033[?1048$p");
	CHECK_REPLY(t, "\033[?1048;2$y\033[?1048;1$y");
	t_free(t);
}

/* CPR in origin mode with the cursor above the region (DECRC brought it back there after DECSTBM moved the
 * region down): row 1, never 0 or less (session 55's mutation audit: a clamp to 0 passed every test). */
static void test_cpr_above_region(void)
{
	struct t_term *t = t_new(20, 24, 0);
	t_feed(t, "\033[5;20r\033[?6h\033[1;4H\0337\033[10;20r\0338\033[6n\033[?6n");
	CHECK_REPLY(t, "\033[1;4R\033[?1;4R");
	t_free(t);
}

/* DECRQSS for DECSLRM ("s"): the left and right margins, 1-based (session 55's mutation audit: the right margin
 * answered 0-based passed every test); the whole width when none are set. */
static void test_decrqss_lr_margins(void)
{
	struct t_term *t = t_new(20, 4, 0);
	t_feed(t, "\033P$qs\033\\\033[?69h\033[3;10s\033P$qs\033\\");
	CHECK_REPLY(t, "\033P1$r1;20s\033\\\033P1$r3;10s\033\\");
	/* a right margin one past the screen is the screen's edge (not a column past it), and margins one column
	 * wide are refused as xterm refuses them (both left out passed every test too) */
	t_feed(t, "\033[2;21s\033P$qs\033\\\033[5;5s\033P$qs\033\\");
	CHECK_REPLY(t, "\033P1$r2;20s\033\\\033P1$r2;20s\033\\");
	t_free(t);
}

/* DEC's status reports as xterm 379 answers them whatever its level (tests/tools/xterm-replies.py, dsr-?5n and
 * dsr-?53n): the operating status asked in the DEC form (CSI ? 5 n) is answered in that form, CSI ? 0 n ("no
 * malfunction", ECMA-48 8.3.35 DSR), and CSI ? 53 n is the VT340's name for the locator status (CSI ? 55 n),
 * answered as that one: CSI ? 53 n, no locator. */
static void test_dec_status_aliases(void)
{
	struct t_term *t = t_new(20, 4, 0);
	t_feed(t, "\033[?5n");
	CHECK_REPLY(t, "\033[?0n");
	t_feed(t, "\033[?53n");
	CHECK_REPLY(t, "\033[?53n");
	t_feed(t, "\033[5n");
	CHECK_REPLY(t, "\033[0n");
	t_free(t);
}

/* Controls inside an OSC (xterm ctlseqs "Operating System Commands": the text is printable; ECMA-48 8.3.89 allows
 * format effectors only). xterm 379 keeps them in the string and ignores an OSC other than a title (0, 1, 2)
 * whose text holds one, and reads the text only up to a NUL (tests/tools/xterm-replies.py, measured): a query
 * with a line feed, or split by one into another number, gets no answer. The DEC parser's rule (C0 ignored
 * inside the string) joined "1", LF, "0" into OSC 10 and answered it. A title shows a control as '?'. */
static void test_osc_controls(void)
{
	struct t_term *t = t_new(20, 4, 0);
	t_feed(t, "\033]10;?\a");
	CHECK(strncmp(t->reply, "\033]10;rgb:", 9) == 0, "plain query answered: \"%s\"", t->reply + 1);
	t->reply_len = 0, t->reply[0] = '\0';
	t_feed(t, "\033]10;?\n\a");
	CHECK_REPLY(t, "");
	t_feed(t, "\033]1\n0;?\a");
	CHECK_REPLY(t, "");
	t_feed(t, "\033]10;?\x05\033\\");
	CHECK_REPLY(t, "");
	t_feed(t, "\033]4;1;?;\n2;?\a");
	CHECK_REPLY(t, "");
	t_feed(t, "\033]12;\r?\a");
	CHECK_REPLY(t, "");
	/* a NUL ends the text: the query before it is answered, the number cut by it is none */
	t_feed_bytes(t->g, "\033]11;?\0\a", 8);
	CHECK(strncmp(t->reply, "\033]11;rgb:", 9) == 0, "query before a NUL answered: \"%s\"", t->reply + 1);
	t->reply_len = 0, t->reply[0] = '\0';
	t_feed_bytes(t->g, "\033]1\0" "0;?\a", 8);
	CHECK_REPLY(t, "");
	/* a colour set with a control in it changes nothing */
	const uint32_t before = grid_palette(t->g)[1];
	t_feed(t, "\033]4;1;rgb:12/34/\n56\a");
	CHECK(grid_palette(t->g)[1] == before, "colour 1 set through a line feed: %06x", grid_palette(t->g)[1]);
	/* a link with a control in its URI is not applied */
	t_feed(t, "\033]8;;http://a/\nb\033\\x");
	CHECK(grid_row(t->g, 0)[0].link == 0, "a link through a line feed");
	/* a title keeps its text, a control shown as '?' */
	t_feed(t, "\033]2;a\nb\a");
	CHECK(strcmp(grid_title(t->g), "a?b") == 0, "title \"%s\"", grid_title(t->g));
	t_free(t);
}

/* A DCS whose text starts with '$' and is no DECRQSS ('$' then anything but a lone 'q': DECRSPS without its
 * parameter, final bytes nothing answers, a second intermediate) is answered by xterm 379's do_dcs with a CAN
 * byte alone, measured with tests/tools/xterm-replies.py --case for each below; one with parameter bytes or
 * another intermediate is answered with nothing, in xterm as here. Here nothing was answered: a program
 * waiting for a reply to it waited for its time-out, in xterm it has one at once. */
static void test_dcs_dollar_can(void)
{
	/* the last four: a C0 control or DEL in the header after the '$' (xterm 379's text still starts with '$'
	 * and is no DECRQSS; this parser dropped such a header: nothing) */
	/* then a parameter byte, a private marker or a third intermediate after the '$', or the string's end in
	 * the header (this parser dropped such a header too: nothing) */
	static const char *const can[] = {"$p1", "$p", "$w", "$x", "$u", "$a", "$}", "$t", "$!q", "$r m",
					  "$\nqm", "$\177qm", "$\rq", "$!\tq", "$1q", "$1qm", "$;qm", "$0q",
					  "$?qm", "$ 1q", "$!1q", "$1$qm", "$1p", "$1t", "$:q", "$1\nq", "$!\"q",
					  "$$$qm", "$!\"1q", "$!\"#q", "$1", "$", "$!"};
	static const char *const none[] = {"1$p", "0$w", ";$p", "2$u", "1$s", "+x", "x", "!x", "\"x", "?$p",
					   "\n$qm", "1$\nqm"}; /* the last two: a control before the '$', after a parameter */
	struct t_term *t = t_new(80, 24, 0);
	for (size_t i = 0; i < sizeof(can) / sizeof(can[0]); i++) {
		t_feedf(t, "\033P%s\033\\\033[5n", can[i]);
		CHECK(strcmp(t->reply, "\030\033[0n") == 0, "DCS %s: reply \"%s\"", can[i], t->reply + (t->reply[0] == 27));
		t->reply_len = 0;
		t->reply[0] = '\0';
	}
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		t_feedf(t, "\033P%s\033\\\033[5n", none[i]);
		CHECK_REPLY(t, "\033[0n");
	}
	/* a control in the header after the '$' and a NUL in the data: nothing (the NUL voids it all) */
	grid_feed(t->g, (const uint8_t *)"\033P$\nq\0m\033\\\033[5n", 13);
	CHECK_REPLY(t, "\033[0n");
	grid_feed(t->g, (const uint8_t *)"\033P$1\0q\033\\\033[5n", 12);
	CHECK_REPLY(t, "\033[0n");
	grid_feed(t->g, (const uint8_t *)"\033P$1q\0\033\\\033[5n", 12);
	CHECK_REPLY(t, "\033[0n");
	/* a '$' header abandoned by ESC and another sequence: nothing, the sequence acts */
	t_feed(t, "\033P$\033[5n");
	CHECK_REPLY(t, "\033[0n");
	/* DECRQSS still answers, a NUL still makes the DCS ignored whole (xterm) */
	t_feed(t, "\033P$qm\033\\");
	CHECK_REPLY(t, "\033P1$r0m\033\\");
	grid_feed(t->g, (const uint8_t *)"\033P$p\0\033\\\033[5n", 11);
	CHECK_REPLY(t, "\033[0n");
	t_free(t);
}

int main(void)
{
	test_replies();
	test_conformance_level();
	test_decsca_report();
	test_decstr_cursor_style();
	test_decstr_modify_other_keys();
	test_decrqss_page_size();
	test_dec_status_reports();
	test_window_reports();
	test_decrqm_fixed_modes();
	test_dec_status_aliases();
	test_decrqm_round_trip();
	test_cpr_above_region();
	test_decrqss_lr_margins();
	test_osc_controls();
	test_dcs_dollar_can();
	return t_done("grid-replies");
}
