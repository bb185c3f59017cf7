/* tests/vt/parser.c: the escape-sequence parser against a table of byte streams and the events they must
 * produce, each fed whole, byte by byte and split at every position (the events must not change), plus the
 * limits: parameter counts, huge numbers, endless strings, invalid UTF-8 per the Unicode standard. */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "vt/vt.h"

#include "tests/vt/trace.h"

/* vt_sink.print_utf8 as grid/ uses it: takes a pseudo-random number of the characters vt_utf8_char()
 * accepts (often all of them, sometimes none) and prints them as on_print would. */
static uint32_t utf8_seed = 1;
static size_t on_print_utf8(void *ctx, const uint8_t *s, size_t n)
{
	assert(n >= 4);
	utf8_seed = utf8_seed * 1103515245u + 12345u;
	unsigned want = (utf8_seed >> 16) % 4 == 0 ? (utf8_seed >> 20) % 4 : 1000;
	size_t i = 0;
	uint32_t cp;
	unsigned props, len;
	while (want-- > 0 && i + 4 <= n && (len = vt_utf8_char(s + i, &cp, &props))) {
		assert(props == vt_char_props(cp));
		on_print(ctx, &cp, 1);
		i += len;
	}
	return i;
}

struct tcase {
	const char *in;
	size_t len; /* 0: strlen(in) */
	const char *want;
	bool c1;
};


static const struct tcase cases[] = {
	/* ground: printable, C0, DEL (vt100.net ground: print, execute, ignore) */
	{"abc", 0, "T[abc]", false},
	{"a\r\nb\tc\x07", 0, "T[a]X0dX0aT[b]X09T[c]X07", false},
	{"a\x7f" "b", 0, "T[ab]", false},
	{"\x00\x05", 2, "X00X05", false},
	/* escape, escape_intermediate */
	{ESC "c", 0, "E[c]", false},
	{ESC "(0" ESC ")B", 0, "E[(0]E[)B]", false},
	{ESC "#8", 0, "E[#8]", false},
	{ESC "\\", 0, "E[\\]", false},
	{ESC "\n7", 0, "X0aE[7]", false},             /* C0 executes inside a sequence */
	{ESC "(\x7f" "B", 0, "E[(B]", false},         /* DEL ignored */
	{ESC "()*B", 0, "", false},                  /* a third intermediate: ignored */
	{ESC ESC "7", 0, "E[7]", false},              /* ESC restarts */
	/* csi_entry, csi_param, csi_intermediate, csi_ignore */
	{CSI "H", 0, "C[H]", false},
	{CSI "1;2H", 0, "C[1;2H]", false},
	{CSI ";5H", 0, "C[-;5H]", false},
	{CSI "5;H", 0, "C[5;-H]", false},
	{CSI "0;0H", 0, "C[0;0H]", false},
	{CSI "?25h", 0, "C[?25h]", false},
	{CSI ">0c" CSI "=1c" CSI "<1m", 0, "C[>0c]C[=1c]C[<1m]", false},
	{CSI "?1;2:3$p", 0, "C[?1;2:3$p]", false},
	{CSI "2 q", 0, "C[2 q]", false},
	{CSI " q", 0, "C[ q]", false},
	{CSI "!p", 0, "C[!p]", false},
	{CSI "38:2::10:20:30m", 0, "C[38:2:-:10:20:30m]", false},
	{CSI "4:3m", 0, "C[4:3m]", false},
	{CSI "1?2h" "x", 0, "T[x]", false},           /* marker after a parameter: csi_ignore */
	{CSI "1 2h" "x", 0, "T[x]", false},           /* parameter after an intermediate: csi_ignore */
	{CSI " !\"p" "x", 0, "T[x]", false},          /* three intermediates: ignored */
	{CSI "1\n2H", 0, "X0aC[12H]", false},
	{CSI "1;2H" CSI "1;2H" "x" CSI "1;3H" CSI "1;2H", 0, "C[1;2H]C[1;2H]T[x]C[1;3H]C[1;2H]", false},
	{CSI "?25h" CSI "?25h" CSI "?25l" CSI "25l", 0, "C[?25h]C[?25h]C[?25l]C[25l]", false},
	{CSI "38:2::1:2:3m" CSI "38:2::1:2:3m", 0, "C[38:2:-:1:2:3m]C[38:2:-:1:2:3m]", false},
	{CSI "1;22;333;4444;55555;666666;0;00;0000009;;m", 0, "C[1;22;333;4444;55555;65535;0;0;9;-;-m]", false},
	{CSI "1234567890123456789012345678901234567890123456789012345678901234567890m", 0, "C[65535m]", false},
	{CSI "1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30;31;32;33m", 0,
	 "C[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30;31;32m!]", false},
	{CSI "1\x7f;2H", 0, "C[1;2H]", false},
	{CSI "99999999999999999999999A", 0, "C[65535A]", false},
	{CSI "65535;65536;0065535A", 0, "C[65535;65535;65535A]", false},
	/* cancellation: CAN and SUB anywhere, ESC anywhere */
	{CSI "1\x18" "A", 0, "T[A]", false},
	{CSI "1\x1a" "A", 0, "T[A]", false},
	{ESC "(\x18" "B", 0, "T[B]", false},
	{CSI "1" ESC "[2A", 0, "C[2A]", false},
	{"\x18\x1a", 0, "", false},
	/* OSC: BEL or ST; CAN/SUB/ESC+other abandon */
	{ESC "]0;title\x07", 0, "S[OSC|0;title]", false},
	{ESC "]2;t" ESC "\\x", 0, "S[OSC|2;t]T[x]", false},
	{ESC "]0;a\nb\x07", 0, "S[OSC|0;a<0a>b]", false}, /* C0 kept: the sink refuses it (xterm's do_osc) */
	{ESC "]1\x00" "0\x05\x07", 7, "S[OSC|1<00>0<05>]", false},
	{ESC "]0;t\x18x", 0, "T[x]", false},
	{ESC "]0;t" ESC "[A", 0, "C[A]", false},
	{ESC "]0;t" ESC ESC "\\", 0, "E[\\]", false},
	{ESC "]0;\xc3\xa9\x9c\x07", 0, "S[OSC|0;<c3><a9><9c>]", false},
	{ESC "]\x07", 0, "S[OSC|]", false},
	/* DCS: header like CSI, data up to ST, C0 kept */
	{ESC "P1$qm" ESC "\\", 0, "S[DCS 1$q|m]", false},
	{ESC "P$q\"p" ESC "\\", 0, "S[DCS $q|\"p]", false},
	{ESC "P>|x\ny" ESC "\\", 0, "S[DCS >||x<0a>y]", false},
	{ESC "Pq\x07" "a" ESC "\\", 0, "S[DCS q|<07>a]", false},
	{ESC "P1;<q" "junk" ESC "\\" "x", 0, "T[x]", false},
	{ESC "P1;2:3q" "d" ESC "\\", 0, "S[DCS 1;2:3q|d]", false},
	/* DEL is kept in the data, and NUL (the sink refuses a DCS holding one, as xterm's do_dcs); a C0 control
	 * or DEL in the header drops the string (xterm reads the header from the string and knows no such one),
	 * but after a '$' that begins it the string is kept with final 0: xterm answers such a text with CAN */
	{ESC "P$qm\x7f" ESC "\\", 0, "S[DCS $q|m<7f>]", false},
	{ESC "P$q\x00m" ESC "\\", 8, "S[DCS $q|<00>m]", false},
	{ESC "P\n$qm" ESC "\\" "x", 0, "T[x]", false},
	{ESC "P$\x7fqm" ESC "\\" "x", 0, "S[DCS $<00>|qm]T[x]", false},
	{ESC "P$!\nq" ESC "\\" "x", 0, "S[DCS $!<00>|q]T[x]", false},
	{ESC "P1$\nqm" ESC "\\" "x", 0, "T[x]", false},
	/* so is one that a parameter byte, a private marker or a third intermediate breaks after that '$', or
	 * that ends in its header ("DCS $ ST"; xterm's text is "$"); an ESC starting anything else abandons it */
	{ESC "P$1qm" ESC "\\" "x", 0, "S[DCS $<00>|qm]T[x]", false},
	{ESC "P$!?q" ESC "\\" "x", 0, "S[DCS $!<00>|q]T[x]", false},
	{ESC "P$!\"#qm" ESC "\\" "x", 0, "S[DCS $!<00>|m]T[x]", false},
	{ESC "P$" ESC "\\" "x", 0, "S[DCS $<00>|]T[x]", false},
	{ESC "P$!" ESC "\\" "x", 0, "S[DCS $!<00>|]T[x]", false},
	{ESC "P$" ESC "7x", 0, "E[7]T[x]", false},
	{ESC "P$" ESC ESC "\\" "x", 0, "E[\\]T[x]", false},
	{ESC "P!" ESC "\\" "x", 0, "E[\\]T[x]", false},
	{ESC "P1$2q" ESC "\\" "x", 0, "T[x]", false},
	{ESC "P$\x00q" ESC "\\" "x", 8, "T[x]", false},
	{"\x90$1q\x9c" "x", 0, "S[DCS $<00>|q]T[x]", true},
	{"\x90$\x9c" "x", 0, "S[DCS $<00>|]T[x]", true},
	{ESC "P1\x00$qm" ESC "\\" "x", 10, "T[x]", false},
	{ESC "P1;\x05" "2$qm" ESC "\\" "x", 0, "T[x]", false},
	/* APC, PM, SOS */
	{ESC "_Gabc" ESC "\\", 0, "S[APC|Gabc]", false},
	{ESC "_a\x07" "b" ESC "\\", 0, "S[APC|ab]", false},
	{ESC "^pm" ESC "\\" ESC "Xsos" ESC "\\", 0, "S[PM|pm]S[SOS|sos]", false},
	/* UTF-8, Unicode 15.0 section 3.9 tables 3-8 to 3-11 (one U+FFFD per maximal subpart) */
	{"\xc3\xa9t\xc3\xa9", 0, "T[\xc3\xa9t\xc3\xa9]", false},
	{"\xf0\x9f\x98\x80", 0, "T[\xf0\x9f\x98\x80]", false},
	{"\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64", 0, "T[a???b?c??d]", false},
	{"\xc0\xaf\xe0\x80\xbf\xf0\x81\x82\x41", 0, "T[????????A]", false},
	{"\xed\xa0\x80\xed\xbf\xbf\xed\xaf\x41", 0, "T[????????A]", false},
	{"\xf4\x91\x92\x93\xff\x41\x80\xbf\x42", 0, "T[?????A??B]", false},
	{"\xe1\x80\xe2\xf0\x91\x92\xf1\xbf\x41", 0, "T[????A]", false},
	{"\xf4\x90\x80\x80", 0, "T[????]", false},   /* above U+10FFFF */
	{"\xef\xbf\xbf\xf4\x8f\xbf\xbf", 0, "T[\xef\xbf\xbf\xf4\x8f\xbf\xbf]", false},
	{"\xe2\x82\n", 0, "T[?]X0a", false},            /* a control interrupts a sequence */
	{"\xe2\x82" ESC "7", 0, "T[?]E[7]", false},
	{"\xc2\x9b" "1A", 0, "T[1A]", false},           /* C1 as UTF-8 is not a control here, not text */
	{"\xc2\xa0", 0, "T[\xc2\xa0]", false},
	{ESC "\xc3\xa9", 0, "T[\xc3\xa9]", false},        /* a stray ESC does not eat text */
	{CSI "1\xc3\xa9", 0, "T[\xc3\xa9]", false},
	{"\xce\xb1" "abcdefghijklmnop\xce\xb2", 0, "T[\xce\xb1" "abcdefghijklmnop\xce\xb2]", false},
	/* 8-bit C1 (opt-in) */
	{"\x9b" "1A", 0, "C[1A]", true},
	{"\x85" "x\x84", 0, "X85T[x]X84", true},
	{"\x9d" "0;x\x9c", 0, "S[OSC|0;x]", true},
	{"\x90" "1$qm\x9c", 0, "S[DCS 1$q|m]", true},
	{ESC "]0;x" ESC "\\", 0, "S[OSC|0;x]", true},
	{"\xc3\xa9", 0, "T[\xc3\xa9]", true},
	{"\xc5\x93", 0, "T[?]X93", true},               /* the cost of 8-bit C1: 0x93 is a control */
	{CSI "1\x9b" "2A", 0, "C[2A]", true},
	{"\x9c" "a", 0, "T[a]", true},
};

static struct vt_parser *make(struct trace *t, bool c1, size_t cap)
{
	struct vt_parser_config cfg = {.c1_8bit = c1, .string_cap = cap};
	memset(t, 0, sizeof(*t));
	t_add(t, "%s", "");
	struct vt_parser *p = vt_parser_create(&sink, t, &cfg);
	assert(p);
	return p;
}

static void check(const char *what, size_t idx, const char *got, const char *want)
{
	if (strcmp(got, want) != 0) {
		fprintf(stderr, "case %zu (%s): got \"%s\" want \"%s\"\n", idx, what, got, want);
		failures++;
	}
}

static void run_case(size_t idx, const struct tcase *c)
{
	size_t len = c->len ? c->len : strlen(c->in);
	const uint8_t *in = (const uint8_t *)c->in;
	struct trace t;
	struct vt_parser *p;

	p = make(&t, c->c1, 0);
	vt_parser_feed(p, in, len);
	char *whole = finish(p, &t);
	check("whole", idx, whole, c->want);

	p = make(&t, c->c1, 0);
	for (size_t i = 0; i < len; i++)
		vt_parser_feed(p, in + i, 1);
	char *bytes = finish(p, &t);
	check("byte by byte", idx, bytes, c->want);
	free(bytes);

	for (size_t cut = 1; cut < len; cut++) {
		p = make(&t, c->c1, 0);
		vt_parser_feed(p, in, cut);
		vt_parser_feed(p, NULL, 0);
		vt_parser_feed(p, in + cut, len - cut);
		char *split = finish(p, &t);
		char what[32];
		snprintf(what, sizeof(what), "split at %zu", cut);
		check(what, idx, split, c->want);
		free(split);
	}
	free(whole);
}

/* Feeds n copies of unit after a prefix, in 64 KiB chunks, and returns the trace. */
static char *feed_repeat(struct vt_parser *p, struct trace *t, const char *prefix, const char *unit, size_t n,
			 const char *suffix)
{
	static uint8_t chunk[65536];
	size_t ul = strlen(unit), fill = 0;
	vt_parser_feed(p, (const uint8_t *)prefix, strlen(prefix));
	for (size_t i = 0; i < n; i++) {
		if (fill + ul > sizeof(chunk)) {
			vt_parser_feed(p, chunk, fill);
			fill = 0;
		}
		memcpy(chunk + fill, unit, ul);
		fill += ul;
	}
	vt_parser_feed(p, chunk, fill);
	vt_parser_feed(p, (const uint8_t *)suffix, strlen(suffix));
	return finish(p, t);
}

static void test_limits(void)
{
	struct trace t;
	char want[512], *got;

	/* Exactly VT_MAX_PARAMS parameters, no overflow; one more overflows; sub-parameters count. */
	strcpy(want, "C[");
	for (int i = 1; i <= VT_MAX_PARAMS; i++)
		sprintf(want + strlen(want), "%s%d", i > 1 ? ";" : "", i);
	char in[512] = CSI;
	for (int i = 1; i <= VT_MAX_PARAMS; i++)
		sprintf(in + strlen(in), "%s%d", i > 1 ? ";" : "", i);
	struct vt_parser *p = make(&t, false, 0);
	vt_parser_feed(p, (const uint8_t *)in, strlen(in));
	vt_parser_feed(p, (const uint8_t *)"m", 1);
	got = finish(p, &t);
	check("32 params", 0, got, strcat(strcpy(in, want), "m]"));
	free(got);

	p = make(&t, false, 0);
	got = feed_repeat(p, &t, CSI "38:2::1:2:3", ";1", VT_MAX_PARAMS, "m");
	strcpy(want, "C[38:2:-:1:2:3");
	for (int i = 6; i < VT_MAX_PARAMS; i++)
		strcat(want, ";1");
	strcat(want, "m!]");
	check("sub-params count towards the limit", 0, got, want);
	free(got);

	/* 10^6 parameters: clamped, flagged, and fast (no per-parameter work beyond the limit). */
	p = make(&t, false, 0);
	got = feed_repeat(p, &t, CSI, "1;", 1000000, "5m");
	strcpy(want, "C[");
	for (int i = 0; i < VT_MAX_PARAMS; i++)
		strcat(want, i ? ";1" : "1");
	strcat(want, "m!]");
	check("10^6 params", 0, got, want);
	free(got);

	/* A number with 10^6 digits. */
	p = make(&t, false, 0);
	got = feed_repeat(p, &t, CSI, "9", 1000000, "A");
	check("10^6 digits", 0, got, "C[65535A]");
	free(got);

	/* vt_csi_param */
	struct vt_csi c = {.params = {5, VT_PARAM_DEFAULT, 0}, .n_params = 3};
	if (vt_csi_param(&c, 0, 1) != 5 || vt_csi_param(&c, 1, 7) != 7 || vt_csi_param(&c, 2, 1) != 0 ||
	    vt_csi_param(&c, 3, 9) != 9 || vt_csi_param(&c, 1000, 2) != 2) {
		fprintf(stderr, "vt_csi_param\n");
		failures++;
	}
}

static size_t heap_in_use(void)
{
#ifdef __GLIBC__
	struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
#else
	return 0;
#endif
}

static void test_strings(void)
{
	struct trace t;
	char *got;

	/* An endless OSC stays within the cap: 64 MiB in, heap growth bounded by the 4 KiB cap. */
	struct vt_parser *p = make(&t, false, 4096);
	size_t before = heap_in_use();
	vt_parser_feed(p, (const uint8_t *)ESC "]0;", 4);
	static uint8_t chunk[65536];
	memset(chunk, 'x', sizeof(chunk));
	size_t peak = 0;
	for (int i = 0; i < 1024; i++) {
		vt_parser_feed(p, chunk, sizeof(chunk));
		size_t now = heap_in_use();
		if (now > peak)
			peak = now;
	}
	if (before && peak > before + 4096 + 4096) {
		fprintf(stderr, "endless OSC: heap grew by %zu bytes\n", peak - before);
		failures++;
	}
	vt_parser_feed(p, (const uint8_t *)"\x07" "ok" ESC "]0;small\x07", 13);
	got = finish(p, &t);
	check("endless OSC dropped whole, next string kept", 0, got, "T[ok]S[OSC|0;small]");
	free(got);

	/* A string exactly at the cap is kept; one byte more is dropped. */
	p = make(&t, false, 16);
	got = feed_repeat(p, &t, ESC "_", "a", 16, ESC "\\");
	check("string at the cap", 0, got, "S[APC|aaaaaaaaaaaaaaaa]");
	free(got);
	p = make(&t, false, 16);
	got = feed_repeat(p, &t, ESC "_", "a", 17, ESC "\\");
	check("string over the cap", 0, got, "");
	free(got);

	/* Reset drops a partial sequence. */
	p = make(&t, false, 0);
	vt_parser_feed(p, (const uint8_t *)ESC "]0;abc\xe2\x82", 8);
	vt_parser_reset(p);
	vt_parser_feed(p, (const uint8_t *)"x\x07", 2);
	got = finish(p, &t);
	check("reset", 0, got, "T[x]X07");
	free(got);

	/* A NULL sink drops everything without crashing. */
	p = vt_parser_create(NULL, NULL, NULL);
	vt_parser_feed(p, (const uint8_t *)"a\xc3\xa9" CSI "1m" ESC "]0;x\x07\n", 15);
	vt_parser_destroy(p);
	vt_parser_destroy(NULL);
}

/* A long ASCII run is one print_ascii call, a long UTF-8 run a few print calls (not one per byte). */
static void test_batching(void)
{
	struct trace t;
	struct vt_parser *p = make(&t, false, 0);
	static uint8_t buf[4000];
	memset(buf, 'a', sizeof(buf));
	vt_parser_feed(p, buf, sizeof(buf));
	if (t.print_calls != 1) {
		fprintf(stderr, "ASCII run: %zu print calls\n", t.print_calls);
		failures++;
	}
	t.print_calls = 0;
	for (size_t i = 0; i + 2 <= sizeof(buf); i += 2)
		buf[i] = 0xc3, buf[i + 1] = 0xa9;
	vt_parser_feed(p, buf, sizeof(buf));
	if (t.print_calls > sizeof(buf) / 2 / 200 + 1) {
		fprintf(stderr, "UTF-8 run: %zu print calls\n", t.print_calls);
		failures++;
	}
	free(finish(p, &t));
}

/* Every value 0..99999 (clamped above 65535), plain and zero-padded, whole (bulk path) and split (table
 * path). */
static int32_t last_param[3];
static void on_csi_params(void *ctx, const struct vt_csi *c)
{
	(void)ctx;
	for (int i = 0; i < 3; i++)
		last_param[i] = vt_csi_param(c, (unsigned)i, -7);
}

static void test_numbers(void)
{
	struct vt_sink s = {.csi = on_csi_params};
	struct vt_parser *p = vt_parser_create(&s, NULL, NULL);
	char buf[64];
	for (int v = 0; v < 100000; v++) {
		int len = snprintf(buf, sizeof(buf), CSI "%d;%05d;%dmpadding-to-be-safe", v, v, v % 977);
		for (int split = 0; split < 2; split++) {
			last_param[0] = last_param[1] = last_param[2] = -1;
			if (split) {
				vt_parser_feed(p, (const uint8_t *)buf, 4);
				vt_parser_feed(p, (const uint8_t *)buf + 4, (size_t)len - 4);
			} else {
				vt_parser_feed(p, (const uint8_t *)buf, (size_t)len);
			}
			int want = v > VT_PARAM_MAX ? VT_PARAM_MAX : v;
			if (last_param[0] != want || last_param[1] != want || last_param[2] != v % 977) {
				fprintf(stderr, "number %d (split %d): got %d %d %d\n", v, split, (int)last_param[0],
					(int)last_param[1], (int)last_param[2]);
				failures++;
				if (failures > 10)
					v = 100000;
				break;
			}
		}
	}
	vt_parser_destroy(p);
}

/* The fast UTF-8 decoder (whole buffers) against the byte machine (one byte per call): random text of
 * valid sequences of every length, their truncations, stray continuation and invalid lead bytes,
 * surrogates, overlong forms, C1 as UTF-8, ASCII and controls must give the same events both ways. */
static void test_utf8_random(void)
{
	static const uint8_t pieces[][4] = {
		{'a'}, {' '}, {'\n'}, {0x7f}, {0xc3, 0xa9}, {0xd0, 0xb0}, {0xc2, 0x85}, {0xc2, 0xa0}, {0xc1, 0xbf},
		{0xe4, 0xb8, 0x80}, {0xe2, 0x80, 0x8d}, {0xef, 0xb8, 0x8f}, {0xe0, 0x9f, 0xbf}, {0xe0, 0xa0, 0x80},
		{0xed, 0x9f, 0xbf}, {0xed, 0xa0, 0x80}, {0xf0, 0x9f, 0x98, 0x80}, {0xf0, 0x8f, 0xbf, 0xbf},
		{0xf4, 0x8f, 0xbf, 0xbf}, {0xf4, 0x90, 0x80, 0x80}, {0xf5, 0x80, 0x80, 0x80}, {0xf8, 0x88, 0x80, 0x80},
		{0xcc, 0x81}, {0x80}, {0xbf}, {0xff}, {0xc3}, {0xe4, 0xb8}, {0xf0, 0x9f, 0x98}, {0x1b, '[', 'm'},
	};
	const size_t np = sizeof(pieces) / sizeof(pieces[0]);
	static uint8_t buf[600];
	uint32_t seed = 12345;
	for (int round = 0; round < 3000; round++) {
		size_t len = 0;
		while (len + 4 <= sizeof(buf)) {
			seed = seed * 1103515245u + 12345u;
			const uint8_t *pc = pieces[(seed >> 16) % np];
			size_t pl = 1;
			while (pl < 4 && pc[pl])
				pl++;
			memcpy(buf + len, pc, pl);
			len += pl;
			if ((seed >> 8 & 63) == 0)
				break;
		}
		struct trace t;
		struct vt_parser *p = make(&t, false, 0);
		vt_parser_feed(p, buf, len);
		char *whole = finish(p, &t);
		p = make(&t, false, 0);
		for (size_t i = 0; i < len; i++)
			vt_parser_feed(p, buf + i, 1);
		char *bytes = finish(p, &t);
		/* a sink that decodes some of the text itself must see the same characters */
		memset(&t, 0, sizeof(t));
		t_add(&t, "%s", "");
		struct vt_sink sink_utf8 = sink;
		sink_utf8.print_utf8 = on_print_utf8;
		p = vt_parser_create(&sink_utf8, &t, NULL);
		assert(p);
		vt_parser_feed(p, buf, len / 2);
		vt_parser_feed(p, buf + len / 2, len - len / 2);
		char *fused = finish(p, &t);
		if (strcmp(whole, bytes) != 0 || strcmp(whole, fused) != 0) {
			fprintf(stderr, "random UTF-8 round %d: whole \"%s\" byte by byte \"%s\" print_utf8 \"%s\"\n",
				round, whole, bytes, fused);
			failures++;
			round = 3000;
		}
		free(whole);
		free(bytes);
		free(fused);
	}
}

/* vt_parser_set_del_exec: DEL in the ground state goes to execute while it is on (grid/ with a 96-character
 * set in GL, where 0x7f is a character) and is ignored again once it is off; inside a sequence it is ignored
 * either way. The feed loops' text scans stop at DEL, so a long run around it is checked too. */
static void test_del_exec(void)
{
	struct trace t;
	struct vt_parser *p = make(&t, false, 0);
	static char in[200];
	memset(in, 'x', sizeof(in));
	memcpy(in, "a\x7f" "b" CSI "1\x7f;2H", 10);
	in[150] = 0x7f;
	vt_parser_set_del_exec(p, true);
	vt_parser_feed(p, (const uint8_t *)in, sizeof(in));
	vt_parser_set_del_exec(p, false);
	vt_parser_feed(p, (const uint8_t *)"c\x7f" "d", 3);
	char *got = finish(p, &t);
	char want[400];
	snprintf(want, sizeof(want), "T[a]X7fT[b]C[1;2H]T[%.140s]X7fT[%.49scd]", in + 10, in + 151);
	check("del exec", 0, got, want);
	free(got);
}

/* vt_sink.nothing: told of each DEL, CAN and SUB in the ground state, each sequence CAN or SUB cancels, each
 * CSI made invalid (csi_ignore: a private marker after a parameter, a parameter after an intermediate), each
 * escape sequence with a third intermediate and each string dropped (a malformed DCS header); not of valid
 * sequences, of DEL inside one or of DEL while it goes to execute. Fed whole and byte by byte. */
static int nothings, dispatched;
static void on_nothing(void *ctx)
{
	(void)ctx;
	nothings++;
}
static void on_any_csi(void *ctx, const struct vt_csi *c)
{
	(void)ctx, (void)c;
	dispatched++;
}
static void on_any_esc(void *ctx, const struct vt_esc *e)
{
	(void)ctx, (void)e;
	dispatched++;
}

static int execs_ground, execs_seq;
static void on_exec_ground(void *ctx, uint8_t c)
{
	(void)ctx, (void)c;
	execs_ground++;
}
static void on_exec_seq(void *ctx, uint8_t c)
{
	(void)ctx, (void)c;
	execs_seq++;
}

static void test_nothing(void)
{
	static const struct {
		const char *in;
		int nothings, dispatched;
	} t[] = {
		{"a\x7f", 1, 0},
		{"\x18\x1a", 2, 0},
		{CSI "1\x18", 1, 0},
		{CSI "?1\x1a" "2H", 1, 0},
		{CSI "5;5=H", 1, 0},
		{CSI "1$7s", 1, 0},
		{"\033(((B", 1, 0},
		{"\033P1;2=qdata\033\\", 1, 0},
		{CSI "1;2H" CSI "?7h" "\033(B" CSI "1\x7f;2H", 0, 4},
		{"\033]0;t\x18", 1, 0},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		for (int split = 0; split < 2; split++) {
			struct vt_sink s = {.csi = on_any_csi, .esc = on_any_esc, .nothing = on_nothing};
			struct vt_parser *p = vt_parser_create(&s, NULL, NULL);
			nothings = dispatched = 0;
			size_t n = strlen(t[i].in);
			for (size_t k = 0; k < n; k += split ? 1 : n)
				vt_parser_feed(p, (const uint8_t *)t[i].in + k, split ? 1 : n);
			if (nothings != t[i].nothings || dispatched != t[i].dispatched) {
				fprintf(stderr, "nothing %zu (split %d): %d nothing, %d dispatched; want %d, %d\n", i, split,
					nothings, dispatched, t[i].nothings, t[i].dispatched);
				failures++;
			}
			vt_parser_destroy(p);
		}
	}
	/* vt_sink.execute_in_seq: the C0 controls inside an escape or CSI sequence, the others to execute */
	for (int split = 0; split < 2; split++) {
		struct vt_sink s = {.execute = on_exec_ground, .execute_in_seq = on_exec_seq};
		struct vt_parser *p = vt_parser_create(&s, NULL, NULL);
		static const char in[] = "\x0b" CSI "\x0b" "3b" "\033(\x07" "B" CSI "1\x08;2H" "\r\n";
		execs_ground = execs_seq = 0;
		for (size_t k = 0; k < sizeof(in) - 1; k += split ? 1 : sizeof(in) - 1)
			vt_parser_feed(p, (const uint8_t *)in + k, split ? 1 : sizeof(in) - 1);
		if (execs_ground != 3 || execs_seq != 3) {
			fprintf(stderr, "execute_in_seq (split %d): %d in the ground, %d in sequences; want 3, 3\n", split,
				execs_ground, execs_seq);
			failures++;
		}
		vt_parser_destroy(p);
	}
	/* DEL while it goes to execute is a character (grid/: a 96-character set), not nothing */
	struct vt_sink s = {.nothing = on_nothing};
	struct vt_parser *p = vt_parser_create(&s, NULL, NULL);
	nothings = 0;
	vt_parser_set_del_exec(p, true);
	vt_parser_feed(p, (const uint8_t *)"\x7f", 1);
	vt_parser_set_del_exec(p, false);
	vt_parser_feed(p, (const uint8_t *)"\x7f", 1);
	if (nothings != 1) {
		fprintf(stderr, "nothing: DEL with del_exec on and off: %d, want 1\n", nothings);
		failures++;
	}
	vt_parser_destroy(p);
}

/* vt_parser_string_dropped within vt_sink.nothing: the kind and first two bytes of a string dropped over the
 * cap, whether the parser had kept some of it (fed byte by byte) or its first run was over the cap (fed whole);
 * nothing for the DEL after it, a string under the cap, or one cut by CAN (released before its nothing). A DCS
 * gives its data's first bytes, after the header. */
static struct vt_parser *drop_parser;
static char drop_seen[64];
static void on_nothing_dropped(void *ctx)
{
	(void)ctx;
	enum vt_string_kind kind;
	uint8_t head[2];
	size_t n = strlen(drop_seen);
	if (vt_parser_string_dropped(drop_parser, &kind, head))
		snprintf(drop_seen + n, sizeof(drop_seen) - n, "%d%c%c,", (int)kind, head[0], head[1] ? head[1] : '_');
	else
		snprintf(drop_seen + n, sizeof(drop_seen) - n, "-,");
}

static void test_string_dropped(void)
{
	static const struct {
		const char *in, *want;
	} t[] = {
		{"\033]8;;http://example.com/\033\\\x7f", "0" "8;,-,"},
		{"\033]8\033\\\x7f", "-,"}, /* under the cap: delivered, not dropped */
		{"\033P$qmmmmmmmmmmmmmmmmmmmmmmmm\033\\", "1mm,"}, /* a DCS: its data, after the header */
		{"\033]2;0123456789abcdefghij\x18", "-,"}, /* cut by CAN: released before the nothing */
		{"\033]xxxxxxxxxxxxxxxxxxxxxxxxxxxx\a", "0xx,"},
	};
	const struct vt_parser_config cfg = {.string_cap = 16};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		for (int split = 0; split < 2; split++) {
			struct vt_sink s = {.nothing = on_nothing_dropped};
			drop_parser = vt_parser_create(&s, NULL, &cfg);
			drop_seen[0] = '\0';
			size_t n = strlen(t[i].in);
			for (size_t k = 0; k < n; k += split ? 1 : n)
				vt_parser_feed(drop_parser, (const uint8_t *)t[i].in + k, split ? 1 : n);
			if (strcmp(drop_seen, t[i].want)) {
				fprintf(stderr, "string dropped %zu (split %d): %s, want %s\n", i, split, drop_seen, t[i].want);
				failures++;
			}
			vt_parser_destroy(drop_parser);
		}
	}
}

/* vt_parser_stop from the sink (the grid's work budget, grid_feed_bounded): a sink that stops the feed at every
 * ESC, CSI and string. Fed again from where each call returned, every case gives the events it gives fed whole,
 * each call after the first ends right after one of those (its trace ends with it) and none returns 0 bytes while
 * there are bytes (the caller would spin). */
static struct vt_parser *stop_parser;
static unsigned stops;

static void on_esc_stop(void *ctx, const struct vt_esc *e)
{
	sink.esc(ctx, e);
	vt_parser_stop(stop_parser);
	stops++;
}

static void on_csi_stop(void *ctx, const struct vt_csi *c)
{
	sink.csi(ctx, c);
	vt_parser_stop(stop_parser);
	stops++;
}

static void on_string_stop(void *ctx, enum vt_string_kind kind, const struct vt_csi *hdr, const uint8_t *data,
			   size_t len)
{
	sink.string(ctx, kind, hdr, data, len);
	vt_parser_stop(stop_parser);
	stops++;
}

static void test_stop(void)
{
	struct vt_sink stopping = sink;
	stopping.esc = on_esc_stop;
	stopping.csi = on_csi_stop;
	stopping.string = on_string_stop;
	unsigned total = 0;
	for (size_t idx = 0; idx < sizeof(cases) / sizeof(cases[0]); idx++) {
		const struct tcase *c = &cases[idx];
		const size_t len = c->len ? c->len : strlen(c->in);
		struct vt_parser_config cfg = {.c1_8bit = c->c1};
		struct trace t;
		memset(&t, 0, sizeof(t));
		t_add(&t, "%s", "");
		stop_parser = vt_parser_create(&stopping, &t, &cfg);
		size_t off = 0, calls = 0;
		while (off < len && calls++ <= len) {
			stops = 0;
			const size_t n = vt_parser_feed(stop_parser, (const uint8_t *)c->in + off, len - off);
			if (n == 0 || n > len - off || (n < len - off && stops == 0)) {
				fprintf(stderr, "case %zu: a stopped feed returned %zu of %zu after %u stops\n", idx, n,
					len - off, stops);
				failures++;
				break;
			}
			off += n;
			total += stops;
		}
		char *got = finish(stop_parser, &t);
		check("stopped at every sequence", idx, got, c->want);
		free(got);
	}
	if (total < 50) {
		fprintf(stderr, "vt_parser_stop: only %u stops in the cases\n", total);
		failures++;
	}
}

/* In 8-bit C1 mode every non-ASCII character goes through utf8_run's byte machine and its 256-code-point buffer
 * (found unreached by tools/coverage, session 54: no case held more than a few characters there): a run longer
 * than the buffer, a short ASCII stretch copied into it when it no longer fits, a long one handed back to the
 * ASCII path, and a sequence cut by a control at the end (U+FFFD, then the control). The text must come out
 * whole and in order, fed whole, byte by byte and split at every byte. */
static void test_c1_long_runs(void)
{
	static const struct {
		unsigned before, ascii, after;
	} runs[] = {{300, 0, 0}, {250, 20, 1}, {1, 40, 1}, {254, 1, 2}};
	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		char in[1024] = "", want[1024] = "T[";
		for (unsigned i = 0; i < runs[r].before; i++)
			strcat(in, "\xc3\xa9");
		for (unsigned i = 0; i < runs[r].ascii; i++)
			strcat(in, "a");
		for (unsigned i = 0; i < runs[r].after; i++)
			strcat(in, "\xe4\xb8\xad");
		strcat(strcat(want, in), "?]X0d");
		strcat(in, "\xe4\xb8\r");
		const struct tcase c = {.in = in, .want = want, .c1 = true};
		run_case(1000 + r, &c);
	}
}

static void run_all(void)
{
	test_stop();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(i, &cases[i]);
	test_limits();
	test_strings();
	test_batching();
	test_numbers();
	test_utf8_random();
	test_del_exec();
	test_nothing();
	test_string_dropped();
	test_c1_long_runs();
}

int main(void)
{
	/* both copies of the feed loop (the AVX2 one where the CPU has it) */
	run_all();
	vt__no_avx2 = true;
	run_all();
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	printf("%zu cases, all fed whole, byte by byte and split at every byte: ok\n",
	       sizeof(cases) / sizeof(cases[0]));
	return 0;
}
