/* tests/grid/test-xtsgr.c: xterm's SGR stack and SGR report: XTPUSHSGR (CSI Pm # {, alias CSI Pm # p),
 * XTPOPSGR (CSI # }, alias CSI # q) and XTREPORTSGR (CSI Pt ; Pl ; Pb ; Pr # |).
 * References: xterm ctlseqs ("CSI Pm # {": the parameters 1 2 3 4 5 7 8 9 21 30 31, none for all, a stack of
 * 10 levels; "CSI Pt ; Pl ; Pb ; Pr # |": the attributes common to all cells of the rectangle, as SGR), and
 * xterm 379 as tests/tools/xterm-replies.py measures it (session 48, its `xtsgr-*` family): the pen is read
 * back here by DECRQSS, in our form (docs/conformance.md). */
#include "harness.h"

/* feeds s, then DECRQSS of the pen, and checks the pen reads back as want ("1;31") */
#define CHECK_PEN(t, s, want)                                                                              \
	do {                                                                                               \
		t_feed(t, s);                                                                              \
		t_feed(t, "\033P$qm\033\\");                                                               \
		CHECK_REPLY(t, "\033P1$r" want "m\033\\");                                                \
	} while (0)

/* RIS, then s: each case from a clean state (RIS empties the stack here; docs/conformance.md) */
#define CASE_PEN(t, s, want) CHECK_PEN(t, "\033c" s, want)

static void test_push_pop_all(void)
{
	struct t_term *t = t_new(20, 5, 0);
	/* no parameter: every attribute and both colours, 256-colour and direct forms as they were */
	CASE_PEN(t, "\033[1;31m\033[#{\033[0;4;32m\033[#}", "1;31");
	CASE_PEN(t, "\033[1;2;3;4;5;7;8;9;38;5;100;48;2;1;2;3m\033[#{\033[0m\033[#}",
		 "1;2;3;5;7;8;9;4;38:5:100;48:2:1:2:3");
	CASE_PEN(t, "\033[38;2;1;2;3;48;5;200m\033[#{\033[0m\033[#}", "38:2:1:2:3;48:5:200");
	/* what xterm 379 lacks is kept with the rest: underline styles, their colour, overline */
	CASE_PEN(t, "\033[4:3;53;58:2::9:8:7m\033[#{\033[0;21;59m\033[#}", "53;4:3;58:2:9:8:7");
	/* the pen popped is the pen pushed, even the default one */
	CASE_PEN(t, "\033[#{\033[1;7;33;44m\033[#}", "0");
	/* the aliases (for languages where braces are awkward) */
	CASE_PEN(t, "\033[1;2;3;4;5;7;8;9;31;42m\033[#p\033[0m\033[#q", "1;2;3;5;7;8;9;4;31;42");
	/* a parameter on the pop changes nothing */
	CASE_PEN(t, "\033[1m\033[#{\033[0m\033[1#}", "1");
	/* nothing to pop: the pen stays */
	CASE_PEN(t, "\033[1m\033[#}", "1");
	CASE_PEN(t, "\033[1m\033[#{\033[#}\033[#}", "1");
	t_free(t);
}

static void test_push_selected(void)
{
	struct t_term *t = t_new(20, 5, 0);
	static const struct {
		const char *ps, *want;
	} one[] = {
		{"1", "1"},   {"2", "2"},  {"3", "3"},  {"4", "4"},  {"5", "5"},  {"7", "7"},
		{"8", "8"},   {"9", "9"},  {"30", "31"}, {"31", "42"}, {"10", "31"}, {"11", "42"}, /* 10, 11: 30, 31's old numbers */
		{"1;31", "1;42"},
		/* none of these names anything: 0, 6, 22, 29, 32, 33, 53, huge */
		{"0", "0"},   {"6;22;32;53;0", "0"}, {"99999", "0"},
	};
	char in[160], want[64];
	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++) {
		/* everything set, only the named parts pushed, everything cleared, popped */
		snprintf(in, sizeof(in), "\033c\033[1;2;3;4;5;7;8;9;31;42m\033[%s#{\033[0m\033[#}\033P$qm\033\\", one[i].ps);
		snprintf(want, sizeof(want), "\033P1$r%sm\033\\", one[i].want);
		t_feed(t, in);
		CHECK(strcmp(t->reply, want) == 0, "push %s: \"%s\" want \"%s\"", one[i].ps, t->reply + 1, want + 1);
		t->reply_len = 0;
		t->reply[0] = '\0';
	}
	/* the parts not named keep what was set since */
	CASE_PEN(t, "\033[1;3m\033[1#{\033[0;3;4m\033[#}", "1;3;4");
	CASE_PEN(t, "\033[1m\033[2#{\033[0;3m\033[#}", "3");
	CASE_PEN(t, "\033[1;3;31;44m\033[29;3;30#{\033[0m\033[#}", "3;31");
	CASE_PEN(t, "\033[31;42m\033[30#{\033[39;49m\033[#}", "31");
	CASE_PEN(t, "\033[m\033[30;31#{\033[33;44m\033[#}", "0");
	CASE_PEN(t, "\033[38;2;1;2;3;48;5;200m\033[30#{\033[0;1;33;44m\033[#}", "1;38:2:1:2:3;44");
	/* empty parameters: ";" saves nothing, ";1" and "1;" bold */
	CASE_PEN(t, "\033[1;3m\033[;1#{\033[0m\033[#}", "1");
	CASE_PEN(t, "\033[1m\033[1;#{\033[0m\033[#}", "1");
	CASE_PEN(t, "\033[1m\033[#{\033[;#{\033[0m\033[#}", "0");
	CASE_PEN(t, "\033[1m\033[#{\033[;#{\033[0m\033[#}\033[#}", "1");
	/* single and double underline are two attributes there: each one restores its own */
	CASE_PEN(t, "\033[21m\033[21#{\033[0m\033[#}", "21");
	CASE_PEN(t, "\033[21m\033[4#{\033[0m\033[#}", "0");
	CASE_PEN(t, "\033[4m\033[21#{\033[0m\033[#}", "0");
	CASE_PEN(t, "\033[4m\033[4#{\033[0;21m\033[#}", "21"); /* xterm: both, which we show as double */
	CASE_PEN(t, "\033[21m\033[21#{\033[0;4m\033[#}", "21");
	CASE_PEN(t, "\033[0m\033[21#{\033[0;21m\033[#}", "0");
	CASE_PEN(t, "\033[4:3;58;5;9m\033[4#{\033[0m\033[#}", "4:3;58:5:9");
	/* nested pushes */
	t_feed(t, "\033c\033[1m\033[#{\033[0;3m\033[1#{\033[0;7m\033[#}");
	CHECK_PEN(t, "", "7");
	CHECK_PEN(t, "\033[#}", "1");
	/* a push or pop with a sub-parameter or a private marker is ignored (xterm 379) */
	CASE_PEN(t, "\033[1m\033[1:2#{\033[0m\033[#}", "0");
	CASE_PEN(t, "\033[1m\033[?#{\033[0m\033[#}", "0");
	CASE_PEN(t, "\033[1m\033[#{\033[0m\033[?#}", "0");
	CASE_PEN(t, "\033[1m\033[#{\033[0m\033[>#q", "0");
	t_free(t);
}

static void test_depth(void)
{
	struct t_term *t = t_new(20, 5, 0);
	/* 10 levels; the pushes past them are counted and their pops restore nothing (xterm 379: 15 pushes,
	 * then 5 pops that change nothing, then the 10 pens pushed first) */
	for (int n = 9; n <= 15; n++) {
		t_feed(t, "\033c");
		for (int i = 1; i <= n; i++)
			t_feedf(t, "\033[38;5;%dm\033[#{", 100 + i);
		t_feed(t, "\033[0m");
		for (int i = n; i >= 0; i--) {
			t_feed(t, "\033[#}\033P$qm\033\\");
			char want[40];
			if (i > 10)
				snprintf(want, sizeof(want), "\033P1$r0m\033\\");
			else
				snprintf(want, sizeof(want), "\033P1$r38:5:%dm\033\\", 100 + (i ? i : 1));
			CHECK(strcmp(t->reply, want) == 0, "%d pushes, pop %d: \"%s\" want \"%s\"", n, n - i + 1,
			      t->reply + 1, want + 1);
			t->reply_len = 0;
			t->reply[0] = '\0';
		}
	}
	/* a million pushes: counted, no memory for them (the stack is part of the grid) */
	t_feed(t, "\033c\033[1m\033[#{\033[0;3m");
	char *many = malloc(4 * 1000000 + 1);
	for (int i = 0; i < 1000000; i++)
		memcpy(many + 4 * i, "\033[#{", 4);
	many[4 * 1000000] = '\0';
	t_feed(t, many);
	t_feed(t, "\033[0m");
	for (int i = 0; i < 1000000; i++)
		memcpy(many + 4 * i, "\033[#}", 4);
	t_feed(t, many);
	CHECK_PEN(t, "", "3"); /* the first pushed after bold */
	CHECK_PEN(t, "\033[#}", "1");
	free(many);
	t_free(t);
}

static void test_resets_and_screens(void)
{
	struct t_term *t = t_new(20, 5, 0);
	/* DECSTR keeps the stack (xterm 379) */
	CASE_PEN(t, "\033[1m\033[#{\033[!p\033[#}", "1");
	/* RIS empties it (xterm 379 keeps it: docs/conformance.md) */
	CASE_PEN(t, "\033[1m\033[#{\033c\033[#}", "0");
	/* DECALN neither */
	CASE_PEN(t, "\033[1m\033[#{\033[0m\033#8\033[#}", "1");
	/* DECSC/DECRC and the stack are apart */
	t_feed(t, "\033c\033[1m\0337\033[#{\033[0;3m\0338");
	CHECK_PEN(t, "", "1");
	CHECK_PEN(t, "\033[#}", "1");
	CASE_PEN(t, "\033[1m\033[#{\033[0;3m\0337\033[#}\033[0m\0338", "3");
	/* one stack for both screens */
	CASE_PEN(t, "\033[1m\033[#{\033[?1049h\033[0m\033[#}", "1");
	CASE_PEN(t, "\033[1m\033[?1049h\033[#{\033[0m\033[?1049l\033[#}", "1");
	t_feed(t, "\033c\033[1m\033[?1049h\033[#{\033[0;3m\033[?1049l");
	CHECK_PEN(t, "", "1");
	CHECK_PEN(t, "\033[#}", "1");
	CASE_PEN(t, "\033[1m\033[?47h\033[#{\033[0m\033[?47l\033[#}", "1");
	/* protection (DECSCA) is no video attribute: not pushed */
	t_feed(t, "\033c\033[1\"q\033[#{\033[0\"q\033[#}\033P$q\"q\033\\");
	CHECK_REPLY(t, "\033P1$r0\"q\033\\");
	/* what is written after a pop has the pen popped */
	t_feed(t, "\033c\033[1;31m\033[#{\033[0mA\033[#}B");
	const struct grid_cell *row = grid_row(t->g, 0);
	const struct grid_style *a = grid_style(t->g, row[0].style), *b = grid_style(t->g, row[1].style);
	CHECK(a->attrs == 0 && a->fg == GRID_COLOR_DEFAULT, "A: %x %x", a->attrs, a->fg);
	CHECK(b->attrs == GRID_ATTR_BOLD && b->fg == GRID_COLOR_PALETTE(1), "B: %x %x", b->attrs, b->fg);
	/* and an erase after a pop, its background */
	t_feed(t, "\033c\033[44m\033[#{\033[0m\033[#}\033[2;1H\033[K");
	row = grid_row(t->g, 1);
	CHECK(grid_style(t->g, row[5].style)->bg == GRID_COLOR_PALETTE(4), "erase after pop: bg %x",
	      grid_style(t->g, row[5].style)->bg);
	t_free(t);
}

/* XTREPORTSGR: feeds s and checks the reply */
#define CHECK_REPORT(t, s, want)                                                                           \
	do {                                                                                               \
		t_feed(t, "\033c" s);                                                                      \
		CHECK_REPLY(t, want);                                                                      \
	} while (0)

static void test_report(void)
{
	struct t_term *t = t_new(80, 24, 0);
	/* one cell, each attribute (xterm 379's answers, in its order: 1 4 5 7 2 3 9 21, the colours) */
	CHECK_REPORT(t, "\033[1mA\033[1;1;1;1#|", "\033[0;1m");
	CHECK_REPORT(t, "\033[2mA\033[1;1;1;1#|", "\033[0;2m");
	CHECK_REPORT(t, "\033[3mA\033[1;1;1;1#|", "\033[0;3m");
	CHECK_REPORT(t, "\033[4mA\033[1;1;1;1#|", "\033[0;4m");
	CHECK_REPORT(t, "\033[5mA\033[1;1;1;1#|", "\033[0;5m");
	CHECK_REPORT(t, "\033[7mA\033[1;1;1;1#|", "\033[0;7m");
	CHECK_REPORT(t, "\033[9mA\033[1;1;1;1#|", "\033[0;9m");
	CHECK_REPORT(t, "\033[21mA\033[1;1;1;1#|", "\033[0;21m");
	CHECK_REPORT(t, "\033[31mA\033[1;1;1;1#|", "\033[0;31m");
	CHECK_REPORT(t, "\033[91mA\033[1;1;1;1#|", "\033[0;91m");
	CHECK_REPORT(t, "\033[41mA\033[1;1;1;1#|", "\033[0;41m");
	CHECK_REPORT(t, "\033[101mA\033[1;1;1;1#|", "\033[0;101m");
	CHECK_REPORT(t, "\033[48;5;7mA\033[1;1;1;1#|", "\033[0;47m");
	CHECK_REPORT(t, "\033[38;5;3mA\033[1;1;1;1#|", "\033[0;33m");
	CHECK_REPORT(t, "\033[38;5;200mA\033[1;1;1;1#|", "\033[0;38:5:200m");
	CHECK_REPORT(t, "\033[38;2;10;20;30mA\033[1;1;1;1#|", "\033[0;38:2::10:20:30m");
	CHECK_REPORT(t, "\033[48;2;0;0;0mA\033[1;1;1;1#|", "\033[0;48:2::0:0:0m");
	CHECK_REPORT(t, "\033[1;2;3;21;5;7;9;38;5;99;48;2;9;8;7mA\033[1;1;1;1#|",
		     "\033[0;1;5;7;2;3;9;21;38:5:99;48:2::9:8:7m");
	/* invisible is reported here, after 7 (xterm 379 leaves it out: docs/conformance.md) */
	CHECK_REPORT(t, "\033[1;2;3;4;5;7;8;9;32;42mA\033[1;1;1;1#|", "\033[0;1;4;5;7;8;2;3;9;32;42m");
	/* and what xterm 379 has not: underline styles in 4's place, overline after 21, the underline colour
	 * last */
	CHECK_REPORT(t, "\033[4:3;53;58:5:3mA\033[1;1;1;1#|", "\033[0;4:3;53;58:5:3m");
	CHECK_REPORT(t, "\033[4;58:2::1:2:3mA\033[1;1;1;1#|", "\033[0;4;58:2::1:2:3m");
	/* protection is no SGR */
	CHECK_REPORT(t, "\033[1\"qA\033[1;1;1;1#|", "\033[0m");
	/* several cells: what they all have */
	CHECK_REPORT(t, "\033[1;31mA\033[0;1;32mB\033[1;1;1;2#|", "\033[0;1m");
	CHECK_REPORT(t, "\033[1;31mA\033[0;32mB\033[1;1;1;2#|", "\033[0m");
	CHECK_REPORT(t, "\033[7mA\033[27mB\033[7mC\033[1;1;1;1#|\033[1;3;1;3#|\033[1;1;1;3#|",
		     "\033[0;7m\033[0;7m\033[0m");
	CHECK_REPORT(t, "\033[34mA\033[38;5;4mB\033[1;1;1;2#|", "\033[0;34m");
	CHECK_REPORT(t, "\033[38;5;4mA\033[38;2;0;0;238mB\033[1;1;1;2#|", "\033[0m");
	CHECK_REPORT(t, "\033[4mA\033[4:3mB\033[1;1;1;2#|", "\033[0;4m"); /* underlined, in two styles */
	CHECK_REPORT(t, "\033[4mA\033[0;21mB\033[1;1;1;2#|", "\033[0m");
	/* a wide character's two halves */
	CHECK_REPORT(t, "\033[7m\xe4\xb8\xad\033[1;2;1;2#|", "\033[0;7m");
	CHECK_REPORT(t, "\033[7m  \033[1;1;1;2#|", "\033[0;7m"); /* written spaces */
	/* blanks nothing was written to have nothing; erased ones the pen's background (xterm: its
	 * foreground too, docs/conformance.md) */
	CHECK_REPORT(t, "\033[1;1;1;1#|", "\033[0m");
	CHECK_REPORT(t, "\033[31m\033[1;1;1;1#|", "\033[0m");
	CHECK_REPORT(t, "\033[7mAB\033[1;1;1;3#|", "\033[0m");
	CHECK_REPORT(t, "\033[41m\033[2J\033[1;1;1;1#|", "\033[0;41m");
	CHECK_REPORT(t, "\033[1;4;7;42m\033[K\033[1;1;1;3#|", "\033[0;42m");
	/* the rectangle: omitted and 0 edges take their defaults, the bottom and right clipped, an empty one
	 * (top below bottom, left right of right) answered as no attribute */
	CHECK_REPORT(t, "\033[7mAB\033[#|", "\033[0m");
	CHECK_REPORT(t, "\033[7mAB\033[1;1#|", "\033[0m");
	CHECK_REPORT(t, "\033[7mAB\033[;;1;2#|", "\033[0;7m");
	CHECK_REPORT(t, "\033[7mAB\033[0;0;1;2#|", "\033[0;7m");
	CHECK_REPORT(t, "\033[7mAB\033[1;2;1;1#|", "\033[0m");
	CHECK_REPORT(t, "\033[7mAB\033[2;1;1;1#|", "\033[0m");
	CHECK_REPORT(t, "\033[7mAB\033[1;1;1;999#|", "\033[0m");
	CHECK_REPORT(t, "\033[7mAB\033[1;1;1;2;5#|", "\033[0;7m");
	CHECK_REPORT(t, "\033[7m\033[1;80HAB\033[2;1;2;1#|", "\033[0;7m");
	CHECK_REPORT(t, "\033[5;7mA\033D\033[1;1;2;1#|", "\033[0m");
	/* origin mode: from the margins' corner */
	CHECK_REPORT(t, "\033[7m\033[2;1HAB\033[3;10r\033[?6h\033[1;1;1;2#|", "\033[0m");
	CHECK_REPORT(t, "\033[7m\033[3;1HAB\033[3;10r\033[?6h\033[1;1;1;2#|", "\033[0;7m");
	CHECK_REPORT(t, "\033[7m\033[3;6HAB\033[3;9r\033[?69h\033[5;10s\033[?6h\033[1;2;1;3#|", "\033[0;7m");
	/* a sub-parameter, a private marker or another intermediate: no report (xterm 379) */
	CHECK_REPORT(t, "\033[7mA\033[1;1;1;1:1#|\033[>1;1;1;1#|\033[?1;1;1;1#|\033[1;1;1;1 #|", "");
	/* rows whose cells are deferred (an ED's whole rows on a large screen, a text run's bytes) read as
	 * their cells */
	struct t_term *big = t_new(212, 82, 100);
	t_feed(big, "\033[41m\033[2J\033[1;1;82;212#|\033[5;5;5;5#|\033[m\033[7m");
	char run[301];
	memset(run, 'x', 300);
	run[300] = '\0';
	t_feed(big, run);
	t_feed(big, "\033[1;1;1;212#|\033[2;1;2;88#|\033[2;89;2;89#|");
	CHECK_REPLY(big, "\033[0;41m\033[0;41m\033[0;7m\033[0;7m\033[0;41m");
	t_free(big);
	/* two in a row */
	CHECK_REPORT(t, "\033[7mAB\033[1;1;1;2#|\033[1;1;1;2#|", "\033[0;7m\033[0;7m");
	t_free(t);
}

int main(void)
{
	test_push_pop_all();
	test_push_selected();
	test_depth();
	test_resets_and_screens();
	test_report();
	return t_done("grid-xtsgr");
}
