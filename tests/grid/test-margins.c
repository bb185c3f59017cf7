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

int main(void)
{
	test_nel_outside_margins();
	return t_done("grid-margins");
}
