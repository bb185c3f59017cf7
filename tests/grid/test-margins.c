/* tests/grid/test-margins.c: editing under left/right and top/bottom margins, tab stops and character sets,
 * each case as xterm shows it (ctlseqs; xterm's cursor.c, util.c, tabs.c and charproc.c where ctlseqs is
 * silent). The screen starts filled with text, so that what moved, scrolled or stayed can be seen. */
#include <stdio.h>

#include "harness.h"

/* A 10x6 screen of distinct rows, DECLRMM on with margins 3..7 (1-based) and DECSTBM 2..5. */
static struct t_term *margins_screen(void)
{
	struct t_term *t = t_new(10, 6, 0);
	t_feed(t, "0123456789\r\nabcdefghij\r\nABCDEFGHIJ\r\nklmnopqrst\r\nKLMNOPQRST\r\nuvwxyz!@#$");
	t_feed(t, "\033[2;5r\033[?69h\033[3;7s");
	return t;
}

/* NEL is IND then CR (xterm's CASE_NEL: xtermIndex, then CarriageReturn): at the bottom margin with the
 * cursor right of the right margin nothing scrolls, as for IND there, and the cursor goes to the left margin
 * of the same row. Doing CR first put the cursor inside the margins, and the index then scrolled them. */
static void test_nel_outside_margins(void)
{
	struct t_term *t = margins_screen();
	t_feed(t, "\033[5;9H\033E");
	CHECK_ROW(t, 1, "abcdefghij");
	CHECK_ROW(t, 4, "KLMNOPQRST");
	CHECK_CURSOR(t, 2, 4);
	/* inside the margins it scrolls them, as before */
	t_feed(t, "\033[5;4H\033E");
	CHECK_ROW(t, 1, "abCDEFGhij");
	CHECK_ROW(t, 4, "KL     RST");
	CHECK_CURSOR(t, 2, 4);
	t_free(t);
}

/* Autowrap indexes from the column it wraps at, then goes to the left margin (xterm's WrapLine: xtermIndex,
 * then the left margin): text written right of the right margin (up to the screen's edge) that wraps at the
 * bottom margin does not scroll the region, the index being outside the margins there, and goes on at the
 * left margin of the same row. Each path that wraps: a run of ASCII, one character at a time, a run after a
 * pending wrap, a wide character, code points through the mapped path (DEC graphics). */
static void test_wrap_outside_margins(void)
{
	static const char *const text[] = {"XYZW", "X", "\033(0XYZW\033(B"};
	for (int k = 0; k < 3; k++) {
		struct t_term *t = margins_screen();
		t_feed(t, "\033[5;9H");
		if (k == 1) {
			t_feed(t, "X");
			t_feed(t, "Y");
			t_feed(t, "Z");
			t_feed(t, "W");
		} else {
			t_feed(t, text[k]);
		}
		CHECK(strcmp(t_row(t, 1), "abcdefghij") == 0, "path %d: row 1 \"%s\"", k, t_row(t, 1));
		CHECK(strcmp(t_row(t, 4), "KLZWOPQRXY") == 0, "path %d: row 4 \"%s\"", k, t_row(t, 4));
		CHECK_CURSOR(t, 4, 4);
		t_free(t);
	}
	/* a wide character that does not fit before the screen's edge wraps the same way */
	struct t_term *t = margins_screen();
	t_feed(t, "\033[5;10H\xe4\xb8\xad");
	CHECK_ROW(t, 1, "abcdefghij");
	CHECK_ROW(t, 4, "KL\xe4\xb8\xadOPQRST");
	CHECK_CURSOR(t, 4, 4);
	t_free(t);
	/* inside the margins the wrap at the bottom margin scrolls them, as before */
	t = margins_screen();
	t_feed(t, "\033[5;6HXYZW");
	CHECK_ROW(t, 3, "klMNOXYrst");
	CHECK_ROW(t, 4, "KLZW   RST");
	t_free(t);
}

/* DECBI (ESC 6) and DECFI (ESC 9), VT420 (xterm ctlseqs; xterm's xtermColIndex): inside the margins they move
 * the cursor a column left or right; at the left margin DECBI shifts the region's columns right by one (a
 * blank column comes in at the left margin), at the right margin DECFI shifts them left (the column at the left
 * margin goes). They were ignored. */
static void test_decbi_decfi(void)
{
	struct t_term *t = margins_screen();
	t_feed(t, "\033[3;5H\0336X");
	CHECK_CURSOR(t, 4, 2);
	CHECK_ROW(t, 2, "ABCXEFGHIJ");
	t_feed(t, "\033[3;3H\0336");
	CHECK_CURSOR(t, 2, 2);
	CHECK_ROW(t, 0, "0123456789");
	CHECK_ROW(t, 1, "ab cdefhij");
	CHECK_ROW(t, 2, "AB CXEFHIJ");
	CHECK_ROW(t, 4, "KL MNOPRST");
	CHECK_ROW(t, 5, "uvwxyz!@#$");
	t_feed(t, "\033[3;6H\0339Y");
	CHECK_ROW(t, 2, "AB CXEYHIJ");
	t_feed(t, "\033[3;7H\0339");
	CHECK_CURSOR(t, 6, 2);
	CHECK_ROW(t, 1, "abcdef hij");
	CHECK_ROW(t, 2, "ABCXEY HIJ");
	CHECK_ROW(t, 4, "KLMNOP RST");
	/* outside the margins: only a move, never past the screen's edge, and nothing at it */
	t_feed(t, "\033[3;10H\0339\0339");
	CHECK_CURSOR(t, 9, 2);
	t_feed(t, "\033[3;1H\0336\0336");
	CHECK_CURSOR(t, 0, 2);
	CHECK_ROW(t, 2, "ABCXEY HIJ");
	/* and short of the edge a move by one (current xterm's xtermColIndex, util.c 1.957: CursorForward, CursorBack) */
	t_feed(t, "\033[3;9H\0339");
	CHECK_CURSOR(t, 9, 2);
	t_feed(t, "\033[3;2H\0336");
	CHECK_CURSOR(t, 0, 2);
	CHECK_ROW(t, 2, "ABCXEY HIJ");
	t_free(t);
}

/* DECST8C (CSI ? 5 W, VT510; xterm ctlseqs "Reset tab stops to start with column 9, every 8 columns"): after
 * TBC 3 and an HTS of its own, HT goes by 8 columns again and the HTS is gone. It was ignored. */
static void test_decst8c(void)
{
	struct t_term *t = t_new(30, 2, 0);
	t_feed(t, "\033[3g\033[5G\033H\033[?5W\r\ta\tb\tc");
	CHECK_ROW(t, 0, "        a       b       c");
	/* only Ps 5 */
	t_feed(t, "\033[3g\033[?4W\r\n\tx");
	CHECK_ROW(t, 1, "                             x");
	t_free(t);
}

/* A single shift (SS2, SS3) applies to the next character with a width, one only (xterm: a combining mark joins
 * the character before it without taking the shift, a wide character takes it). It was spent on a combining
 * mark, and the character after the mark came out of GL unmapped. */
static void test_single_shift(void)
{
	struct t_term *t = t_new(10, 3, 0);
	/* G2 and G3 DEC graphics; a mark after SS2, then q from G2, then q from GL (ASCII) */
	t_feed(t, "\033*0\033+0e\033N\xcc\x81qq");
	CHECK_ROW(t, 0, "e\xcc\x81\xe2\x94\x80q");
	/* the same by SS3, with the mark in a run of text that follows */
	t_feed(t, "\r\na\033O\xcc\x81xx");
	CHECK_ROW(t, 1, "a\xcc\x81\xe2\x94\x82x");
	/* a wide character takes the shift: the q after it is ASCII */
	t_feed(t, "\r\n\033N\xe4\xb8\xadq");
	CHECK_ROW(t, 2, "\xe4\xb8\xadq");
	t_free(t);
	/* REP repeats the character as GL shows it, not as the shift did (xterm repeats the character received
	 * through GL's set): it repeated the shifted line-drawing character */
	t = t_new(10, 2, 0);
	t_feed(t, "\033*0\033Nq\033[2b");
	CHECK_ROW(t, 0, "\xe2\x94\x80qq");
	/* with DEC graphics in GL itself REP repeats the mapped character, as before */
	t_feed(t, "\r\n\033(0q\033[2b\033(B");
	CHECK_ROW(t, 1, "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80");
	t_free(t);
}

/* HPR and VPR are relative moves through CUP's clamping (xterm: CursorSet of the position plus the count): in
 * origin mode they stop at the right and bottom margins, as CUP does; without it, at the screen's edges.
 * They went to the screen's edges in origin mode too, out of the region the application addresses. */
static void test_hpr_vpr_origin(void)
{
	struct t_term *t = margins_screen();
	t_feed(t, "\033[?6h\033[2;2H\033[9a");
	CHECK_CURSOR(t, 6, 2);
	t_feed(t, "\033[9e");
	CHECK_CURSOR(t, 6, 4);
	t_feed(t, "\033[1;1H\033[2a\033[1eX");
	CHECK_CURSOR(t, 5, 2);
	CHECK_ROW(t, 2, "ABCDXFGHIJ");
	/* without origin mode: the screen's edges, margins or not */
	t_feed(t, "\033[?6l\033[2;2H\033[20a\033[20e");
	CHECK_CURSOR(t, 9, 5);
	t_free(t);
}

/* DECRC brings origin mode back and places the cursor as CUP would in it (xterm's CursorRestore: CursorSet with
 * the origin flag): a position saved below or right of margins set since stops at the bottom and right
 * margins. The cursor came back outside the region while origin mode was on. */
static void test_decrc_origin_clamp(void)
{
	struct t_term *t = margins_screen();
	t_feed(t, "\033[?6h\033[4;5H\0337\033[2;3r\033[2;4s\0338");
	CHECK_CURSOR(t, 3, 2);
	/* above and left of the margins it stays (xterm clamps only at the far ends) */
	t_feed(t, "\033[r\033[s\0337\033[4;6r\0338X");
	CHECK_CURSOR(t, 1, 0);
	CHECK_ROW(t, 0, "X123456789");
	t_free(t);
}

/* SL and SR (CSI Ps SP @, CSI Ps SP A) shift the region's margin columns only while the cursor is inside the
 * margins, as DECIC and DECDC (xterm's xtermColScroll tests the cursor's row and column for all four): right
 * of the right margin they shifted the columns all the same. */
static void test_sl_sr_outside_margins(void)
{
	struct t_term *t = margins_screen();
	t_feed(t, "\033[3;9H\033[ @\033[3;1H\033[ A");
	CHECK_ROW(t, 1, "abcdefghij");
	CHECK_ROW(t, 2, "ABCDEFGHIJ");
	t_feed(t, "\033[3;4H\033[ @");
	CHECK_ROW(t, 1, "abdefg hij");
	CHECK_ROW(t, 4, "KLNOPQ RST");
	t_free(t);
}

/* CPR in origin mode counts from the margins' corner, and from 1 at least: a cursor above or left of the
 * margins (DECRC brings it back there, see test_decrc_origin_clamp) reports row or column 1 (xterm 379 answers
 * 0, or 65535 for -1: docs/conformance.md). It reported 0 or less ("-2;-1"). */
static void test_cpr_origin_outside(void)
{
	struct t_term *t = t_new(10, 6, 0);
	t_feed(t, "\033[?6h\0337\033[4;6r\033[?69h\033[3;7s\0338\033[6n");
	CHECK_REPLY(t, "\033[1;1R");
	t_feed(t, "\033[2;3H\033[6n");
	CHECK_REPLY(t, "\033[2;3R");
	t_free(t);
}

/* Insert mode (IRM) makes room only inside the left/right margins (xterm's WriteText calls InsertChar, which
 * does nothing outside them): right or left of the margins the character overwrites. The cells were shifted
 * there, to the screen's edge or to the right margin, losing the last one. */
static void test_irm_outside_margins(void)
{
	struct t_term *t = margins_screen();
	t_feed(t, "\033[4h\033[2;9HX\033[3;1HY\033[4;4HZ");
	CHECK_ROW(t, 1, "abcdefghXj");
	CHECK_ROW(t, 2, "YBCDEFGHIJ");
	CHECK_ROW(t, 3, "klmZnoprst");
	t_free(t);
}

/* Whether row y's wide characters are whole: every left half (width 2) followed by its right half (width 0),
 * every right half after a left half. */
static int t_pairs_whole(struct t_term *t, int y)
{
	const struct grid_cell *c = grid_row(t->g, y);
	int cols = grid_cols(t->g);
	for (int x = 0; x < cols; x++) {
		if (c[x].width == 2 && (x + 1 == cols || c[x + 1].width != 0))
			return 0;
		if (c[x].width == 0 && (x == 0 || c[x - 1].width != 2))
			return 0;
	}
	return 1;
}

/* A wide character cut by a margin (one half inside, one outside) is blanked whole when the columns between
 * the margins move (xterm: "If we shift part of a multi-column character, fill the rest of it with blanks"):
 * DCH, DECDC, SL, DECFI, SU, SD, DL and IL moved its inside half alone, leaving a wide cell without its right
 * half, drawn over the character next to it (row "ABcdef" U+4E2D "HIJ" after SU). */
static void test_wide_cut_by_margin(void)
{
	static const char *const ops[] = {
		"\033[1;4H\033[P",  "\033[1;4H\033[\047~", "\033[1;4H\033[ @", "\033[1;7H\0339",
		"\033[1;4H\033[@",  "\033[1;4H\033[\047}", "\033[1;1H\033[S",  "\033[2;1H\033[T",
		"\033[1;3H\033[M",  "\033[1;3H\033[L",
	};
	for (int k = 0; k < (int)(sizeof(ops) / sizeof(ops[0])); k++) {
		for (int wide_row = 0; wide_row < 2; wide_row++) {
			struct t_term *t = t_new(10, 3, 0);
			/* U+4E2D at columns 7-8 (1-based), across the right margin 7 */
			t_feed(t, wide_row ? "ABCDEFGHIJ\r\nabcdef\xe4\xb8\xadij" : "abcdef\xe4\xb8\xadij\r\nABCDEFGHIJ");
			t_feed(t, "\033[?69h\033[3;7s");
			t_feed(t, ops[k]);
			for (int y = 0; y < 3; y++)
				CHECK(t_pairs_whole(t, y), "op %d, wide on row %d: row %d \"%s\" has half a wide character", k,
				      wide_row, y, t_row(t, y));
			t_free(t);
		}
	}
	/* the same across the left margin (U+4E2D at columns 2-3, the left margin 3) */
	for (int k = 0; k < (int)(sizeof(ops) / sizeof(ops[0])); k++) {
		struct t_term *t = t_new(10, 3, 0);
		t_feed(t, "ABCDEFGHIJ\r\na\xe4\xb8\xad" "defghij\033[?69h\033[3;7s");
		t_feed(t, ops[k]);
		for (int y = 0; y < 3; y++)
			CHECK(t_pairs_whole(t, y), "op %d, left margin: row %d \"%s\" has half a wide character", k, y,
			      t_row(t, y));
		t_free(t);
	}
}

/* The half of a wide character that SL or DECDC moves to the left margin alone is blanked in the erase style
 * (the pen's background, no attributes), as xterm 379 does (tests/tools/xterm-diff.py --attrs, `\e[4;104;7mx`
 * U+4E2D `\e[2 @`); it kept the wide character's reverse and underline, a coloured block on the screen. */
static void test_wide_cut_erase_style(void)
{
	static const char *const ops[] = {"\033[2 @", "\033[1;1H\033[2\047~"};
	for (int k = 0; k < 2; k++) {
		struct t_term *t = t_new(10, 2, 0);
		t_feed(t, "\033[4;104;7mx\xe4\xb8\xad");
		t_feed(t, ops[k]);
		const struct grid_cell *c = grid_row(t->g, 0);
		const struct grid_style *st = grid_style(t->g, c[0].style);
		CHECK(c[0].width == 1 && st->attrs == 0 && st->underline == GRID_UNDERLINE_NONE &&
			      st->bg == GRID_COLOR_PALETTE(12),
		      "op %d: the cut half at column 1 has attrs %#x underline %d bg %#x, want the erase style", k,
		      st->attrs, st->underline, st->bg);
		t_free(t);
	}
}

/* CBT stops at the left margin only in origin mode; otherwise at column 1, margins or not (VT510 manual CBT:
 * "the active position stays at column one"; xterm's TabToPrevStop clamps to the left margin under DECOM
 * only). It stopped at the left margin in both cases. */
static void test_cbt_left_margin(void)
{
	struct t_term *t = t_new(30, 2, 0);
	t_feed(t, "\033[?69h\033[5;25s\033[1;20H\033[2ZA");
	CHECK_ROW(t, 0, "        A");
	t_feed(t, "\033[1;20H\033[3ZB");
	CHECK_ROW(t, 0, "B       A");
	/* in origin mode the left margin (column 5) stops it */
	t_feed(t, "\033[?6h\033[1;16H\033[3ZC");
	CHECK_ROW(t, 0, "B   C   A");
	t_free(t);
}

/* Reverse wraparound (DECSET 45, with DECAWM): BS and CUB at the left edge go to the end of the row above only
 * when that row wrapped into this one (xterm's CursorBack since its 2023 revision, "movement within the current
 * (wrapped) line"; moving to any row is its separate mode 1045), and stop at the top margin. A pending wrap
 * takes one step. BS went up into rows that had ended with CR LF, jumped from the top row to the bottom one,
 * and CUB ignored the mode. */
static void test_reverse_wrap(void)
{
	struct t_term *t = t_new(10, 4, 0);
	/* row 0 wraps into row 1 ("abc"), which ends with CR LF */
	t_feed(t, "\033[?45h0123456789abc\r\nXY\r\b");
	CHECK_CURSOR(t, 0, 2);
	t_feed(t, "\033[2;1H\bZ");
	CHECK_ROW(t, 0, "012345678Z");
	/* CUB counts the step up as one */
	t_feed(t, "\033[2;2H\033[3D");
	CHECK_CURSOR(t, 8, 0);
	/* nothing above the top row: the cursor stays */
	t_feed(t, "\033[1;1H\b\033[D");
	CHECK_CURSOR(t, 0, 0);
	/* a pending wrap takes the first step: BS stays on the last column, CUB 2 goes one left */
	t_feed(t, "\033[4;1H0123456789\b");
	CHECK_CURSOR(t, 9, 3);
	t_feed(t, "\033[4;1H0123456789\033[2D");
	CHECK_CURSOR(t, 8, 3);
	/* not without DECAWM */
	t_feed(t, "\033[?7l\033[2;1H\b\033[D");
	CHECK_CURSOR(t, 0, 1);
	t_free(t);
	/* with left/right margins: from the left margin to the right margin of the row above, the row having
	 * wrapped there */
	t = t_new(10, 3, 0);
	t_feed(t, "\033[?45h\033[?69h\033[3;7s\033[1;3Habcdefg\033[2;3H\b");
	CHECK_CURSOR(t, 6, 0);
	/* the top margin stops it as the top row does */
	t_feed(t, "\033[2;3r\033[?69l\033[1;1H0123456789abc\033[2;1H\b");
	CHECK_CURSOR(t, 0, 1);
	t_free(t);
}

/* IL, DL and DCH that do nothing, the cursor being outside the scroll region or the left/right margins, leave a
 * pending wrap as it was (xterm's InsertLine, DeleteLine and DeleteChar return before their ResetWrap; ICH
 * resets it first, as here). They ended it, so the next character overwrote the last column instead of
 * wrapping. */
static void test_noop_edit_keeps_wrap(void)
{
	static const char *const ops[] = {"\033[L", "\033[M", "\033[P"};
	for (int k = 0; k < 3; k++) {
		/* a row below the scroll region (1..2), written up to the last column */
		struct t_term *t = t_new(10, 4, 0);
		t_feed(t, "\033[1;2r\033[4;1H0123456789");
		t_feed(t, ops[k]);
		t_feed(t, "X");
		if (k < 2)
			CHECK(strcmp(t_row(t, 3), "X123456789") == 0, "op %d below the region: row 3 \"%s\"", k,
			      t_row(t, 3));
		t_free(t);
		/* right of the right margin */
		t = t_new(10, 4, 0);
		t_feed(t, "\033[?69h\033[3;7s\033[4;9HAB");
		t_feed(t, ops[k]);
		t_feed(t, "X");
		CHECK(strcmp(t_row(t, 3), "  X     AB") == 0, "op %d right of the margins: row 3 \"%s\"", k,
		      t_row(t, 3));
		t_free(t);
	}
}

/* Extended reverse wraparound (DECSET 1045, xterm since its 2023 revision; what mode 45 did before): BS and
 * CUB at the left margin go to the row above whether or not it wrapped, and from the top margin to the bottom
 * one. It was not implemented (DECRQM answered 0, not recognised). */
static void test_reverse_wrap_ext(void)
{
	struct t_term *t = t_new(10, 4, 0);
	t_feed(t, "\033[?1045h\033[?1045$p");
	CHECK_REPLY(t, "\033[?1045;1$y");
	t_feed(t, "ab\r\ncd\r\b");
	CHECK_CURSOR(t, 9, 0);
	/* from the top row to the bottom one, two steps by CUB */
	t_feed(t, "\033[1;1H\033[2D");
	CHECK_CURSOR(t, 8, 3);
	/* within a scroll region, from its top margin to its bottom margin */
	t_feed(t, "\033[2;3r\033[2;1H\b");
	CHECK_CURSOR(t, 9, 2);
	/* not without DECAWM */
	t_feed(t, "\033[?7l\033[2;1H\b");
	CHECK_CURSOR(t, 0, 1);
	t_feed(t, "\033[?7h\033[?1045l\033[?1045$p\033[2;1H\b");
	CHECK_REPLY(t, "\033[?1045;2$y");
	CHECK_CURSOR(t, 0, 1);
	t_free(t);
}

/* A cursor left of the left margin in origin mode (DECSC taken at column 1 before DECSLRM, brought back by
 * DECRC: see test_decrc_origin_clamp). */
static struct t_term *origin_left_of_margins(void)
{
	struct t_term *t = margins_screen();
	t_feed(t, "\033[r\033[s\033[?6h\033[3;1H\0337\033[2;5r\033[3;7s\0338");
	return t;
}

/* CR in origin mode goes to the left margin, also from left of it (xterm's CarriageReturn: in origin mode the
 * left margin, else column 1 left of the margin), and so do NEL, CNL and CPL, which end with it: from left of
 * the margins they went to column 1, outside the region origin mode addresses, as without origin mode. */
static void test_cr_origin_left_of_margins(void)
{
	static const char *const seq[] = {"\r", "\033E", "\033[E", "\033[F"};
	static const int row[] = {2, 3, 3, 1};
	for (int k = 0; k < 4; k++) {
		struct t_term *t = origin_left_of_margins();
		t_feed(t, seq[k]);
		struct grid_cursor c;
		grid_get_cursor(t->g, &c);
		CHECK(c.x == 2 && c.y == row[k], "seq %d: cursor %d,%d want 2,%d", k, c.x, c.y, row[k]);
		t_free(t);
	}
	/* without origin mode column 1 left of the margins, as before */
	struct t_term *t = origin_left_of_margins();
	t_feed(t, "\033[?6l\033[3;1H\r");
	CHECK_CURSOR(t, 0, 2);
	t_free(t);
}

/* CBT in origin mode stops at the left margin (test_cbt_left_margin), and from left of it goes to it, as
 * xterm's TabToPrevStop puts the cursor there: it stayed in column 1, outside the region. */
static void test_cbt_origin_left_of_margins(void)
{
	struct t_term *t = origin_left_of_margins();
	t_feed(t, "\033[ZX");
	CHECK_ROW(t, 2, "ABXDEFGHIJ");
	t_free(t);
	t = origin_left_of_margins();
	t_feed(t, "\033[3ZX");
	CHECK_ROW(t, 2, "ABXDEFGHIJ");
	t_free(t);
}

/* CHA, HPA and VPA in origin mode keep the other coordinate as CUP in origin mode would place it (xterm's
 * CASE_HPA and CASE_VPA: CursorSet with CursorRow or CursorCol, which count from the margins' corner and
 * clamp at it): a cursor above the top margin goes down to it with CHA/HPA, one left of the left margin goes
 * to it with VPA. They kept the row or column outside the margins, and the next text landed there. */
static void test_hpa_vpa_origin_outside(void)
{
	static const char *const seq[] = {"\033[3G", "\033[3`"};
	for (int k = 0; k < 2; k++) {
		/* above the top margin (row 1), inside the left/right margins */
		struct t_term *t = margins_screen();
		t_feed(t, "\033[r\033[s\033[?6h\033[1;4H\0337\033[2;5r\033[3;7s\0338");
		t_feed(t, seq[k]);
		t_feed(t, "X");
		CHECK(strcmp(t_row(t, 0), "0123456789") == 0, "seq %d: row 0 \"%s\"", k, t_row(t, 0));
		CHECK(strcmp(t_row(t, 1), "abcdXfghij") == 0, "seq %d: row 1 \"%s\"", k, t_row(t, 1));
		t_free(t);
	}
	struct t_term *t = origin_left_of_margins();
	t_feed(t, "\033[3dX");
	CHECK_ROW(t, 3, "klXnopqrst");
	t_free(t);
}

/* DECSTBM with top == bottom is ignored (xterm's DECSTBM wants bottom > top): no one-row region, and the
 * cursor is not sent home. */
static void test_decstbm_one_row_ignored(void)
{
	struct t_term *t = t_new(10, 5, 0);
	t_feed(t, "a\r\nb\r\nc\r\nd\r\ne\033[2;4H\033[3;3r");
	CHECK_CURSOR(t, 3, 1);
	/* the margins are still the whole screen: a LF on row 3 moves down, it does not scroll row 3 alone */
	t_feed(t, "\033[3;1H\n");
	CHECK_CURSOR(t, 0, 3);
	CHECK_ROW(t, 2, "c");
	CHECK_ROW(t, 3, "d");
	t_free(t);
}

/* ICH and DCH inside DECSLRM margins shift the cells up to the right margin only: the columns right of it stay
 * (session 55's mutation audit: a shift up to the screen's edge passed every test). */
static void test_ich_dch_right_margin(void)
{
	struct t_term *t = t_new(20, 4, 0);
	t_feed(t, "abcdefghijklmnopqrst\r\nabcdefghijklmnopqrst\033[?69h\033[3;10s\033[1;5H\033[2@");
	CHECK(!strcmp(t_row(t, 0), "abcd  efghklmnopqrst"), "ICH in margins: '%s'", t_row(t, 0));
	t_feed(t, "\033[2;5H\033[2P");
	CHECK(!strcmp(t_row(t, 1), "abcdghij  klmnopqrst"), "DCH in margins: '%s'", t_row(t, 1));
	t_free(t);
}

/* DECIC with the cursor on the bottom margin's row, which is inside the region (session 55's mutation audit:
 * ignoring it there passed every test). */
static void test_decic_bottom_row(void)
{
	struct t_term *t = t_new(10, 4, 0);
	t_feed(t, "\033[2;3r\033[2;1Habcdef\033[3;1Habcdef\033[3;2H\033[2'}");
	CHECK(!strcmp(t_row(t, 1), "a  bcdef") && !strcmp(t_row(t, 2), "a  bcdef"), "DECIC on the bottom row: '%s' '%s'",
	      t_row(t, 1), t_row(t, 2));
	t_free(t);
}

/* A resize sets the margins to the whole screen and resets origin mode, as xterm 379's ScreenResize does
 * (measured with XTWINOPS 8 under allowWindowOps: DECRQM 6 answers 2 after it, DECLRMM stays set): DECSTBM
 * and DECSLRM then home the cursor to the screen's corner, not the new margins' (`\e[?6h`, a resize,
 * `\e[3;6rX`: X on row 1 in xterm, on row 3 here before). */
static void test_resize_resets_origin(void)
{
	struct t_term *t = t_new(20, 8, 10);
	t_feed(t, "\033[2;7r\033[?6h\033[?69h\033[3;15s");
	grid_resize(t->g, 22, 9);
	t_feed(t, "\033[?6$p\033[?69$p");
	CHECK_REPLY(t, "\033[?6;2$y\033[?69;1$y");
	t_feed(t, "\033[3;6rX\033[2;2HY");
	CHECK_ROW(t, 0, "X");
	CHECK_ROW(t, 1, " Y");
	t_feed(t, "\033[5;10sZ\033[HW");
	CHECK_ROW(t, 0, "W");
	/* on the alternate screen too, and the margins cover the new size */
	t_feed(t, "\033[r\033[s\033[?1049h\033[?6h\033[2;4r");
	grid_resize(t->g, 12, 6);
	t_feed(t, "\033[?6$p\033[99;99H\033[6n");
	CHECK_REPLY(t, "\033[?6;2$y\033[6;12R");
	t_free(t);
}

int main(void)
{
	test_nel_outside_margins();
	test_wrap_outside_margins();
	test_decbi_decfi();
	test_decst8c();
	test_single_shift();
	test_hpr_vpr_origin();
	test_decrc_origin_clamp();
	test_sl_sr_outside_margins();
	test_cpr_origin_outside();
	test_irm_outside_margins();
	test_wide_cut_by_margin();
	test_wide_cut_erase_style();
	test_cbt_left_margin();
	test_reverse_wrap();
	test_noop_edit_keeps_wrap();
	test_reverse_wrap_ext();
	test_cr_origin_left_of_margins();
	test_cbt_origin_left_of_margins();
	test_hpa_vpa_origin_outside();
	test_decstbm_one_row_ignored();
	test_ich_dch_right_margin();
	test_decic_bottom_row();
	test_resize_resets_origin();
	return t_done("grid-margins");
}
